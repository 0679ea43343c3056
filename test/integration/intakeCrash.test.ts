import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUptimeLog } from '../../src/main/db/uptime';
import { fixtureText } from '../support/fixtures';
import { startPortChild } from '../support/portChild';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

const auth = `Basic ${Buffer.from('su:pw').toString('base64')}`;

/** The receiver of test/support/intakeChild.ts in its own process, killed after `after` acknowledgements. */
const startChild = (dbPath: string, after = 1) => startPortChild('intakeChild.ts', [dbPath, String(after)]);

describe('a process killed right after acknowledging', () => {
  it('under load, with pushes acknowledged in groups, loses nothing it acknowledged', async () => {
    const dir = tempDir('innkeeper-crash-load-');
    const dbPath = join(dir.path, 'innkeeper.db');
    const { port, exited, output } = await startChild(dbPath, 150);
    const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
    const acknowledged: string[] = [];
    let next = 0;
    let dead = false;
    // 16 senders, each posting new messages one after another until the process is gone.
    const sender = async () => {
      while (!dead) {
        const id = `crash-${next++}`;
        try {
          const response = await fetch(`http://127.0.0.1:${port}/push`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: auth },
            body: JSON.stringify({ ...template, messageid: id }),
          });
          if (response.status === 200) acknowledged.push(id);
          else expect(response.status).toBe(200);
        } catch {
          dead = true; // the connection died with the process: this push was not acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, sender));
    expect(await exited).toBe('SIGKILL');
    // It really ran under the grouped writer: some commit held several pushes.
    const writes = JSON.parse(/writes (\{.*\})/.exec(output())![1]!) as { groups: number; largest: number };
    expect(writes.largest).toBeGreaterThan(1);
    expect(acknowledged.length).toBeGreaterThan(100);

    const database = openAppDatabase(dbPath);
    const stored = new Set(
      (database.db.prepare('SELECT provider_message_id AS id FROM messages').all() as { id: string }[]).map(
        (r) => r.id,
      ),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const logged = database.db.prepare("SELECT count(*) AS n FROM push_log WHERE outcome = 'stored'").get() as {
      n: number;
    };
    expect(logged.n).toBe(stored.size);
    database.close();
    dir.remove();
  });

  it('still has the acknowledged push on restart, and shows the gap as downtime', async () => {
    const dir = tempDir('innkeeper-crash-');
    const dbPath = join(dir.path, 'innkeeper.db');
    const { port, exited } = await startChild(dbPath);

    const response = await fetch(`http://127.0.0.1:${port}/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: auth,
      },
      body: fixtureText('push-message-244.json'),
    });
    expect(response.status).toBe(200);
    expect(await exited).toBe('SIGKILL');

    const database = openAppDatabase(dbPath);
    expect(database.db.prepare('SELECT provider_message_id FROM messages').all()).toEqual([
      { provider_message_id: '9623318922' },
    ]);
    expect(database.db.prepare('SELECT outcome FROM push_log').all()).toEqual([{ outcome: 'stored' }]);
    // The listener never said "down": the next start records the gap.
    const uptime = createUptimeLog(database, 'listener', Date.now);
    uptime.up();
    const spans = uptime.downSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.to).toBeGreaterThanOrEqual(spans[0]!.from);
    uptime.down();
    database.close();
    dir.remove();
  });
});
