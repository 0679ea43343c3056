import { parseArgs } from 'node:util';
import { DEFAULT_EMULATOR_OPTIONS, EMULATOR_ENV, type EmulatorOptions } from './options';
import { startEmulator } from './emulator';

/**
 * `npm run emulator -- --port <n> [--client-secret …]`: prints `main: <url>`, `token: <url>`, and the control API's
 * address and token (`--control-token` or EMULATOR_CONTROL_TOKEN fixes it; otherwise a new one each run).
 */
export async function runEmulatorCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const flag = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const optionKeys = Object.keys(DEFAULT_EMULATOR_OPTIONS) as (keyof EmulatorOptions)[];
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      ...Object.fromEntries(optionKeys.map((k) => [flag(k), { type: 'string' as const }])),
    },
    strict: true,
  });
  const options: Record<string, unknown> = {};
  for (const key of optionKeys) {
    const raw = (values as Record<string, string | undefined>)[flag(key)] ?? env[EMULATOR_ENV[key]];
    if (raw === undefined) continue;
    const isNumber = typeof DEFAULT_EMULATOR_OPTIONS[key] === 'number';
    if (isNumber && !(Number(raw) > 0)) throw new Error(`--${flag(key)}: a positive number is required, got "${raw}"`);
    if (key === 'environment' && raw !== 'sandbox' && raw !== 'production') {
      throw new Error(`--environment: sandbox or production, got "${raw}"`);
    }
    const isBoolean = typeof DEFAULT_EMULATOR_OPTIONS[key] === 'boolean';
    if (isBoolean && raw !== 'true' && raw !== 'false') throw new Error(`--${flag(key)}: true or false, got "${raw}"`);
    options[key] = isNumber ? Number(raw) : isBoolean ? raw === 'true' : raw;
  }
  const port = values.port === undefined ? 4010 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: a port number 0-65535, got "${values.port}"`);
  const emulator = await startEmulator(options as Partial<EmulatorOptions>, { port, host: values.host ?? '127.0.0.1' });
  console.log(`main: ${emulator.mainUrl}`);
  console.log(`token: ${emulator.tokenUrl}`);
  console.log(`control: ${emulator.controlUrl}`);
  console.log(`control token: ${emulator.controlToken}`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
