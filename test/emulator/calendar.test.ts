import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, baseRateOn } from '../../src/emulator/calendar';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { fixtureText } from '../support/fixtures';

/**
 * The overwrite semantics of invratecontrol as a table, through real HTTP: each case sends its calls to a fresh
 * emulator, then reads the per-channel result with GET /_emulator/calendar. Days are offsets from a start 10 days after
 * the emulator's today. Room DBL holds 4 units; its BAR rate is 120 on weekdays and 145 on Fridays and Saturdays.
 */

type Rule = { type?: string; value?: string | number; closed?: boolean };
type Range = { from: number; to: number; rules: { OTACode: number[]; rule: Rule }[] };
/** One item of inventorycontrol (no rateid) or ratecontrol. */
type Item = { roomid: string; rateid?: string; ranges: Range[] };
interface Expectation {
  day: number;
  channel: string;
  room?: string;
  rateid?: string;
  inventory?: number;
  /** A number, or the expected price computed from that day's base rate. */
  rate?: number | ((base: number) => number);
  closed?: boolean;
  noRules?: true;
}

// A small vocabulary so that each case reads as one line per call.
const inv = (roomid: string, ...ranges: Range[]): Item => ({ roomid, ranges });
const rates = (roomid: string, rateid: string, ...ranges: Range[]): Item => ({ roomid, rateid, ranges });
const days = (from: number, to: number, ...rules: Range['rules']): Range => ({ from, to, rules });
const on = (codes: number[], rule: Rule) => ({ OTACode: codes, rule });
const fixed = (value: number | string) => ({ type: 'Fixed', value: String(value) });
const inc = (value: number | string) => ({ type: 'Increase', value: String(value) });
const dec = (value: number | string) => ({ type: 'Decrease', value: String(value) });
const mul = (value: number | string, closed?: boolean) => ({ type: 'Multiply', value: String(value), closed });
const base = (b: number) => b;

const cases: { name: string; calls: Item[][]; expect: Expectation[] }[] = [
  {
    name: 'Fixed sets inventory on the named channel only; other channels keep the base',
    calls: [[inv('DBL', days(0, 2, on([19], fixed(2))))]],
    expect: [
      { day: 0, channel: '19', inventory: 2 },
      { day: 2, channel: '19', inventory: 2 },
      { day: 3, channel: '19', inventory: 4, noRules: true },
      { day: 1, channel: '244', inventory: 4, noRules: true },
    ],
  },
  {
    name: 'several ranges in one request each set their own dates',
    calls: [[inv('DBL', days(0, 1, on([19], { type: 'Fixed', value: 1 })), days(4, 5, on([19], fixed(3))))]],
    expect: [
      { day: 1, channel: '19', inventory: 1 },
      { day: 2, channel: '19', inventory: 4 },
      { day: 5, channel: '19', inventory: 3 },
    ],
  },
  {
    name: 'overlapping ranges in one request make one set: a channel named twice keeps the later rule, others stay',
    calls: [[inv('DBL', days(0, 4, on([19], inc(2)), on([244], dec(1))), days(2, 2, on([244], fixed(0))))]],
    expect: [
      { day: 1, channel: '19', inventory: 6 },
      { day: 1, channel: '244', inventory: 3 },
      { day: 2, channel: '19', inventory: 6 },
      { day: 2, channel: '244', inventory: 0 },
      { day: 3, channel: '244', inventory: 3 },
    ],
  },
  {
    name: 'a later call replaces the whole set of its dates: channels it leaves out go back to the base',
    calls: [
      [inv('DBL', days(0, 4, on([19], fixed(1)), on([9], fixed(2))))],
      [inv('DBL', days(1, 2, on([19], fixed(3))))],
    ],
    expect: [
      { day: 0, channel: '19', inventory: 1 },
      { day: 0, channel: '9', inventory: 2 },
      { day: 1, channel: '19', inventory: 3 },
      { day: 1, channel: '9', inventory: 4, noRules: true },
      { day: 3, channel: '9', inventory: 2 },
    ],
  },
  {
    name: 'an empty OTARule removes every rule of those dates and only those',
    calls: [[inv('DBL', days(0, 4, on([19], fixed(1)), on([244], fixed(2))))], [inv('DBL', days(1, 2))]],
    expect: [
      { day: 0, channel: '19', inventory: 1 },
      { day: 1, channel: '19', inventory: 4, noRules: true },
      { day: 2, channel: '244', inventory: 4, noRules: true },
      { day: 4, channel: '244', inventory: 2 },
    ],
  },
  {
    name: 'rooms, rate plans and channels a call does not name are untouched',
    calls: [[inv('DBL', days(0, 1, on([19], fixed(1)))), rates('DBL', 'BAR', days(0, 1, on([19], fixed(99))))]],
    expect: [
      { day: 0, channel: '19', room: 'TWN', inventory: 3, noRules: true },
      // Inventory belongs to the room (shared by its rate plans); the NRF price is untouched.
      { day: 0, channel: '19', rateid: 'NRF', rate: base, inventory: 1 },
      { day: 0, channel: '9', inventory: 4, rate: base, noRules: true },
      { day: 0, channel: '19', inventory: 1, rate: 99 },
    ],
  },
  {
    name: 'Decrease below zero is posted as 0, for inventory and for rates',
    calls: [[inv('DBL', days(0, 0, on([19], dec(10))))], [rates('DBL', 'BAR', days(0, 0, on([19], dec(1000))))]],
    expect: [{ day: 0, channel: '19', inventory: 0, rate: 0 }],
  },
  {
    name: 'Increase and Decrease on rates add and subtract the absolute value',
    calls: [[rates('DBL', 'BAR', days(0, 6, on([19], inc(15)), on([9], dec('20.5'))))]],
    expect: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
      { day, channel: '19', rate: (b: number) => b + 15 },
      { day, channel: '9', rate: (b: number) => b - 20.5 },
    ]),
  },
  {
    name: 'Multiply scales rates (0.9 is minus 10 percent, 1.1 plus 10 percent)',
    calls: [[rates('DBL', 'BAR', days(0, 6, on([19], mul('0.9')), on([244], { type: 'Multiply', value: 1.1 })))]],
    expect: [0, 3, 6].flatMap((day) => [
      { day, channel: '19', rate: (b: number) => Math.round(b * 90) / 100, closed: false },
      { day, channel: '244', rate: (b: number) => Math.round(b * 110) / 100 },
    ]),
  },
  {
    name: 'closed alone closes the rate on that channel and leaves the price at the base',
    calls: [[rates('DBL', 'BAR', days(0, 1, on([19], { closed: true })))]],
    expect: [
      { day: 0, channel: '19', rate: base, closed: true },
      { day: 0, channel: '244', rate: base, closed: false },
      { day: 2, channel: '19', rate: base, closed: false },
    ],
  },
  {
    name: 'closed together with a modifier closes and changes the price',
    calls: [[rates('DBL', 'BAR', days(0, 0, on([19, 9], mul('1.50', true))))]],
    expect: [
      { day: 0, channel: '19', rate: (b) => b * 1.5, closed: true },
      { day: 0, channel: '9', rate: (b) => b * 1.5, closed: true },
    ],
  },
  {
    name: 'unknown channel codes are kept and work like any channel',
    calls: [[inv('DBL', days(0, 1, on([189], fixed(6))))], [rates('DBL', 'BAR', days(0, 1, on([189, 150], inc(211))))]],
    expect: [
      { day: 0, channel: '189', inventory: 6, rate: (b) => b + 211 },
      { day: 1, channel: '150', inventory: 4, rate: (b) => b + 211 },
      { day: 0, channel: '19', inventory: 4, rate: base, noRules: true },
    ],
  },
];

describe('invratecontrol overwrite semantics, per channel and day', () => {
  let h: EmulatorHarness;
  let start: string;
  const day = (n: number) => addDays(start, n);
  const dates = (ranges: Range[]) => ranges.map((r) => ({ from: day(r.from), to: day(r.to), OTARule: r.rules }));

  beforeEach(async () => {
    h = await startEmulatorHarness();
    start = addDays((await h.control.state()).today, 10);
  });
  afterEach(() => h.close());

  /** Sends one call: its inventory items and rate items in one request, in order. */
  async function send(call: Item[]) {
    const inventorycontrol = call.filter((i) => !i.rateid).map((i) => ({ roomid: i.roomid, date: dates(i.ranges) }));
    const ratecontrol = call
      .filter((i) => i.rateid)
      .map((i) => ({ roomid: i.roomid, rateid: i.rateid, date: dates(i.ranges) }));
    const answer = await h.main('invratecontrol', { hotelid: 'IK-DEMO-001', inventorycontrol, ratecontrol });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ Success: 'Success', TicketId: expect.any(String) });
  }

  async function dayOf(e: Expectation) {
    const q = {
      hotelid: 'IK-DEMO-001',
      roomid: e.room ?? 'DBL',
      rateid: e.rateid ?? 'BAR',
      channel: e.channel,
      from: day(e.day),
      to: day(e.day),
    };
    return (await h.control.calendar(q)).days[0]!;
  }

  it.each(cases)('$name', async ({ calls, expect: expectations }) => {
    for (const call of calls) await send(call);
    const plans = (await h.control.state()).properties[0]!.rooms.flatMap((r) =>
      r.ratePlans.map((p) => ({ ...p, roomid: r.roomid })),
    );
    for (const e of expectations) {
      const got = await dayOf(e);
      const where = `day ${e.day} channel ${e.channel}`;
      if (e.inventory !== undefined) expect(got.inventory, where).toBe(e.inventory);
      if (e.rate !== undefined) {
        const plan = plans.find((p) => p.roomid === (e.room ?? 'DBL') && p.rateid === (e.rateid ?? 'BAR'))!;
        const want = typeof e.rate === 'function' ? e.rate(baseRateOn(plan, got.date)) : e.rate;
        expect(got.rate, where).toBeCloseTo(Math.max(0, want), 2);
      }
      if (e.closed !== undefined) expect(got.closed, where).toBe(e.closed);
      if (e.noRules) expect([got.inventoryRule, got.rateRule], where).toEqual([null, null]);
    }
  });

  it('the published request sample: its ranges all name the same channels, so the last one wins for every date', async () => {
    // Fixture invratecontrol-request.json with its ids and dates moved onto the seeded property.
    const sample = fixtureText('invratecontrol-request.json')
      .replaceAll('"RBT"', '"IK-DEMO-001"')
      .replaceAll('"STD"', '"DBL"')
      .replaceAll('2021-09-02', day(0))
      .replaceAll('2021-09-14', day(12))
      .replaceAll('2021-09-16', day(14));
    expect((await h.main('invratecontrol', sample)).status).toBe(200);
    const rows = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      rateid: 'BAR',
      channel: '150',
      from: day(0),
      to: day(14),
    });
    for (const row of rows.days) {
      expect(row).toMatchObject({
        closed: true,
        rateRule: { type: 'Multiply', value: 1.5, closed: true },
        inventory: 4,
      });
    }
    const inventory = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      channel: '189',
      from: day(14),
      to: day(15),
    });
    expect(inventory.days.map((d) => d.inventory)).toEqual([6, 4]);
  });

  it('the published removal sample clears the rules of its dates', async () => {
    await send([inv('DBL', days(0, 3, on([19], fixed(1))))]);
    const remove = fixtureText('invratecontrol-remove-request.json')
      .replace('"TB1"', '"IK-DEMO-001"')
      .replace('"K"', '"DBL"')
      .replace('2022-09-10', day(0))
      .replace('2022-09-11', day(1));
    expect((await h.main('invratecontrol', remove)).status).toBe(200);
    const rows = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      channel: '19',
      from: day(0),
      to: day(3),
    });
    expect(rows.days.map((d) => d.inventory)).toEqual([4, 4, 1, 1]);
  });
});
