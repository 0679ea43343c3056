import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// The demo's own mailbox: inside Innkeeper on 127.0.0.1, paired at start, its deliveries collected from it; and
// "Close the laptop for an hour": collecting pauses while the demo's guests write, and what waited comes in after.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const sources = () =>
  ctx!.core.db.db.prepare('SELECT source, count(*) AS n FROM push_log GROUP BY source').all() as {
    source: string | null;
    n: number;
  }[];
const hotelId = async () => (await call('demo.status')).properties[0]!.hotelId;

describe('the demo’s own mailbox', () => {
  it('is paired at start; a delivery comes through it, filed as the demo’s, before the demo answers', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    const mailbox = await eventually(
      () => call('mailbox.status'),
      (s) => s.paired && s.connected,
    );
    expect(mailbox).toMatchObject({ paired: true, connected: true, demo: true, paused: false, pushUser: null });
    expect(mailbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call('demo.status')).mailboxUrl).toBe(mailbox.url);
    expect(ctx.demo.emulator()?.state.partnerEndpoint?.url).toBe(`${mailbox.url}/push`);
    // The listener no longer takes the demo's credentials: nothing of the demo goes there.
    expect((await call('intake.status')).demoConnected).toBe(false);

    const result = await call('demo.deliver', { kind: 'message', channel: '244', hotelId: await hotelId() });
    expect(result.acknowledged).toBe(true);
    // Answered once filed: already in the inbox, as the demo's (a reply to it goes to the demo).
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(1);
    expect(sources()).toEqual([{ source: 'demo', n: 1 }]);
    // What the mailbox kept for this computer is gone once collected.
    expect(ctx.demo.mailbox.running()!.store.waiting(mailbox.deviceId!)).toBe(0);
  }, 30_000);

  it('closing the laptop pauses collecting while the guests write; opening it brings them in with the summary', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    await eventually(
      () => call('mailbox.status'),
      (s) => s.connected,
    );
    const closed = await call('demo.laptop', { open: false });
    expect(closed.laptopClosedAt).not.toBeNull();
    expect(closed.laptopNote).toBe(
      'While the laptop is closed, 3 guest messages and a review reached your mailbox: they wait there until this computer collects again.',
    );
    expect(await call('mailbox.status')).toMatchObject({ paused: true, connected: false, unreachableSince: null });
    // Nothing came in meanwhile: it waits in the mailbox, sealed for this computer.
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(0);
    expect(await call('inbox.reviews')).toHaveLength(0);
    const running = ctx.demo.mailbox.running()!;
    expect(running.store.waiting((await call('mailbox.status')).deviceId!)).toBe(4);
    // A delivery asked for while closed says where it is.
    const waiting = await call('demo.deliver', { kind: 'message', channel: '19', hotelId: await hotelId() });
    expect(waiting.summary).toMatch(
      /reached your mailbox on Booking\.com\. It comes in when the laptop is open again\.$/,
    );

    const opened = await call('demo.laptop', { open: true });
    expect(opened).toMatchObject({ laptopClosedAt: null, laptopNote: null });
    const status = await eventually(
      () => call('mailbox.status'),
      (s) => s.whileOff !== null && s.connected,
    );
    expect(status.whileOff?.text).toBe('4 messages and 1 review arrived while this computer was off');
    expect(status.paused).toBe(false);
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(4);
    expect(await call('inbox.reviews')).toHaveLength(1);
    expect(sources()).toEqual([{ source: 'demo', n: 5 }]);
  }, 30_000);

  it('a closed laptop opens again by itself, and what waited comes in', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true, laptopReopensAfterMs: 500 } });
    await eventually(
      () => call('mailbox.status'),
      (s) => s.connected,
    );
    expect((await call('demo.laptop', { open: false })).laptopClosedAt).not.toBeNull();
    const status = await eventually(
      () => call('mailbox.status'),
      (s) => s.whileOff !== null,
    );
    expect(status.whileOff?.text).toBe('3 messages and 1 review arrived while this computer was off');
    expect((await call('demo.status')).laptopClosedAt).toBeNull();
  }, 30_000);

  it('leaving the demo unpairs its mailbox and removes its folder, and the laptop cannot close any more', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    await eventually(
      () => call('mailbox.status'),
      (s) => s.connected,
    );
    const folder = join(ctx.dataDir, 'demo-mailbox');
    expect(existsSync(folder)).toBe(true);
    await call('connection.save', {
      environment: 'sandbox',
      mainBaseUrl: 'https://a.example/SUAPI',
      tokenBaseUrl: 'https://b.example',
      domain: 'x.example',
    });
    const after = await eventually(
      () => call('mailbox.status'),
      (s) => !s.paired,
    );
    expect(after).toMatchObject({ paired: false, demo: false, paused: false, url: null });
    expect(existsSync(folder)).toBe(false);
    const refused = await dispatch('demo.laptop', { open: false });
    expect(refused.ok).toBe(false);
  }, 30_000);

  it('without a mailbox the laptop cannot close, and says why', async () => {
    ctx = await startTestCore();
    expect((await call('intake.status')).demoConnected).toBe(true);
    const refused = await dispatch('demo.laptop', { open: false });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/mailbox is not running/) } });
    expect((await call('demo.status')).mailboxUrl).toBeNull();
  }, 30_000);
});
