import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePassword } from '../../src/shared/secretRules';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { startMailboxProgram } from '../support/mailboxProgram';
import { tempDir } from '../support/tempDir';

// kill -9 of the desktop while it collects from the mailbox: what it filed stays, what it had not filed is
// collected at the next start, and nothing is filed twice (the position is saved with what it covers).

const root = join(import.meta.dirname, '..', '..');
const su = { username: 'su-mailbox', password: generatePassword() };
const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
const guestMessage = (i: number) => JSON.stringify({ ...template, messageid: `crash-${i}`, message: `Message ${i}` });
const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** When the child is killed: once connected, once it filed at least `filed`, or `ms` after it filed its first group. */
type KillWhen = 'connected' | { filed: number } | { ms: number };

/** The core of test/support/mailboxCoreChild.ts, killed (SIGKILL) at `when`; answers how many it had filed. */
async function runAndKill(dataDir: string, url: string, code: string, when: KillWhen): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test', 'support', 'mailboxCoreChild.ts'),
      dataDir,
      url,
      code,
      su.username,
      su.password,
    ],
    { cwd: root },
  );
  let out = '';
  let filed = 0;
  let armed = false;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.stderr.on('data', (d) => (out += String(d)));
  child.stdout.on('data', (d) => {
    out += String(d);
    filed = Number([...out.matchAll(/filed (\d+)/g)].at(-1)?.[1] ?? 0);
    if (when === 'connected' ? out.includes('connected') : 'filed' in when && filed >= when.filed)
      child.kill('SIGKILL');
    if (typeof when === 'object' && 'ms' in when && filed > 0 && !armed) {
      armed = true;
      setTimeout(() => child.kill('SIGKILL'), when.ms);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const signal = await exited;
  clearTimeout(timer);
  expect(signal, out).toBe('SIGKILL');
  return filed;
}

describe('the desktop killed while it collects from its mailbox', () => {
  it('loses nothing and files nothing twice', async () => {
    const mailbox = await startMailboxProgram();
    stops.push(() => mailbox.stop());
    const dir = tempDir('innkeeper-mailbox-crash-');
    stops.push(() => dir.remove());

    // Paired once (the desktop's own process), then off while 1500 deliveries arrive.
    await runAndKill(dir.path, mailbox.url, mailbox.code!, 'connected');
    const total = 1500;
    for (let i = 0; i < total; i++) expect((await mailbox.push(guestMessage(i), su)).status).toBe(200);

    // Killed five times in the middle of collecting them: right after a group was filed, and moments after it.
    const seen: number[] = [];
    for (const when of [{ filed: 1 }, { ms: 20 }, { ms: 60 }, { filed: 1 }, { ms: 120 }])
      seen.push(await runAndKill(dir.path, mailbox.url, mailbox.code!, when));
    console.log(`filed before each kill: ${seen.join(', ')}`);

    const ctx = await startTestCore({
      dataDir: dir.path,
      coreOptions: { intakeEnv: { port: 0, ...su }, mailboxEnv: { url: mailbox.url, code: mailbox.code! } },
    });
    stops.push(() => ctx.core.close());
    const ids = () =>
      (
        ctx.core.db.db.prepare('SELECT provider_message_id AS id FROM messages ORDER BY messages.id').all() as {
          id: string;
        }[]
      ).map((r) => r.id);
    await eventually(
      async () => ids().length,
      (n) => n === total,
      30_000,
    );
    expect(ids()).toEqual(Array.from({ length: total }, (_, i) => `crash-${i}`));
    // Nothing filed twice: one log row per delivery, none of them a repeat.
    const log = ctx.core.db.db.prepare('SELECT outcome, count(*) AS n FROM push_log GROUP BY outcome').all();
    expect(log).toEqual([{ outcome: 'stored', n: total }]);
    const status = await eventually(
      () => contractClient(() => ctx.core.dispatcher).call('mailbox.status'),
      (s) => s.connected,
    );
    expect(status).toMatchObject({ paired: true, connected: true, lastError: null });
    // What arrived while it was off counts every delivery, those filed by the runs that were killed too.
    expect(status.whileOff).toMatchObject({
      messages: total,
      text: `${total} messages arrived while this computer was off`,
    });
  }, 120_000);
});
