import { describe, expect, it } from 'vitest';
import type { PropertySetup } from '@shared/rateSetups';
import { buildGroups } from '@renderer/features/rates/ratesCells';
import {
  channelList,
  dayCount,
  dayRange,
  diffRows,
  editDaysText,
  editRuleText,
  factorPercent,
  parseTargetKey,
  quoted,
  ruleOutcome,
  ruleText,
  targetLabel,
  weekdayText,
} from '@renderer/features/rates/ruleWords';
import { daysOf, weekdayIndex } from '@shared/dates';
import { weekPricedSetup } from './rateFixtures';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: '',
  channels: ['244', '19'],
  rooms: [{ id: 'DBL', name: 'Double Room', inventory: 4, rates: [{ id: 'BAR', name: '', price: 120 }] }],
};
const long = (day: string) =>
  new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.parse(`${day}T00:00:00Z`));

describe('rule words', () => {
  it('write a day, or a range with the year once when both ends share it', () => {
    expect(dayRange('2026-12-04', '2026-12-04')).toBe(long('2026-12-04'));
    const sameYear = dayRange('2026-03-02', '2026-03-08');
    expect(sameYear.endsWith(` – ${long('2026-03-08')}`)).toBe(true);
    expect(sameYear.split('2026')).toHaveLength(2);
    expect(dayRange('2026-12-30', '2027-01-02')).toBe(`${long('2026-12-30')} – ${long('2027-01-02')}`);
  });

  it('count days with both ends included', () => {
    expect(dayCount('2026-12-04', '2026-12-04')).toBe(1);
    expect(dayCount('2026-02-27', '2026-03-02')).toBe(4);
  });

  it('write a factor as a percentage', () => {
    expect(factorPercent(0.9)).toBe('−10 %');
    expect(factorPercent(1.15)).toBe('+15 %');
    expect(factorPercent(1)).toBe('+0 %');
    expect(factorPercent(0.875)).toBe(`−${(12.5).toLocaleString()} %`);
  });

  it('write a channel’s rule', () => {
    expect(ruleText({ type: 'Fixed', value: 120 })).toBe('Fixed 120');
    expect(ruleText({ type: 'Decrease', value: 10, closed: true })).toBe('Decrease 10, closed');
    expect(ruleText({ type: 'Multiply', value: 0.9 })).toBe(`Multiply ${(0.9).toLocaleString()} (−10 %)`);
    expect(ruleText({ closed: true })).toBe('Closed');
    expect(ruleText({})).toBe('no rule');
    expect(ruleText(null)).toBe('no rule');
    expect(ruleText(undefined)).toBe('no rule');
  });

  it('write what an edit of the draft does', () => {
    const target = { level: 'inventory' as const, roomId: 'DBL' };
    expect(editRuleText({ target, from: 'a', to: 'a', channels: ['19'], rule: null })).toBe(
      'Remove rule (Su’s own data)',
    );
    expect(editRuleText({ target, from: 'a', to: 'a', channels: ['19'], rule: { type: 'Fixed', value: 2 } })).toBe(
      'Fixed 2',
    );
  });

  it('quote a push’s name unless it has quotes of its own, and name channels', () => {
    expect(quoted('Summer prices')).toBe('“Summer prices”');
    expect(quoted('Revert of “Summer prices”')).toBe('Revert of “Summer prices”');
    expect(channelList(['244', '19', '9'])).toBe('Airbnb, Booking.com, Expedia');
  });

  it('read target keys back and name them, with ids where the owner gave no name', () => {
    expect(parseTargetKey('inv:DBL')).toEqual({ level: 'inventory', roomId: 'DBL' });
    expect(parseTargetKey('rate:DBL:BAR')).toEqual({ level: 'rate', roomId: 'DBL', rateId: 'BAR' });
    expect(targetLabel(setup, 'inv:DBL')).toBe('Double Room · Inventory');
    expect(targetLabel(setup, 'rate:DBL:BAR')).toBe('Double Room · BAR');
    expect(targetLabel(null, 'rate:FAM:NR')).toBe('FAM · NR');
  });
});

describe('the diff of a push', () => {
  const fixed = (value: number) => ({ type: 'Fixed' as const, value });

  it('merges consecutive days and channels with the same change into one line', () => {
    const days = ['2026-12-01', '2026-12-02', '2026-12-03'].map((day) => ({
      target: 'rate:DBL:BAR',
      day,
      before: {},
      after: { '244': fixed(99), '19': fixed(99) },
    }));
    const rows = diffRows(days, setup);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      target: 'rate:DBL:BAR',
      from: '2026-12-01',
      to: '2026-12-03',
      days: 3,
      before: 'no rule',
      after: 'Fixed 99',
    });
    expect([...rows[0]!.channels].sort()).toEqual(['19', '244']);
  });

  it('splits where the change or the days differ, leaves out channels that do not change, and keeps the setup’s order', () => {
    const rows = diffRows(
      [
        { target: 'rate:DBL:BAR', day: '2026-12-01', before: {}, after: { '19': fixed(99) } },
        { target: 'rate:DBL:BAR', day: '2026-12-03', before: {}, after: { '19': fixed(99) } },
        { target: 'rate:DBL:BAR', day: '2026-12-04', before: { '244': fixed(5) }, after: { '244': fixed(5) } },
        { target: 'inv:DBL', day: '2026-12-05', before: { '19': fixed(2) }, after: { '19': { closed: true } } },
      ],
      setup,
    );
    expect(rows.map((r) => [r.target, r.from, r.to, r.before, r.after, r.channels])).toEqual([
      ['inv:DBL', '2026-12-05', '2026-12-05', 'Fixed 2', 'Closed', ['19']],
      ['rate:DBL:BAR', '2026-12-01', '2026-12-01', 'no rule', 'Fixed 99', ['19']],
      ['rate:DBL:BAR', '2026-12-03', '2026-12-03', 'no rule', 'Fixed 99', ['19']],
    ]);
  });
});

describe('days of the week in the diff and the draft', () => {
  const weekPriced = weekPricedSetup;
  const increase = { type: 'Increase' as const, value: 25 };
  // 2027-06-04 is a Friday; June to September holds 34 Fridays and Saturdays.
  const weekends = daysOf('2027-06-01', '2027-09-30').filter((d) => [4, 5].includes(weekdayIndex(d)));

  it('writes weekdays, three or more in a row as a span', () => {
    expect(weekdayText([5, 4])).toBe('Fri, Sat');
    expect(weekdayText([0, 1, 2, 3, 4])).toBe('Mon–Fri');
    expect(weekdayText([0, 2, 4])).toBe('Mon, Wed, Fri');
    expect(weekdayText([0, 1, 2, 5])).toBe('Mon–Wed, Sat');
    expect(editDaysText({ from: '2027-06-01', to: '2027-09-30', weekdays: [4, 5] })).toBe(
      `Fri, Sat · ${dayRange('2027-06-01', '2027-09-30')} (34 days)`,
    );
    expect(editDaysText({ from: '2027-06-01', to: '2027-06-01' })).toBe(dayRange('2027-06-01', '2027-06-01'));
  });

  it('a season of Fridays and Saturdays is one line per change, not one per weekend', () => {
    const days = weekends.map((day) => ({ target: 'rate:DBL:BAR', day, before: {}, after: { '19': increase } }));
    const rows = diffRows(days, weekPriced);
    expect(rows.map((r) => [r.from, r.to, r.weekdays, r.days, r.result])).toEqual([
      ['2027-06-04', '2027-09-25', [4, 5], 34, null],
    ]);
    // A pattern broken by a missing weekend starts a new line.
    const gap = diffRows(
      days.filter((d) => !['2027-07-02', '2027-07-03'].includes(d.day)),
      weekPriced,
    );
    expect(gap.map((r) => [r.from, r.to, r.weekdays])).toEqual([
      ['2027-06-04', '2027-06-26', [4, 5]],
      ['2027-07-09', '2027-09-25', [4, 5]],
    ]);
  });

  it('shows what a change gives from the base, per base, ≈ where the figure before is not known', () => {
    // Thursday to Saturday, twice: 120 on Thursdays, 145 on Fridays and Saturdays.
    const days = daysOf('2027-06-03', '2027-06-12')
      .filter((d) => [3, 4, 5].includes(weekdayIndex(d)))
      .map((day) => ({ target: 'rate:DBL:BAR', day, before: {}, after: { '19': increase } }));
    const known = (_target: string, day: string) => day >= '2027-06-10';
    const rows = diffRows(days, weekPriced, { results: true, known });
    expect(rows.map((r) => [r.from, r.to, r.weekdays, r.result])).toEqual([
      ['2027-06-03', '2027-06-03', null, '≈€120 → €145'],
      ['2027-06-04', '2027-06-05', null, '≈€145 → €170'],
      ['2027-06-10', '2027-06-10', null, '€120 → €145'],
      ['2027-06-11', '2027-06-12', null, '€145 → €170'],
    ]);
    // Inventory in rooms; no line of figures without a base, or where the figure stays (closing only).
    const other = diffRows(
      [
        { target: 'inv:DBL', day: '2027-06-03', before: {}, after: { '19': { type: 'Fixed', value: 6 } } },
        { target: 'rate:TWN:BAR', day: '2027-06-03', before: {}, after: { '19': increase } },
        { target: 'rate:DBL:BAR', day: '2027-06-07', before: {}, after: { '19': { closed: true } } },
      ],
      weekPriced,
      { results: true },
    );
    expect(other.map((r) => [r.target, r.result])).toEqual([
      ['inv:DBL', '4 → 6 rooms'],
      ['rate:DBL:BAR', null],
      ['rate:TWN:BAR', null],
    ]);
  });
});

describe('what a rule gives on the selected days', () => {
  const group = buildGroups({
    hotelId: 'H1',
    name: '',
    currency: 'EUR',
    channels: ['19'],
    rooms: [
      {
        id: 'DBL',
        name: 'Double',
        inventory: 4,
        rates: [{ id: 'BAR', name: 'Best', price: 120, weekPrices: [null, null, null, null, 145, 145, null] }],
      },
    ],
  })[1]!;

  it('names each weekday base of the days and what the rule makes of it, in the currency', () => {
    // 2026-12-03 is a Thursday: Thursday to Saturday.
    expect(ruleOutcome(group, { type: 'Increase', value: 10 }, '2026-12-03', '2026-12-05')).toBe(
      'From the base price: €120 → €130, €145 → €155.',
    );
    expect(ruleOutcome(group, { type: 'Fixed', value: 99 }, '2026-12-04', '2026-12-04')).toBe(
      'From the base price: €145 → €99.',
    );
    expect(ruleOutcome(group, { type: 'Fixed', value: 99 }, '2026-12-05', '2026-12-04')).toBeNull();
    // Only the chosen weekdays' bases: Fridays and Saturdays of a month.
    expect(ruleOutcome(group, { type: 'Increase', value: 25 }, '2026-12-01', '2026-12-31', [4, 5])).toBe(
      'From the base price: €145 → €170.',
    );
  });
});
