import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { REPLY_MAX_LENGTH } from '../../src/shared/inbox';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// Issue 13, points 3, 5 and 6, on a real core against the emulator: placeholders, lengths, refused review replies.
let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());
const firstThread = async () => (await call('inbox.threads')).threads[0]!;
const outboxRows = () => (ctx.core.db.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('a reply that still holds a {{placeholder}}', () => {
  it('is refused before anything is written or queued, naming the placeholder for the body field', async () => {
    await control().push({ kind: 'message', channel: '19', message: 'When can we check in?' });
    const thread = await firstThread();
    const before = outboxRows();
    const refused = await dispatch('inbox.sendReply', {
      threadId: thread.id,
      body: 'Hi {{guest_first_name}}, check-in on {{ check_in }} from 3 pm.',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation', field: 'body' } });
    const message = refused.ok ? '' : refused.error.message;
    expect(message).toContain('{{guest_first_name}}');
    expect(message).toContain('{{check_in}}');
    expect(outboxRows()).toBe(before);
    expect((await call('inbox.thread', { id: thread.id })).messages.filter((m) => m.author === 'host')).toEqual([]);
    expect((await control().requests()).filter((r) => r.path.endsWith('/messagingAB'))).toEqual([]);
    // Filled by hand, the same reply goes.
    await call('inbox.sendReply', { threadId: thread.id, body: 'Hi Anna, check-in on 12 March from 3 pm.' });
    expect(outboxRows()).toBe(before + 1);
  });

  it('is refused under a review and when a refused reply is edited', async () => {
    await control().push({ kind: 'review', channel: '19' });
    const review = (await call('inbox.reviews'))[0]!;
    expect(
      await dispatch('inbox.replyToReview', { reviewId: review.id, body: 'Thank you, {{guest_first_name}}!' }),
    ).toMatchObject({ ok: false, error: { field: 'body', message: expect.stringContaining('{{guest_first_name}}') } });
    expect((await call('inbox.reviews'))[0]!.replies).toEqual([]);

    await control().push({ kind: 'message', channel: '9' });
    const thread = (await call('inbox.threads')).threads.find((t) => t.channel === '9')!;
    ctx.core.db.db.prepare("UPDATE threads SET hotel_id = 'NO-SUCH-HOTEL' WHERE id = ?").run(thread.id);
    await call('inbox.sendReply', { threadId: thread.id, body: 'Hello' });
    const failed = await eventually(
      () => call('inbox.thread', { id: thread.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'failed',
    );
    const outboxId = failed.messages.at(-1)!.delivery!.outboxId;
    expect(await dispatch('inbox.editReply', { id: outboxId, body: 'Hello {{listing_name}}' })).toMatchObject({
      ok: false,
      error: { field: 'body', message: expect.stringContaining('{{listing_name}}') },
    });
    expect((await call('inbox.thread', { id: thread.id })).messages.at(-1)!.body).toBe('Hello');
  });
});

describe('the length of a reply', () => {
  it('a 26,600-character draft is kept across a restart; sending it is refused naming the limit', async () => {
    await control().push({ kind: 'message', channel: '244' });
    const thread = await firstThread();
    const long = 'The whole house guide, pasted. '.repeat(860).slice(0, 26_600);
    expect(long).toHaveLength(26_600);
    await call('inbox.saveDraft', { threadId: thread.id, body: long });
    await control().push({ kind: 'review', channel: '9' });
    const review = (await call('inbox.reviews'))[0]!;
    await call('inbox.saveReviewDraft', { reviewId: review.id, body: long });

    await ctx.core.close();
    ctx = await startTestCore({ dataDir: ctx.dataDir });
    expect((await call('inbox.thread', { id: thread.id })).draft).toBe(long);
    expect((await call('inbox.reviews'))[0]!.draft).toBe(long);

    expect(await dispatch('inbox.sendReply', { threadId: thread.id, body: long })).toMatchObject({
      ok: false,
      error: { field: 'body', message: expect.stringContaining(`At most ${REPLY_MAX_LENGTH} characters`) },
    });
    // Refused, the draft is still there.
    expect((await call('inbox.thread', { id: thread.id })).draft).toBe(long);
  });
});

describe('a refused Booking.com review reply', () => {
  it('on an inactive property (947) does not count as replied; discarding it opens the reply box again', async () => {
    await control().push({ kind: 'review', channel: '19', review_title: 'Lovely cottage' });
    const review = (await call('inbox.reviews'))[0]!;
    // Mill Cottage (IK-DEMO-003) is inactive at Su: review replies for it are refused with code 947.
    ctx.core.db.db.prepare("UPDATE reviews SET hotel_id = 'IK-DEMO-003' WHERE id = ?").run(review.id);
    await call('inbox.replyToReview', { reviewId: review.id, body: 'Thank you for staying!' });
    const refused = await eventually(
      async () => (await call('inbox.reviews')).find((r) => r.id === review.id)!,
      (r) => r.replies[0]?.delivery?.state === 'failed',
    );
    expect(refused.replies[0]!.delivery!.error).toMatchObject({ providerCode: '947' });
    expect(refused.reply.allowed).toBe(false);
    const reason = refused.reply.allowed ? '' : refused.reply.reason;
    expect(reason).not.toMatch(/replied already/);
    expect(reason).toMatch(/not published/);
    // It still needs a reply: the owner has to reply elsewhere or discard it.
    expect(refused.needsReply).toBe(true);

    await call('outbox.discard', { id: refused.replies[0]!.delivery!.outboxId });
    expect((await call('inbox.reviews')).find((r) => r.id === review.id)!.reply).toEqual({ allowed: true });
  });

  it('one that went out still closes the review to a second reply', async () => {
    await control().push({ kind: 'review', channel: '19', review_title: 'Great stay' });
    const review = (await call('inbox.reviews'))[0]!;
    await call('inbox.replyToReview', { reviewId: review.id, body: 'Thank you!' });
    const sent = await eventually(
      async () => (await call('inbox.reviews')).find((r) => r.id === review.id)!,
      (r) => r.replies[0]?.delivery?.state === 'sent',
    );
    expect(sent.reply).toMatchObject({ allowed: false, reason: expect.stringMatching(/replied already/) });
  });
});

describe('pushes in quarantine', () => {
  it('say what they looked like, so the inbox can tell a review from noise', async () => {
    const status = await call('intake.status');
    const partner = ctx.emulator().state.partnerEndpoint!;
    const auth = `Basic ${Buffer.from(`${partner.username}:${partner.password}`).toString('base64')}`;
    const post = (body: string) =>
      fetch(status.localUrl!, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body,
      });
    expect((await post('{"event":"booking_modified"}')).status).toBe(200);
    // A real guest review that does not fit the review's shape (it names no channel): kept aside, as a review.
    const review = { hotel_id: 'IK-DEMO-001', channel_review_id: '19_Q1', review_title: 'Lovely, but the shower…' };
    expect((await post(JSON.stringify(review))).status).toBe(200);
    expect((await call('inbox.counts')).quarantined).toBe(2);
    expect((await call('intake.quarantine')).map((q) => q.kind)).toEqual(['review', null]);
  });
});
