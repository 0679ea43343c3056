import { describe, expect, it } from 'vitest';
import type { RuleEdit } from '@shared/ratesComposer';
import type { PropertySetup } from '@shared/rateSetups';
import { buildCells, buildGroups } from '@renderer/features/rates/ratesCells';

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
  };

  it('show what Su holds, with the resulting price from the base', () => {
    const cell = buildCells(groups, book, []);
    expect(cell(BAR, '19', '2026-12-01')).toEqual({
      rule: { type: 'Decrease', value: 10 },
      result: 110,
      drafted: false,
      pending: false,
    });
    expect(cell(BAR, '244', '2026-12-01')).toEqual({ rule: undefined, result: 120, drafted: false, pending: false });
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
    });
  });
});
