import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dayColumns,
  dayLabel,
  daysBetween,
  describeCell,
  figure,
  isWeekend,
  monthSpans,
  monthStart,
  ruleCode,
  ruleKind,
  ruleShort,
  showCell,
  weekday,
} from '@renderer/features/rates/calendar/calendarDays';
import type { CellView } from '@renderer/features/rates/calendar/grid';

const cell = (view: Partial<CellView>): CellView => ({
  rule: undefined,
  result: null,
  drafted: false,
  pending: false,
  known: true,
  ...view,
});

describe('calendar days', () => {
  it('count whole days between plain dates, across months, years and daylight-saving changes', () => {
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2); // Europe's clocks change on the 29th
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-01-10', '2026-01-01')).toBe(-9);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2); // leap year
  });

  it('know the weekday and the weekend', () => {
    expect(weekday('2026-11-22')).toBe(0); // a Sunday
    expect(weekday('2026-11-27')).toBe(5);
    expect(isWeekend('2026-11-21')).toBe(true);
    expect(isWeekend('2026-11-22')).toBe(true);
    expect(isWeekend('2026-11-23')).toBe(false);
  });

  it('move by months, keeping the day where the month has it and clamping where it has not', () => {
    expect(monthStart('2026-11-22')).toBe('2026-11-01');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-11-15', 2)).toBe('2027-01-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-05-10', 0)).toBe('2026-05-10');
  });

  it('lay out day columns with their day of month, weekend and first-of-month marks', () => {
    const columns = dayColumns('2026-11-28', 5);
    expect(columns.map((c) => c.date)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(columns.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
    expect(columns.map((c) => c.dayOfMonth)).toEqual([28, 29, 30, 1, 2]);
    expect(columns.map((c) => c.weekend)).toEqual([true, true, false, false, false]);
    expect(columns.map((c) => c.firstOfMonth)).toEqual([false, false, false, true, false]);
    expect(dayColumns('2026-11-28', 0)).toEqual([]);
  });

  it('span each month over its columns, a month cut at the start included', () => {
    const spans = monthSpans(dayColumns('2026-11-29', 40));
    expect(spans.map(({ start, end }) => [start, end])).toEqual([
      [0, 1],
      [2, 32],
      [33, 39],
    ]);
    expect(new Set(spans.map((s) => s.label)).size).toBe(3);
  });
});

describe('a calendar cell', () => {
  it('writes figures as typed, without float noise', () => {
    expect(figure(120)).toBe('120');
    expect(figure(0.1 + 0.2)).toBe('0.3');
    expect(figure(12.499)).toBe('12.5');
    expect(figure(0.9)).toBe('0.9');
  });

  it('writes a rule in a few characters', () => {
    expect(ruleShort({ type: 'Fixed', value: 120 })).toBe('=120');
    expect(ruleShort({ type: 'Increase', value: 10 })).toBe('+10');
    expect(ruleShort({ type: 'Decrease', value: 5 })).toBe('−5');
    expect(ruleShort({ type: 'Multiply', value: 0.9 })).toBe('×0.9');
    expect(ruleShort({ closed: true })).toBe('');
    expect(ruleShort(undefined)).toBe('');
  });

  it('gives each rule its test code and colour class', () => {
    expect(ruleCode({ type: 'Fixed', value: 120 })).toBe('Fixed:120');
    expect(ruleCode({ closed: true })).toBe('closed');
    expect(ruleCode({ type: 'Multiply', value: 0.9, closed: true })).toBe('Multiply:0.9+closed');
    expect(ruleCode(undefined)).toBe('');
    expect(ruleKind({ type: 'Decrease', value: 1 })).toBe('decrease');
    expect(ruleKind({ closed: true })).toBe('closed');
    expect(ruleKind(undefined)).toBe('none');
  });

  it('says in words what it shows, for screen readers', () => {
    const day = '2026-12-04';
    expect(
      describeCell('Booking.com', day, cell({ rule: { type: 'Decrease', value: 10 }, result: 110, drafted: true })),
    ).toBe(`Booking.com, ${dayLabel(day)}: Decrease 10 → 110, in draft`);
    expect(describeCell('Airbnb', day, cell({ rule: { closed: true }, pending: true }))).toBe(
      `Airbnb, ${dayLabel(day)}: Closed, sending`,
    );
    expect(describeCell('Expedia', day, cell({ rule: { type: 'Fixed', value: 99, closed: true } }))).toBe(
      `Expedia, ${dayLabel(day)}: Fixed 99, closed`,
    );
    expect(describeCell('Expedia', day, cell({ result: 120 }))).toBe(`Expedia, ${dayLabel(day)}: no rule → 120`);
  });

  it('is worked out once into what the grid draws', () => {
    const [col] = dayColumns('2026-12-04', 1);
    const shown = showCell('Airbnb', col!, cell({ rule: { type: 'Multiply', value: 0.9, closed: true }, result: 108 }));
    expect(shown).toMatchObject({
      kind: 'multiply',
      short: '×0.9',
      closed: true,
      result: '108',
      code: 'Multiply:0.9+closed',
    });
    expect(shown.label).toContain('Multiply 0.9, closed → 108');
    expect(showCell('Airbnb', col!, cell({})).result).toBe('');
  });
});
