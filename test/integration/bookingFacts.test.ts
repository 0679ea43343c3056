import { afterEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { fillTemplate, threadValues } from '../../src/shared/savedReplies';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';

// Issue 26, item 1, on a real core against the emulator: what the owner adds to a Booking.com or Expedia booking
// (its messages carry no guest name and no dates) is kept on real SQLite, across a restart, and used by the row's
// title, search and the saved replies; what the app already holds (the property's name, the channel) fills them too.

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const control = () => createEmulatorControl(ctx.emulator());
afterEach(() => ctx.stop());

const WELCOME =
  'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at {{listing_name}} on {{check_in}}.';

/** A Booking.com guest's message at a property the owner named under Rates; the thread as the inbox lists it. */
async function bookingThread() {
  const setups = await call('rates.properties');
  const setup = setups.find((s) => s.hotelId === 'IK-DEMO-002') ?? {
    hotelId: 'IK-DEMO-002',
    channels: ['19'],
    rooms: [],
  };
  await call('rates.saveSetup', { ...setup, name: 'Old Town Loft' });
  await control().push({
    kind: 'message',
    channel: '19',
    hotelid: 'IK-DEMO-002',
    bookingid: '9499891092',
    threadid: '9499891092',
    message: 'We will arrive late, around 23:00.',
  });
  const page = await call('inbox.threads', { search: '9499891092' });
  expect(page.total).toBe(1);
  return page.threads[0]!;
}

describe('what the owner adds to a booking', () => {
  it('names the row, is found by search, fills the Welcome reply, and survives a restart', async () => {
    ctx = await startTestCore();
    const before = await bookingThread();
    expect(before.guestLabel).toBe('Booking 9499891092');
    expect((await call('inbox.threads', { search: 'Marguerite' })).total).toBe(0);
    // What the app holds fills the listing (the property's name) and the booking number already.
    const bare = await call('inbox.thread', { id: before.id });
    expect(fillTemplate(WELCOME, threadValues(bare))).toBe(
      'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at Old Town Loft on {{check_in}}.',
    );
    expect(fillTemplate('{{channel_name}} booking {{booking_number}} at {{property_name}}', threadValues(bare))).toBe(
      'Booking.com booking 9499891092 at Old Town Loft',
    );

    const saved = await call('inbox.saveBookingFacts', {
      threadId: before.id,
      guestName: '  Marguerite ',
      checkIn: '2026-12-04',
      checkOut: '2026-12-07',
      guests: 2,
    });
    expect(saved.added).toEqual({ guestName: 'Marguerite', checkIn: '2026-12-04', checkOut: '2026-12-07', guests: 2 });
    expect(saved).toMatchObject({ guestName: 'Marguerite', guestLabel: 'Marguerite', checkIn: '2026-12-04' });
    expect(fillTemplate(WELCOME, threadValues(saved))).toBe(
      'Hi Marguerite, thank you for your message! We look forward to welcoming you at Old Town Loft on 2026-12-04.',
    );
    expect(fillTemplate('A room for {{number_of_guests}}', threadValues(saved))).toBe('A room for 2');

    // The row's title and stay, and search by the added name (any part of it, as for a channel's name).
    const found = await call('inbox.threads', { search: 'margue' });
    expect(found.total).toBe(1);
    expect(found.threads[0]).toMatchObject({
      id: before.id,
      guestLabel: 'Marguerite',
      checkIn: '2026-12-04',
      checkOut: '2026-12-07',
    });

    // Only the fields given change; an empty name removes it again (and search no longer finds it).
    await call('inbox.saveBookingFacts', { threadId: before.id, guests: 3 });
    expect((await call('inbox.thread', { id: before.id })).added).toMatchObject({ guestName: 'Marguerite', guests: 3 });

    const dataDir = ctx.dataDir;
    await ctx.core.close();
    ctx = await startTestCore({ dataDir });
    const again = await call('inbox.thread', { id: before.id });
    expect(again).toMatchObject({ guestLabel: 'Marguerite', checkIn: '2026-12-04', checkOut: '2026-12-07' });
    expect(again.added).toEqual({ guestName: 'Marguerite', checkIn: '2026-12-04', checkOut: '2026-12-07', guests: 3 });
    expect((await call('inbox.threads', { search: 'Marguerite' })).total).toBe(1);

    await call('inbox.saveBookingFacts', { threadId: before.id, guestName: '' });
    expect((await call('inbox.threads', { search: 'Marguerite' })).total).toBe(0);
    expect((await call('inbox.thread', { id: before.id })).guestLabel).toBe('Booking 9499891092');
  });

  it('refuses what cannot be a booking fact, naming the field, and keeps what was there', async () => {
    ctx = await startTestCore();
    const { id } = await bookingThread();
    await call('inbox.saveBookingFacts', { threadId: id, checkIn: '2026-12-04', checkOut: '2026-12-07' });

    expect(await dispatch('inbox.saveBookingFacts', { threadId: id, checkOut: '2026-12-02' })).toMatchObject({
      ok: false,
      error: { field: 'checkOut', message: 'The departure date must be after the arrival date.' },
    });
    expect(await dispatch('inbox.saveBookingFacts', { threadId: id, checkIn: '2026-02-30' })).toMatchObject({
      ok: false,
      error: { field: 'checkIn', fields: { checkIn: 'The arrival date is not a day of the calendar.' } },
    });
    expect(await dispatch('inbox.saveBookingFacts', { threadId: id, guests: 0 })).toMatchObject({
      ok: false,
      error: { field: 'guests', fields: { guests: 'Guests must be at least 1.' } },
    });
    expect(await dispatch('inbox.saveBookingFacts', { threadId: id, guestName: 'x'.repeat(61) })).toMatchObject({
      ok: false,
      error: { field: 'guestName', fields: { guestName: 'The guest’s name can have at most 60 characters.' } },
    });
    expect(await dispatch('inbox.saveBookingFacts', { threadId: 999_999, guestName: 'Ann' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await call('inbox.thread', { id })).added).toEqual({
      guestName: null,
      checkIn: '2026-12-04',
      checkOut: '2026-12-07',
      guests: null,
    });
  });

  it('never hides what the channel sent: an Airbnb guest keeps the name Airbnb gave', async () => {
    ctx = await startTestCore();
    await control().push({ kind: 'message', channel: '244', hotelid: 'IK-DEMO-002', message: 'Hello!' });
    const airbnb = (await call('inbox.threads', { channel: '244' })).threads[0]!;
    const saved = await call('inbox.saveBookingFacts', { threadId: airbnb.id, guestName: 'Someone else' });
    expect(saved.guestLabel).toBe(airbnb.guestName);
    expect(saved.added?.guestName).toBe('Someone else');
  });
});
