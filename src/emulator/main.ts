import { runEmulatorCli } from './cli';
import { errorText } from '../shared/result';

runEmulatorCli(process.argv.slice(2), process.env).catch((error: unknown) => {
  console.error(`emulator: ${errorText(error)}`);
  process.exit(1);
});
