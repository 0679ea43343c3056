import { describe, expect, it } from 'vitest';
import type { RuleEdit } from '@shared/ratesComposer';
import type { PropertySetup } from '@shared/rateSetups';
import { buildCells, buildGroups, money, weekPriceLabel } from '@renderer/features/rates/ratesCells';
import { dayColumns, showCell } from '@renderer/features/rates/calendar/calendarDays';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: 'Harbour View',
  channels: ['244', '19'],
  rooms: [
    {
      id: 'DBL',
      name: 'Double Room',
      inventory: 4,
      rates: [
        { id: 'BAR', name: 'Best available rate', price: 120 },
        { id: 'NR', name: '', price: null },
      ],
    },
    { id: 'SGL', name: '', inventory: null, rates: [] },
  ],
};
const BAR = 'rate:DBL:BAR';
const barEdit = (from: string, to: string, channels: string[], rule: RuleEdit['rule']): RuleEdit => ({
  target: { level: 'rate', roomId: 'DBL', rateId: 'BAR' },
  from,
  to,
  channels,
  rule,
});

describe('the rates calendar’s groups', () => {
  it('list per room its inventory, then each rate plan, one row per channel', () => {
    const groups = buildGroups(setup);
    expect(groups.map((g) => [g.target, g.level, g.title, g.subtitle, g.base])).toEqual([
      ['inv:DBL', 'inventory', 'Double Room', 'Inventory', 4],
      [BAR, 'rate', 'Double Room', 'Best available rate', 120],
      ['rate:DBL:NR', 'rate', 'Double Room', 'NR', null],
      ['inv:SGL', 'inventory', 'SGL', 'Inventory', null],
    ]);
    expect(groups[1]!.rows).toEqual([
      { key: `${BAR}|244`, target: BAR, level: 'rate', channel: '244', channelName: 'Airbnb' },
      { key: `${BAR}|19`, target: BAR, level: 'rate', channel: '19', channelName: 'Booking.com' },
    ]);
    expect(buildGroups(null)).toEqual([]);
  });
});

describe('the rates calendar’s cells', () => {
  const groups = buildGroups(setup);
  const book = {
    book: { [BAR]: { '2026-12-01': { '19': { type: 'Decrease' as const, value: 10 } } } },
    pending: [`${BAR}|2026-12-02`],
    confirmed: { [BAR]: ['2026-12-01', '2026-12-05'] },
  };

  it('show what Su holds, with the resulting price from the base', () => {
    const cell = buildCells(groups, book, []);
    expect(cell(BAR, '19', '2026-12-01')).toEqual({
      rule: { type: 'Decrease', value: 10 },
      result: 110,
      drafted: false,
      pending: false,
      known: true,
    });
    expect(cell(BAR, '244', '2026-12-01')).toEqual({
      rule: undefined,
      result: 120,
      drafted: false,
      pending: false,
      known: true,
    });
    expect(cell(BAR, '244', '2026-12-02').pending).toBe(true);
    expect(cell('rate:DBL:NR', '19', '2026-12-01').result).toBeNull();
  });

  it('show the draft over what Su holds, marked only where it changes something', () => {
    const cell = buildCells(groups, book, [
      barEdit('2026-12-01', '2026-12-02', ['19'], { type: 'Fixed', value: 99 }),
      barEdit('2026-12-03', '2026-12-03', ['244'], { closed: true }),
    ]);
    expect(cell(BAR, '19', '2026-12-01')).toMatchObject({
      rule: { type: 'Fixed', value: 99 },
      result: 99,
      drafted: true,
    });
    expect(cell(BAR, '19', '2026-12-02')).toMatchObject({ result: 99, drafted: true, pending: true });
    expect(cell(BAR, '244', '2026-12-01')).toMatchObject({ rule: undefined, drafted: false });
    expect(cell(BAR, '244', '2026-12-03')).toMatchObject({ rule: { closed: true }, result: 120, drafted: true });
  });

  it('do not count an edit that sets the rule Su already holds as a change, and show a removed rule as none', () => {
    const same = buildCells(groups, book, [
      barEdit('2026-12-01', '2026-12-01', ['19'], { type: 'Decrease', value: 10 }),
    ]);
    expect(same(BAR, '19', '2026-12-01').drafted).toBe(false);
    const removed = buildCells(groups, book, [barEdit('2026-12-01', '2026-12-01', ['19'], null)]);
    expect(removed(BAR, '19', '2026-12-01')).toMatchObject({ rule: undefined, result: 120, drafted: true });
  });

  it('work before what Su holds has been read', () => {
    expect(buildCells(groups, null, [])(BAR, '19', '2026-12-01')).toEqual({
      rule: undefined,
      result: 120,
      drafted: false,
      pending: false,
      known: false,
    });
  });
});

describe('the calendar’s figures by day of the week, in the property’s currency', () => {
  // 2026-12-04 is a Friday, 2026-12-05 a Saturday, 2026-12-07 a Monday.
  const week: PropertySetup = {
    ...setup,
    currency: 'EUR',
    rooms: [
      {
        id: 'DBL',
        name: 'Double Room',
        inventory: 4,
        rates: [{ id: 'BAR', name: 'Flexible', price: 120, weekPrices: [null, null, null, null, 145, 145, null] }],
      },
    ],
  };
  const groups = buildGroups(week);
  const view = { book: {}, pending: [], confirmed: { [BAR]: ['2026-12-04', '2026-12-07'] } };

  it('give Friday and Saturday their own price, and every other day the base price', () => {
    const cell = buildCells(groups, view, []);
    expect(cell(BAR, '19', '2026-12-04').result).toBe(145);
    expect(cell(BAR, '19', '2026-12-05').result).toBe(145);
    expect(cell(BAR, '19', '2026-12-07').result).toBe(120);
    const raised = buildCells(groups, view, [
      barEdit('2026-12-04', '2026-12-07', ['19'], { type: 'Increase', value: 10 }),
    ]);
    expect(raised(BAR, '19', '2026-12-05').result).toBe(155);
    expect(raised(BAR, '19', '2026-12-06').result).toBe(130);
  });

  it('say where Innkeeper does not know what Su holds (no push confirmed for the day)', () => {
    const cell = buildCells(groups, view, []);
    expect(cell(BAR, '19', '2026-12-04').known).toBe(true);
    expect(cell(BAR, '19', '2026-12-05').known).toBe(false);
    const shown = showCell('Booking.com', dayColumns('2026-12-05', 1)[0]!, cell(BAR, '19', '2026-12-05'), (n) =>
      money(n, 'EUR'),
    );
    expect(shown.unknown).toBe(true);
    expect(shown.label).toContain('not set from Innkeeper, so what Su holds is not known');
    expect(shown.label).toContain('€145');
    // A day the draft sets is known once it is pushed.
    const drafted = buildCells(groups, view, [barEdit('2026-12-05', '2026-12-05', ['244'], { closed: true })]);
    expect(drafted(BAR, '19', '2026-12-05').known).toBe(true);
  });

  it('name the currency in the heading, with the days that have their own price', () => {
    expect(groups[1]!.baseLabel).toBe('base €120 · Fri, Sat €145');
    expect(groups[0]!.baseLabel).toBe('base 4 rooms');
    expect(weekPriceLabel({ price: 99.5, weekPrices: undefined }, null)).toBe('base 99.5');
    expect(money(1234.5, 'EUR')).toBe('€1,234.50');
  });
});
