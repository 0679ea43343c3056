import type { DatabaseSync } from 'node:sqlite';
import type { z } from 'zod';
import { legacyReviewDeliverySchema, messageDeliverySchema, reviewDeliverySchema } from '../../shared/su/deliveries';

/** The kinds of delivery Su makes to the partner endpoint: a guest message, a review, a legacy Airbnb review. */
export const DELIVERY_SCHEMAS = {
  message: messageDeliverySchema,
  review: reviewDeliverySchema,
  'legacy-review': legacyReviewDeliverySchema,
} as const;

export type DeliveryKind = keyof typeof DELIVERY_SCHEMAS;

/** A delivery of `K` as its schema reads it. */
export type DeliveryOf<K extends DeliveryKind> = z.output<(typeof DELIVERY_SCHEMAS)[K]>;

/**
 * Files one delivery that fits its kind's schema, inside the intake's transaction (on its connection; it opens
 * none). Answers what it filed (the intake passes it on, untouched, in `IngestResult.filed` and the
 * `deliveriesFiled` event), or null for one already filed (a repost: acknowledged, nothing new). A throw that is
 * not a store fault quarantines the delivery with the reason; a store fault refuses the whole group (Su reposts).
 */
export type DeliveryFiler<K extends DeliveryKind = DeliveryKind> = (
  db: DatabaseSync,
  delivery: DeliveryOf<K>,
  meta: { receivedAt: number; pushLogId: number },
) => unknown;

/** Kind → the filer of the feature that owns it (features declare theirs in `deliveryKinds`). */
export type DeliveryFilers = { [K in DeliveryKind]?: DeliveryFiler<K> };
