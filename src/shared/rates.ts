import { z } from 'zod';
import type { AppError } from './result';
import { MAX_DAYS_AHEAD, RULE_TYPES } from './su/inventory';
import { addDays, daysOn } from './dates';
import { propertySetupSchema, type PropertySetup } from './rateSetups';
import { dateSchema, hotelIdSchema, idSchema } from './su/common';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

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
      /** Only these days of the week (Monday = 0 … Sunday = 6) from..to; absent: every day. */
      weekdays: z
        .array(z.number().int('A day of the week is 0 (Monday) to 6 (Sunday).').min(0).max(6))
        .min(1, 'Choose at least one day of the week.')
        .refine((w) => new Set(w).size === w.length, 'A day of the week is chosen twice.')
        .transform((w) => [...w].sort((a, b) => a - b))
        .optional(),
      channels: z
        .array(z.string().regex(/^[1-9]\d{0,5}$/, 'A channel code is a number, such as 19.'))
        .min(1, 'Choose at least one channel.')
        .max(30, 'At most 30 channels.')
        .refine((c) => new Set(c).size === c.length, 'A channel is chosen twice.'),
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
      if (e.weekdays && e.from <= e.to && !hasWeekday(e)) {
        const names = e.weekdays.map((d) => WEEKDAY_NAMES[d]);
        const days = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
        ctx.addIssue({
          code: 'custom',
          path: ['weekdays'],
          message:
            e.from === e.to
              ? `${e.from} is not a ${days}: choose other days or dates.`
              : `From ${e.from} to ${e.to} there is no ${days}: choose other days or dates.`,
        });
      }
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
      if (Math.abs(r.value * 10_000 - Math.round(r.value * 10_000)) > 1e-6 || Math.abs(r.value) > 1_000_000)
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'value'],
          message: 'Write a number up to 1,000,000 with at most 4 decimals.',
        });
      else if (r.type === 'Multiply' && !(r.value > 0 && r.value <= 10))
        ctx.addIssue({
          code: 'custom',
          path: ['rule', 'value'],
          message: 'Multiply needs a factor above 0 and at most 10, such as 0.9 (−10 %) or 1.1 (+10 %).',
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

/** The days of the week in full, Monday first (as `weekdays` counts them). */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Whether from..to holds a day on one of the edit's weekdays (a week holds each: only the first is looked at). */
const hasWeekday = (e: { from: string; to: string; weekdays?: readonly number[] }) =>
  !e.weekdays || daysOn(e.from, e.to < addDays(e.from, 6) ? e.to : addDays(e.from, 6), e.weekdays).length > 0;

/**
 * Days that have passed cannot be sent: an edit started before `today` keeps its remaining days, one that ended
 * (or has none of its weekdays left) is dropped (a draft left overnight stays usable).
 */
export function dropPastDays<E extends { from: string; to: string; weekdays?: readonly number[] }>(
  edits: E[],
  today: string,
): E[] {
  return edits
    .filter((e) => e.to >= today)
    .map((e) => (e.from < today ? { ...e, from: today } : e))
    .filter(hasWeekday);
}

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
  /** The exact inventory and rate control request (`invratecontrol`) that would be sent. */
  request: unknown;
  /** Its fingerprint: `rates.push` given it refuses to send anything else. */
  fingerprint: string;
  days: RateDayChange[];
  summary: { changedDays: number; channelChanges: number; closes: boolean };
  /** Prices that look like a slip (0, under half or over three times the base price): pushing needs confirmation. */
  warnings: string[];
  /** True when pushing needs the owner's confirmation. */
  large: boolean;
  /** Rooms or rate plans never pushed from Innkeeper: rules set elsewhere for these dates will be replaced. */
  firstPush: string[];
}

/** What reverting a push would send and change; `keptLater` channel rules later pushes changed stay, `past` ones passed. */
export interface RateRevertPreview extends RatePreview {
  keptLater: number;
  past: number;
}

/** One entry of the push history. */
export interface RatePushRecord {
  id: number;
  name: string;
  createdAt: number;
  appliedAt: number | null;
  /** The push this one reverts. */
  reverts: number | null;
  /** The push that reverts this one (not discarded), if any. */
  revertedBy: number | null;
  /** Its outbox item: `outbox.retry` / `outbox.discard` / `outbox.markSent` act on a failed push. */
  outboxId: number;
  /** The outbox state: queued, sending, sent, failed, discarded. */
  state: string;
  error: AppError | null;
  days: RateDayChange[];
}

/**
 * What Su holds for a property as far as Innkeeper knows: the last confirmed pushes plus the pushes still on their
 * way (`pending`, as `TARGET|DAY`), target key → day → rule set. Days before today are left out.
 */
export interface RateBookView {
  book: Record<string, Record<string, Record<string, DayRule>>>;
  pending: string[];
  /**
   * Target key → the days (from today on) a push Su confirmed set. Only there is a channel's figure known: on the
   * other days Su may hold rules set elsewhere (its extranet, another tool).
   */
  confirmed: Record<string, string[]>;
}

const hotel = z.object({ hotelId: hotelIdSchema(20) }).strict();

/** The rates' slice of the contract (edits are checked in full by the service, against today's date). */
export const ratesMethods = {
  'rates.properties': noArgs,
  'rates.saveSetup': propertySetupSchema,
  'rates.removeSetup': hotel,
  'rates.book': hotel,
  'rates.draft': hotel,
  'rates.saveDraft': z
    .object({ hotelId: hotelIdSchema(20), name: z.string().max(100).optional(), edits: z.array(z.unknown()).max(5000) })
    .strict(),
  'rates.preview': hotel,
  'rates.push': z
    .object({
      hotelId: hotelIdSchema(20),
      confirmed: z.boolean().default(false),
      /** The preview's fingerprint (required): what the owner looked at is what is sent. */
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'Preview the change first.'),
    })
    .strict(),
  'rates.history': hotel,
  'rates.revertPreview': z.object({ pushId: z.number().int().positive() }).strict(),
  /** With its preview's fingerprint (required), as a push; a large revert (or one that closes dates) needs `confirmed`. */
  'rates.revert': z
    .object({
      pushId: z.number().int().positive(),
      confirmed: z.boolean().default(false),
      /** Its preview's fingerprint (required): no revert goes out that the owner did not look at. */
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'Preview the revert first.'),
    })
    .strict(),
} as const;

export interface RatesResults {
  'rates.properties': PropertySetup[];
  'rates.saveSetup': PropertySetup[];
  'rates.removeSetup': PropertySetup[];
  'rates.book': RateBookView;
  'rates.draft': RateDraft;
  'rates.saveDraft': RateDraft;
  'rates.preview': RatePreview;
  'rates.push': { pushId: number };
  'rates.history': RatePushRecord[];
  'rates.revertPreview': RateRevertPreview;
  'rates.revert': { pushId: number; keptLater: number; past: number };
}

export interface RatesEvents {
  /** A rates push of this property changed state (queued, sent, failed): the calendar and history refresh. */
  'rates.changed': { hotelId: string };
}

/** The rates slice of the contract (listed in contract.ts). */
export const ratesContract = defineSlice<RatesResults, RatesEvents>()(ratesMethods, ['rates.changed']);
