// Another process on the same data folder: it opens the data file as Innkeeper does (which swaps in a chosen backup),
// then either dies at once (SIGKILL, no cleanup: "kill") or keeps the file open until it is killed ("hold").
import { openAppDatabase } from '../../src/main/schema';

const [dbPath, mode] = process.argv.slice(2);
openAppDatabase(dbPath!);
if (mode === 'kill') process.kill(process.pid, 'SIGKILL');
console.log('ready');
setInterval(() => {}, 60_000);
