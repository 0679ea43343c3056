import { addDays } from '@shared/dates';
import type { DayRule } from '@shared/rates';
import type { CellView } from './grid';

/**
 * Calendar days as the owner's plain dates (YYYY-MM-DD), with string and UTC math only: a day never shifts with the
 * computer's time zone or a daylight-saving change. Also how one cell of the rates calendar is written.
 */

export { addDays };

const MS_PER_DAY = 86_400_000;
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export const daysBetween = (a: string, b: string) => Math.round((utc(b) - utc(a)) / MS_PER_DAY);

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (date: string) => new Date(utc(date)).getUTCDay();

export const isWeekend = (date: string) => {
  const d = weekday(date);
  return d === 0 || d === 6;
};

/** The first day of the date's month. */
export const monthStart = (date: string) => `${date.slice(0, 8)}01`;

/** The same day `months` months later (or earlier), clamped to the end of a shorter month (31 Jan + 1 → 28 Feb). */
export function addMonths(date: string, months: number): string {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(month + 1)}-${pad(Math.min(d, last))}`;
}

const format = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' });
const monthYearFormat = format({ month: 'long', year: 'numeric' });
const weekdayFormat = format({ weekday: 'short' });
const dayFormat = format({ weekday: 'short', day: 'numeric', month: 'short' });

/** "November 2026". */
export const monthLabel = (date: string) => monthYearFormat.format(utc(date));
/** "Fri". */
export const weekdayLabel = (date: string) => weekdayFormat.format(utc(date));
/** "Fri 4 Dec" (in the owner's locale). */
export const dayLabel = (date: string) => dayFormat.format(utc(date));

/** One day column of the calendar, worked out once per grid. */
export interface DayColumn {
  index: number;
  date: string;
  dayOfMonth: number;
  weekdayLabel: string;
  weekend: boolean;
  firstOfMonth: boolean;
}

/** The `count` days from `from`. */
export function dayColumns(from: string, count: number): DayColumn[] {
  const columns: DayColumn[] = [];
  for (let index = 0; index < count; index++) {
    const date = addDays(from, index);
    columns.push({
      index,
      date,
      dayOfMonth: Number(date.slice(8)),
      weekdayLabel: weekdayLabel(date),
      weekend: isWeekend(date),
      firstOfMonth: date.endsWith('-01'),
    });
  }
  return columns;
}

/** A month's stretch of day columns: where its header label sits. */
export interface MonthSpan {
  label: string;
  start: number;
  end: number;
}

export function monthSpans(columns: DayColumn[]): MonthSpan[] {
  const spans: MonthSpan[] = [];
  for (const column of columns) {
    const last = spans.at(-1);
    if (last && !column.firstOfMonth) last.end = column.index;
    else spans.push({ label: monthLabel(column.date), start: column.index, end: column.index });
  }
  return spans;
}

// How a cell writes its rule and result.

/** Numbers as the owner typed them: 120, 12.5, 0.9 (never 0.8999999). */
export const figure = (n: number) => String(Math.round(n * 100) / 100);

/** The rule in a few characters: "=120", "+10", "−5", "×0.9", or "" without a type. */
export function ruleShort(rule: DayRule | undefined): string {
  if (!rule?.type || rule.value === undefined) return '';
  const sign = { Fixed: '=', Increase: '+', Decrease: '−', Multiply: '×' }[rule.type];
  return `${sign}${figure(rule.value)}`;
}

/** The test hook for a rule: "Fixed:120", "closed", "Multiply:0.9+closed", "" for none. */
export function ruleCode(rule: DayRule | undefined): string {
  if (!rule) return '';
  const parts: string[] = [];
  if (rule.type && rule.value !== undefined) parts.push(`${rule.type}:${rule.value}`);
  if (rule.closed) parts.push('closed');
  return parts.join('+');
}

/** The rule's colour class: its type, "closed" for a bare close, "none" for Su's own data. */
export function ruleKind(rule: DayRule | undefined): string {
  if (rule?.type) return rule.type.toLowerCase();
  return rule?.closed ? 'closed' : 'none';
}

/** The cell in words: "Booking.com, Fri 4 Dec: Decrease 10 → €110, in draft"; `money` writes a price. */
export function describeCell(
  channelName: string,
  date: string,
  cell: CellView,
  money: (n: number) => string = figure,
): string {
  const rule = cell.rule;
  const words: string[] = [];
  if (rule?.type && rule.value !== undefined) words.push(`${rule.type} ${figure(rule.value)}`);
  if (rule?.closed) words.push(words.length ? 'closed' : 'Closed');
  if (!cell.known) {
    // Nothing Innkeeper sent covers this day: Su may hold rules set elsewhere.
    let text = `${channelName}, ${dayLabel(date)}: not set from Innkeeper, so what Su holds is not known`;
    // Not in brackets: a name's bracketed words do not count as naming the figure shown (WCAG 2.5.3, axe).
    if (cell.result !== null) text += `; the base gives ${money(cell.result)}`;
    return text;
  }
  let text = `${channelName}, ${dayLabel(date)}: ${words.length ? words.join(', ') : 'no rule'}`;
  if (cell.result !== null) text += ` → ${money(cell.result)}`;
  if (cell.drafted) text += ', in draft';
  if (cell.pending) text += ', sending';
  return text;
}

/** One cell as the grid draws it, worked out once per cell and data set. */
export interface ShownCell {
  col: DayColumn;
  view: CellView;
  kind: string;
  short: string;
  closed: boolean;
  /** The figure, "" without one; marked "?" where what Su holds is not known. */
  result: string;
  unknown: boolean;
  code: string;
  label: string;
}

export function showCell(
  channelName: string,
  col: DayColumn,
  view: CellView,
  money: (n: number) => string = figure,
): ShownCell {
  return {
    col,
    view,
    kind: ruleKind(view.rule),
    short: ruleShort(view.rule),
    closed: view.rule?.closed === true,
    result: view.result === null ? '' : figure(view.result),
    unknown: !view.known,
    code: ruleCode(view.rule),
    label: describeCell(channelName, col.date, view, money),
  };
}
