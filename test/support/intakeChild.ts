// A push receiver in its own process that kills itself (SIGKILL, no cleanup) right after its Nth acknowledgement
// went out (the first by default), while other pushes may be on their way or in the next group: used to prove that
// what was acknowledged survives a crash. Before dying it prints how its pushes were grouped.
import { startListener } from '../../src/main/intake/listener';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

const [dbPath, after = '1'] = process.argv.slice(2);
const database = openAppDatabase(dbPath!);
let acknowledged = 0;
const receiver = await startListener({
  database,
  filers: INBOX_FILERS,
  port: 0,
  credentials: () => [{ username: 'su', password: 'pw' }],
  onIngested: () => {
    acknowledged += 1;
    if (acknowledged < Number(after)) return;
    // stdout is a pipe: written synchronously on Linux, before the kill.
    console.log(`writes ${JSON.stringify(receiver.writes())}`);
    process.kill(process.pid, 'SIGKILL');
  },
});
console.log(`port ${receiver.port}`);
