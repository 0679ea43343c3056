import type { InvRateControl, RuleType } from './su/inventory';
import { addDays, daysOn } from './dates';

/**
 * The rates composer. The provider works by overwrite: a request replaces the WHOLE rule set of a room (or room +
 * rate plan) for every date it names, so a change to one channel must carry every other channel's rules on those
 * dates or they are wiped (a channel left out gets the provider's base data). This module keeps that trap away
 * from the rest of the app: from what was last pushed and the owner's edits it composes the request that sends, for
 * every touched date, the full new rule set — consecutive days with identical sets merged into one range, channels
 * with identical rules merged into one OTARule — and nothing for dates no edit touched.
 */

/** One channel's rule on one day: a modifier, closed, or both (closed only for rates). */
export interface ChannelRule {
  type?: RuleType;
  value?: number;
  closed?: boolean;
}

/** Channel code → rule, for one day of one room or room + rate plan. Channels absent get the provider's data. */
export type DaySet = Readonly<Record<string, ChannelRule>>;

/** What a rule set belongs to: a room's inventory, or a room's rate plan (rates and closed). */
export type Target = { level: 'inventory'; roomId: string } | { level: 'rate'; roomId: string; rateId: string };

/** Day (YYYY-MM-DD) → rule set, per target key (see {@link targetKey}). */
export type RuleBook = ReadonlyMap<string, ReadonlyMap<string, DaySet>>;

/**
 * One edit of the draft: on these days, for these channels, set this rule — or remove theirs (null). With
 * `weekdays`, only the days from..to that fall on them (Monday = 0 … Sunday = 6): Su's request has no day-of-week
 * field, so the composer sends those days themselves.
 */
export interface RuleEdit {
  target: Target;
  from: string;
  to: string;
  weekdays?: number[];
  channels: string[];
  rule: ChannelRule | null;
}

export const targetKey = (t: Target): string =>
  t.level === 'inventory' ? `inv:${t.roomId}` : `rate:${t.roomId}:${t.rateId}`;

const canonicalRule = (r: ChannelRule): string => JSON.stringify([r.type ?? null, r.value ?? null, r.closed ?? false]);

/** Two channels' rules are the same rule (no rule on either side counts as "none"). */
export const sameRule = (a: ChannelRule | undefined, b: ChannelRule | undefined): boolean =>
  (a?.type ?? null) === (b?.type ?? null) &&
  (a?.value ?? null) === (b?.value ?? null) &&
  (a?.closed ?? false) === (b?.closed ?? false);
const canonicalSet = (s: DaySet): string =>
  JSON.stringify(
    Object.keys(s)
      .sort()
      .map((c) => [c, canonicalRule(s[c]!)]),
  );

/** The rule sets after the edits, for touched days only (target key → day → set). */
export function applyEdits(
  book: RuleBook,
  edits: readonly RuleEdit[],
): Map<string, { target: Target; days: Map<string, DaySet> }> {
  const next = new Map<string, { target: Target; days: Map<string, DaySet> }>();
  for (const edit of edits) {
    const days = daysOn(edit.from, edit.to, edit.weekdays);
    // An edit on weekdays its dates do not hold touches nothing (and sends no empty control).
    if (!days.length) continue;
    const key = targetKey(edit.target);
    const entry = next.get(key) ?? { target: edit.target, days: new Map<string, DaySet>() };
    next.set(key, entry);
    for (const day of days) {
      const set: Record<string, ChannelRule> = { ...(entry.days.get(day) ?? book.get(key)?.get(day) ?? {}) };
      for (const channel of edit.channels) {
        if (edit.rule === null) delete set[channel];
        else set[channel] = { ...edit.rule };
      }
      entry.days.set(day, set);
    }
  }
  return next;
}

/** One range of days sharing one rule set, with its channels grouped by identical rule. */
export interface ComposedRange {
  from: string;
  to: string;
  OTARule: { OTACode: number[]; rule: { type?: RuleType; value?: string; closed?: boolean } }[];
}

/** Groups channels with identical rules into one OTARule each (codes ascending, rules in a stable order). */
function otaRules(set: DaySet): ComposedRange['OTARule'] {
  const groups = new Map<string, { codes: number[]; rule: ChannelRule }>();
  for (const [channel, rule] of Object.entries(set)) {
    const key = canonicalRule(rule);
    const group = groups.get(key) ?? { codes: [], rule };
    group.codes.push(Number(channel));
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, g]) => ({
      OTACode: g.codes.sort((x, y) => x - y),
      rule: {
        ...(g.rule.type !== undefined ? { type: g.rule.type, value: String(g.rule.value) } : {}),
        ...(g.rule.closed ? { closed: true } : {}),
      },
    }));
}

/** Consecutive touched days with identical sets become one range. */
export function mergeRanges(days: ReadonlyMap<string, DaySet>): ComposedRange[] {
  const ranges: ComposedRange[] = [];
  let current: { from: string; to: string; key: string; set: DaySet } | null = null;
  for (const day of [...days.keys()].sort()) {
    const set = days.get(day)!;
    const key = canonicalSet(set);
    if (current && current.key === key && addDays(current.to, 1) === day) {
      current.to = day;
      continue;
    }
    if (current) ranges.push({ from: current.from, to: current.to, OTARule: otaRules(current.set) });
    current = { from: day, to: day, key, set };
  }
  if (current) ranges.push({ from: current.from, to: current.to, OTARule: otaRules(current.set) });
  return ranges;
}

/** The request for one property that applies the draft without wiping anything else on the touched days. */
export function composeRequest(hotelId: string, book: RuleBook, edits: readonly RuleEdit[]): InvRateControl {
  const inventorycontrol: NonNullable<InvRateControl['inventorycontrol']> = [];
  const ratecontrol: NonNullable<InvRateControl['ratecontrol']> = [];
  const next = applyEdits(book, edits);
  for (const key of [...next.keys()].sort()) {
    const { target, days } = next.get(key)!;
    const date = mergeRanges(days);
    if (target.level === 'inventory') inventorycontrol.push({ roomid: target.roomId, date });
    else ratecontrol.push({ roomid: target.roomId, rateid: target.rateId, date });
  }
  return {
    hotelid: hotelId,
    ...(inventorycontrol.length ? { inventorycontrol } : {}),
    ...(ratecontrol.length ? { ratecontrol } : {}),
  };
}

/** What the book looks like once a composed request has been accepted (it becomes "last pushed"). */
export function applyToBook(book: RuleBook, edits: readonly RuleEdit[]): Map<string, Map<string, DaySet>> {
  const result = new Map<string, Map<string, DaySet>>([...book].map(([k, v]) => [k, new Map(v)]));
  for (const [key, { days }] of applyEdits(book, edits)) {
    const target = result.get(key) ?? new Map<string, DaySet>();
    for (const [day, set] of days) {
      if (Object.keys(set).length) target.set(day, set);
      else target.delete(day);
    }
    result.set(key, target);
  }
  return result;
}

/**
 * A composed request without the days before `today` (a push that waited overnight): ranges that ended are
 * dropped, one that started earlier starts today; null when no day is left to send.
 */
export function withoutPastDays(request: InvRateControl, today: string): InvRateControl | null {
  const trim = <C extends { date: { from: string; to: string }[] }>(controls: C[] | undefined): C[] =>
    (controls ?? [])
      .map((c) => ({
        ...c,
        date: c.date.filter((r) => r.to >= today).map((r) => (r.from < today ? { ...r, from: today } : r)),
      }))
      .filter((c) => c.date.length > 0);
  const inventorycontrol = trim(request.inventorycontrol);
  const ratecontrol = trim(request.ratecontrol);
  if (!inventorycontrol.length && !ratecontrol.length) return null;
  return {
    hotelid: request.hotelid,
    ...(inventorycontrol.length ? { inventorycontrol } : {}),
    ...(ratecontrol.length ? { ratecontrol } : {}),
  };
}
