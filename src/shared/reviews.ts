// The inbox's reviews as the core files them and the screen shows them, and the review list's filters (re-exported
// by inbox.ts, whose slice of the contract carries them).
import { z } from 'zod';
import { MESSAGING_CHANNELS } from './channels';
import type { Delivery } from './inbox';
import { SEARCH_MAX_LENGTH } from './inboxLimits';

/** A current review (Booking.com, Expedia) in the owner's words, as the core files it. */
export interface CurrentReviewDetail {
  title: string | null;
  positive: string | null;
  negative: string | null;
  /** Category → score (0 to 10), null where the guest gave none. */
  scores: Record<string, number | null>;
  status: string | null;
  date: string | null;
  type: string | null;
  eligibleToReply: boolean | null;
  revieweeName: string | null;
  channelPropertyId: string | null;
  bookingId: string | null;
}

/** A legacy Airbnb review in the owner's words, as the core files it. */
export interface LegacyReviewDetail {
  action: string | null;
  publicReview: string | null;
  privateFeedback: string | null;
  /** As Airbnb sent it: a list of {category, rating}, a JSON string, an object, or plain text. */
  ratings: unknown;
  reviewerRole: string | null;
  revieweeRole: string | null;
  reviewerId: string | null;
  hidden: boolean | null;
  submitted: boolean | null;
  submittedAt: string | null;
  expiresAt: string | null;
  bookingId: string | null;
  listingId: string | null;
  guestFirstName: string | null;
}

/** A review in the list and in its own view: its kind says which detail it carries. */
export type ReviewItem = ReviewItemBase &
  ({ kind: 'current'; detail: CurrentReviewDetail } | { kind: 'legacy'; detail: LegacyReviewDetail });

export type CurrentReviewItem = Extract<ReviewItem, { kind: 'current' }>;
export type LegacyReviewItem = Extract<ReviewItem, { kind: 'legacy' }>;

interface ReviewItemBase {
  id: number;
  channel: string;
  channelName: string;
  providerReviewId: string;
  hotelId: string | null;
  /** The property's name as set up under Rates, else the hotel id. */
  propertyName: string | null;
  /** Who wrote it, by what is known: the guest's first name, else the booking number; null when nothing is. */
  guestLabel: string | null;
  /** The overall score on a 0–10 scale (Airbnb's stars count double); null without one. */
  overallScore: number | null;
  /** A reply is allowed and none was written. */
  needsReply: boolean;
  receivedAt: number;
  unread: boolean;
  /** Whether a reply is allowed, and if not, why (shown next to the reply box). */
  reply: { allowed: true } | { allowed: false; reason: string };
  /** Replies written in Innkeeper, with where each one is. */
  replies: { id: number; body: string; createdAt: number; delivery: Delivery | null }[];
  /** The reply the owner was typing and has not sent (kept across restarts). */
  draft: string | null;
}

/** Filters of the review list. */
export const REVIEW_SCORE_BANDS = ['low', 'mid', 'high'] as const;
export type ReviewScoreBand = (typeof REVIEW_SCORE_BANDS)[number];
/** The bands on the 0–10 scale: low below 6, mid 6 to below 8, high 8 and above. */
export function scoreBand(score: number | null): ReviewScoreBand | null {
  if (score === null) return null;
  return score < 6 ? 'low' : score < 8 ? 'mid' : 'high';
}

export const reviewQuerySchema = z
  .object({
    /** Review texts (full text), guest names, booking numbers, property names and hotel ids. */
    search: z
      .string()
      .trim()
      .max(SEARCH_MAX_LENGTH, `A search can have at most ${SEARCH_MAX_LENGTH} characters.`)
      .optional(),
    hotelId: z.string().trim().min(1, 'Choose a property.').max(20, 'A hotel id has at most 20 characters.').optional(),
    channel: z.enum(MESSAGING_CHANNELS, { message: 'Choose Airbnb, Booking.com or Expedia.' }).optional(),
    unreadOnly: z.boolean().optional(),
    needsReplyOnly: z.boolean().optional(),
    score: z.enum(REVIEW_SCORE_BANDS, { message: 'Choose low, mid or high.' }).optional(),
  })
  .strict();
export type ReviewQuery = z.input<typeof reviewQuerySchema>;
