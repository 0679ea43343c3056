// A desktop core in a process of its own, paired with a mailbox (as INNKEEPER_MAILBOX_URL / _CODE would pair it),
// collecting from it: the test kills it (SIGKILL, no cleanup) while it collects. It prints `filed N` after each
// group it filed (N: how many in all so far), so the test knows collecting is under way, and `connected` once it
// has caught up and listens live.
import { startCore } from '../../src/main/core';
import { createFileSecrets } from '../../src/main/config/secrets';
import { createConfSettings } from '../../src/main/config/settings';

const [dataDir, url, code, username, password] = process.argv.slice(2) as [string, string, string, string, string];
const core = await startCore({
  host: 'browser',
  version: '0.0.0-test',
  dataDir,
  settings: createConfSettings(dataDir),
  secrets: createFileSecrets(dataDir),
  options: {
    intakeEnv: { port: 0, username, password },
    mailboxEnv: { url, code },
    demo: { deliveries: false },
  },
});
let filed = 0;
core.bus.on('deliveriesFiled', (results) => {
  filed += results.length;
  // stdout is a pipe: written synchronously on Linux.
  console.log(`filed ${filed}`);
});
core.events.on('mailbox.changed', (status) => {
  if (status.connected) console.log('connected');
});
console.log('ready');
