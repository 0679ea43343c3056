import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvents } from '../../src/main/bus';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { inboxFeature } from '../../src/main/inbox/feature';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// What the inbox tells the other features on the core's bus, and the read flag that only the owner's reading
// changes: a feature that reacts to a guest's message (an auto-reply) must never hide it from the owner.

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('the inbox tells the bus what it filed', () => {
  it('each guest message once: not the owner’s own message Su delivers, nor a repost', async () => {
    const heard: CoreEvents['guestMessageFiled'][] = [];
    ctx.core.bus.on('guestMessageFiled', (filed) => void heard.push(filed));
    const booking = { kind: 'message', channel: '19', bookingid: '4099000001' } as const;
    await control().push({ ...booking, messageid: 'bus-guest-1', message: 'Is there parking?' });
    await control().push({ ...booking, messageid: 'bus-guest-1', message: 'Is there parking?' });
    await control().push({
      ...booking,
      messageid: 'bus-host-1',
      message: 'Yes, in the courtyard.',
      message_type: 'property',
    });
    const { threads } = await eventually(
      () => call('inbox.threads', {}),
      (page) => page.threads[0]?.preview === 'Yes, in the courtyard.',
    );
    const thread = await call('inbox.thread', { id: threads[0]!.id });
    const guest = thread.messages.find((m) => m.body === 'Is there parking?')!;
    expect(heard).toEqual([{ messageId: guest.id, threadId: thread.id }]);
  });

  it('a review when it is filed and again when Su sends an update of it', async () => {
    const heard: CoreEvents['reviewFiled'][] = [];
    ctx.core.bus.on('reviewFiled', (filed) => void heard.push(filed));
    await control().push({ kind: 'review', channel: '19', channel_review_id: 'bus-review-1', status: 'created' });
    await eventually(
      async () => heard.length,
      (n) => n === 1,
    );
    await control().push({ kind: 'review', channel: '19', channel_review_id: 'bus-review-1', status: 'published' });
    await eventually(
      async () => heard.length,
      (n) => n === 2,
    );
    const [review] = await call('inbox.reviews', {});
    expect(heard).toEqual([
      { reviewId: review!.id, created: true },
      { reviewId: review!.id, created: false },
    ]);
  });
});

describe('only the owner’s reading marks something read', () => {
  it('a reply queued to a conversation leaves its guest message unread until the owner opens it', async () => {
    await control().push({ kind: 'message', channel: '19', message: 'Can we check in early?' });
    const { threads } = await eventually(
      () => call('inbox.threads', {}),
      (page) => page.total === 1,
    );
    const id = threads[0]!.id;
    await call('inbox.sendReply', { threadId: id, body: 'From noon, yes.' });
    expect((await call('inbox.thread', { id })).unread).toBe(1);
    expect((await call('inbox.counts', {})).unreadThreads).toBe(1);
    await call('inbox.markThreadRead', { id });
    expect((await call('inbox.thread', { id })).unread).toBe(0);
  });

  it('a reply queued to a review leaves the review unread until the owner reads it', async () => {
    await control().push({ kind: 'review', channel: '19' });
    const [review] = await eventually(
      () => call('inbox.reviews', {}),
      (list) => list.length === 1 && list[0]!.reply.allowed,
    );
    await call('inbox.replyToReview', { reviewId: review!.id, body: 'Thank you for staying with us.' });
    expect((await call('inbox.counts', {})).unreadReviews).toBe(1);
    await call('inbox.markReviewRead', { id: review!.id });
    expect((await call('inbox.counts', {})).unreadReviews).toBe(0);
  });
});

describe('a reply queued by a feature (not the owner’s Send)', () => {
  it('goes out through the outbox like the owner’s, leaves their draft, and commits with the caller’s own changes', async () => {
    await control().push({ kind: 'message', channel: '19', message: 'Are you open late?' });
    const { threads } = await eventually(
      () => call('inbox.threads', {}),
      (page) => page.total === 1,
    );
    const id = threads[0]!.id;
    await call('inbox.saveDraft', { threadId: id, body: 'Half-written by the owner' });
    const { replies } = ctx.core.use(inboxFeature);
    const database = ctx.core.db;

    // The caller's transaction fails: nothing of the reply stays, nothing is sent.
    expect(() =>
      database.transaction(() => {
        replies.queueReply(id, 'We are closed now; we answer in the morning.');
        throw new Error('the caller’s own bookkeeping failed');
      }),
    ).toThrow('bookkeeping failed');
    expect((await call('inbox.thread', { id })).messages).toHaveLength(1);

    database.transaction(() => replies.queueReply(id, 'We are closed now; we answer in the morning.'));
    const sent = await eventually(
      () => call('inbox.thread', { id }),
      (thread) => thread.messages.at(-1)?.delivery?.state === 'sent',
    );
    expect(sent.messages.at(-1)!.body).toBe('We are closed now; we answer in the morning.');
    expect(sent.draft).toBe('Half-written by the owner');
    expect(sent.unread).toBe(1);
  });
});
