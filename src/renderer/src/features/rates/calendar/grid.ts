import type { DayRule } from '@shared/rates';

/**
 * The shapes the rates calendar grid works with. The view builds them from the property's setup, the record of
 * what Su holds and the draft; the grid only draws them and reports what the owner selects.
 */

/** One row of the grid: one channel of one target (a room's inventory, or a room's rate plan). */
export interface GridRow {
  /** `${target}|${channel}`, unique in the grid. */
  key: string;
  /** Target key: `inv:ROOM` or `rate:ROOM:RATE`. */
  target: string;
  level: 'inventory' | 'rate';
  channel: string;
  /** "Airbnb", "Booking.com", "Expedia", or "channel 189" for a code the app does not know. */
  channelName: string;
}

/** The rows of one target, drawn under a heading ("Double Room · Inventory", "Double Room · Best available rate"). */
export interface GridGroup {
  target: string;
  level: 'inventory' | 'rate';
  title: string;
  subtitle: string;
  /** The owner's base figure (inventory, or the price of days without their own), or null when none was entered. */
  base: number | null;
  /** The base figure on a day (a rate plan's price may differ by day of the week). */
  baseOn: (day: string) => number | null;
  /** The heading's words for the base: "base 4 rooms", "€120 · Fri, Sat €145". */
  baseLabel: string | null;
  /** The property's currency code (prices), if the owner gave one. */
  currency: string | null;
  rows: GridRow[];
}

/** What one cell shows. */
export interface CellView {
  /** The channel's rule on that day (after the draft), or undefined: the channel gets Su's own data. */
  rule: DayRule | undefined;
  /** The resulting number on the channel from the base figure and the rule; null without a base. */
  result: number | null;
  /** The draft changes this cell. */
  drafted: boolean;
  /** A push that changes this day is on its way (not yet confirmed by Su). */
  pending: boolean;
  /**
   * Innkeeper knows what Su holds for this day: a push it sent was confirmed (or is on its way, or the draft sets
   * the day). Otherwise Su may hold rules set elsewhere, and the figure is only what the base would give.
   */
  known: boolean;
}

/**
 * A selection: days `from`..`to` (inclusive, YYYY-MM-DD) of some channels of one target — or of several rate plans
 * of one room (`targets`, the first being `target`), the same channels on each.
 */
export interface GridSelection {
  target: string;
  /** Every rate plan selected, when more than one. */
  targets?: string[];
  channels: string[];
  from: string;
  to: string;
  /** The days of the week the rule editor starts with (an edit of the draft shown again); the grid draws from..to. */
  weekdays?: number[];
}
