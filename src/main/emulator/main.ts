import { runEmulatorCli } from './cli';

runEmulatorCli(process.argv.slice(2), process.env).catch((error: unknown) => {
  console.error(`emulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
