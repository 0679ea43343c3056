import { z } from 'zod';
import { MESSAGING_CHANNELS } from './channels';

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

/** A message in a thread, oldest first. */
export interface ThreadMessage {
  id: number;
  author: 'guest' | 'host';
  body: string;
  sentAt: number;
  attachments: { id: string | null; mimeType: string | null }[];
}

/** Everything the thread view shows. */
export interface ThreadDetail extends ThreadSummary {
  hotelId: string | null;
  listingId: string | null;
  bookingId: string | null;
  threadRef: string | null;
  guestId: string | null;
  bookingFlag: string | null;
  guest: { firstName: string | null; location: string | null; locale: string | null } | null;
  booking: {
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
  } | null;
  messages: ThreadMessage[];
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
}

/** Counts for the navigation badge and the window title. */
export interface InboxCounts {
  unreadThreads: number;
  unreadReviews: number;
  quarantined: number;
}

export const idArgSchema = z.object({ id: z.number().int().positive() }).strict();
