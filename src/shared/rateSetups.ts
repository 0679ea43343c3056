import { z } from 'zod';
import type { DayRule } from './rates';
import { hotelIdSchema, idSchema } from './su/common';
import { weekdayIndex } from './dates';

// The owner's rooms and rate plans.
// Su has no API that lists a property's rooms or rate plans: the owner enters the ids they use at Su (the ids must
// already exist there) and, optionally, the base inventory and prices the calendar computes channel results from.

/** The largest base figure: the same bound as a rule's value in the rule editor (and what a calendar cell fits). */
export const MAX_BASE = 1_000_000;

const baseNumber = (label: string, whole: boolean) =>
  z
    .number({ message: `${label} must be a number.` })
    .finite(`${label} must be a number.`)
    .min(0, `${label} cannot be negative.`)
    .max(MAX_BASE, `${label} is at most 1,000,000.`)
    .refine((v) => !whole || Number.isInteger(v), `${label} is counted in whole rooms.`)
    .refine((v) => whole || Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${label} has at most 2 decimals.`);

/** Monday first, as the week prices are kept. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const ratePlanSetupSchema = z
  .object({
    id: idSchema('The rate plan id'),
    name: z.string().trim().max(60, 'At most 60 characters.').default(''),
    /** The price every day has unless the week below gives that day its own. */
    price: baseNumber('The base price', false).nullable().default(null),
    /** Monday … Sunday: a day's own base price, or null for the base price. Absent: the same every day. */
    weekPrices: z
      .array(baseNumber('The price', false).nullable())
      .length(7, 'Give one price per day, Monday to Sunday.')
      .optional(),
  })
  .strict()
  .superRefine((plan, ctx) => {
    if (plan.price === null && plan.weekPrices?.some((p) => p !== null))
      ctx.addIssue({
        code: 'custom',
        path: ['price'],
        message: 'Give the base price too: it is the price of the days without their own.',
      });
  });

export const roomSetupSchema = z
  .object({
    id: idSchema('The room id'),
    name: z.string().trim().max(60, 'At most 60 characters.').default(''),
    inventory: baseNumber('The base inventory', true).nullable().default(null),
    rates: z.array(ratePlanSetupSchema).max(20, 'At most 20 rate plans per room.').default([]),
  })
  .strict()
  .superRefine((room, ctx) => {
    const seen = new Set<string>();
    room.rates.forEach((rate, i) => {
      if (seen.has(rate.id))
        ctx.addIssue({ code: 'custom', path: ['rates', i, 'id'], message: `Rate plan ${rate.id} is listed twice.` });
      seen.add(rate.id);
    });
  });

/** A property as the Rates screen knows it: its channels, rooms and rate plans. */
export const propertySetupSchema = z
  .object({
    hotelId: hotelIdSchema(20),
    name: z.string().trim().max(80, 'At most 80 characters.').default(''),
    /** The ISO 4217 code of the prices (EUR); absent: not given, the calendar then shows bare numbers. */
    currency: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, 'The currency is a three-letter code, such as EUR.')
      .refine((c) => knownCurrencies().has(c), 'The currency is not one Innkeeper knows; choose it from the list.')
      .optional(),
    channels: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[1-9]\d{0,5}$/, 'A channel code is a number, such as 19.'),
      )
      .min(1, 'Choose at least one channel.')
      .max(30, 'At most 30 channels.'),
    rooms: z.array(roomSetupSchema).max(100, 'At most 100 rooms.').default([]),
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.channels.forEach((c, i) => {
      if (seen.has(c))
        ctx.addIssue({ code: 'custom', path: ['channels', i], message: `Channel ${c} is listed twice.` });
      seen.add(c);
    });
    const rooms = new Set<string>();
    p.rooms.forEach((room, i) => {
      if (rooms.has(room.id))
        ctx.addIssue({ code: 'custom', path: ['rooms', i, 'id'], message: `Room ${room.id} is listed twice.` });
      rooms.add(room.id);
    });
  });
export type PropertySetupInput = z.input<typeof propertySetupSchema>;
export type PropertySetup = z.output<typeof propertySetupSchema>;
export type RoomSetup = PropertySetup['rooms'][number];
export type RatePlanSetup = RoomSetup['rates'][number];

let currencies: Set<string> | null = null;
/** Every currency code Intl knows (Node and Chromium both do). */
export function knownCurrencies(): Set<string> {
  return (currencies ??= new Set(Intl.supportedValuesOf('currency')));
}

/** "EUR — Euro" style names for the currency list, in the owner's language. */
export function currencyName(code: string, locale?: string): string {
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The plan's base price on a day: that weekday's own price, else the base price; null without one. */
export function basePriceOn(plan: Pick<RatePlanSetup, 'price' | 'weekPrices'>, day: string): number | null {
  return plan.weekPrices?.[weekdayIndex(day)] ?? plan.price;
}

/**
 * The number a channel ends up with on a day, from the owner's base figure and the channel's rule (the base
 * itself without a modifier, closed or not); null without a base. Never below 0: the provider posts a negative
 * inventory result as 0, and a negative price cannot exist.
 */
export function resultingValue(level: 'inventory' | 'rate', base: number | null, rule: DayRule | undefined) {
  if (base === null) return null;
  if (!rule || rule.type === undefined || rule.value === undefined) return base;
  const v = rule.value;
  const raw =
    rule.type === 'Fixed' ? v : rule.type === 'Increase' ? base + v : rule.type === 'Decrease' ? base - v : base * v;
  const result = level === 'inventory' ? Math.max(0, Math.round(raw)) : Math.max(0, Math.round(raw * 100) / 100);
  return result;
}
