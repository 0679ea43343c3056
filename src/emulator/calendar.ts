/**
 * Inventory and rate control as the provider applies it, by overwrite (one call adds, replaces or removes rules),
 * kept free of HTTP so the semantics can be read in one place.
 *
 * What is stored, per room (inventory) or per room + rate plan (rates): for each date, the set of channel rules the
 * last call naming that date left there. A call replaces the whole set of every date it names: a channel left out of
 * the new set has no rule any more and gets the base data unchanged; an empty OTARule array therefore removes every
 * rule of those dates. Dates a call does not name keep their rules. Several ranges in one call together make the call's
 * set for each date (the provider overwrites the set "by each call", and a call may carry several ranges); where two
 * ranges name the same channel on the same date, the later range wins.
 */

export type RuleType = 'Fixed' | 'Increase' | 'Decrease' | 'Multiply';

/** One channel's rule on one date (the wire's `rule` object with a numeric value). */
export interface ChannelRule {
  type?: RuleType;
  value?: number;
  closed?: boolean;
}

/** date (YYYY-MM-DD) → channel code → rule. */
export type RuleCalendar = Map<string, Map<string, ChannelRule>>;

/** One `date[]` item of a request, already validated: channels are codes as strings ("244", "189", …). */
export interface RuleRange {
  from: string;
  to: string;
  rules: { channels: string[]; rule: ChannelRule }[];
}

const DAY_MS = 86_400_000;

/** Today's date on the emulator clock, in UTC (the emulator's notion of "today" for past/future checks). */
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => isoDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);

/** Days from `a` to `b` (negative when b is earlier). */
export const daysBetween = (a: string, b: string): number =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/** A real calendar date in YYYY-MM-DD form (rejects 2025-02-30). */
export const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  isoDate(Date.parse(`${value}T00:00:00Z`) || 0) === value;

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}

/**
 * Applies one call's ranges to a calendar. The call (not each range) overwrites: for every date it names, the new
 * set is what all of its ranges say for that date, a channel named by two ranges keeping the later range's rule;
 * a date named only with empty OTARule arrays loses its rules.
 */
export function applyRanges(calendar: RuleCalendar, ranges: RuleRange[]): void {
  const sets = new Map<string, Map<string, ChannelRule>>();
  for (const range of ranges) {
    for (const date of datesBetween(range.from, range.to)) {
      const set = sets.get(date) ?? new Map<string, ChannelRule>();
      for (const { channels, rule } of range.rules) for (const channel of channels) set.set(channel, { ...rule });
      sets.set(date, set);
    }
  }
  for (const [date, set] of sets) {
    if (set.size === 0) calendar.delete(date);
    else calendar.set(date, set);
  }
}

/** The rule a channel has on a date, or null (base data pushed unchanged). */
export const ruleOn = (calendar: RuleCalendar | undefined, date: string, channel: string): ChannelRule | null =>
  calendar?.get(date)?.get(channel) ?? null;

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The value a channel receives: Fixed sets it, Increase adds, Decrease subtracts, Multiply (rates only) scales.
 * Results below zero are posted as 0 (the provider does so for inventory; a negative price cannot exist either).
 */
export function applyModifier(base: number, rule: ChannelRule | null, kind: 'inventory' | 'rate'): number {
  let result = base;
  if (rule?.type !== undefined && rule.value !== undefined) {
    if (rule.type === 'Fixed') result = rule.value;
    else if (rule.type === 'Increase') result = base + rule.value;
    else if (rule.type === 'Decrease') result = base - rule.value;
    else if (rule.type === 'Multiply' && kind === 'rate') result = base * rule.value;
  }
  result = Math.max(0, result);
  return kind === 'inventory' ? Math.round(result) : round2(result);
}

/** Base rate of a plan on a date: Friday and Saturday nights use the weekend rate. */
export function baseRateOn(plan: { baseRate: number; weekendRate: number }, date: string): number {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 5 || weekday === 6 ? plan.weekendRate : plan.baseRate;
}

/** What one channel shows on one day (the control API's calendar row). */
export interface CalendarDay {
  date: string;
  inventory: number;
  rate: number | null;
  closed: boolean;
  inventoryRule: ChannelRule | null;
  rateRule: ChannelRule | null;
}

export function calendarDay(input: {
  date: string;
  channel: string;
  baseInventory: number;
  plan: { baseRate: number; weekendRate: number } | null;
  inventoryRules: RuleCalendar | undefined;
  rateRules: RuleCalendar | undefined;
}): CalendarDay {
  const { date, channel, plan } = input;
  const inventoryRule = ruleOn(input.inventoryRules, date, channel);
  const rateRule = plan ? ruleOn(input.rateRules, date, channel) : null;
  return {
    date,
    inventory: applyModifier(input.baseInventory, inventoryRule, 'inventory'),
    rate: plan ? applyModifier(baseRateOn(plan, date), rateRule, 'rate') : null,
    closed: rateRule?.closed === true,
    inventoryRule,
    rateRule,
  };
}
