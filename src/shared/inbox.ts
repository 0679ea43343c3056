import { z } from 'zod';
import { MESSAGING_CHANNELS } from './channels';
import type { AppError } from './result';

/** Filters of the thread list. */
export const threadQuerySchema = z
  .object({
    channel: z.enum(MESSAGING_CHANNELS).optional(),
    unreadOnly: z.boolean().optional(),
    needsReplyOnly: z.boolean().optional(),
    /** Full-text search over messages; threads with a matching message are listed. */
    search: z.string().trim().max(200, 'At most 200 characters.').optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type ThreadQuery = z.input<typeof threadQuerySchema>;

/** One row of the thread list. */
export interface ThreadSummary {
  id: number;
  channel: string;
  channelName: string;
  guestName: string | null;
  listingName: string | null;
  preview: string | null;
  lastMessageAt: number | null;
  unread: number;
  needsReply: boolean;
  checkIn: string | null;
  checkOut: string | null;
}

export interface ThreadPage {
  total: number;
  offset: number;
  threads: ThreadSummary[];
}

/** Where an outgoing reply is: queued, sending, sent, or failed with the provider's reason. */
export interface Delivery {
  outboxId: number;
  state: 'queued' | 'sending' | 'sent' | 'failed' | 'discarded';
  error: AppError | null;
}

/** The guest as the 244 push describes them (`user_details`). */
export interface GuestInfo {
  id: string | null;
  firstName: string | null;
  location: string | null;
  locale: string | null;
}

/** What a thread knows about the booking (`booking_details`, 244 only). */
export interface BookingInfo {
  checkIn: string | null;
  checkOut: string | null;
  nights: number | null;
  guests: number | null;
  adults: number | null;
  children: number | null;
  infants: number | null;
  payout: string | null;
  confirmationCode: string | null;
  listingName: string | null;
}

/** A message in a thread, oldest first. */
export interface ThreadMessage {
  id: number;
  author: 'guest' | 'host';
  body: string;
  sentAt: number;
  attachments: { id: string | null; mimeType: string | null }[];
  /** Set for replies written in Innkeeper (not for pushed echoes). */
  delivery: Delivery | null;
}

/** Everything the thread view shows. */
export interface ThreadDetail extends ThreadSummary {
  hotelId: string | null;
  listingId: string | null;
  bookingId: string | null;
  threadRef: string | null;
  guestId: string | null;
  bookingFlag: string | null;
  guest: GuestInfo | null;
  booking: BookingInfo | null;
  messages: ThreadMessage[];
  /** What the owner was typing, saved as they typed. */
  draft: string | null;
}

/** A review in the list and in its own view. */
export interface ReviewItem {
  id: number;
  kind: 'current' | 'legacy';
  channel: string;
  channelName: string;
  providerReviewId: string;
  hotelId: string | null;
  receivedAt: number;
  unread: boolean;
  /** The review in the owner's words (see CurrentReviewDetail / LegacyReviewDetail). */
  detail: Record<string, unknown>;
  /** Whether a reply is allowed, and if not, why (shown next to the reply box). */
  reply: { allowed: true } | { allowed: false; reason: string };
  /** Replies written in Innkeeper, with where each one is. */
  replies: { id: number; body: string; createdAt: number; delivery: Delivery | null }[];
  /** The reply the owner was typing and has not sent (kept across restarts). */
  draft: string | null;
}

/** Counts for the navigation badge and the window title. */
export interface InboxCounts {
  unreadThreads: number;
  unreadReviews: number;
  quarantined: number;
}

/** Filters of the review list. */
export const reviewQuerySchema = z
  .object({ search: z.string().trim().max(200, 'At most 200 characters.').optional() })
  .strict();

export const idArgSchema = z.object({ id: z.number().int().positive() }).strict();

/** The text of a reply: what the composer sends. */
export const replyBodySchema = z.string().trim().min(1, 'Write a reply first.').max(5000, 'At most 5000 characters.');
export const sendReplySchema = z.object({ threadId: z.number().int().positive(), body: replyBodySchema }).strict();
export const reviewReplyArgsSchema = z
  .object({ reviewId: z.number().int().positive(), body: replyBodySchema })
  .strict();
export const draftSchema = z
  .object({ threadId: z.number().int().positive(), body: z.string().max(5000, 'At most 5000 characters.') })
  .strict();
export const reviewDraftSchema = z
  .object({ reviewId: z.number().int().positive(), body: z.string().max(5000, 'At most 5000 characters.') })
  .strict();
export const editReplySchema = z.object({ id: z.number().int().positive(), body: replyBodySchema }).strict();

/** The outbox as the app shell shows it. */
export interface OutboxStatus {
  queued: number;
  sending: number;
  failed: number;
  /** Set when an authorization failure paused every send until the owner fixes the credentials. */
  paused: { message: string; since: number } | null;
  /** Set while the provider cannot be reached (no attempt before then). */
  unreachableUntil: number | null;
  /** Where the oldest reply that did not go out is: its conversation or its review. */
  firstFailed: { threadId: number } | { reviewId: number } | null;
}
