import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { isIP } from 'node:net';
import { AppFailure } from '../shared/result';
import { startMailbox } from './mailbox';
import { newPairingCode, PAIRING_VALID_MS } from './pairing';
import { openMailboxStore } from './store';

const USAGE = `usage:
  npm run mailbox -- --port N --data DIR [--host H] [--retention-days D] [--trust-proxy ADDR[,ADDR…]]
                     [--public-url https://NAME]                            run the mailbox
  npm run mailbox -- pair --data DIR                                        print a new pairing code`;

/** An option given on the command line, else from the environment (MAILBOX_PORT, MAILBOX_DATA…, for containers). */
const ENV: Record<string, string> = {
  port: 'MAILBOX_PORT',
  data: 'MAILBOX_DATA',
  host: 'MAILBOX_HOST',
  'retention-days': 'MAILBOX_RETENTION_DAYS',
  'trust-proxy': 'MAILBOX_TRUST_PROXY',
  'public-url': 'MAILBOX_PUBLIC_URL',
};

function wholeNumber(name: string, raw: string, min: number, max: number, what: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name}: ${what} from ${min} to ${max}, got "${raw}"`);
  return value;
}

/**
 * `npm run mailbox -- --port N --data DIR [--host H] [--retention-days D] [--trust-proxy ADDR]`: runs the mailbox
 * (binding 127.0.0.1 unless --host says otherwise; --trust-proxy names the reverse proxy whose X-Forwarded-For is
 * believed) and prints `mailbox: http://HOST:PORT` once it listens; while no computer is paired
 * it first prints a pairing code. `npm run mailbox -- pair --data DIR` prints a new pairing code (the running mailbox
 * accepts it at once).
 */
export async function runMailboxCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        host: { type: 'string' },
        'retention-days': { type: 'string' },
        'trust-proxy': { type: 'string' },
        'public-url': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const option = (name: keyof typeof ENV): string | undefined =>
    (values as Record<string, string | undefined>)[name] ?? (env[ENV[name]!] || undefined);
  const command = positionals[0];
  if (positionals.length > 1 || (command !== undefined && command !== 'pair'))
    throw new Error(`"${positionals.join(' ')}" is not a command of the mailbox (only "pair")\n${USAGE}`);
  const data = option('data');
  if (!data?.trim())
    throw new Error(`--data: the folder where the mailbox keeps what it receives is required\n${USAGE}`);
  const dataDir = resolve(data);

  if (command === 'pair') {
    for (const name of ['port', 'host', 'retention-days', 'trust-proxy', 'public-url'] as const)
      if ((values as Record<string, unknown>)[name] !== undefined)
        throw new Error(`--${name}: not an option of "pair"`);
    const store = openMailboxStore(dataDir);
    try {
      const { code } = newPairingCode(store);
      console.log(`pairing code: ${code}`);
      console.log(
        `It pairs one computer and is valid for ${PAIRING_VALID_MS / 60_000} minutes: in Innkeeper, Connection → Receive through my mailbox.`,
      );
    } finally {
      store.close();
    }
    return;
  }

  const portText = option('port');
  const port = portText === undefined ? 8787 : wholeNumber('port', portText, 0, 65535, 'a port number');
  const retentionText = option('retention-days');
  const retentionDays =
    retentionText === undefined ? undefined : wholeNumber('retention-days', retentionText, 1, 365, 'a number of days');
  const host = option('host') ?? '127.0.0.1';
  if (!host.trim()) throw new Error('--host: an address to listen on is required (0.0.0.0 for every network)');

  const proxyText = option('trust-proxy');
  const trustProxy = proxyText === undefined ? [] : proxyText.split(',').map((a) => a.trim());
  for (const address of trustProxy)
    if (isIP(address) === 0)
      throw new Error(
        `--trust-proxy: the IP address of the reverse proxy in front (such as 127.0.0.1), got "${address}"`,
      );

  // The address Su fetches photos from (else the one a computer used to hand them over).
  const publicUrl = option('public-url')?.trim().replace(/\/+$/, '');
  if (publicUrl !== undefined) {
    let parsedUrl: URL | null = null;
    try {
      parsedUrl = new URL(publicUrl);
    } catch {
      // Said below.
    }
    if (!parsedUrl || !/^https?:$/.test(parsedUrl.protocol) || parsedUrl.pathname !== '/' || parsedUrl.search)
      throw new Error(
        `--public-url: the address Su reaches this mailbox at, such as https://mailbox.example.com, got "${publicUrl}"`,
      );
  }

  let mailbox;
  try {
    mailbox = await startMailbox({
      dataDir,
      port,
      host,
      trustProxy,
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      ...(retentionDays !== undefined ? { retentionDays } : {}),
    });
  } catch (error) {
    if (error instanceof AppFailure && error.error.code === 'port_in_use')
      throw new Error(`--port: port ${port} is already used by another program on this machine; choose another.`);
    if (
      (error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' ||
      (error as NodeJS.ErrnoException).code === 'ENOTFOUND'
    )
      throw new Error(`--host: this machine has no address ${host} to listen on.`);
    throw error;
  }
  if (mailbox.pairingCode) {
    console.log(`pairing code: ${mailbox.pairingCode}`);
    console.log(
      `No computer is paired yet. This code pairs one and is valid for ${PAIRING_VALID_MS / 60_000} minutes (a new one: npm run mailbox -- pair --data ${dataDir}).`,
    );
  }
  console.log(`mailbox: ${mailbox.url}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void mailbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
