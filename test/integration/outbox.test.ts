import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import type { ProviderClient } from '../../src/main/provider/client';
import { startClientOnEmulator } from '../support/clientOnEmulator';
import { databaseFile, providerClient, replyOutbox, startStubServer, until } from '../support/outboxHarness';

// The outbox on a real database file, sending with the real provider client to the emulator over loopback.
const HOTEL = 'IK-DEMO-001';
const reply = (bookingid: string, message = `Hello ${bookingid}`) => ({
  hotelid: HOTEL,
  channelcode: '19' as const,
  message,
  bookingid,
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

let file: ReturnType<typeof databaseFile>;
let ctx: Awaited<ReturnType<typeof startClientOnEmulator>>;
const opened: Database[] = [];
const open = () => {
  const database = file.open();
  opened.push(database);
  return database;
};
beforeEach(async () => {
  file = databaseFile();
  ctx = await startClientOnEmulator();
});
afterEach(async () => {
  for (const d of opened.splice(0)) if (d.db.isOpen) d.close();
  await ctx.close();
  file.remove();
});

const noClient = (): ProviderClient => {
  throw new Error('nothing should be sent in this test');
};

describe('queueing with the local change', () => {
  it('an item queued in a transaction that rolls back leaves no row, and the UI never hears of it', async () => {
    const database = open();
    const { outbox, changes } = replyOutbox(database, noClient);
    expect(() =>
      database.transaction(() => {
        database.db.prepare("INSERT INTO threads (channel, thread_key, updated_at) VALUES ('19', 'B1', 1)").run();
        outbox.enqueue('message-reply', 'thread:1', reply('B1'));
        throw new Error('the local change failed');
      }),
    ).toThrow('the local change failed');
    await nextTurn();
    expect(database.db.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
    expect(database.db.prepare('SELECT count(*) AS n FROM threads').get()).toEqual({ n: 0 });
    expect(changes).toEqual([]);
  });

  it('an item queued in a committed transaction is there with the local change; the UI hears after the commit', async () => {
    const database = open();
    const { outbox, changes } = replyOutbox(database, noClient);
    const item = database.transaction(() => {
      database.db.prepare("INSERT INTO threads (channel, thread_key, updated_at) VALUES ('19', 'B1', 1)").run();
      const queued = outbox.enqueue('message-reply', 'thread:1', reply('B1'));
      expect(changes).toEqual([]);
      return queued;
    });
    await nextTurn();
    expect(changes.map((c) => [c.id, c.state])).toEqual([[item.id, 'queued']]);
    expect(outbox.get(item.id)).toMatchObject({ kind: 'message-reply', entityKey: 'thread:1', payload: reply('B1') });
    expect(outbox.counts()).toEqual({ queued: 1, sending: 0, failed: 0 });
  });

  it('refuses a kind nothing can send', () => {
    const { outbox } = replyOutbox(open(), noClient);
    expect(() => outbox.enqueue('rate-push' as 'message-reply', 'rates', reply('B1'))).toThrow(/No sender/);
  });
});

describe('delivery', () => {
  it('each kind of reply reaches the emulator exactly once and its row is sent', async () => {
    const database = open();
    const { outbox, clock } = replyOutbox(database, () => ctx.client);
    const review = {
      hotel_id: HOTEL,
      channel_id: '19' as const,
      channel_property_id: '7741203',
      channel_review_id: '19_R1',
      review_reply: 'Thank you!',
    };
    const items = database.transaction(() => [
      outbox.enqueue('message-reply', 'thread:1', reply('B1', 'See you Friday')),
      outbox.enqueue('review-reply', 'review:1', review),
      outbox.enqueue('legacy-review-reply', 'review:2', { hotelid: HOTEL, reviewid: 'L1', replytext: 'Thanks!' }),
    ]);
    outbox.start();
    await outbox.kick();
    clock.advance(3_600_000);
    await outbox.kick();

    const messages = await ctx.requestsTo('/messagingAB');
    expect(messages.map((r) => [r.status, (r.body as { message: string }).message])).toEqual([[200, 'See you Friday']]);
    expect((await ctx.requestsTo('/review/reply')).map((r) => r.status)).toEqual([200]);
    expect((await ctx.requestsTo('/OTA_ReplyReview')).map((r) => r.status)).toEqual([200]);
    const [message, answer, legacy] = items.map((i) => outbox.get(i.id)!);
    expect(message).toMatchObject({ state: 'sent', attempts: 1, result: { response: 'Successfully posted' } });
    expect(answer).toMatchObject({ state: 'sent', result: { message: 'Review replied successfully' } });
    expect(legacy).toMatchObject({ state: 'sent', result: { accepted: true } });
    expect(outbox.counts()).toEqual({ queued: 0, sending: 0, failed: 0 });
    expect(outbox.pending()).toEqual([]);
    await outbox.stop();
  });

  it('queued and failed items survive closing and reopening the database file', async () => {
    let database = open();
    const first = replyOutbox(database, () => ctx.client);
    const refused = first.outbox.enqueue('message-reply', 'thread:9', { ...reply('B9'), hotelid: 'NOPE' });
    first.outbox.start();
    await first.outbox.kick();
    await first.outbox.stop();
    const waiting = [
      first.outbox.enqueue('message-reply', 'thread:1', reply('B1', 'first')),
      first.outbox.enqueue('message-reply', 'thread:1', reply('B1', 'second')),
    ];
    database.close();

    database = open();
    const second = replyOutbox(database, () => ctx.client);
    expect(second.outbox.list('thread:1').map((i) => [i.id, i.state, i.payload])).toEqual(
      waiting.map((i) => [i.id, 'queued', i.payload]),
    );
    expect(second.outbox.get(refused.id)).toMatchObject({
      state: 'failed',
      lastError: { message: expect.stringMatching(/No property found/) },
    });
    second.outbox.start();
    await second.outbox.kick();
    expect(second.outbox.list('thread:1').map((i) => i.state)).toEqual(['sent', 'sent']);
    const sent = (await ctx.requestsTo('/messagingAB')).filter((r) => r.status === 200);
    expect(sent.map((r) => (r.body as { message: string }).message)).toEqual(['first', 'second']);
  });

  it('never has more than the configured number of sends in flight', async () => {
    const silent = await startStubServer();
    try {
      const client = providerClient({ tokenIssuerUrl: ctx.emulator.mainUrl, mainBaseUrl: silent.url, timeoutMs: 200 });
      const { outbox, changes } = replyOutbox(open(), () => client, { maxInFlight: 2 });
      for (let i = 1; i <= 5; i++) outbox.enqueue('message-reply', `thread:${i}`, reply(`B${i}`));
      outbox.start();
      await outbox.kick();

      const sending = new Set<number>();
      let most = 0;
      for (const change of changes) {
        if (change.state === 'sending') sending.add(change.id);
        else sending.delete(change.id);
        most = Math.max(most, sending.size);
      }
      expect(most).toBe(2);
      expect(silent.requests()).toBe(5);
      expect(outbox.counts()).toEqual({ queued: 0, sending: 0, failed: 5 });
    } finally {
      await silent.close();
    }
  });
});

describe('a crash mid-send', () => {
  it('an item left sending by a process that died is failed as interrupted on the next start, never resent', async () => {
    const silent = await startStubServer();
    try {
      const client = providerClient({ tokenIssuerUrl: ctx.emulator.mainUrl, mainBaseUrl: silent.url });
      const before = open();
      const dying = replyOutbox(before, () => client);
      const item = dying.outbox.enqueue('message-reply', 'thread:1', reply('B1'));
      dying.outbox.start();
      await until(() => silent.requests() === 1);
      expect(dying.outbox.get(item.id)?.state).toBe('sending');
      // The process dies here: its database connection goes away with the request still unanswered.
      before.close();

      const after = replyOutbox(open(), () => client);
      expect(after.outbox.get(item.id)?.state).toBe('sending');
      after.outbox.start();
      expect(after.outbox.get(item.id)).toMatchObject({
        state: 'failed',
        lastError: { code: 'interrupted', outcomeUnknown: true, retryable: false },
      });
      expect(after.changes.map((c) => [c.id, c.state])).toEqual([[item.id, 'failed']]);
      after.clock.advance(3_600_000);
      await after.outbox.kick();
      expect(silent.requests()).toBe(1);

      // The old worker's request now ends; with its connection gone it can record nothing, and says so.
      await silent.close();
      await until(() => dying.errors.length > 0);
      expect(after.outbox.get(item.id)?.state).toBe('failed');
      after.outbox.markSent(item.id);
      expect(after.outbox.get(item.id)).toMatchObject({ state: 'sent', result: { confirmedByOwner: true } });
    } finally {
      await silent.close();
    }
  });
});
