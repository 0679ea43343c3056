// A push receiver in its own process that kills itself (SIGKILL, no cleanup) right after its first
// acknowledgement went out: used to prove that what was acknowledged survives a crash.
import { openDatabase } from '../../src/main/db/database';
import { startPushReceiver } from '../../src/main/push/receiver';

const [dbPath] = process.argv.slice(2);
const database = openDatabase(dbPath!);
const receiver = await startPushReceiver({
  database,
  port: 0,
  credentials: () => [{ username: 'su', password: 'pw' }],
  onIngested: () => process.kill(process.pid, 'SIGKILL'),
});
console.log(`port ${receiver.port}`);
