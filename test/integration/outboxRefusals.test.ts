import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../src/shared/result';
import type { Database } from '../../src/main/db/database';
import { startClientOnEmulator } from '../support/clientOnEmulator';
import { databaseFile, replyOutbox } from '../support/outboxHarness';

// Refused replies and per-thread order, with the real client against the emulator and a real database file.
const reply = (bookingid: string, message: string, hotelid = 'IK-DEMO-001') => ({
  hotelid,
  channelcode: '19' as const,
  message,
  bookingid,
});

let file: ReturnType<typeof databaseFile>;
let database: Database;
let ctx: Awaited<ReturnType<typeof startClientOnEmulator>>;
let box: ReturnType<typeof replyOutbox>;
beforeEach(async () => {
  file = databaseFile();
  database = file.open();
  ctx = await startClientOnEmulator();
  box = replyOutbox(database, () => ctx.client);
  box.outbox.start();
});
afterEach(async () => {
  await box.outbox.stop();
  database.close();
  await ctx.close();
  file.remove();
});

/** The messages the emulator accepted, in order. */
const accepted = async () =>
  (await ctx.requestsTo('/messagingAB'))
    .filter((r) => r.status === 200)
    .map((r) => (r.body as { message: string }).message);

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppFailure) return error.error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('order per thread', () => {
  it('a second reply waits for a failed first one while another thread goes ahead; discard unblocks it', async () => {
    const { outbox } = box;
    const first = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'first', 'NOPE'));
    const second = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'second'));
    const other = outbox.enqueue('message-reply', 'thread:2', reply('B2', 'other thread'));
    await outbox.kick();

    expect(outbox.get(first.id)?.state).toBe('failed');
    expect(outbox.get(second.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(outbox.get(other.id)?.state).toBe('sent');
    // Long after its due time, it still waits for the thread's earlier reply.
    box.clock.advance(3_600_000);
    await outbox.kick();
    expect(outbox.get(second.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(await accepted()).toEqual(['other thread']);

    expect(outbox.discard(first.id).state).toBe('discarded');
    await outbox.kick();
    expect(outbox.list('thread:1').map((i) => i.state)).toEqual(['discarded', 'sent']);
    expect(await accepted()).toEqual(['other thread', 'second']);
  });

  it('a later reply also waits while an earlier one of its thread is still queued for a retry', async () => {
    const { outbox } = box;
    const first = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'first'));
    const second = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'second'));
    // The first is not due yet (as after a transient failure); the second must not overtake it.
    database.db.prepare('UPDATE outbox SET next_attempt_at = ? WHERE id = ?').run(box.clock.now() + 60_000, first.id);
    await outbox.kick();
    expect(outbox.get(second.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(box.timers.delays()).toEqual([60_000]);
    box.clock.advance(60_000);
    await outbox.kick();
    expect(await accepted()).toEqual(['first', 'second']);
  });
});

describe('a refused reply', () => {
  it("stops with the provider's message, and after an edit and a retry is sent before the thread's next", async () => {
    const { outbox } = box;
    const first = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'first', 'NOPE'));
    const second = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'second'));
    await outbox.kick();

    expect(outbox.get(first.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: {
        field: 'hotelid',
        httpStatus: 400,
        retryable: false,
        message: expect.stringMatching(/No property found/),
      },
    });
    expect(outbox.counts()).toEqual({ queued: 1, sending: 0, failed: 1 });

    const edited = outbox.edit(first.id, reply('B1', 'first, corrected'));
    expect(edited).toMatchObject({ state: 'failed', payload: reply('B1', 'first, corrected') });
    expect(outbox.retry(first.id)).toMatchObject({ state: 'queued', attempts: 0, lastError: null });
    await outbox.kick();

    expect(outbox.list('thread:1').map((i) => [i.id, i.state])).toEqual([
      [first.id, 'sent'],
      [second.id, 'sent'],
    ]);
    expect(await accepted()).toEqual(['first, corrected', 'second']);
  });

  it('an edit is validated again by the client on the next attempt: an invalid one stops before any request', async () => {
    const { outbox } = box;
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'hello', 'NOPE'));
    await outbox.kick();
    const before = (await ctx.requestsTo('/messagingAB')).length;

    outbox.edit(item.id, { hotelid: 'IK-DEMO-001', channelcode: '19', message: 'hello' });
    outbox.retry(item.id);
    await outbox.kick();

    expect(outbox.get(item.id)).toMatchObject({
      state: 'failed',
      lastError: { code: 'validation', field: 'bookingid', retryable: false },
    });
    expect(await ctx.requestsTo('/messagingAB')).toHaveLength(before);
  });

  it('owner decisions are refused for items in the wrong state', async () => {
    const { outbox } = box;
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'hello'));
    expect(codeOf(() => outbox.retry(item.id))).toBe('invalid_state');
    expect(codeOf(() => outbox.markSent(item.id))).toBe('invalid_state');
    await outbox.kick();
    expect(outbox.get(item.id)?.state).toBe('sent');
    expect(codeOf(() => outbox.edit(item.id, reply('B1', 'changed')))).toBe('invalid_state');
    expect(codeOf(() => outbox.discard(item.id))).toBe('invalid_state');
    expect(codeOf(() => outbox.retry(999))).toBe('not_found');
    expect(outbox.get(item.id)).toMatchObject({ state: 'sent', payload: reply('B1', 'hello') });
  });

  it('a queued item can be discarded before it is sent', async () => {
    const { outbox } = box;
    await outbox.stop();
    const item = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'never mind'));
    outbox.discard(item.id);
    outbox.start();
    await outbox.kick();
    expect(outbox.get(item.id)?.state).toBe('discarded');
    expect(await ctx.requestsTo('/messagingAB')).toEqual([]);
  });
});
