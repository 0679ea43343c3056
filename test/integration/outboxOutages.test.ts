import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import type { ProviderClient } from '../../src/main/provider/client';
import {
  databaseFile,
  providerClient,
  replyOutbox,
  startRestartableEmulator,
  startStubServer,
} from '../support/outboxHarness';

// The provider away, struggling, hung, or refusing our credentials: real loopback HTTP, a real database file.
const reply = (bookingid: string, message = `Hello ${bookingid}`) => ({
  hotelid: 'IK-DEMO-001',
  channelcode: '19' as const,
  message,
  bookingid,
});

let file: ReturnType<typeof databaseFile>;
let database: Database;
let provider: Awaited<ReturnType<typeof startRestartableEmulator>>;
let stub: Awaited<ReturnType<typeof startStubServer>> | null = null;
beforeEach(async () => {
  file = databaseFile();
  database = file.open();
  provider = await startRestartableEmulator();
});
afterEach(async () => {
  if (database.db.isOpen) database.close();
  await stub?.close();
  stub = null;
  await provider.close();
  file.remove();
});

const accepted = async () => (await provider.requestsTo('/messagingAB')).filter((r) => r.status === 200);

describe('the provider unreachable', () => {
  it('keeps the item queued with a growing, capped backoff, and sends it exactly once when it is back', async () => {
    const client = providerClient({ tokenIssuerUrl: provider.mainUrl });
    const { outbox, clock, timers } = replyOutbox(database, () => client);
    await provider.stop();
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1'));
    outbox.start();
    await outbox.kick();

    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const now = outbox.get(item.id)!;
      expect(now).toMatchObject({ state: 'queued', attempts: i + 1, lastError: { code: 'network', retryable: true } });
      expect(now.lastError?.outcomeUnknown).toBeUndefined();
      const delay = now.nextAttemptAt - clock.now();
      delays.push(delay);
      // The worker sleeps until then (and re-checks at least every minute); nothing happens before.
      expect(timers.delays()).toEqual([Math.min(delay, 60_000)]);
      await outbox.kick();
      expect(outbox.get(item.id)?.attempts).toBe(i + 1);
      clock.advance(delay);
      await outbox.kick();
    }
    // random() is 1 in these tests, so each delay is the ceiling min(5 min, 2 s · 2^(attempts − 1)).
    expect(delays).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => s * 1000));

    await provider.restart();
    clock.advance(outbox.get(item.id)!.nextAttemptAt - clock.now());
    await outbox.kick();
    expect(outbox.get(item.id)).toMatchObject({ state: 'sent', lastError: null });
    expect(await provider.requestsTo('/messagingAB')).toHaveLength(1);
    clock.advance(3_600_000);
    await outbox.kick();
    expect(await provider.requestsTo('/messagingAB')).toHaveLength(1);
  });

  it('holds back every thread while offline: one probe per backoff step, then all go when it answers', async () => {
    const client = providerClient({ tokenIssuerUrl: provider.mainUrl });
    const { outbox, clock, timers } = replyOutbox(database, () => client);
    await provider.stop();
    outbox.enqueue('message-reply', 'thread:1', reply('B1'));
    outbox.start();
    await outbox.kick();
    expect(outbox.unreachableUntil()).toBe(clock.now() + 2_000);

    outbox.enqueue('message-reply', 'thread:2', reply('B2'));
    outbox.enqueue('message-reply', 'thread:3', reply('B3'));
    await outbox.kick();
    const attempts = () => outbox.pending().reduce((n, i) => n + i.attempts, 0);
    expect(attempts()).toBe(1);
    expect(timers.delays()).toEqual([2_000]);

    clock.advance(2_000);
    await outbox.kick();
    expect(attempts()).toBe(2);
    expect(outbox.unreachableUntil()).toBe(clock.now() + 4_000);

    await provider.restart();
    clock.advance(4_000);
    await outbox.kick();
    // One probe got through, which lifts the hold: every thread's due reply goes.
    expect(outbox.unreachableUntil()).toBeNull();
    expect(outbox.counts()).toEqual({ queued: 0, sending: 0, failed: 0 });
    expect((await accepted()).map((r) => (r.body as { bookingid: string }).bookingid).sort()).toEqual([
      'B1',
      'B2',
      'B3',
    ]);
  });

  it('retries a 503 answer with backoff and sends once the provider is well again', async () => {
    stub = await startStubServer({ status: 503, body: { status: 'Fail', response: 'Service Unavailable' } });
    const good = providerClient({ tokenIssuerUrl: provider.mainUrl });
    let current = providerClient({ tokenIssuerUrl: provider.mainUrl, mainBaseUrl: stub.url });
    const { outbox, clock } = replyOutbox(database, () => current);
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1'));
    outbox.start();
    await outbox.kick();
    expect(outbox.get(item.id)).toMatchObject({
      state: 'queued',
      attempts: 1,
      nextAttemptAt: clock.now() + 2_000,
      lastError: { httpStatus: 503, retryable: true },
    });
    // A provider that answers is reachable: no global hold.
    expect(outbox.unreachableUntil()).toBeNull();

    current = good;
    clock.advance(2_000);
    await outbox.kick();
    expect(outbox.get(item.id)?.state).toBe('sent');
    expect([stub.requests(), (await accepted()).length]).toEqual([1, 1]);
  });
});

describe('an authorization failure', () => {
  it('pauses the whole queue, survives a restart, and resume sends everything once credentials are fixed', async () => {
    const wrong = providerClient({ tokenIssuerUrl: provider.mainUrl, clientSecret: 'not-the-secret' });
    let current: ProviderClient = wrong;
    let box = replyOutbox(database, () => current);
    const first = box.outbox.enqueue('message-reply', 'thread:1', reply('B1'));
    box.outbox.start();
    await box.outbox.kick();

    expect(box.outbox.paused()).toMatchObject({
      itemId: first.id,
      since: box.clock.now(),
      error: { code: 'unauthorized', field: 'clientSecret', httpStatus: 401 },
    });
    expect(box.outbox.get(first.id)).toMatchObject({ state: 'queued', attempts: 0 });
    const tokenRequests = (await provider.requestsTo('/generate-access-token')).length;

    const second = box.outbox.enqueue('message-reply', 'thread:2', reply('B2'));
    box.clock.advance(3_600_000);
    await box.outbox.kick();
    expect(box.outbox.get(second.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(box.timers.delays()).toEqual([]);

    // The app restarts, still with the wrong secret: still paused, nothing attempted.
    await box.outbox.stop();
    database.close();
    database = file.open();
    box = replyOutbox(database, () => current);
    expect(box.outbox.paused()).toMatchObject({ itemId: first.id, error: { code: 'unauthorized' } });
    box.outbox.start();
    await box.outbox.kick();
    expect((await provider.requestsTo('/generate-access-token')).length).toBe(tokenRequests);
    expect(await provider.requestsTo('/messagingAB')).toEqual([]);

    current = providerClient({ tokenIssuerUrl: provider.mainUrl });
    box.outbox.resume();
    await box.outbox.kick();
    expect(box.outbox.paused()).toBeNull();
    expect([first, second].map((i) => box.outbox.get(i.id)?.state)).toEqual(['sent', 'sent']);
    expect(await accepted()).toHaveLength(2);
  });
});

describe('an answer that never comes', () => {
  it('a timed-out send is failed as outcome unknown, never resent, and can be marked sent', async () => {
    stub = await startStubServer();
    const client = providerClient({ tokenIssuerUrl: provider.mainUrl, mainBaseUrl: stub.url, timeoutMs: 200 });
    const { outbox, clock } = replyOutbox(database, () => client);
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1'));
    const later = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'later'));
    outbox.start();
    await outbox.kick();

    expect(outbox.get(item.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: { code: 'timeout', outcomeUnknown: true },
    });
    expect(outbox.get(later.id)).toMatchObject({ state: 'queued', attempts: 0 });
    clock.advance(24 * 3_600_000);
    await outbox.kick();
    expect(stub.requests()).toBe(1);
    expect(outbox.get(item.id)?.state).toBe('failed');

    // The owner saw the reply on the channel: it did arrive. The thread's next reply then goes (once).
    expect(outbox.markSent(item.id)).toMatchObject({ state: 'sent', result: { confirmedByOwner: true } });
    await outbox.kick();
    expect(stub.requests()).toBe(2);
    expect(outbox.list('thread:1').map((i) => i.state)).toEqual(['sent', 'failed']);
  });
});
