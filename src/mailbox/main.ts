import { runMailboxCli } from './cli';
import { errorText } from '../shared/result';

runMailboxCli(process.argv.slice(2), process.env).catch((error: unknown) => {
  console.error(`mailbox: ${errorText(error)}`);
  process.exit(1);
});
