import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE } from '../../src/mailbox/store';
import { startTestMailbox } from '../support/mailboxHarness';
import { tempDir } from '../support/tempDir';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

describe('the mailbox’s up periods', () => {
  it('a heartbeat moves the running period’s end; a run that never stopped ends at its last heartbeat', async () => {
    const dir = tempDir('innkeeper-mailbox-uptime-');
    cleanups.push(() => dir.remove());
    const t = await startTestMailbox({ dataDir: dir.path, heartbeatMs: 100 });
    let stopped = false;
    cleanups.push(() => (stopped ? undefined : t.stop()));
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Read as another process would: the heartbeat is on disk.
    const reader = new DatabaseSync(join(dir.path, DB_FILE), { readOnly: true });
    const row = reader.prepare('SELECT up_from, up_to, beat_at FROM uptime').get() as {
      up_from: number;
      up_to: number | null;
      beat_at: number;
    };
    reader.close();
    expect(row.up_to).toBeNull();
    expect(row.beat_at - row.up_from).toBeGreaterThanOrEqual(300);

    // A run killed without a word: its period is left open in the file, as here.
    const health1 = await t.device(laptop.token).get('/mailbox/health');
    expect(health1.body.up).toEqual([{ from: row.up_from, to: null }]);
    await t.stop();
    stopped = true;
    const writer = new DatabaseSync(join(dir.path, DB_FILE));
    writer.prepare('INSERT INTO uptime (up_from, up_to, beat_at) VALUES (?, NULL, ?)').run(5_000, 9_000);
    writer.close();
    const again = await startTestMailbox({ dataDir: dir.path });
    cleanups.push(() => again.stop());
    const health2 = await again.device(laptop.token).get('/mailbox/health');
    const up = health2.body.up as { from: number; to: number | null }[];
    expect(up).toHaveLength(3);
    // The first ended when it was stopped; the killed one at its last heartbeat; the running one is open.
    expect(up[0]).toEqual({ from: row.up_from, to: expect.any(Number) });
    expect(up[0]!.to!).toBeGreaterThanOrEqual(row.beat_at);
    expect(up[1]).toEqual({ from: 5_000, to: 9_000 });
    expect(up[2]).toEqual({ from: expect.any(Number), to: null });
  });
});
