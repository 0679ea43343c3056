import { applyEdits, sameRule, type DaySet, type RuleBook, type RuleEdit } from '../../shared/ratesComposer';
import { channelName } from '../../shared/channels';
import { type RateDayChange } from '../../shared/rates';
import { basePriceOn, resultingValue, type PropertySetup, type RatePlanSetup } from '../../shared/rateSetups';

/** Target key → day → the day's full rule set. */
export type Snapshot = Record<string, Record<string, DaySet>>;

/** Channels whose rule differs between two sets of one day. */
export function changedChannels(before: DaySet, after: DaySet): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((c) => !sameRule(before[c], after[c]));
}

/** Every day the edits touch, with its set before (from `book`) and after; `changed` keeps only real changes. */
export function dayChanges(book: RuleBook, edits: readonly RuleEdit[], changed = true): RateDayChange[] {
  const days: RateDayChange[] = [];
  for (const [target, { days: after }] of applyEdits(book, edits)) {
    for (const [day, set] of after) {
      const before = book.get(target)?.get(day) ?? {};
      if (!changed || changedChannels(before, set).length) days.push({ target, day, before, after: set });
    }
  }
  return days;
}

/** How much a push changes: days, channel rules (only those that differ), and whether a channel gets closed. */
export function summarize(days: readonly RateDayChange[]) {
  return {
    changedDays: new Set(days.map((d) => d.day)).size,
    channelChanges: days.reduce((n, d) => n + changedChannels(d.before, d.after).length, 0),
    closes: days.some((d) => Object.entries(d.after).some(([c, r]) => r.closed && !d.before[c]?.closed)),
  };
}

/** A push's sets before it and after it, from its stored snapshot and edits (exactly what its request sent). */
export function pushDays(before: Snapshot, edits: readonly RuleEdit[]): RateDayChange[] {
  const book: RuleBook = new Map(Object.entries(before).map(([k, v]) => [k, new Map(Object.entries(v))]));
  const after = applyEdits(book, edits);
  return Object.entries(before).flatMap(([target, days]) =>
    Object.entries(days).map(([day, set]) => ({
      target,
      day,
      before: set,
      after: after.get(target)?.days.get(day) ?? set,
    })),
  );
}

/**
 * The edits that undo a push: each channel it changed gets its earlier rule back, on days from `today` on — but
 * only where Su still holds what the push set. A channel a later push changed again is left alone and counted.
 */
export function revertEdits(
  changes: readonly RateDayChange[],
  record: RuleBook,
  today: string,
  parseTarget: (key: string) => RuleEdit['target'],
): { edits: RuleEdit[]; keptLater: number; past: number } {
  const edits: RuleEdit[] = [];
  let keptLater = 0;
  let past = 0;
  for (const { target, day, before, after } of changes) {
    const channels = changedChannels(before, after);
    if (day < today) {
      past += channels.length;
      continue;
    }
    const now = record.get(target)?.get(day) ?? {};
    for (const channel of channels) {
      if (!sameRule(now[channel], after[channel])) {
        keptLater++;
        continue;
      }
      const rule = before[channel];
      edits.push({
        target: parseTarget(target),
        from: day,
        to: day,
        channels: [channel],
        rule: rule ? { ...rule } : null,
      });
    }
  }
  return { edits, keptLater, past };
}

/**
 * Prices that look like a slip of the finger, from the owner's base prices: a channel ending at 0 or below, under
 * half the base, or over three times it, per room/rate plan and channel (one line each, with the number of days).
 */
export function priceWarnings(days: readonly RateDayChange[], setup: PropertySetup | null): string[] {
  if (!setup) return [];
  const plans = new Map<string, { label: string; plan: RatePlanSetup }>();
  for (const room of setup.rooms)
    for (const rate of room.rates)
      if (rate.price !== null)
        plans.set(`rate:${room.id}:${rate.id}`, {
          label: `${room.name || room.id} · ${rate.name || rate.id}`,
          plan: rate,
        });
  const found = new Map<string, { text: (n: number) => string; days: number }>();
  for (const d of days) {
    const known = plans.get(d.target);
    const base = known && basePriceOn(known.plan, d.day);
    if (!known || base === null || base === undefined) continue;
    const plan = { label: known.label, price: base };
    for (const channel of changedChannels(d.before, d.after)) {
      const rule = d.after[channel];
      if (!rule || rule.type === undefined) continue;
      const value = resultingValue('rate', plan.price, rule)!;
      const why =
        value <= 0
          ? 'nothing'
          : value < plan.price / 2
            ? 'less than half'
            : value > plan.price * 3
              ? 'more than three times'
              : null;
      if (!why) continue;
      const key = `${d.target}|${channel}|${value}|${plan.price}`;
      const entry = found.get(key) ?? {
        days: 0,
        text: (n: number) =>
          `${plan.label} on ${channelName(channel)}: ${value} on ${n === 1 ? '1 day' : `${n} days`} — ${why === 'nothing' ? 'free' : `${why} the base price ${plan.price}`}.`,
      };
      entry.days++;
      found.set(key, entry);
    }
  }
  return [...found.values()].map((w) => w.text(w.days));
}
