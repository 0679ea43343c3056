import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadDetail } from '../../src/shared/inbox';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());
/**
 * Sends a reply the provider refuses — the thread points at a property it does not know, so it answers status
 * Fail — and returns the thread once the reply shows as failed.
 */
async function refusedReply(threadId: number, body: string): Promise<ThreadDetail> {
  ctx.core.db.db.prepare("UPDATE threads SET hotel_id = 'NO-SUCH-HOTEL' WHERE id = ?").run(threadId);
  await call('inbox.sendReply', { threadId, body });
  return eventually(
    () => call('inbox.thread', { id: threadId }),
    (t) => t.messages.at(-1)?.delivery?.state === 'failed',
  );
}
const firstThread = async () => (await call('inbox.threads')).threads[0]!;

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('replying to a guest', () => {
  it('a reply is shown at once as the owner’s own, then sent as a correctly shaped messagingAB request', async () => {
    await control().push({ kind: 'message', channel: '244', message: 'Hi! Is there parking?' });
    const thread = await firstThread();
    const after = await call('inbox.sendReply', {
      threadId: thread.id,
      body: 'Hi!\nYes, free parking behind the house.',
    });
    expect(after.messages.at(-1)).toMatchObject({
      author: 'host',
      body: 'Hi!\nYes, free parking behind the house.',
      delivery: { state: expect.stringMatching(/queued|sending|sent/) },
    });
    expect(after.needsReply).toBe(false);
    const sent = await eventually(
      () => call('inbox.thread', { id: thread.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'sent',
    );
    expect(sent.messages.at(-1)!.delivery!.state).toBe('sent');
    const requests = (await control().requests()).filter((r) => r.path.endsWith('/messagingAB'));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toMatchObject({
      channelcode: '244',
      message: 'Hi!\\nYes, free parking behind the house.',
      threadid: expect.any(String),
      guestid: expect.any(String),
      listingid: expect.any(String),
    });
    expect(requests[0]!.status).toBe(200);
  });

  it('Booking.com replies carry the booking id and double-backslash line breaks', async () => {
    await control().push({ kind: 'message', channel: '19' });
    const thread = await firstThread();
    await call('inbox.sendReply', { threadId: thread.id, body: 'Line one\nLine two' });
    const [request] = await eventually(
      async () => (await control().requests()).filter((r) => r.path.endsWith('/messagingAB')),
      (r) => r.length > 0,
    );
    expect(request!.body).toMatchObject({
      channelcode: '19',
      bookingid: expect.any(String),
      message: 'Line one\\\\nLine two',
    });
  });

  it('a reply the provider refuses stops with its message; Edit and Discard are offered', async () => {
    await control().push({ kind: 'message', channel: '19', hotelid: 'IK-DEMO-001' });
    const thread = await firstThread();
    const failed = await refusedReply(thread.id, 'Hello');
    const delivery = failed.messages.at(-1)!.delivery!;
    expect(delivery.error).toMatchObject({ field: 'hotelid', retryable: false });
    expect(delivery.error!.message).toMatch(/No property found/);
    // The banner can take the owner to it.
    expect(await call('outbox.status')).toMatchObject({
      failed: 1,
      firstFailed: { threadId: thread.id },
    });
    const discarded = await call('outbox.discard', { id: delivery.outboxId });
    expect(discarded).toMatchObject({ failed: 0, firstFailed: null });
  });

  it('a draft is kept per thread and cleared by sending', async () => {
    await control().push({ kind: 'message', channel: '9' });
    const thread = await firstThread();
    await call('inbox.saveDraft', { threadId: thread.id, body: 'Dear guest, ' });
    expect((await call('inbox.thread', { id: thread.id })).draft).toBe('Dear guest, ');
    await call('inbox.sendReply', { threadId: thread.id, body: 'Dear guest, welcome!' });
    expect((await call('inbox.thread', { id: thread.id })).draft).toBeNull();
  });

  it('an empty reply is refused with a message for the composer', async () => {
    await control().push({ kind: 'message', channel: '9' });
    const thread = await firstThread();
    expect(await dispatch('inbox.sendReply', { threadId: thread.id, body: '   ' })).toMatchObject({
      ok: false,
      error: { field: 'body' },
    });
  });
});

describe('replying to reviews', () => {
  it('a Booking.com review and a legacy Airbnb review are answered; Booking.com allows only one reply', async () => {
    await control().push({ kind: 'review', channel: '19' });
    await control().push({ kind: 'legacy-review', channel: '244' });
    const reviews = await call('inbox.reviews');
    const booking = reviews.find((r) => r.channel === '19')!;
    const airbnb = reviews.find((r) => r.kind === 'legacy')!;
    expect(airbnb.reply).toEqual({ allowed: true });
    const answered = await call('inbox.replyToReview', {
      reviewId: booking.id,
      body: 'Thank you for staying with us!',
    });
    expect(answered.replies).toHaveLength(1);
    expect(answered.reply).toMatchObject({ allowed: false, reason: expect.stringMatching(/one reply/) });
    await call('inbox.replyToReview', { reviewId: airbnb.id, body: 'It was a pleasure to host you.' });
    const sent = await eventually(
      () => call('inbox.reviews'),
      (rs) => rs.every((r) => r.replies.every((x) => x.delivery?.state === 'sent')),
    );
    expect(sent.flatMap((r) => r.replies.map((x) => x.delivery?.state))).toEqual(['sent', 'sent']);
    const paths = (await control().requests()).map((r) => r.path);
    expect(paths.filter((p) => p.endsWith('/review/reply'))).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith('/OTA_ReplyReview'))).toHaveLength(1);
    expect(await dispatch('inbox.replyToReview', { reviewId: booking.id, body: 'Again' })).toMatchObject({
      ok: false,
      error: { field: 'reply' },
    });
  });

  it('a reply being written under a review is kept as a draft, across a restart, until it is sent', async () => {
    await control().push({ kind: 'review', channel: '19' });
    const review = (await call('inbox.reviews'))[0]!;
    expect(review.draft).toBeNull();
    await call('inbox.saveReviewDraft', { reviewId: review.id, body: 'Thank you for the kind words about ' });
    await ctx.core.close();
    ctx = await startTestCore({ dataDir: ctx.dataDir });
    expect((await call('inbox.reviews'))[0]!.draft).toBe('Thank you for the kind words about ');
    expect(await dispatch('inbox.saveReviewDraft', { reviewId: 999_999, body: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const answered = await call('inbox.replyToReview', {
      reviewId: review.id,
      body: 'Thank you for the kind words about our breakfast!',
    });
    expect(answered.draft).toBeNull();
    // Emptied, a draft is gone rather than kept blank.
    await call('inbox.saveReviewDraft', { reviewId: review.id, body: 'More' });
    await call('inbox.saveReviewDraft', { reviewId: review.id, body: '  ' });
    expect((await call('inbox.reviews'))[0]!.draft).toBeNull();
  });
});

describe('one reply per review, on every channel', () => {
  it('an Expedia and an Airbnb review take one reply: a second is refused, naming why, and never sent', async () => {
    await control().push({ kind: 'review', channel: '9' });
    await control().push({ kind: 'legacy-review', channel: '244' });
    const reviews = await call('inbox.reviews');
    for (const review of reviews) {
      expect(review.reply, review.channelName).toEqual({ allowed: true });
      const answered = await call('inbox.replyToReview', { reviewId: review.id, body: 'Thank you for staying!' });
      // The reply box closes at once: the reply is queued (or on its way), and it is the review's one reply.
      expect(answered.reply, review.channelName).toEqual({
        allowed: false,
        reason: `You have replied to this review already: a review takes one public reply, shown under it on ${review.channelName}.`,
      });
      expect(answered.needsReply).toBe(false);
      const again = await dispatch('inbox.replyToReview', { reviewId: review.id, body: 'Thank you again!' });
      expect(again).toMatchObject({
        ok: false,
        error: { field: 'reply', message: expect.stringContaining('You have replied to this review already') },
      });
    }
    const sent = await eventually(
      () => call('inbox.reviews'),
      (rs) => rs.every((r) => r.replies.every((x) => x.delivery?.state === 'sent')),
    );
    expect(sent.map((r) => r.replies.map((x) => x.body))).toEqual([
      ['Thank you for staying!'],
      ['Thank you for staying!'],
    ]);
    const paths = (await control().requests()).map((r) => r.path);
    expect(paths.filter((p) => p.endsWith('/review/reply'))).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith('/OTA_ReplyReview'))).toHaveLength(1);
  });

  it('while an Expedia reply Su refused waits for the owner, no second reply is offered', async () => {
    await control().push({ kind: 'review', channel: '9' });
    const review = (await call('inbox.reviews'))[0]!;
    // The review names a property Su does not know: Su refuses the reply (558).
    ctx.core.db.db.prepare("UPDATE reviews SET hotel_id = 'NOSUCHHOTEL' WHERE id = ?").run(review.id);
    await call('inbox.replyToReview', { reviewId: review.id, body: 'Thank you!' });
    const one = async () => (await call('inbox.reviews')).find((r) => r.id === review.id)!;
    const refused = await eventually(one, (r) => r.replies[0]?.delivery?.state === 'failed');
    expect(refused.reply).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^Your reply was not published/),
    });
    expect(refused.needsReply).toBe(true);
    expect(await dispatch('inbox.replyToReview', { reviewId: review.id, body: 'Thanks!' })).toMatchObject({
      ok: false,
      error: { field: 'reply' },
    });
    // Discarded, the review may be answered again.
    await call('outbox.discard', { id: refused.replies[0]!.delivery!.outboxId });
    expect((await one()).reply).toEqual({ allowed: true });
  });

  it('two replies to one review queued by an earlier version while Su was away: only the first is sent', async () => {
    await control().push({ kind: 'review', channel: '9' });
    await control().push({ kind: 'legacy-review', channel: '244' });
    const reviews = await call('inbox.reviews');
    await ctx.core.close();
    // As a version without the rule left them: two replies to each review, both queued.
    const file = new DatabaseSync(join(ctx.dataDir, 'innkeeper.db'));
    for (const r of reviews) {
      const payload =
        r.kind === 'current'
          ? {
              hotel_id: r.hotelId,
              channel_id: r.channel,
              channel_property_id: r.detail.channelPropertyId,
              channel_review_id: r.providerReviewId,
            }
          : { hotelid: r.hotelId, channelid: '244', reviewid: r.providerReviewId, listingid: r.detail.listingId };
      const text = r.kind === 'current' ? 'review_reply' : 'replytext';
      for (const body of ['Thank you!', 'Thank you so much!']) {
        const { lastInsertRowid } = file
          .prepare(
            `INSERT INTO outbox (entity_key, kind, payload, state, next_attempt_at, created_at, updated_at)
             VALUES (?, ?, ?, 'queued', 0, 0, 0)`,
          )
          .run(
            `review:${r.id}`,
            r.kind === 'current' ? 'review-reply' : 'legacy-review-reply',
            JSON.stringify({ ...payload, [text]: body }),
          );
        file
          .prepare('INSERT INTO review_replies (review_id, body, outbox_id, created_at) VALUES (?, ?, ?, 0)')
          .run(r.id, body, lastInsertRowid);
      }
    }
    file.close();
    ctx = await startTestCore({ dataDir: ctx.dataDir });
    const settled = await eventually(
      () => call('inbox.reviews'),
      (rs) => rs.every((r) => r.replies.every((x) => x.delivery?.state === 'sent' || x.delivery?.state === 'failed')),
    );
    for (const r of settled) {
      expect(r.replies.map((x) => x.delivery?.state)).toEqual(['sent', 'failed']);
      expect(r.replies[1]!.delivery!.error).toMatchObject({
        retryable: false,
        message:
          'Not sent: your earlier reply to this review went out already, and a review takes one public reply. Discard this copy.',
      });
      expect(r.reply).toMatchObject({ allowed: false });
    }
    const sent = (await control().requests()).filter((q) => /review\/reply|OTA_ReplyReview/.test(q.path));
    expect(
      sent.map(
        (q) => (q.body as Record<string, unknown>).review_reply ?? (q.body as Record<string, unknown>).replytext,
      ),
    ).toEqual(['Thank you!', 'Thank you!']);
  });
});

describe('a reply queued before the placeholder check', () => {
  it('is not sent at start or on Retry while it holds a {{placeholder}}: it fails naming it', async () => {
    await control().push({ kind: 'message', channel: '19', message: 'Is breakfast included?' });
    const thread = await firstThread();
    // A well-formed payload for this thread, from a reply the provider refused (then discarded).
    const failed = await refusedReply(thread.id, 'Yes.');
    const outboxId = failed.messages.at(-1)!.delivery!.outboxId;
    await call('outbox.discard', { id: outboxId });
    const { payload } = ctx.core.db.db.prepare('SELECT payload FROM outbox WHERE id = ?').get(outboxId) as {
      payload: string;
    };
    const reply = { ...JSON.parse(payload), hotelid: 'IK-DEMO-001', message: 'Yes {{guest_first_name}}, see {{a}b}}.' };
    await ctx.core.close();
    // As a version without the check left it: queued, straight in the outbox.
    const file = new DatabaseSync(join(ctx.dataDir, 'innkeeper.db'));
    const { lastInsertRowid } = file
      .prepare(
        `INSERT INTO outbox (entity_key, kind, payload, state, next_attempt_at, created_at, updated_at)
         VALUES (?, 'message-reply', ?, 'queued', 0, 0, 0)`,
      )
      .run(`thread:${thread.id}`, JSON.stringify(reply));
    file.close();
    ctx = await startTestCore({ dataDir: ctx.dataDir });
    const row = () =>
      ctx.core.db.db.prepare('SELECT state, attempts, last_error FROM outbox WHERE id = ?').get(lastInsertRowid) as {
        state: string;
        attempts: number;
        last_error: string | null;
      };
    await eventually(
      async () => row(),
      (r) => r.state === 'failed',
    );
    const error = JSON.parse(row().last_error!);
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining('{{guest_first_name}}') });
    expect(error.message).toContain('{{a}b}}');
    // Retry checks again: still not sent.
    await call('outbox.retry', { id: Number(lastInsertRowid) });
    await eventually(
      async () => row(),
      (r) => r.state === 'failed' && r.attempts >= 2,
    );
    const sent = (await control().requests()).filter(
      (r) => r.path.endsWith('/messagingAB') && JSON.stringify(r.body).includes('{{'),
    );
    expect(sent).toEqual([]);
  });
});

describe('saved replies', () => {
  it('start with two examples, can be added, edited and deleted, and refuse unknown variables', async () => {
    const start = await call('savedReplies.list');
    expect(start.map((r) => r.title)).toEqual(['Check-in details', 'Welcome']);
    const added = await call('savedReplies.save', {
      title: 'Late arrival',
      body: 'No problem, {{guest_first_name}}!',
    });
    const late = added.find((r) => r.title === 'Late arrival')!;
    const edited = await call('savedReplies.save', {
      id: late.id,
      title: 'Late arrival',
      body: 'The key box code follows, {{guest_first_name}}.',
    });
    expect(edited.find((r) => r.id === late.id)!.body).toContain('key box');
    expect((await call('savedReplies.delete', { id: late.id })).length).toBe(2);
    expect(await dispatch('savedReplies.save', { title: 'x', body: 'Hi {{name}}' })).toMatchObject({
      ok: false,
      error: { field: 'body' },
    });
  });
});

describe('what was sent decides the thread’s state', () => {
  it('a refused reply leaves the thread needing a reply; edit resends it and re-indexes its text', async () => {
    await control().push({ kind: 'message', channel: '19', message: 'Do you have a cot?' });
    const thread = await firstThread();
    const failed = await refusedReply(thread.id, 'Yes, a cot is free.');
    expect(failed.needsReply).toBe(true);
    expect(failed.preview).toBe('Do you have a cot?');
    // Fix the property and edit the text: it is sent, the thread no longer needs a reply, search finds the new text.
    ctx.core.db.db.prepare("UPDATE threads SET hotel_id = 'IK-DEMO-001' WHERE id = ?").run(thread.id);
    await call('inbox.editReply', {
      id: failed.messages.at(-1)!.delivery!.outboxId,
      body: 'Yes, a travel cot is free of charge.',
    });
    const sent = await eventually(
      () => call('inbox.thread', { id: thread.id }),
      (t) => t.messages.at(-1)?.delivery?.state === 'sent',
    );
    expect(sent.needsReply).toBe(false);
    expect(sent.messages.at(-1)!.body).toBe('Yes, a travel cot is free of charge.');
    expect((await call('inbox.threads', { search: 'travel' })).total).toBe(1);
    expect((await call('inbox.threads', { search: 'cot is free.' })).total).toBe(1);
  });

  it('a discarded reply puts the thread back to needing one', async () => {
    await control().push({ kind: 'message', channel: '19' });
    const thread = await firstThread();
    const failed = await refusedReply(thread.id, 'Hello');
    await call('outbox.discard', { id: failed.messages.at(-1)!.delivery!.outboxId });
    expect((await call('inbox.thread', { id: thread.id })).needsReply).toBe(true);
  });

  it('a Booking.com reply carries the listing id too, and a 244 reply the booking id', async () => {
    await control().push({ kind: 'message', channel: '19' });
    await control().push({ kind: 'message', channel: '244' });
    for (const t of (await call('inbox.threads')).threads)
      await call('inbox.sendReply', { threadId: t.id, body: 'Hi' });
    const bodies = await eventually(
      async () =>
        (await control().requests())
          .filter((r) => r.path.endsWith('/messagingAB'))
          .map((r) => r.body as Record<string, string>),
      (b) => b.length === 2,
    );
    expect(bodies.find((b) => b.channelcode === '19')).toMatchObject({
      bookingid: expect.any(String),
      listingid: expect.any(String),
    });
    expect(bodies.find((b) => b.channelcode === '244')).toMatchObject({
      bookingid: expect.any(String),
      threadid: expect.any(String),
    });
  });
});
