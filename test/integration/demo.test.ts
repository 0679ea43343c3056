import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { demoInfoFile } from '../../src/main/demo/demoProvider';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const sandbox = {
  environment: 'sandbox' as const,
  mainBaseUrl: 'https://a.example/SUAPI',
  tokenBaseUrl: 'https://b.example',
  domain: 'x.example',
};
const demo = { environment: 'demo' as const, domain: 'demo.innkeeper.test' };
const pushLog = () => (ctx!.core.db.db.prepare('SELECT count(*) AS n FROM push_log').get() as { n: number }).n;

/** A raw HTTP request, so that any Host header and body can be sent. */
function send(url: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the demo provider on first start', () => {
  it('fills an empty inbox through the listener: conversations on three channels, reviews of every kind', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: true, everydayEveryMs: [3_600_000, 3_600_000] } });
    const page = await eventually(
      () => call('inbox.threads', { limit: 50 }),
      (p) => p.total >= 6,
    );
    const reviews = await eventually(
      () => call('inbox.reviews'),
      (r) => r.length >= 4,
    );
    const threads = await Promise.all(page.threads.map((t) => call('inbox.thread', { id: t.id })));
    expect(new Set(threads.map((t) => t.channel))).toEqual(new Set(['244', '19', '9']));
    expect(new Set(threads.map((t) => t.hotelId)).size).toBeGreaterThanOrEqual(2);
    const airbnb = threads.filter((t) => t.channel === '244');
    // An enquiry (nothing booked yet) and a booking, both with the guest; the booking with the host's own reply.
    const enquiry = airbnb.find((t) => t.bookingFlag === 'T');
    const booked = airbnb.find((t) => t.bookingFlag === 'B');
    expect(enquiry?.guest?.firstName).toBeTruthy();
    expect(booked?.booking?.confirmationCode).toMatch(/^HM/);
    expect(booked?.messages.map((m) => m.author)).toEqual(['guest', 'host', 'guest']);
    for (const t of threads.filter((t) => t.channel !== '244')) expect(t.bookingId).toMatch(/^\d{10}$/);
    expect(threads.filter((t) => t.channel === '19')).toHaveLength(2);
    expect(threads.filter((t) => t.channel === '9')).toHaveLength(2);

    const current = reviews.filter((r) => r.kind === 'current');
    expect(current.some((r) => r.reply.allowed)).toBe(true);
    expect(current.some((r) => !r.reply.allowed && r.kind === 'current' && r.detail.title)).toBe(true);
    expect(
      current.some((r) => r.kind === 'current' && !r.detail.title && !r.detail.positive && !r.detail.negative),
    ).toBe(true);
    expect(reviews.filter((r) => r.kind === 'legacy')).toHaveLength(1);
    // Every one came as a push, through the listener, as a real one would.
    expect(pushLog()).toBe(12);
  });

  it('does not deliver its sample again once the inbox holds something', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: true, everydayEveryMs: [3_600_000, 3_600_000] } });
    await eventually(
      () => Promise.resolve(pushLog()),
      (n) => n === 12,
    );
    const dataDir = ctx.dataDir;
    await ctx.core.close();
    ctx = await startTestCore({ dataDir, demoRun: { deliveries: true, everydayEveryMs: [3_600_000, 3_600_000] } });
    await new Promise((r) => setTimeout(r, 300));
    expect(pushLog()).toBe(12);
  });

  it('an everyday guest message arrives now and then, until the owner switches it off', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: true, everydayEveryMs: [40, 60] } });
    await eventually(
      () => call('inbox.threads', {}),
      (p) => p.total >= 8,
    );
    expect((await call('demo.setLiveMessages', { enabled: false })).liveMessages).toBe(false);
    await new Promise((r) => setTimeout(r, 150)); // one already on its way may still land
    const settled = (await call('inbox.threads', {})).total;
    await new Promise((r) => setTimeout(r, 400));
    expect((await call('inbox.threads', {})).total).toBe(settled);
    expect((await call('demo.status')).liveMessages).toBe(false);
  });
});

describe('the demo controls', () => {
  it('deliver a guest message on the chosen channel and property, and a review of each kind', async () => {
    ctx = await startTestCore();
    const message = await call('demo.deliver', { kind: 'message', channel: '9', hotelId: 'IK-DEMO-002' });
    expect(message).toEqual({ acknowledged: true, summary: expect.stringMatching(/Old Town Loft.*Expedia/) });
    // The answer comes once the listener acknowledged the push: the conversation is stored by then.
    const page = await call('inbox.threads', {});
    expect(page.threads).toHaveLength(1);
    expect(await call('inbox.thread', { id: page.threads[0]!.id })).toMatchObject({
      channel: '9',
      hotelId: 'IK-DEMO-002',
    });
    // What arrived, in a sentence: "an Airbnb review", "an Expedia review", "a Booking.com review".
    expect(await call('demo.deliver', { kind: 'review', channel: '19', hotelId: 'IK-DEMO-001' })).toMatchObject({
      summary: expect.stringMatching(/^A Booking\.com review of .+ arrived\.$/),
    });
    expect(await call('demo.deliver', { kind: 'legacy-review', hotelId: 'IK-DEMO-001' })).toMatchObject({
      summary: expect.stringMatching(/^An Airbnb review of .+ arrived\.$/),
    });
    expect(await call('demo.deliver', { kind: 'review', channel: '9', hotelId: 'IK-DEMO-002' })).toMatchObject({
      summary: 'An Expedia review of Old Town Loft arrived.',
    });
    expect((await call('inbox.reviews')).map((r) => [r.kind, r.channel]).sort()).toEqual([
      ['current', '19'],
      ['current', '9'],
      ['legacy', '244'],
    ]);
    expect(
      await dispatch('demo.deliver', { kind: 'review', channel: '244' as never, hotelId: 'IK-DEMO-001' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'channel' },
    });
  });
});

describe('the demo provider is isolated', () => {
  it('runs only while the demo is the active provider: its port closes and its credentials stop working', async () => {
    ctx = await startTestCore();
    const first = await call('demo.status');
    expect(first).toMatchObject({
      running: true,
      mainUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/SUAPI$/),
    });
    const partner = ctx.emulator().state.partnerEndpoint!;
    const listener = (await call('intake.status')).localUrl!;
    const asDemo = `Basic ${Buffer.from(`${partner.username}:${partner.password}`).toString('base64')}`;
    const post = () =>
      fetch(listener, {
        method: 'POST',
        headers: { authorization: asDemo, 'content-type': 'application/json' },
        body: '{"event":"test"}',
      });
    expect((await post()).status).toBe(200);

    await call('connection.save', sandbox);
    await eventually(
      () => call('demo.status'),
      (s) => !s.running,
    );
    await expect(fetch(`${first.mainUrl}/jservice/pmsproperty`)).rejects.toThrow();
    expect((await post()).status).toBe(401);
    expect(await dispatch('demo.deliver', { kind: 'message', channel: '19', hotelId: 'IK-DEMO-001' })).toMatchObject({
      ok: false,
      error: { code: 'not_configured' },
    });
    expect((await call('connection.get')).profiles.demo.mainBaseUrl).toBe('');
    expect(await dispatch('connection.test', demo)).toMatchObject({
      ok: false,
      error: { code: 'not_configured', message: expect.stringContaining('only while it is in use') },
    });

    await call('connection.save', demo);
    const again = await eventually(
      () => call('demo.status'),
      (s) => s.running,
    );
    // Back on the port it had (what it made before, links and photo addresses, answers again).
    expect(again.mainUrl).toBe(first.mainUrl);
    expect((await call('connection.get')).profiles.demo.mainBaseUrl).toBe(again.mainUrl);
    expect((await post()).status).toBe(200);
  });

  it('nothing outside the app can post into the inbox through it: no token, a form post, a foreign Host', async () => {
    ctx = await startTestCore();
    const { controlUrl, controlToken } = ctx.emulator();
    const port = new URL(controlUrl).port;
    const form = 'kind=message&message=Please+pay+the+deposit+at+http%3A%2F%2Fevil.example';
    const json = JSON.stringify({ kind: 'message', channel: '244', message: 'Please pay the deposit at evil.example' });
    const statuses = [
      // A web page's form post (no token: it cannot set one without a preflight the emulator never grants).
      await send(
        `${controlUrl}/push`,
        { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
        form,
      ),
      // A local program that found the port but not the token.
      await send(`${controlUrl}/push`, { 'content-type': 'application/json' }, json),
      // A page reaching it through a rebound DNS name, even if it had the token.
      await send(
        `${controlUrl}/push`,
        { host: `evil.example:${port}`, 'content-type': 'application/json', authorization: `Bearer ${controlToken}` },
        json,
      ),
    ];
    expect(statuses).toEqual([401, 401, 421]);
    await new Promise((r) => setTimeout(r, 100));
    expect((await call('inbox.threads', {})).total).toBe(0);
    expect(pushLog()).toBe(0);
  });

  it('its address and control token are written for developers, for the owner only, and removed when it stops', async () => {
    ctx = await startTestCore();
    const file = demoInfoFile(ctx.dataDir);
    const info = JSON.parse(readFileSync(file, 'utf8')) as { controlUrl: string; controlToken: string };
    expect(info).toMatchObject({ controlUrl: ctx.emulator().controlUrl, controlToken: ctx.emulator().controlToken });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await call('connection.save', sandbox);
    await eventually(
      () => Promise.resolve(existsSync(file)),
      (exists) => !exists,
    );
  });
});

describe('what was written on the demo stays with the demo', () => {
  it('a reply queued on the demo is not sent to sandbox after a switch; back on the demo it goes out', async () => {
    ctx = await startTestCore();
    await call('demo.deliver', { kind: 'message', channel: '19', hotelId: 'IK-DEMO-001' });
    const [thread] = (await call('inbox.threads', {})).threads;
    // A wrong secret holds the reply in a paused queue while the demo is still the provider in use.
    await call('connection.save', { ...demo, secrets: { clientSecret: 'not-the-demo-secret' } });
    await call('inbox.sendReply', { threadId: thread!.id, body: 'See you on Friday!' });
    await eventually(
      () => call('outbox.status'),
      (s) => s.paused !== null,
    );
    await call('connection.save', sandbox); // saving credentials resumes the queue, now with sandbox in use
    const refused = await eventually(
      () => call('inbox.thread', { id: thread!.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'failed',
    );
    const delivery = refused.messages.at(-1)!.delivery!;
    expect(delivery.error).toMatchObject({
      code: 'other_provider',
      message: expect.stringContaining('was not sent to Su sandbox'),
    });

    await call('connection.save', { ...demo, secrets: { clientSecret: 'demo-client-secret' } });
    await eventually(
      () => call('demo.status'),
      (s) => s.running,
    );
    await call('outbox.retry', { id: delivery.outboxId });
    await eventually(
      () => call('inbox.thread', { id: thread!.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'sent',
    );
    expect(ctx.emulator().state.requests.some((r) => r.path.endsWith('/messagingAB'))).toBe(true);
  });
});

describe('leaving the demo stops it at once', () => {
  it('a sample inbox on its way stops arriving the moment the owner switches', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: true, everydayEveryMs: [3_600_000, 3_600_000] } });
    await call('connection.save', sandbox);
    const switchedAt = Date.now();
    const stored = ctx.core.db.db.prepare('SELECT max(received_at) AS last, count(*) AS n FROM push_log');
    await eventually(
      () => call('demo.status'),
      (s) => !s.running,
    );
    await new Promise((r) => setTimeout(r, 500));
    const { last, n } = stored.get() as { last: number | null; n: number };
    expect(last ?? 0).toBeLessThanOrEqual(switchedAt);
    expect(n).toBeLessThan(12);
  });

  it('a reply to one of the demo’s guests, written after the switch, goes nowhere and cannot be marked sent', async () => {
    ctx = await startTestCore();
    await call('demo.deliver', { kind: 'message', channel: '9', hotelId: 'IK-DEMO-001' });
    await call('demo.deliver', { kind: 'review', channel: '19', hotelId: 'IK-DEMO-001' });
    const [thread] = (await call('inbox.threads', {})).threads;
    const [review] = await call('inbox.reviews');
    await call('connection.save', sandbox);
    await call('inbox.sendReply', { threadId: thread!.id, body: 'Thank you for your message!' });
    await call('inbox.replyToReview', { reviewId: review!.id, body: 'Thank you for staying with us.' });
    const failed = await eventually(
      () => call('inbox.thread', { id: thread!.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'failed',
    );
    const delivery = failed.messages.at(-1)!.delivery!;
    expect(delivery.error?.message).toMatch(/belongs to the built-in demo provider, so it was not sent to Su sandbox/);
    const reviewReply = await eventually(
      async () => (await call('inbox.reviews')).find((r) => r.id === review!.id)!.replies[0]!,
      (r) => r.delivery?.state === 'failed',
    );
    expect(reviewReply.delivery?.error?.code).toBe('other_provider');
    expect(await dispatch('outbox.markSent', { id: delivery.outboxId })).toMatchObject({
      ok: false,
      error: { code: 'invalid_state', message: expect.stringContaining('not sent anywhere') },
    });
  });
});
