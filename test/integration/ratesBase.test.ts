import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../src/shared/dates';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { basePriceOn } from '../../src/shared/rateSetups';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// The calendar's figures: base prices by day of the week, the property's currency, the bounds of the base
// figures, which days Innkeeper knows what Su holds, and a revert previewed and confirmed like a push.

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);

const HOTEL = 'IK-DEMO-001';
const day = (n: number) => addDays(localToday(), n + 3);
const BAR = { level: 'rate', roomId: 'DBL', rateId: 'BAR' } as const;
const applied = (id: number) =>
  eventually(
    () => call('rates.history', { hotelId: HOTEL }),
    (h) => h.find((p) => p.id === id)?.appliedAt != null,
  );

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

const setup = {
  hotelId: 'IK-TEST-9',
  name: 'Test House',
  currency: 'DKK',
  channels: ['19'],
  rooms: [
    {
      id: 'DBL',
      name: 'Double',
      inventory: 4,
      rates: [{ id: 'BAR', name: 'Best', price: 900, weekPrices: [null, null, null, null, 1100, 1150.5, null] }],
    },
  ],
};

describe('base prices by day of the week, and the currency', () => {
  it('the demo’s setup carries the prices the demo channel really charges, day by day, in euros', async () => {
    const [demo] = await call('rates.properties');
    expect(demo!.currency).toBe('EUR');
    const plan = demo!.rooms[0]!.rates[0]!;
    const control = createEmulatorControl(ctx.emulator());
    const { days } = await control.calendar({
      hotelid: HOTEL,
      roomid: 'DBL',
      rateid: 'BAR',
      channel: '19',
      from: day(0),
      to: day(13),
    });
    // Two weeks without any rule: what Su charges is its base, which the setup must give for every weekday.
    expect(days.map((d) => basePriceOn(plan, d.date))).toEqual(days.map((d) => d.rate));
    expect(new Set(days.map((d) => d.rate))).toEqual(new Set([120, 145]));
  });

  it('a setup with week prices and a currency is kept as entered, across a restart', async () => {
    await call('rates.saveSetup', setup);
    await ctx.core.close();
    ctx = await startTestCore({ dataDir: ctx.dataDir });
    expect((await call('rates.properties')).find((p) => p.hotelId === 'IK-TEST-9')).toEqual(setup);
  });

  it.each([
    ['a base price of 1e9', { price: 1e9 }, 'rooms.0.rates.0.price', 'at most 1,000,000'],
    ['a price with 3 decimals', { price: 12.345 }, 'rooms.0.rates.0.price', 'at most 2 decimals'],
    [
      'a Saturday price of 1e9',
      { weekPrices: [null, null, null, null, null, 1e9, null] },
      'rooms.0.rates.0.weekPrices.5',
      'at most 1,000,000',
    ],
    ['six days of prices', { weekPrices: [1, 2, 3, 4, 5, 6] }, 'rooms.0.rates.0.weekPrices', 'Monday to Sunday'],
    ['day prices without a base', { price: null }, 'rooms.0.rates.0.price', 'Give the base price too'],
  ])('refuses %s, naming the field', async (_name, change, field, words) => {
    const rooms = [{ ...setup.rooms[0]!, rates: [{ ...setup.rooms[0]!.rates[0]!, ...change }] }];
    const result = await dispatch('rates.saveSetup', { ...setup, rooms });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation', field } });
    expect(!result.ok && result.error.message).toContain(words);
  });

  it('refuses an inventory of 1e9 and a currency Intl does not know, naming the field', async () => {
    const huge = await dispatch('rates.saveSetup', { ...setup, rooms: [{ ...setup.rooms[0]!, inventory: 1e9 }] });
    expect(huge).toMatchObject({ ok: false, error: { field: 'rooms.0.inventory' } });
    for (const currency of ['XYZ', 'eur'])
      expect(await dispatch('rates.saveSetup', { ...setup, currency })).toMatchObject({
        ok: false,
        error: { field: 'currency' },
      });
  });

  it('a price warning compares with the base price of that day of the week', async () => {
    // 2 days in a row, one of them a Friday or Saturday only if the week says so: take the next Friday.
    const friday = [...Array(7).keys()].map(day).find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 5)!;
    await call('rates.saveSetup', {
      ...setup,
      hotelId: HOTEL,
      channels: ['19'],
      rooms: [
        {
          ...setup.rooms[0]!,
          rates: [{ ...setup.rooms[0]!.rates[0]!, price: 100, weekPrices: [null, null, null, null, 400, null, null] }],
        },
      ],
    });
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: friday, to: friday, channels: ['19'], rule: { type: 'Fixed', value: 150 } }],
    });
    // 150 is under half of Friday's 400 (but not of the everyday 100).
    expect((await call('rates.preview', { hotelId: HOTEL })).warnings).toEqual([
      'Double · Best on Booking.com: 150 on 1 day — less than half the base price 400.',
    ]);
  });
});

describe('which days Innkeeper knows what Su holds', () => {
  it('the days a confirmed push set, per rate plan; none before', async () => {
    expect((await call('rates.book', { hotelId: HOTEL })).confirmed).toEqual({});
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(0), to: day(1), channels: ['19'], rule: { type: 'Fixed', value: 130 } }],
    });
    const { pushId } = await call('rates.push', {
      hotelId: HOTEL,
      fingerprint: (await call('rates.preview', { hotelId: HOTEL })).fingerprint,
    });
    await applied(pushId);
    expect((await call('rates.book', { hotelId: HOTEL })).confirmed).toEqual({ 'rate:DBL:BAR': [day(0), day(1)] });
  });
});

describe('a revert, previewed and confirmed like a push', () => {
  const pushed = async (rule: object) => {
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(0), to: day(2), channels: ['19', '9'], rule }],
    });
    const { pushId } = await call('rates.push', {
      hotelId: HOTEL,
      confirmed: true,
      fingerprint: (await call('rates.preview', { hotelId: HOTEL })).fingerprint,
    });
    await applied(pushId);
    return pushId;
  };

  it('the preview names the revert, the exact request and the days; a stale fingerprint is refused', async () => {
    const pushId = await pushed({ type: 'Fixed', value: 130 });
    const preview = await call('rates.revertPreview', { pushId });
    expect(preview).toMatchObject({
      name: 'Revert of “Rates update”',
      summary: { changedDays: 3, channelChanges: 6, closes: false },
      keptLater: 0,
      past: 0,
      large: false,
    });
    expect(preview.days.map((d) => [d.day, d.after])).toEqual([day(0), day(1), day(2)].map((d) => [d, {}]));
    const stale = await dispatch('rates.revert', { pushId, fingerprint: 'a'.repeat(64) });
    expect(stale).toMatchObject({ ok: false, error: { code: 'preview_stale' } });
    expect((await call('rates.history', { hotelId: HOTEL })).length).toBe(1);
    const revert = await call('rates.revert', { pushId, fingerprint: preview.fingerprint });
    await applied(revert.pushId);
    const calendar = await createEmulatorControl(ctx.emulator()).calendar({
      hotelid: HOTEL,
      roomid: 'DBL',
      rateid: 'BAR',
      channel: '19',
      from: day(0),
      to: day(2),
    });
    expect(calendar.days.map((d) => d.rateRule)).toEqual([null, null, null]);
  });

  it('a revert that closes dates again needs the owner’s confirmation, as a push does', async () => {
    // A push that opened closed days: its revert closes them again.
    const closing = await pushed({ closed: true });
    const opening = await pushed({ type: 'Fixed', value: 130 });
    expect(closing).toBeLessThan(opening);
    const preview = await call('rates.revertPreview', { pushId: opening });
    expect(preview).toMatchObject({ large: true, summary: { closes: true } });
    const refused = await dispatch('rates.revert', { pushId: opening, fingerprint: preview.fingerprint });
    expect(refused).toMatchObject({ ok: false, error: { code: 'confirm_required' } });
    const done = await call('rates.revert', { pushId: opening, fingerprint: preview.fingerprint, confirmed: true });
    expect(done.pushId).toBeGreaterThan(opening);
  });
});
