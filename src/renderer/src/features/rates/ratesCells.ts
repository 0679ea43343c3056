import { channelName } from '@shared/channels';
import { type RateBookView } from '@shared/rates';
import { applyEdits, sameRule, type DaySet, type RuleEdit } from '@shared/ratesComposer';
import { WEEKDAYS, basePriceOn, resultingValue, type PropertySetup, type RatePlanSetup } from '@shared/rateSetups';
import type { CellView, GridGroup } from './calendar/grid';

/** The calendar's groups: per room its inventory, then each rate plan, one row per channel of the property. */
export function buildGroups(setup: PropertySetup | null): GridGroup[] {
  if (!setup) return [];
  const currency = setup.currency ?? null;
  const rows = (target: string, level: GridGroup['level']) =>
    setup.channels.map((channel) => ({
      key: `${target}|${channel}`,
      target,
      level,
      channel,
      channelName: channelName(channel),
    }));
  return setup.rooms.flatMap((room) => {
    const title = room.name || room.id;
    const inventory = `inv:${room.id}`;
    return [
      {
        target: inventory,
        level: 'inventory',
        title,
        subtitle: 'Inventory',
        base: room.inventory,
        baseOn: () => room.inventory,
        baseLabel: room.inventory === null ? null : `base ${room.inventory} ${room.inventory === 1 ? 'room' : 'rooms'}`,
        currency,
        rows: rows(inventory, 'inventory'),
      },
      ...room.rates.map((rate): GridGroup => {
        const target = `rate:${room.id}:${rate.id}`;
        return {
          target,
          level: 'rate',
          title,
          subtitle: rate.name || rate.id,
          base: rate.price,
          baseOn: (day) => basePriceOn(rate, day),
          baseLabel: weekPriceLabel(rate, currency),
          currency,
          rows: rows(target, 'rate'),
        };
      }),
    ] satisfies GridGroup[];
  });
}

/** A price with the property's currency in the owner's format ("€145", "145,50 €"); the bare number without one. */
export function money(value: number, currency: string | null): string {
  if (!currency) return String(Math.round(value * 100) / 100);
  return new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency,
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(value);
}

/** A plan's base prices in a few words: "€120", or "€120 · Fri, Sat €145" when days have their own. */
export function weekPriceLabel(plan: Pick<RatePlanSetup, 'price' | 'weekPrices'>, currency: string | null) {
  if (plan.price === null) return null;
  const own = new Map<number, string[]>();
  (plan.weekPrices ?? []).forEach((p, i) => {
    if (p !== null && p !== plan.price) own.set(p, [...(own.get(p) ?? []), WEEKDAYS[i]!]);
  });
  return [
    `base ${money(plan.price, currency)}`,
    ...[...own].map(([price, days]) => `${days.join(', ')} ${money(price, currency)}`),
  ].join(' · ');
}

export type CellFn = (target: string, channel: string, day: string) => CellView;

/**
 * What each cell shows: the draft applied over what Su holds. Everything is worked out once per change of the
 * data, so the function the grid calls for every visible cell is a few map look-ups.
 */
export function buildCells(
  groups: readonly GridGroup[],
  view: RateBookView | null,
  edits: readonly RuleEdit[],
): CellFn {
  const held: Record<string, Record<string, DaySet>> = view?.book ?? {};
  const book = new Map(Object.entries(held).map(([target, days]) => [target, new Map(Object.entries(days))]));
  const drafted = applyEdits(book, edits);
  const pending = new Set(view?.pending ?? []);
  const confirmed = new Map(Object.entries(view?.confirmed ?? {}).map(([target, days]) => [target, new Set(days)]));
  const targets = new Map(groups.map((g) => [g.target, g]));
  return (target, channel, day) => {
    const group = targets.get(target);
    const before = held[target]?.[day]?.[channel];
    const draftSet = drafted.get(target)?.days.get(day);
    const rule = draftSet ? draftSet[channel] : before;
    const isPending = pending.has(`${target}|${day}`);
    return {
      rule,
      result: group ? resultingValue(group.level, group.baseOn(day), rule) : null,
      drafted: draftSet !== undefined && !sameRule(rule, before),
      pending: isPending,
      known: isPending || draftSet !== undefined || confirmed.get(target)?.has(day) === true,
    };
  };
}
