import { z } from 'zod';
import type { DayRule } from './rates';
import { hotelIdSchema, idSchema } from './su/common';

// The owner's rooms and rate plans.
// Su has no API that lists a property's rooms or rate plans: the owner enters the ids they use at Su (the ids must
// already exist there) and, optionally, the base inventory and price the calendar computes channel results from.

const baseNumber = (label: string, whole: boolean) =>
  z
    .number({ message: `${label} must be a number.` })
    .finite(`${label} must be a number.`)
    .min(0, `${label} cannot be negative.`)
    .refine((v) => !whole || Number.isInteger(v), `${label} is counted in whole rooms.`)
    .nullable()
    .default(null);

export const ratePlanSetupSchema = z
  .object({
    id: idSchema('The rate plan id'),
    name: z.string().trim().max(60, 'At most 60 characters.').default(''),
    price: baseNumber('The base price', false),
  })
  .strict();

export const roomSetupSchema = z
  .object({
    id: idSchema('The room id'),
    name: z.string().trim().max(60, 'At most 60 characters.').default(''),
    inventory: baseNumber('The base inventory', true),
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
