import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContractEvents } from '../../src/shared/contract';
import type { LegacyReviewDetail } from '../../src/shared/inbox';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { replyPermission } from '../../src/main/inbox/replyRules';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('the demo provider delivers to the app’s own listener', () => {
  it('the listener runs on loopback, and the emulator pushes to it with credentials of its own', async () => {
    const status = await call('intake.status');
    expect(status).toMatchObject({
      listening: true,
      // The owner has chosen no password yet: the demo pushes with credentials of its own.
      passwordSet: false,
      demoConnected: true,
      error: null,
      quarantined: 0,
    });
    expect(status.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/push$/);
    expect(JSON.stringify(status)).not.toMatch(/password"\s*:\s*"/);
    expect(ctx.emulator().state.partnerEndpoint).toMatchObject({ url: status.localUrl, username: 'innkeeper-demo' });
    expect(ctx.emulator().state.partnerEndpoint!.username).not.toBe(status.username);
    const outcome = await control().push({ kind: 'message', channel: '19' });
    expect(outcome).toMatchObject({ acknowledged: true, dropped: false });
  });

  it('a pushed guest message appears as a thread, raises a new-message event, and counts as unread', async () => {
    const seen: ContractEvents['inbox.newMessage'][] = [];
    ctx.core.events.on('inbox.newMessage', (m) => seen.push(m));
    await control().push({ kind: 'message', channel: '244', message: 'Can we check in early?' });
    await new Promise((r) => setTimeout(r, 20));
    const page = await call('inbox.threads', {});
    expect(page.total).toBe(1);
    expect(page.threads[0]).toMatchObject({
      channel: '244',
      channelName: 'Airbnb',
      unread: 1,
      needsReply: true,
      preview: 'Can we check in early?',
    });
    expect(seen).toEqual([
      expect.objectContaining({
        threadId: page.threads[0]!.id,
        channelName: 'Airbnb',
        preview: 'Can we check in early?',
      }),
    ]);
    const detail = await call('inbox.thread', { id: page.threads[0]!.id });
    expect(detail.messages.map((m) => [m.author, m.body])).toEqual([['guest', 'Can we check in early?']]);
    expect(detail.guest?.firstName).toBeTruthy();
    const counts = await call('inbox.markThreadRead', { id: detail.id });
    expect(counts.unreadThreads).toBe(0);
  });

  it('filters by channel, unread and needs-reply, and searches message text', async () => {
    await control().push({ kind: 'message', channel: '244', message: 'Where do I park the car?' });
    await control().push({ kind: 'message', channel: '19', message: 'Is breakfast included?' });
    await control().push({ kind: 'message', channel: '9', message: 'We arrive late, around midnight' });
    expect((await call('inbox.threads', { channel: '19' })).threads.map((t) => t.channelName)).toEqual(['Booking.com']);
    expect((await call('inbox.threads', { search: 'breakf' })).threads.map((t) => t.preview)).toEqual([
      'Is breakfast included?',
    ]);
    expect((await call('inbox.threads', { search: 'MIDNIGHT' })).total).toBe(1);
    expect((await call('inbox.threads', { search: '"unbalanced' })).total).toBe(0);
    const all = await call('inbox.threads', { limit: 2 });
    expect([all.total, all.threads.length]).toEqual([3, 2]);
    await call('inbox.markThreadRead', { id: all.threads[0]!.id });
    expect((await call('inbox.threads', { unreadOnly: true })).total).toBe(2);
    expect((await call('inbox.threads', { needsReplyOnly: true })).total).toBe(3);
  });

  it('reviews of both kinds are listed with whether a reply is allowed and why not', async () => {
    await control().push({ kind: 'review', channel: '19' });
    await control().push({ kind: 'review', channel: '9', is_eligible_to_respond: 'N' });
    await control().push({ kind: 'legacy-review', channel: '244' });
    const reviews = await call('inbox.reviews');
    expect(reviews).toHaveLength(3);
    const expedia = reviews.find((r) => r.channel === '9')!;
    expect(expedia.reply).toEqual({ allowed: false, reason: 'Expedia says this review cannot be answered.' });
    expect(reviews.find((r) => r.channel === '19')!.reply).toEqual({ allowed: true });
    expect(reviews.find((r) => r.kind === 'legacy')).toBeDefined();
    expect((await call('inbox.counts')).unreadReviews).toBe(3);
  });

  it('saving push settings validates them and restarts the listener', async () => {
    const bad = await ctx.core.dispatcher.dispatch('intake.save', { port: 80, username: 'a:b', password: 'short' });
    expect(bad).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        fields: { port: expect.any(String), username: expect.any(String), password: expect.any(String) },
      },
    });
    const before = await call('intake.status');
    const saved = await call('intake.save', {
      port: 40123,
      username: 'owner-chosen',
      password: 'a-new-strong-password-42',
    });
    // INNKEEPER_PUSH_PORT (0 in tests) wins over the saved port, and says so.
    expect(saved).toMatchObject({
      listening: true,
      username: 'owner-chosen',
      fromEnvironment: { port: true, username: false },
    });
    expect(saved.localUrl).not.toBe(before.localUrl);
    // The demo provider now pushes with the new credentials, and they are accepted.
    expect(await control().push({ kind: 'message', channel: '9' })).toMatchObject({ acknowledged: true });
    const old = await fetch(saved.localUrl!, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('su-partner:x').toString('base64')}` },
      body: '{}',
    });
    expect(old.status).toBe(401);
  });
});

describe('review search', () => {
  it('finds reviews by their text and ignores discarded replies when applying the one-reply rule', async () => {
    await control().push({
      kind: 'review',
      channel: '19',
      review_title: 'Wonderful sauna',
      review_description: 'The sauna was great',
    });
    await control().push({ kind: 'review', channel: '9', review_title: 'Noisy street' });
    expect(
      (await call('inbox.reviews', { search: 'sauna' })).map((r) => (r.kind === 'current' ? r.detail.title : null)),
    ).toEqual(['Wonderful sauna']);
    expect(await call('inbox.reviews', { search: 'zzz' })).toEqual([]);
    const booking = (await call('inbox.reviews')).find((r) => r.channel === '19')!;
    // A reply the provider refuses (unknown property, code 558) fails; discarding it gives the one reply back.
    ctx.core.db.db.prepare("UPDATE reviews SET hotel_id = 'NO-SUCH' WHERE id = ?").run(booking.id);
    await call('inbox.replyToReview', { reviewId: booking.id, body: 'Thanks!' });
    const review = await eventually(
      async () => (await call('inbox.reviews')).find((r) => r.id === booking.id)!,
      (r) => r.replies[0]!.delivery!.state === 'failed',
    );
    expect(review.replies[0]!.delivery).toMatchObject({ state: 'failed', error: { providerCode: '558' } });
    expect(review.reply).toMatchObject({ allowed: false });
    await call('outbox.discard', { id: review.replies[0]!.delivery!.outboxId });
    expect((await call('inbox.reviews')).find((r) => r.id === booking.id)!.reply).toEqual({
      allowed: true,
    });
  });
});

describe('quarantined pushes are shown to the owner', () => {
  it('lists what fit no kind, with the reason and the raw body, until dismissed', async () => {
    const status = await call('intake.status');
    // Posted as the demo provider posts: with the push credentials it was given.
    const partner = ctx.emulator().state.partnerEndpoint!;
    const auth = `Basic ${Buffer.from(`${partner.username}:${partner.password}`).toString('base64')}`;
    const response = await fetch(status.localUrl!, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: '{"event":"booking_modified"}',
    });
    expect(response.status).toBe(200);
    const list = await call('intake.quarantine');
    expect(list).toEqual([
      expect.objectContaining({
        body: '{"event":"booking_modified"}',
        reason: expect.stringMatching(/Not a guest message or a review/),
      }),
    ]);
    expect((await call('intake.status')).quarantined).toBe(1);
    expect((await call('intake.dismissQuarantined', { id: list[0]!.id })).quarantined).toBe(0);
    expect(await call('intake.quarantine')).toEqual([]);
  });
});

describe('legacy review reply rules', () => {
  const legacy = (detail: Partial<LegacyReviewDetail>): LegacyReviewDetail => ({
    action: null,
    publicReview: null,
    privateFeedback: null,
    ratings: null,
    reviewerRole: null,
    revieweeRole: null,
    reviewerId: null,
    hidden: null,
    submitted: null,
    submittedAt: null,
    expiresAt: null,
    bookingId: null,
    listingId: null,
    guestFirstName: null,
    ...detail,
  });
  it('a review that does not say a guest wrote it, or whose 30 days have passed, cannot be answered', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const base = { kind: 'legacy' as const, channel: '244', replies: 0, now };
    expect(
      replyPermission({
        ...base,
        detail: legacy({ reviewerRole: 'guest', bookingId: 'HM1', expiresAt: '2026-12-01T00:00:00Z' }),
      }),
    ).toEqual({ allowed: true });
    expect(replyPermission({ ...base, detail: legacy({ bookingId: 'HM1' }) })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/written by a guest/),
    });
    expect(
      replyPermission({
        ...base,
        detail: legacy({ reviewerRole: 'guest', bookingId: 'HM1', expiresAt: '2026-11-01T00:00:00Z' }),
      }),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/30 days/),
    });
  });
});
