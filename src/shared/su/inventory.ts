import { z } from 'zod';
import { addDays, localToday } from '../dates';
import { dateSchema, hotelIdSchema, idSchema } from './common';

/** How far ahead rules may be set: the provider refuses dates more than 500 days ahead. */
export const MAX_DAYS_AHEAD = 500;

export const RULE_TYPES = ['Fixed', 'Increase', 'Decrease', 'Multiply'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

const channelCodes = z
  .array(
    z
      .union([z.number().int().positive(), z.string().trim().regex(/^\d+$/, 'A channel code is a number, such as 19.')])
      .transform(Number),
    { message: 'Name the channels this rule is for.' },
  )
  .min(1, 'Name at least one channel.');

/**
 * One rule: a modifier (type + value) and/or `closed`. `level` decides what is allowed: Multiply and closed only for
 * rates; inventory values are whole numbers; a closed-only rule has no type/value.
 */
const ruleSchema = (level: 'inventory' | 'rate') =>
  z
    .object({
      type: z.enum(RULE_TYPES, { message: `The rule type: one of ${RULE_TYPES.join(', ')}.` }).optional(),
      value: z
        .union([
          z.number().finite(),
          z
            .string()
            .trim()
            .regex(/^\d+(\.\d+)?$/, 'Write the value as a plain number such as 90 or 0.9.'),
        ])
        .optional(),
      closed: z.boolean().optional(),
    })
    .strict()
    .superRefine((rule, ctx) => {
      if (rule.type === undefined && rule.value !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['type'],
          message: 'A value needs a rule type (Fixed, Increase, Decrease or Multiply).',
        });
      }
      if (rule.type !== undefined && (rule.value === undefined || rule.value === '')) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: `A ${rule.type} rule needs a value.` });
      }
      if (level === 'inventory' && rule.closed !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['closed'],
          message: 'Closing is only possible for rates, not for inventory.',
        });
      }
      if (level === 'inventory' && rule.type === 'Multiply') {
        ctx.addIssue({
          code: 'custom',
          path: ['type'],
          message: 'Multiply is only possible for rates, not for inventory.',
        });
      }
      if (rule.type === undefined && rule.closed === undefined) {
        ctx.addIssue({ code: 'custom', path: ['type'], message: 'Give a rule type and value, or closed.' });
      }
      if (rule.type === undefined || rule.value === undefined || rule.value === '') return;
      const n = Number(rule.value);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'The value must be a number.' });
      } else if (rule.type === 'Multiply' && !(n > 0)) {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: 'Multiply needs a positive factor, such as 0.9 (−10 %) or 1.1 (+10 %).',
        });
      } else if (rule.type !== 'Multiply' && n < 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: 'The value cannot be negative; use Decrease to lower it.',
        });
      } else if (level === 'inventory' && !Number.isInteger(n)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'Inventory is counted in whole rooms.' });
      }
    });

const dateRangeSchema = (level: 'inventory' | 'rate', today: string) =>
  z
    .object({
      from: dateSchema,
      to: dateSchema,
      OTARule: z.array(z.object({ OTACode: channelCodes, rule: ruleSchema(level) }).strict()),
    })
    .strict()
    .superRefine((range, ctx) => {
      // One rule per channel per range: a second one would be ambiguous (the provider refuses it).
      const seen = new Set<number>();
      range.OTARule.forEach((r, i) =>
        r.OTACode.forEach((code) => {
          if (seen.has(code)) {
            ctx.addIssue({
              code: 'custom',
              path: ['OTARule', i, 'OTACode'],
              message: `Channel ${code} has two rules here; combine them into one (a modifier can go with closed).`,
            });
          }
          seen.add(code);
        }),
      );
      const last = addDays(today, MAX_DAYS_AHEAD);
      if (range.from > range.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date.' });
      if (range.from < today)
        ctx.addIssue({
          code: 'custom',
          path: ['from'],
          message: `${range.from} has passed; rules can only be set from today (${today}).`,
        });
      if (range.to > last)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: `At most ${MAX_DAYS_AHEAD} days ahead (until ${last}).`,
        });
    });

/**
 * The inventory and rate control request (endpoint 13), in the provider's words. Built by the rates feature;
 * the owner never sees OTARule. `today` anchors the past-date and 500-day checks.
 */
export const invRateControlSchema = (today: string = localToday()) =>
  z
    .object({
      hotelid: hotelIdSchema(20),
      inventorycontrol: z
        .array(
          z
            .object({ roomid: idSchema('The room id'), date: z.array(dateRangeSchema('inventory', today)).min(1) })
            .strict(),
        )
        .optional(),
      ratecontrol: z
        .array(
          z
            .object({
              roomid: idSchema('The room id'),
              rateid: idSchema('The rate plan id'),
              date: z.array(dateRangeSchema('rate', today)).min(1),
            })
            .strict(),
        )
        .optional(),
    })
    .strict()
    .refine((r) => (r.inventorycontrol?.length ?? 0) + (r.ratecontrol?.length ?? 0) > 0, {
      message: 'Nothing to send: add inventory or rate rules.',
      path: ['ratecontrol'],
    });
export type InvRateControl = z.input<ReturnType<typeof invRateControlSchema>>;
