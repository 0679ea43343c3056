import { channelName } from '@shared/channels';
import { addDays, daysOn, weekdayIndex } from '@shared/dates';
import type { RateDayChange, DayRule } from '@shared/rates';
import type { RuleEdit, Target } from '@shared/ratesComposer';
import { WEEKDAYS, basePriceOn, resultingValue, type PropertySetup } from '@shared/rateSetups';
import { type RuleType } from '@shared/su/inventory';

import type { GridGroup } from './calendar/grid';
import { money } from './ratesCells';

/** How the Rates screen writes rules, targets and dates in the owner's words. */

/**
 * What a rule gives on the days `from`..`to` (only those on `weekdays`, when given) from their base, which may
 * differ by day of the week: "From the base price: €120 → €130, €145 → €155." Null while the days are not a valid
 * range.
 */
export function ruleOutcome(
  group: GridGroup,
  rule: { type: RuleType; value: number },
  from: string,
  to: string,
  weekdays?: readonly number[],
) {
  const noun = group.level === 'rate' ? 'price' : 'inventory';
  if (group.base === null) return `No base ${noun} is set up, so the calendar shows the rule itself.`;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (!date.test(from) || !date.test(to) || to < from) return null;
  const seen = new Map<number, number>();
  // Seven days hold every weekday: enough to name every base.
  const week = to < addDays(from, 6) ? to : addDays(from, 6);
  for (const day of daysOn(from, week, weekdays)) {
    const base = group.baseOn(day);
    if (base !== null) seen.set(base, resultingValue(group.level, base, rule)!);
  }
  const write = (n: number) => (group.level === 'rate' ? money(n, group.currency) : n.toLocaleString());
  const parts = [...seen].map(([base, result]) => `${write(base)} → ${write(result)}`);
  return parts.length ? `From the base ${noun}: ${parts.join(', ')}.` : null;
}

/** What the rule editor sets: a modifier, no modifier (closed only), or no rule at all (Su's own data). */
export type RuleKind = RuleType | 'none' | 'remove';

const dayMonth = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const dayMonthYear = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** "Mon, 3 Mar 2025", or "Mon, 3 Mar – Sun, 9 Mar 2025" for a range. */
export function dayRange(from: string, to: string): string {
  if (from === to) return dayMonthYear.format(utc(from));
  return from.slice(0, 4) === to.slice(0, 4)
    ? `${dayMonth.format(utc(from))} – ${dayMonthYear.format(utc(to))}`
    : `${dayMonthYear.format(utc(from))} – ${dayMonthYear.format(utc(to))}`;
}

/** Days from..to, both included. */
export const dayCount = (from: string, to: string) => Math.round((utc(to) - utc(from)) / 86_400_000) + 1;

/** "Fri, Sat", "Mon–Fri", "Mon, Wed, Fri", "Mon–Wed, Sat" (Monday = 0): three or more days in a row as a span. */
export function weekdayText(weekdays: readonly number[]): string {
  const sorted = [...new Set(weekdays)].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const d of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === d - 1) run.push(d);
    else runs.push([d]);
  }
  return runs
    .flatMap((run) =>
      run.length >= 3 ? [`${WEEKDAYS[run[0]!]}–${WEEKDAYS[run.at(-1)!]}`] : run.map((d) => WEEKDAYS[d]!),
    )
    .join(', ');
}

/** An edit's days: "Fri, Sat · Fri, 4 Jun – Sat, 25 Sep 2027 (34 days)", "Mon, 1 Jun 2027". */
export function editDaysText(edit: Pick<RuleEdit, 'from' | 'to' | 'weekdays'>): string {
  const count = edit.weekdays ? daysOn(edit.from, edit.to, edit.weekdays).length : dayCount(edit.from, edit.to);
  const on = edit.weekdays ? `${weekdayText(edit.weekdays)} · ` : '';
  return `${on}${dayRange(edit.from, edit.to)}${count > 1 ? ` (${count} days)` : ''}`;
}

/** "−10 %" for 0.9, "+15 %" for 1.15. */
export function factorPercent(factor: number): string {
  const percent = Math.round((factor - 1) * 1000) / 10;
  return `${percent < 0 ? '−' : '+'}${Math.abs(percent).toLocaleString()} %`;
}

/** A channel's rule in words: "Fixed 120", "Decrease 10, closed", "Multiply 0.9 (−10 %)", "Closed", "no rule". */
export function ruleText(rule: DayRule | null | undefined): string {
  if (!rule) return 'no rule';
  const parts: string[] = [];
  if (rule.type !== undefined && rule.value !== undefined) {
    const value = rule.value.toLocaleString(undefined, { maximumFractionDigits: 4 });
    parts.push(rule.type === 'Multiply' ? `Multiply ${value} (${factorPercent(rule.value)})` : `${rule.type} ${value}`);
  }
  if (rule.closed) parts.push(parts.length ? 'closed' : 'Closed');
  return parts.length ? parts.join(', ') : 'no rule';
}

/** What an edit of the draft does: "Fixed 120", "Remove rule (Su's own data)". */
export const editRuleText = (edit: RuleEdit) =>
  edit.rule === null ? 'Remove rule (Su’s own data)' : ruleText(edit.rule);

/** A push's name in quotes, unless it has its own ("Revert of “Summer prices”"). */
export const quoted = (name: string) => (/[“”"]/.test(name) ? name : `“${name}”`);

/** "Airbnb, Booking.com". */
export const channelList = (codes: readonly string[]) => codes.map(channelName).join(', ');

/** `inv:ROOM` / `rate:ROOM:RATE` back into a target. */
export function parseTargetKey(key: string): Target {
  const [level, roomId = '', rateId = ''] = key.split(':');
  return level === 'inv' ? { level: 'inventory', roomId } : { level: 'rate', roomId, rateId };
}

/** "Double Room · Best available rate", "Double Room · Inventory" (ids where the owner gave no name). */
export function targetLabel(setup: PropertySetup | null, key: string): string {
  const target = parseTargetKey(key);
  const room = setup?.rooms.find((r) => r.id === target.roomId);
  const roomName = room?.name || target.roomId;
  if (target.level === 'inventory') return `${roomName} · Inventory`;
  const rate = room?.rates.find((r) => r.id === target.rateId);
  return `${roomName} · ${rate?.name || target.rateId}`;
}

/** One line of a diff table: channels of one target whose rule changes the same way on the same days. */
export interface DiffRow {
  key: string;
  target: string;
  /** Channels with the same change on the same days, in the order given. */
  channels: string[];
  from: string;
  to: string;
  /** Only these days of the week from..to (Monday = 0), when the days follow a weekly pattern; null: every day. */
  weekdays: number[] | null;
  days: number;
  before: string;
  after: string;
  /** What the channel ends up with, from the base: "€145 → €170", "≈€145 → €170" (before not known); null: no base. */
  result: string | null;
}

/** What the diff shows besides the rules: the resulting figures, and which days' figures before are known. */
export interface DiffOptions {
  /** Show the resulting price or inventory, before → after, where the setup has a base for the day. */
  results?: boolean;
  /** Innkeeper knows what Su holds on this day (a push it sent); otherwise the figure before is the base's (≈). */
  known?: (target: string, day: string) => boolean;
}

/** "€145 → €170" (a rate plan) or "4 → 6 rooms" on one day; null without a base or when the figure stays. */
function resultChange(
  setup: PropertySetup | null,
  change: { target: string; day: string; before?: DayRule; after?: DayRule },
  known: boolean,
): string | null {
  const target = parseTargetKey(change.target);
  const room = setup?.rooms.find((r) => r.id === target.roomId);
  const plan = target.level === 'rate' ? room?.rates.find((r) => r.id === target.rateId) : undefined;
  const base = target.level === 'inventory' ? (room?.inventory ?? null) : plan ? basePriceOn(plan, change.day) : null;
  const before = resultingValue(target.level, base, change.before);
  const after = resultingValue(target.level, base, change.after);
  if (before === null || after === null || before === after) return null;
  const write = (n: number) => (target.level === 'rate' ? money(n, setup?.currency ?? null) : n.toLocaleString());
  const rooms = target.level === 'inventory' ? (after === 1 ? ' room' : ' rooms') : '';
  return `${known ? '' : '≈'}${write(before)} → ${write(after)}${rooms}`;
}

/**
 * Groups one change's days (sorted) into lines: consecutive days, or days on the same weekdays week after week
 * ("Fri, Sat" all summer) when they hold more than a week. The weekdays are those of the line's first seven days.
 */
function dayLines(days: readonly string[]): { from: string; to: string; weekdays: number[] | null; days: number }[] {
  const lines: { from: string; to: string; weekdays: number[] | null; days: number }[] = [];
  const runs = (part: readonly string[]) => {
    for (const day of part) {
      const last = lines.at(-1);
      if (last && last.weekdays === null && addDays(last.to, 1) === day) {
        last.to = day;
        last.days += 1;
      } else lines.push({ from: day, to: day, weekdays: null, days: 1 });
    }
  };
  let i = 0;
  while (i < days.length) {
    const start = days[i]!;
    const week = addDays(start, 6);
    const on = new Set<number>();
    for (let j = i; j < days.length && days[j]! <= week; j++) on.add(weekdayIndex(days[j]!));
    let j = i + 1;
    let last = start;
    for (; j < days.length; j++) {
      let next = addDays(last, 1);
      while (!on.has(weekdayIndex(next))) next = addDays(next, 1);
      if (days[j] !== next) break;
      last = next;
    }
    const count = j - i;
    if (on.size === 7 || dayCount(start, last) === count || last <= week) {
      // Every day, or a few days within one week: consecutive days make a line.
      runs(days.slice(i, j));
    } else lines.push({ from: start, to: last, weekdays: [...on].sort((a, b) => a - b), days: count });
    i = j;
  }
  return lines;
}

/**
 * The changes per room or rate plan, consecutive days with the same change merged into one line (or the same
 * weekdays week after week), channels with the same change on the same days too, so a month of one change on three
 * channels reads as one line, not ninety, and a summer of Fridays and Saturdays as one, not seventeen. With
 * `results`, the figure each change gives from the base (days with different bases make different lines).
 */
export function diffRows(
  days: readonly RateDayChange[],
  setup: PropertySetup | null,
  options: DiffOptions = {},
): DiffRow[] {
  const order = new Map<string, number>();
  setup?.rooms.forEach((room) => {
    order.set(`inv:${room.id}`, order.size);
    room.rates.forEach((rate) => order.set(`rate:${room.id}:${rate.id}`, order.size));
  });
  const rank = (t: string) => order.get(t) ?? Number.MAX_SAFE_INTEGER;
  // One group per target, channel and change (and result): its days.
  const groups = new Map<
    string,
    { target: string; channel: string; before: string; after: string; result: string | null; days: string[] }
  >();
  for (const d of days) {
    for (const channel of new Set([...Object.keys(d.before), ...Object.keys(d.after)])) {
      const before = ruleText(d.before[channel]);
      const after = ruleText(d.after[channel]);
      if (before === after) continue;
      const result = options.results
        ? resultChange(
            setup,
            { target: d.target, day: d.day, before: d.before[channel], after: d.after[channel] },
            options.known?.(d.target, d.day) ?? true,
          )
        : null;
      const key = [d.target, channel, before, after, result].join('|');
      const group = groups.get(key) ?? { target: d.target, channel, before, after, result, days: [] };
      group.days.push(d.day);
      groups.set(key, group);
    }
  }
  const sorted = [...groups.values()].sort(
    (a, b) =>
      rank(a.target) - rank(b.target) ||
      a.target.localeCompare(b.target) ||
      Number(b.channel) - Number(a.channel) ||
      a.days[0]!.localeCompare(b.days[0]!),
  );
  const rows = new Map<string, DiffRow>();
  for (const { channel, days: groupDays, ...change } of sorted) {
    for (const line of dayLines([...new Set(groupDays)].sort())) {
      const key = [change.target, line.from, line.to, line.weekdays, change.before, change.after, change.result].join(
        '|',
      );
      const row = rows.get(key);
      if (row) row.channels.push(channel);
      else rows.set(key, { ...change, ...line, key, channels: [channel] });
    }
  }
  return [...rows.values()].sort(
    (a, b) => rank(a.target) - rank(b.target) || a.target.localeCompare(b.target) || a.from.localeCompare(b.from),
  );
}
