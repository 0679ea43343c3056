import { channelName } from '@shared/channels';
import { type RateBookView } from '@shared/rates';
import { applyEdits, sameRule, type DaySet, type RuleEdit } from '@shared/ratesComposer';
import { resultingValue, type PropertySetup } from '@shared/rateSetups';
import type { CellView, GridGroup } from './calendar/grid';

/** The calendar's groups: per room its inventory, then each rate plan, one row per channel of the property. */
export function buildGroups(setup: PropertySetup | null): GridGroup[] {
  if (!setup) return [];
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
          rows: rows(target, 'rate'),
        };
      }),
    ] satisfies GridGroup[];
  });
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
  const targets = new Map(groups.map((g) => [g.target, g]));
  return (target, channel, day) => {
    const group = targets.get(target);
    const before = held[target]?.[day]?.[channel];
    const draftSet = drafted.get(target)?.days.get(day);
    const rule = draftSet ? draftSet[channel] : before;
    return {
      rule,
      result: group ? resultingValue(group.level, group.base, rule) : null,
      drafted: draftSet !== undefined && !sameRule(rule, before),
      pending: pending.has(`${target}|${day}`),
    };
  };
}
