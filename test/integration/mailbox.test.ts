import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewMessageEvent } from '../../src/shared/inbox';
import type { MailboxStatus } from '../../src/shared/mailbox';
import { generatePassword } from '../../src/shared/secretRules';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { startMailboxProgram, type MailboxProgram } from '../support/mailboxProgram';

// The desktop's side of the mailbox, against the real mailbox program (its own process, 127.0.0.1, its own data
// folder) and a real core on real SQLite files: pairing, collecting what waited and what comes live, unpairing.

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.stop();
});

/** The credentials Su is given (INNKEEPER_PUSH_USER / _PASSWORD), handed to the mailbox at pairing. */
const su = { username: 'su-mailbox', password: generatePassword() };
const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
const guestMessage = (i: number) => JSON.stringify({ ...template, messageid: `mbx-${i}`, message: `Message ${i}` });

async function mailboxProgram(): Promise<MailboxProgram> {
  const mailbox = await startMailboxProgram();
  started.push(mailbox);
  return mailbox;
}

/** A core as INNKEEPER_MAILBOX_URL / _CODE and INNKEEPER_PUSH_USER / _PASSWORD start it (`dataDir`: again). */
async function core(options: { mailbox?: { url: string; code: string }; dataDir?: string } = {}): Promise<TestCore> {
  const ctx = await startTestCore({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    coreOptions: {
      intakeEnv: { port: 0, ...su },
      ...(options.mailbox ? { mailboxEnv: options.mailbox } : {}),
    },
  });
  started.push(ctx);
  return ctx;
}

const clientOf = (ctx: TestCore) => contractClient(() => ctx.core.dispatcher);
const status = (ctx: TestCore) => clientOf(ctx).call('mailbox.status');
const connected = (ctx: TestCore) =>
  eventually(
    () => status(ctx),
    (s) => s.connected,
    20_000,
  );
/** Closes a core and keeps its data folder (the computer is off). */
async function switchOff(ctx: TestCore): Promise<void> {
  started.splice(started.indexOf(ctx), 1);
  await ctx.core.close();
}
const messageIds = (ctx: TestCore) =>
  (
    ctx.core.db.db.prepare('SELECT provider_message_id AS id FROM messages ORDER BY messages.id').all() as {
      id: string;
    }[]
  ).map((r) => r.id);
const logged = (ctx: TestCore) =>
  (ctx.core.db.db.prepare('SELECT count(*) AS n FROM push_log').get() as { n: number }).n;

describe('the desktop and its mailbox', () => {
  it('collects everything that arrived while the computer was off: once, in order, with what arrived meanwhile', async () => {
    const mailbox = await mailboxProgram();
    const first = await core({ mailbox: { url: mailbox.url, code: mailbox.code! } });
    const paired = await connected(first);
    expect(paired).toMatchObject({
      paired: true,
      url: mailbox.url,
      pushUrl: `${mailbox.url}/push`,
      pushUser: su.username,
    });
    const { dataDir } = first;
    await switchOff(first);

    for (let i = 0; i < 200; i++) expect((await mailbox.push(guestMessage(i), su)).status).toBe(200);

    // Started again with the same environment: already paired with that mailbox, so its (used) code is not tried.
    const again = await core({ mailbox: { url: mailbox.url, code: mailbox.code! }, dataDir });
    const after = await eventually(
      () => status(again),
      (s) => s.whileOff !== null && s.connected,
      30_000,
    );
    expect(after.whileOff).toMatchObject({
      messages: 200,
      reviews: 0,
      quarantined: 0,
      text: '200 messages arrived while this computer was off',
    });
    expect(after.lastError).toBeNull();
    expect(messageIds(again)).toEqual(Array.from({ length: 200 }, (_, i) => `mbx-${i}`));
    expect(logged(again)).toBe(200);
    const { threads } = await clientOf(again).call('inbox.threads', {});
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ preview: 'Message 199', unread: 200 });
    // Confirmed: nothing waits for this computer at the mailbox any more.
    const health = await eventually(
      () => status(again),
      (s) => s.checkedAt !== null,
      10_000,
    );
    expect(health).toMatchObject({ waiting: 0 });
  }, 60_000);

  it('keeps what arrived while the computer was off across a restart, until a new catch-up replaces it or an unpair', async () => {
    const mailbox = await mailboxProgram();
    const environment = { url: mailbox.url, code: mailbox.code! };
    const first = await core({ mailbox: environment });
    await connected(first);
    const { dataDir } = first;
    await switchOff(first);
    for (let i = 0; i < 3; i++) expect((await mailbox.push(guestMessage(i), su)).status).toBe(200);

    const second = await core({ mailbox: environment, dataDir });
    const caught = await eventually(
      () => status(second),
      (s) => s.whileOff !== null && s.connected,
      30_000,
    );
    expect(caught.whileOff).toMatchObject({ messages: 3, text: '3 messages arrived while this computer was off' });
    await switchOff(second);

    // Started again with nothing waiting: the last summary is still said, as it was.
    const third = await core({ mailbox: environment, dataDir });
    expect((await status(third)).whileOff).toEqual(caught.whileOff);
    expect((await connected(third)).whileOff).toEqual(caught.whileOff);
    await switchOff(third);

    // A new catch-up replaces it.
    expect((await mailbox.push(guestMessage(3), su)).status).toBe(200);
    const fourth = await core({ mailbox: environment, dataDir });
    const replaced = await eventually(
      () => status(fourth),
      (s) => s.connected && s.whileOff?.messages === 1,
      30_000,
    );
    expect(replaced.whileOff).toMatchObject({ messages: 1, text: '1 message arrived while this computer was off' });
    expect(replaced.whileOff!.collectedAt).toBeGreaterThan(caught.whileOff!.collectedAt);

    // Unpaired: gone, and still gone after a restart.
    expect((await clientOf(fourth).call('mailbox.unpair')).whileOff).toBeNull();
    await switchOff(fourth);
    const fifth = await core({ dataDir });
    expect((await status(fifth)).whileOff).toBeNull();
    expect(messageIds(fifth)).toEqual([0, 1, 2, 3].map((i) => `mbx-${i}`));
  }, 90_000);

  it('while running, a delivery to the mailbox is in the inbox within a second', async () => {
    const mailbox = await mailboxProgram();
    const ctx = await core({ mailbox: { url: mailbox.url, code: mailbox.code! } });
    await connected(ctx);
    const heard: NewMessageEvent[] = [];
    ctx.core.events.on('inbox.newMessage', (m) => void heard.push(m));
    const took: number[] = [];
    for (let i = 0; i < 5; i++) {
      const pushed = Date.now();
      expect((await mailbox.push(guestMessage(1000 + i), su)).status).toBe(200);
      await eventually(
        async () => heard.length,
        (n) => n === i + 1,
        5_000,
      );
      took.push(Date.now() - pushed);
    }
    console.log(`mailbox → inbox: ${took.join(', ')} ms`);
    expect(Math.max(...took)).toBeLessThan(1_000);
    expect(heard.map((m) => m.preview)).toEqual([0, 1, 2, 3, 4].map((i) => `Message ${1000 + i}`));
    expect(messageIds(ctx)).toEqual([0, 1, 2, 3, 4].map((i) => `mbx-${1000 + i}`));
  });

  it('refuses a wrong pairing code in the owner’s words, then the locked one, and a wrong address', async () => {
    const mailbox = await mailboxProgram();
    const ctx = await core();
    const { dispatch } = clientOf(ctx);
    const wrong = await dispatch('mailbox.pair', { url: mailbox.url, code: '2222-2222-2222' });
    expect(wrong).toMatchObject({ ok: false, error: { field: 'code' } });
    if (wrong.ok) return;
    expect(wrong.error.message).toMatch(/^This pairing code is not right: check it where the mailbox printed it\./);
    expect(wrong.error.message).toMatch(/4 more tries before it stops working/);
    // Typed in lower case without dashes, O for 0: read as printed; still wrong.
    for (let i = 0; i < 4; i++) await dispatch('mailbox.pair', { url: mailbox.url, code: '2222 2222 222o' });
    const locked = await dispatch('mailbox.pair', { url: mailbox.url, code: mailbox.code! });
    expect(locked).toMatchObject({
      ok: false,
      error: {
        field: 'code',
        message: expect.stringMatching(/^This pairing code no longer works: it was entered wrong too many times\./),
      },
    });
    expect((await status(ctx)).paired).toBe(false);

    const plain = await dispatch('mailbox.pair', { url: 'http://mailbox.example.com', code: mailbox.code! });
    expect(plain).toMatchObject({ ok: false, error: { field: 'url', message: expect.stringMatching(/https:\/\//) } });
    const nobody = await dispatch('mailbox.pair', { url: 'http://127.0.0.1:1', code: mailbox.code! });
    expect(nobody).toMatchObject({
      ok: false,
      error: {
        field: 'url',
        message: expect.stringMatching(/^Innkeeper could not reach the mailbox at http:\/\/127\.0\.0\.1:1/),
      },
    });
    const shape = await dispatch('mailbox.pair', { url: mailbox.url, code: '12345' });
    expect(shape).toMatchObject({ ok: false, error: { field: 'code' } });

    // A new code pairs.
    const code = await mailbox.newCode();
    const ok = await dispatch('mailbox.pair', { url: mailbox.url, code: code.toLowerCase() });
    expect(ok).toMatchObject({ ok: true, value: { paired: true } });
  });

  it('unpairs: the mailbox revokes this computer’s credential and collecting stops', async () => {
    const mailbox = await mailboxProgram();
    const ctx = await core();
    const changes: MailboxStatus[] = [];
    ctx.core.events.on('mailbox.changed', (s) => void changes.push(s));
    await clientOf(ctx).call('mailbox.pair', { url: mailbox.url, code: mailbox.code! });
    await connected(ctx);
    expect(changes.some((s) => s.connected)).toBe(true);
    const secretsFile = join(ctx.dataDir, 'secrets.json');
    const saved = JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>;
    const token = saved['mailbox.token']!;
    expect(token).toBeTruthy();
    expect(saved['mailbox.privateKey']).toBeTruthy();
    const collect = () =>
      fetch(`${mailbox.url}/mailbox/deliveries?after=0`, { headers: { authorization: `Bearer ${token}` } });
    expect((await collect()).status).toBe(200);

    const after = await clientOf(ctx).call('mailbox.unpair');
    expect(after).toMatchObject({ paired: false, connected: false, deviceId: null, lastError: null });
    expect(changes.at(-1)).toMatchObject({ paired: false, connected: false });
    expect((await collect()).status).toBe(401);
    // Su's credentials went with this computer: nothing is accepted for it any more.
    expect((await mailbox.push(guestMessage(1), su)).status).toBe(401);
    const left = JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>;
    expect(left['mailbox.token']).toBeUndefined();
    expect(left['mailbox.privateKey']).toBeUndefined();
    expect(messageIds(ctx)).toEqual([]);
  });

  it('unpaired at the mailbox (from elsewhere): collecting stops and the status says why', async () => {
    const mailbox = await mailboxProgram();
    const ctx = await core({ mailbox: { url: mailbox.url, code: mailbox.code! } });
    const { deviceId } = await connected(ctx);
    const token = (JSON.parse(readFileSync(join(ctx.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>)[
      'mailbox.token'
    ]!;
    const removed = await fetch(`${mailbox.url}/mailbox/devices/${deviceId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.status).toBe(200);
    const after = await eventually(
      () => status(ctx),
      (s) => !s.paired,
      20_000,
    );
    expect(after).toMatchObject({ paired: false, connected: false });
    expect(after.lastError?.message).toMatch(/^The mailbox no longer accepts this computer/);
  });

  it('lists every device paired with the mailbox and unpairs another one: the mailbox revokes it at once', async () => {
    const mailbox = await mailboxProgram();
    const laptop = await core();
    await clientOf(laptop).call('mailbox.pair', { url: mailbox.url, code: mailbox.code! });
    await connected(laptop);
    const desk = await core();
    await clientOf(desk).call('mailbox.pair', { url: mailbox.url, code: await mailbox.newCode() });
    const deskId = (await connected(desk)).deviceId!;
    // The laptop reads the mailbox's health again as it connects; the desk paired after: asked once more here.
    const both = await eventually(
      async () => {
        await clientOf(laptop).call('mailbox.unpairDevice', { deviceId: 'no-such-device' });
        return status(laptop);
      },
      (s) => s.devices.length === 2,
      20_000,
    );
    const laptopId = both.deviceId!;
    expect(both.devices.map((d) => ({ id: d.id, self: d.self }))).toEqual(
      expect.arrayContaining([
        { id: laptopId, self: true },
        { id: deskId, self: false },
      ]),
    );

    // This computer is unpaired with Unpair, not from the list.
    const self = await clientOf(laptop).dispatch('mailbox.unpairDevice', { deviceId: laptopId });
    expect(self).toMatchObject({
      ok: false,
      error: { field: 'deviceId', message: 'This is this computer: use “Unpair this computer” to unpair it.' },
    });
    // A bad id names its field.
    const empty = await clientOf(laptop).dispatch('mailbox.unpairDevice', { deviceId: ' ' });
    expect(empty).toMatchObject({ ok: false, error: { fields: { deviceId: 'Choose the device to unpair.' } } });

    const after = await clientOf(laptop).call('mailbox.unpairDevice', { deviceId: deskId });
    expect(after.devices.map((d) => d.id)).toEqual([laptopId]);
    expect(after).toMatchObject({ paired: true, deviceId: laptopId });
    // The desk is told at its next call: it stops collecting and says why; the laptop still collects.
    const deskAfter = await eventually(
      () => status(desk),
      (s) => !s.paired,
      20_000,
    );
    expect(deskAfter.lastError?.message).toMatch(/^The mailbox no longer accepts this computer/);
    expect((await mailbox.push(guestMessage(7), su)).status).toBe(200);
    await eventually(
      async () => messageIds(laptop),
      (ids) => ids.includes('mbx-7'),
      20_000,
    );
    expect(messageIds(desk)).toEqual([]);

    // The mailbox cannot be reached: nothing changes, and the owner may try again.
    await mailbox.stop();
    const unreachable = await clientOf(laptop).dispatch('mailbox.unpairDevice', { deviceId: deskId });
    expect(unreachable).toMatchObject({
      ok: false,
      error: {
        retryable: true,
        message: expect.stringMatching(
          /^Innkeeper could not reach the mailbox to unpair the device: .+\. Try again\.$/,
        ),
      },
    });
  });

  it('pairs from INNKEEPER_MAILBOX_URL / _CODE once: a code the mailbox refused is not tried again at the next start', async () => {
    const mailbox = await mailboxProgram();
    const environment = { url: mailbox.url, code: '2222-2222-2222' };
    const first = await core({ mailbox: environment });
    const refused = await eventually(
      () => status(first),
      (s) => s.lastError !== null,
    );
    expect(refused).toMatchObject({ paired: false, url: mailbox.url });
    expect(refused.lastError!.message).toMatch(
      /^Pairing with the mailbox from INNKEEPER_MAILBOX_URL failed: This pairing code is not right/,
    );
    const { dataDir } = first;
    await switchOff(first);

    const again = await core({ mailbox: environment, dataDir });
    // The mailbox counted one wrong try only: the start did not use up another.
    const wrong = await clientOf(again).dispatch('mailbox.pair', { url: mailbox.url, code: '3333-3333-3333' });
    expect(wrong).toMatchObject({ ok: false, error: { message: expect.stringMatching(/ 3 more tries /) } });
  });
});
