import { channelName } from '@shared/channels';
import { addDays, daysOf } from '@shared/dates';
import type { RateDayChange, DayRule } from '@shared/rates';
import type { RuleEdit, Target } from '@shared/ratesComposer';
import { resultingValue, type PropertySetup } from '@shared/rateSetups';
import { type RuleType } from '@shared/su/inventory';

import type { GridGroup } from './calendar/grid';
import { money } from './ratesCells';

/** How the Rates screen writes rules, targets and dates in the owner's words. */

/**
 * What a rule gives on the days `from`..`to` from their base, which may differ by day of the week: "From the base
 * price: €120 → €130, €145 → €155." Null while the days are not a valid range.
 */
export function ruleOutcome(group: GridGroup, rule: { type: RuleType; value: number }, from: string, to: string) {
  const noun = group.level === 'rate' ? 'price' : 'inventory';
  if (group.base === null) return `No base ${noun} is set up, so the calendar shows the rule itself.`;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (!date.test(from) || !date.test(to) || to < from) return null;
  const seen = new Map<number, number>();
  // Seven days hold every weekday: enough to name every base.
  for (const day of daysOf(from, to).slice(0, 7)) {
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

/** One line of a diff table: channels of one target whose rule changes the same way on the same consecutive days. */
export interface DiffRow {
  key: string;
  target: string;
  /** Channels with the same change on the same days, in the order given. */
  channels: string[];
  from: string;
  to: string;
  days: number;
  before: string;
  after: string;
}

/**
 * The changes per room or rate plan, consecutive days with the same change merged into one line and channels with
 * the same change on the same days too, so a month of one change on three channels reads as one line, not ninety.
 */
export function diffRows(days: readonly RateDayChange[], setup: PropertySetup | null): DiffRow[] {
  const order = new Map<string, number>();
  setup?.rooms.forEach((room) => {
    order.set(`inv:${room.id}`, order.size);
    room.rates.forEach((rate) => order.set(`rate:${room.id}:${rate.id}`, order.size));
  });
  const lines: { target: string; channel: string; from: string; before: string; after: string }[] = [];
  for (const d of days) {
    for (const channel of new Set([...Object.keys(d.before), ...Object.keys(d.after)])) {
      const before = ruleText(d.before[channel]);
      const after = ruleText(d.after[channel]);
      if (before !== after) lines.push({ target: d.target, channel, from: d.day, before, after });
    }
  }
  const rank = (t: string) => order.get(t) ?? Number.MAX_SAFE_INTEGER;
  lines.sort(
    (a, b) =>
      rank(a.target) - rank(b.target) ||
      a.target.localeCompare(b.target) ||
      Number(b.channel) - Number(a.channel) ||
      a.from.localeCompare(b.from),
  );
  const runs: (Omit<DiffRow, 'key' | 'channels'> & { channel: string })[] = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (
      last &&
      last.target === line.target &&
      last.channel === line.channel &&
      last.before === line.before &&
      last.after === line.after &&
      addDays(last.to, 1) === line.from
    ) {
      last.to = line.from;
      last.days += 1;
      continue;
    }
    runs.push({ ...line, to: line.from, days: 1 });
  }
  const rows = new Map<string, DiffRow>();
  for (const { channel, ...run } of runs) {
    const key = [run.target, run.from, run.to, run.before, run.after].join('|');
    const row = rows.get(key);
    if (row) row.channels.push(channel);
    else rows.set(key, { ...run, key, channels: [channel] });
  }
  return [...rows.values()].sort(
    (a, b) => rank(a.target) - rank(b.target) || a.target.localeCompare(b.target) || a.from.localeCompare(b.from),
  );
}
