import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';

// Issue 13, the inbox: which property and which guest every conversation and review is about, the property and
// review filters, search beyond message text, and triage (done, unread, drafts) — on a real core and emulator.

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

/** Names a property under Rates as the owner would (its rooms and channels kept). */
async function nameProperty(hotelId: string, name: string) {
  const setups = await call('rates.properties');
  const setup = setups.find((s) => s.hotelId === hotelId) ?? { hotelId, channels: ['19'], rooms: [] };
  await call('rates.saveSetup', { ...setup, name });
}

/** A Booking.com message for a booking at a property (Booking.com sends no guest name). */
const bookingMessage = (hotelid: string, bookingid: string, message: string) =>
  control().push({ kind: 'message', channel: '19', hotelid, bookingid, threadid: bookingid, message });

const threadOf = async (bookingId: string) => {
  const page = await call('inbox.threads', { search: bookingId });
  expect(page.total).toBe(1);
  return page.threads[0]!;
};

describe('each conversation and review says which property and which guest', () => {
  it('a row names the property as set up under Rates, else its hotel id, and the guest by name or booking number', async () => {
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await call('rates.removeSetup', { hotelId: 'IK-DEMO-003' });
    await bookingMessage('IK-DEMO-002', '4012345678', 'Is there a lift?');
    await bookingMessage('IK-DEMO-003', '4012345679', 'Is there a lift?');
    await control().push({ kind: 'message', channel: '244', hotelid: 'IK-DEMO-002', message: 'Hello!' });

    const loft = await threadOf('4012345678');
    expect(loft).toMatchObject({
      hotelId: 'IK-DEMO-002',
      propertyName: 'Canal Loft',
      guestLabel: 'Booking 4012345678',
    });
    expect(loft.guestName).toBeNull();
    // No name under Rates: the hotel id is what the owner can recognise.
    expect(await threadOf('4012345679')).toMatchObject({ propertyName: 'IK-DEMO-003' });
    const airbnb = (await call('inbox.threads', { channel: '244' })).threads[0]!;
    expect(airbnb.guestName).toBeTruthy();
    expect(airbnb.guestLabel).toBe(airbnb.guestName);
    expect((await call('inbox.thread', { id: airbnb.id })).propertyName).toBe('Canal Loft');

    // A name set later is shown at once: nothing was copied.
    await nameProperty('IK-DEMO-003', 'Mill Cottage by the river');
    expect((await threadOf('4012345679')).propertyName).toBe('Mill Cottage by the river');
  });

  it('an Airbnb conversation without a first name is named by its confirmation code', async () => {
    await control().push({
      kind: 'message',
      channel: '244',
      message: 'Hi',
      user_details: { roles: [], users: [] },
      booking_details: { reservation_confirmation_code: 'HMZX42KQ7P' },
    });
    const [row] = (await call('inbox.threads', {})).threads;
    expect(row!.guestLabel).toBe('Booking HMZX42KQ7P');
  });

  it('the conversations filter by property, and the properties are listed by name', async () => {
    await nameProperty('IK-DEMO-001', 'Harbour View');
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await bookingMessage('IK-DEMO-001', '4000000001', 'Parking?');
    await bookingMessage('IK-DEMO-002', '4000000002', 'Parking?');
    await bookingMessage('IK-DEMO-002', '4000000003', 'Towels?');
    expect(await call('inbox.properties')).toEqual([
      { hotelId: 'IK-DEMO-002', name: 'Canal Loft' },
      { hotelId: 'IK-DEMO-001', name: 'Harbour View' },
    ]);
    const loft = await call('inbox.threads', { hotelId: 'IK-DEMO-002' });
    expect(loft.total).toBe(2);
    expect(loft.threads.every((t) => t.propertyName === 'Canal Loft')).toBe(true);
    expect((await call('inbox.threads', { hotelId: 'IK-DEMO-002', search: 'towels' })).total).toBe(1);
    const refused = await dispatch('inbox.threads', { hotelId: 'x'.repeat(21) });
    expect(refused.ok || refused.error).toMatchObject({ code: 'validation', field: 'hotelId' });
  });

  it('reviews name their property and guest, and filter by property, channel, unread, needs a reply and score', async () => {
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await control().push({
      kind: 'review',
      channel: '19',
      hotel_id: 'IK-DEMO-002',
      channel_booking_id: '4099887766',
      review_score: { overall: 4.5 },
      review_title: 'Noisy at night',
    });
    await control().push({ kind: 'review', channel: '9', hotel_id: 'IK-DEMO-001', review_title: 'Lovely stay' });
    await control().push({ kind: 'legacy-review', channel: '244', hotelcode: 'IK-DEMO-001' });

    const all = await call('inbox.reviews', {});
    expect(all).toHaveLength(3);
    const noisy = all.find((r) => r.kind === 'current' && r.detail.title === 'Noisy at night')!;
    expect(noisy).toMatchObject({
      propertyName: 'Canal Loft',
      guestLabel: 'Booking 4099887766',
      overallScore: 4.5,
      needsReply: true,
    });
    const airbnb = all.find((r) => r.kind === 'legacy')!;
    expect(airbnb.kind === 'legacy' && airbnb.guestLabel).toBe(
      airbnb.kind === 'legacy' && airbnb.detail.guestFirstName,
    );
    // Airbnb's stars count double on the 0–10 scale.
    expect(airbnb.overallScore).toBeGreaterThanOrEqual(8);

    const ids = async (q: Parameters<typeof call<'inbox.reviews'>>[1]) =>
      (await call('inbox.reviews', q)).map((r) => r.id).sort();
    expect(await ids({ hotelId: 'IK-DEMO-002' })).toEqual([noisy.id]);
    expect(await ids({ channel: '244' })).toEqual([airbnb.id]);
    expect(await ids({ score: 'low' })).toEqual([noisy.id]);
    expect((await ids({ score: 'high' })).length).toBe(2);
    await call('inbox.markReviewRead', { id: noisy.id });
    expect(await ids({ unreadOnly: true })).not.toContain(noisy.id);
    await call('inbox.replyToReview', { reviewId: noisy.id, body: 'Sorry about the noise.' });
    expect(await ids({ needsReplyOnly: true })).not.toContain(noisy.id);
    expect((await ids({ needsReplyOnly: true })).length).toBe(2);

    const refused = await dispatch('inbox.reviews', { score: 'great' } as never);
    expect(refused.ok || refused.error).toMatchObject({ code: 'validation', field: 'score' });
  });
});

describe('search finds what owners search for', () => {
  beforeEach(async () => {
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await bookingMessage('IK-DEMO-002', '4012345678', 'Is breakfast included?');
    await bookingMessage('IK-DEMO-001', '4055555555', 'Where is the key box?');
  });

  it('a guest’s first name', async () => {
    await control().push({ kind: 'message', channel: '244', hotelid: 'IK-DEMO-001', message: 'Hello' });
    const airbnb = (await call('inbox.threads', { channel: '244' })).threads[0]!;
    const found = await call('inbox.threads', { search: airbnb.guestName!.toLowerCase() });
    expect(found.threads.map((t) => t.id)).toEqual([airbnb.id]);
  });

  it('a booking number, whole or its start', async () => {
    expect((await call('inbox.threads', { search: '4012345678' })).threads.map((t) => t.preview)).toEqual([
      'Is breakfast included?',
    ]);
    expect((await call('inbox.threads', { search: '40123' })).total).toBe(1);
  });

  it('an Airbnb confirmation code', async () => {
    await control().push({
      kind: 'message',
      channel: '244',
      message: 'Hello',
      booking_details: { reservation_confirmation_code: 'HMQ7T2X9LB' },
    });
    const found = await call('inbox.threads', { search: 'hmq7t2' });
    expect(found.threads.map((t) => t.channel)).toEqual(['244']);
  });

  it('a property name or hotel id, also with words of a message', async () => {
    expect((await call('inbox.threads', { search: 'canal' })).threads.map((t) => t.preview)).toEqual([
      'Is breakfast included?',
    ]);
    expect((await call('inbox.threads', { search: 'IK-DEMO-001' })).total).toBe(1);
    expect((await call('inbox.threads', { search: 'loft breakfast' })).total).toBe(1);
    expect((await call('inbox.threads', { search: 'loft key' })).total).toBe(0);
    // A word with no letter or digit can match nothing: it is left out rather than making the search find nothing.
    expect((await call('inbox.threads', { search: 'canal & loft' })).total).toBe(1);
    expect((await call('inbox.threads', { search: 'loft - breakfast ?' })).total).toBe(1);
    // A 1-character word counts only alone; words after the sixth are not looked for.
    expect((await call('inbox.threads', { search: 'loft b breakfast' })).total).toBe(1);
    expect((await call('inbox.threads', { search: 'b' })).total).toBe(2); // breakfast, box
    expect((await call('inbox.threads', { search: 'canal b' })).total).toBe(1);
    expect(
      (await call('inbox.threads', { search: 'is breakfast included canal loft IK-DEMO-002 nowhere' })).total,
    ).toBe(1);
    // The count and the page agree (the matching threads are found once for both).
    const page = await call('inbox.threads', { search: 'breakfast', limit: 1 });
    expect([page.total, page.threads.length]).toEqual([1, 1]);
    // Wildcards and quotes are taken as typed.
    expect((await call('inbox.threads', { search: '%' })).total).toBe(0);
    expect((await call('inbox.threads', { search: '"_' })).total).toBe(0);
  });

  it('reviews by their text, the guest, the booking number and the property', async () => {
    await control().push({
      kind: 'review',
      channel: '19',
      hotel_id: 'IK-DEMO-002',
      channel_booking_id: '4077777777',
      review_title: 'Spotless flat',
      review_description: 'The espresso machine was a treat',
    });
    await control().push({ kind: 'legacy-review', channel: '244', hotelcode: 'IK-DEMO-001' });
    const legacy = (await call('inbox.reviews', { channel: '244' }))[0]!;
    const guest = legacy.kind === 'legacy' ? legacy.detail.guestFirstName! : '';
    const titles = async (search: string) => (await call('inbox.reviews', { search })).map((r) => r.id);
    const spotless = (await call('inbox.reviews', { channel: '19' }))[0]!.id;
    expect(await titles('espresso')).toEqual([spotless]);
    expect(await titles('4077777777')).toEqual([spotless]);
    expect(await titles('canal loft')).toEqual([spotless]);
    expect(await titles('canal & loft')).toEqual([spotless]);
    expect(await titles(guest)).toEqual([legacy.id]);
  });
});

describe('triage', () => {
  it('a conversation marked done leaves "needs a reply" until the guest writes again', async () => {
    await bookingMessage('IK-DEMO-001', '4011111111', 'Can we bring a dog?');
    const { id } = await threadOf('4011111111');
    const counts = await call('inbox.markThreadDone', { id });
    expect(counts.unreadThreads).toBe(1); // done is not read
    expect(await threadOf('4011111111')).toMatchObject({ needsReply: false, done: true });
    expect((await call('inbox.threads', { needsReplyOnly: true })).total).toBe(0);

    // Recomputing the summary (as after a reply fails or is discarded) keeps what the owner decided.
    createInboxQueries(ctx.core.db.db).refreshThread(id);
    expect(await threadOf('4011111111')).toMatchObject({ needsReply: false, done: true });

    // A reply written afterwards: the owner has answered, it is no longer "done" but replied.
    await call('inbox.sendReply', { threadId: id, body: 'Dogs are welcome.' });
    expect(await threadOf('4011111111')).toMatchObject({ needsReply: false, done: false });

    await bookingMessage('IK-DEMO-001', '4011111111', 'It is a small dog.');
    expect(await threadOf('4011111111')).toMatchObject({ needsReply: true, done: false });
    expect((await call('inbox.threads', { needsReplyOnly: true })).total).toBe(1);
  });

  it('a conversation marked unread counts as unread again', async () => {
    await bookingMessage('IK-DEMO-001', '4022222222', 'Late arrival');
    const { id } = await threadOf('4022222222');
    expect((await call('inbox.markThreadRead', { id })).unreadThreads).toBe(0);
    expect((await call('inbox.markThreadUnread', { id })).unreadThreads).toBe(1);
    expect((await threadOf('4022222222')).unread).toBe(1);
    const missing = await dispatch('inbox.markThreadUnread', { id: 999 });
    expect(missing.ok || missing.error.code).toBe('not_found');
    expect((await dispatch('inbox.markThreadDone', { id: 999 })).ok).toBe(false);
  });

  it('a conversation with unsent reply text is marked as having a draft', async () => {
    await bookingMessage('IK-DEMO-001', '4033333333', 'Question');
    const { id } = await threadOf('4033333333');
    expect((await threadOf('4033333333')).hasDraft).toBe(false);
    await call('inbox.saveDraft', { threadId: id, body: 'Dear guest, ' });
    expect((await threadOf('4033333333')).hasDraft).toBe(true);
    await call('inbox.saveDraft', { threadId: id, body: '  ' });
    expect((await threadOf('4033333333')).hasDraft).toBe(false);
  });
});

describe('money as people read it', () => {
  it('an Airbnb payout carries no guessed currency (Airbnb pays in the host’s payout currency)', async () => {
    await control().push({ kind: 'message', channel: '244', hotelid: 'IK-DEMO-001', message: 'Hello' });
    await control().push({ kind: 'message', channel: '244', hotelid: null, message: 'Hello from nowhere' });
    const { threads } = await call('inbox.threads', {});
    const known = threads.find((t) => t.hotelId === 'IK-DEMO-001')!;
    const unknown = threads.find((t) => t.hotelId === null)!;
    const detail = await call('inbox.thread', { id: known.id });
    expect(detail.booking?.payout).toBeTruthy();
    // The demo's property is set up in euros, but that need not be the currency Airbnb pays the host in.
    expect(detail).not.toHaveProperty('payoutCurrency');
    expect(await call('inbox.thread', { id: unknown.id })).not.toHaveProperty('payoutCurrency');
  });
});
