import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/database';
import { createUptimeLog } from '../../src/main/push/uptime';
import { fixtureText } from '../support/fixtures';
import { tempDir } from '../support/tempDir';

const root = join(import.meta.dirname, '..', '..');

describe('a process killed right after acknowledging', () => {
  it('still has the acknowledged push on restart, and shows the gap as downtime', async () => {
    const dir = tempDir('innkeeper-crash-');
    const dbPath = join(dir.path, 'innkeeper.db');
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'support', 'pushChild.ts'), dbPath], {
      cwd: root,
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
        const m = /port (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', () => reject(new Error(`child exited early: ${out}`)));
    });

    const response = await fetch(`http://127.0.0.1:${port}/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('su:pw').toString('base64')}`,
      },
      body: fixtureText('push-message-244.json'),
    });
    expect(response.status).toBe(200);
    expect(await exited).toBe('SIGKILL');

    const database = openDatabase(dbPath);
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
