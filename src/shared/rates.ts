import { z } from 'zod';
import { MAX_DAYS_AHEAD, RULE_TYPES, addDays } from './schemas/inventory';
import { dateSchema, hotelIdSchema, idSchema } from './schemas/common';

/** One edit of a rates draft, in the owner's words (the provider's OTARule never appears here). */
export const rateEditSchema = (today: string) =>
  z
    .object({
      target: z.discriminatedUnion('level', [
        z.object({ level: z.literal('inventory'), roomId: idSchema('The room id') }).strict(),
        z
          .object({ level: z.literal('rate'), roomId: idSchema('The room id'), rateId: idSchema('The rate plan id') })
          .strict(),
      ]),
      from: dateSchema,
      to: dateSchema,
      channels: z
        .array(z.string().regex(/^\d+$/, 'A channel code is a number, such as 19.'))
        .min(1, 'Choose at least one channel.'),
      rule: z
        .object({
          type: z.enum(RULE_TYPES).optional(),
          value: z.number().finite().optional(),
          closed: z.boolean().optional(),
        })
        .strict()
        .nullable(),
    })
    .strict()
    .superRefine((e, ctx) => {
      const last = addDays(today, MAX_DAYS_AHEAD);
      if (e.from > e.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date.' });
      if (e.from < today)
        ctx.addIssue({
          code: 'custom',
          path: ['from'],
          message: `${e.from} has passed; rules start today (${today}) at the earliest.`,
        });
      if (e.to > last)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: `At most ${MAX_DAYS_AHEAD} days ahead (until ${last}).`,
        });
      const r = e.rule;
      if (!r) return;
      if ((r.type === undefined) !== (r.value === undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'value'],
          message: 'A rule type needs a value, and a value needs a type.',
        });
      if (r.type === undefined && !r.closed)
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'type'],
          message: 'Choose a rule (Fixed, Increase, Decrease, Multiply) or Closed.',
        });
      if (e.target.level === 'inventory' && (r.type === 'Multiply' || r.closed)) {
        ctx.addIssue({
          code: 'custom',
          path: ['rule', r.closed ? 'closed' : 'type'],
          message: 'Multiply and Closed are only possible for rates, not for inventory.',
        });
      }
      if (r.value === undefined) return;
      if (r.type === 'Multiply' && !(r.value > 0))
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'value'],
          message: 'Multiply needs a positive factor, such as 0.9 (−10 %) or 1.1 (+10 %).',
        });
      else if (r.type !== 'Multiply' && r.value < 0)
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'value'],
          message: 'The value cannot be negative; use Decrease to lower it.',
        });
      else if (e.target.level === 'inventory' && !Number.isInteger(r.value))
        ctx.addIssue({ code: 'custom', path: ['rule', 'value'], message: 'Inventory is counted in whole rooms.' });
    });

/** A property's draft: a name and the edits in the order they were made. */
export const rateDraftSchema = (today: string) =>
  z
    .object({
      hotelId: hotelIdSchema(20),
      name: z.string().trim().max(100, 'At most 100 characters.').default(''),
      edits: z.array(rateEditSchema(today)).max(5000, 'At most 5000 edits in one draft.'),
    })
    .strict();
export type RateDraftInput = z.input<ReturnType<typeof rateDraftSchema>>;

/** A channel's rule on one day, as the calendar shows it. */
export interface DayRule {
  type?: (typeof RULE_TYPES)[number];
  value?: number;
  closed?: boolean;
}

/** One day of one room (inventory) or room + rate plan whose rules change: before and after, per channel. */
export interface RateDayChange {
  /** `inv:ROOM` or `rate:ROOM:RATE`. */
  target: string;
  day: string;
  before: Record<string, DayRule>;
  after: Record<string, DayRule>;
}

/** A property's rates draft. */
export interface RateDraft {
  name: string;
  edits: unknown[];
  updatedAt: number | null;
}

/** What a push of the draft would send and change. */
export interface RatePreview {
  name: string;
  /** The exact request (spec endpoint 13) that would be sent. */
  request: unknown;
  days: RateDayChange[];
  summary: { changedDays: number; channelChanges: number; closes: boolean };
  /** True when pushing needs the owner's confirmation. */
  large: boolean;
  /** Rooms or rate plans never pushed from Innkeeper: rules set elsewhere for these dates will be replaced. */
  firstPush: string[];
}

/** One entry of the push history. */
export interface RatePushRecord {
  id: number;
  name: string;
  createdAt: number;
  appliedAt: number | null;
  reverts: number | null;
  state: string;
  error: unknown;
  days: RateDayChange[];
}

const hotel = z.object({ hotelId: hotelIdSchema(20) }).strict();
/** Contract arguments (edits are checked in full by the service, against today's date). */
export const rateArgs = {
  hotel,
  saveDraft: z
    .object({ hotelId: hotelIdSchema(20), name: z.string().max(100).optional(), edits: z.array(z.unknown()).max(5000) })
    .strict(),
  push: z.object({ hotelId: hotelIdSchema(20), confirmed: z.boolean().default(false) }).strict(),
  revert: z.object({ pushId: z.number().int().positive() }).strict(),
};
