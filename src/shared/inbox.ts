import { z } from 'zod';
import { MESSAGING_CHANNELS, channelProfile } from './channels';
import type { AppError } from './result';
import { dateSchema } from './su/common';
import { idArgSchema, noArgs } from './validation';
import { defineSlice } from './contractSlice';
import { SEARCH_MAX_LENGTH } from './inboxLimits';
import { reviewQuerySchema, type ReviewItem } from './reviews';

export { SEARCH_MAX_LENGTH };
// The reviews' types and filters, in their own file; the inbox's slice of the contract carries them.
export * from './reviews';

/** Filters of the thread list. */
export const threadQuerySchema = z
  .object({
    channel: z.enum(MESSAGING_CHANNELS).optional(),
    unreadOnly: z.boolean().optional(),
    needsReplyOnly: z.boolean().optional(),
    /** The property (its hotel id) the conversations are about. */
    hotelId: z.string().trim().min(1, 'Choose a property.').max(20, 'A hotel id has at most 20 characters.').optional(),
    /**
     * Search: each word must be found in the thread's messages (full text, as a prefix), or in what the thread is
     * about (guest name, booking number, Airbnb confirmation code, listing, property name or hotel id).
     */
    search: z
      .string()
      .trim()
      .max(SEARCH_MAX_LENGTH, `A search can have at most ${SEARCH_MAX_LENGTH} characters.`)
      .optional(),
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
  /** The guest's first name: as the channel sent it, else as the owner added it to the booking. */
  guestName: string | null;
  /**
   * Who the conversation is with, by what is known: the first name (the channel's, else the owner's), else the
   * booking number ("Booking 4012345678").
   */
  guestLabel: string;
  /** The property: its hotel id, and its name as set up under Rates (else the hotel id); null when not known. */
  hotelId: string | null;
  propertyName: string | null;
  listingName: string | null;
  preview: string | null;
  lastMessageAt: number | null;
  unread: number;
  needsReply: boolean;
  /** The stay: as the channel sent it, else as the owner added it to the booking. */
  checkIn: string | null;
  checkOut: string | null;
  /** The owner marked it done: it needs no reply until the guest writes again. */
  done: boolean;
  /** Unsent reply text is kept for it. */
  hasDraft: boolean;
}

export interface ThreadPage {
  /**
   * How many conversations the filters find; with `more`, how many at least (a search counts a little past the
   * page it was asked for, and says the list goes on).
   */
  total: number;
  more: boolean;
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
  /** What the owner added to the booking that the channel did not send (null: nothing). */
  added: AddedFacts | null;
}

/**
 * What the owner adds to a booking that its channel did not send (Booking.com and Expedia send no guest name, dates
 * or party with their messages), kept on this computer, once per booking: the conversation's title, search, the
 * saved replies and the payment dialog use it where the channel said nothing.
 */
export interface AddedFacts {
  guestName: string | null;
  checkIn: string | null;
  checkOut: string | null;
  guests: number | null;
}

/** The longest guest name kept. */
export const GUEST_NAME_MAX = 60;
/** The largest party a booking is given. */
export const GUESTS_MAX = 50;

/** A date field of the booking, its messages naming it (`what`: "The arrival date"); '' or null clears it. */
const bookingDay = (what: string) =>
  z
    .string({ message: `${what} must be a date.` })
    .trim()
    .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), `${what}: write the date as YYYY-MM-DD.`)
    .refine((v) => v === '' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || dateSchema.safeParse(v).success, {
      message: `${what} is not a day of the calendar.`,
    })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/**
 * What the owner adds to a booking (`inbox.saveBookingFacts`). Only the fields given change; null or an empty text
 * removes one. Each refusal names its field; a departure not after the arrival is refused by the core, which knows
 * the values already kept.
 */
export const bookingFactsSchema = z
  .object({
    threadId: z.number().int().positive(),
    guestName: z
      .string({ message: 'The guest’s name must be text.' })
      .trim()
      .max(GUEST_NAME_MAX, `The guest’s name can have at most ${GUEST_NAME_MAX} characters.`)
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .optional(),
    checkIn: bookingDay('The arrival date'),
    checkOut: bookingDay('The departure date'),
    guests: z
      .number({ message: 'Guests must be a number.' })
      .int('Guests must be a whole number.')
      .min(1, 'Guests must be at least 1.')
      .max(GUESTS_MAX, `Guests can be at most ${GUESTS_MAX}.`)
      .nullable()
      .optional(),
  })
  .strict();
export type BookingFactsInput = z.input<typeof bookingFactsSchema>;

/** Counts for the navigation badge and the window title. */
export interface InboxCounts {
  unreadThreads: number;
  unreadReviews: number;
  quarantined: number;
}

/** A property the inbox has conversations or reviews for, with its name as set up under Rates. */
export interface InboxProperty {
  hotelId: string;
  name: string;
}

/** The longest reply Innkeeper sends (Su's message and review reply fields take at most this many characters). */
export const REPLY_MAX_LENGTH = 5000;
/**
 * The longest draft kept: far beyond what can be sent, so a long paste is never lost (the composer says it is too
 * long to send); bounded so that one call stays under the contract's size limit.
 */
export const DRAFT_MAX_LENGTH = 100_000;

/** The text of a reply: what the composer sends. */
export const replyBodySchema = z
  .string()
  .trim()
  .min(1, 'Write a reply first.')
  .max(REPLY_MAX_LENGTH, `At most ${REPLY_MAX_LENGTH} characters.`);
const draftBodySchema = z
  .string()
  .max(DRAFT_MAX_LENGTH, `A draft can keep at most ${DRAFT_MAX_LENGTH.toLocaleString('en')} characters.`);
export const sendReplySchema = z.object({ threadId: z.number().int().positive(), body: replyBodySchema }).strict();
export const reviewReplyArgsSchema = z
  .object({ reviewId: z.number().int().positive(), body: replyBodySchema })
  .strict();
export const draftSchema = z.object({ threadId: z.number().int().positive(), body: draftBodySchema }).strict();
export const reviewDraftSchema = z.object({ reviewId: z.number().int().positive(), body: draftBodySchema }).strict();

const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|io|co|info|biz)\b(?:\/\S*)?/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
const PHONE = /(?:\+|\b00)\d[\d\s().-]{6,}\d|\b\d{3}[\s.-]?\d{3}[\s.-]?\d{3,4}\b/;

/**
 * What a channel will block or filter in a reply, said before sending: Booking.com allows links only when
 * whitelisted; Airbnb filters links, phone numbers and e-mail addresses in conversations without a booking.
 */
export function composerWarnings(thread: { channel: string; hasBooking: boolean }, text: string): string[] {
  const warnings: string[] = [];
  const name = channelProfile(thread.channel).name;
  if (thread.channel === '19' && LINK.test(text)) {
    warnings.push(`${name} only delivers links that are whitelisted in your extranet; this one may be removed.`);
  }
  if (thread.channel === '244' && !thread.hasBooking) {
    const found = [
      LINK.test(text) && 'links',
      EMAIL.test(text) && 'e-mail addresses',
      PHONE.test(text) && 'phone numbers',
    ].filter(Boolean);
    if (found.length) {
      warnings.push(`${name} removes ${found.join(' and ')} from messages to guests who have not booked yet.`);
    }
  }
  return warnings;
}

/** A new guest message, for notifications (native, browser, toast). */
export interface NewMessageEvent {
  threadId: number;
  channelName: string;
  guestName: string | null;
  preview: string;
}

/** A reply that has not gone out (refused, or still waiting), rewritten by the owner: sent again if it had stopped. */
export const editReplySchema = z.object({ id: z.number().int().positive(), body: replyBodySchema }).strict();

/** The inbox's slice of the contract. */
export const inboxMethods = {
  'inbox.threads': threadQuerySchema,
  'inbox.thread': idArgSchema,
  'inbox.markThreadRead': idArgSchema,
  'inbox.markThreadUnread': idArgSchema,
  'inbox.markThreadDone': idArgSchema,
  'inbox.properties': noArgs,
  'inbox.reviews': reviewQuerySchema,
  'inbox.markReviewRead': idArgSchema,
  'inbox.counts': noArgs,
  'inbox.sendReply': sendReplySchema,
  'inbox.saveDraft': draftSchema,
  'inbox.replyToReview': reviewReplyArgsSchema,
  'inbox.saveReviewDraft': reviewDraftSchema,
  'inbox.editReply': editReplySchema,
  'inbox.saveBookingFacts': bookingFactsSchema,
} as const;

export interface InboxResults {
  'inbox.threads': ThreadPage;
  'inbox.thread': ThreadDetail;
  'inbox.markThreadRead': InboxCounts;
  'inbox.markThreadUnread': InboxCounts;
  'inbox.markThreadDone': InboxCounts;
  'inbox.properties': InboxProperty[];
  'inbox.reviews': ReviewItem[];
  'inbox.markReviewRead': InboxCounts;
  'inbox.counts': InboxCounts;
  'inbox.sendReply': ThreadDetail;
  'inbox.saveDraft': { savedAt: number };
  'inbox.replyToReview': ReviewItem;
  'inbox.saveReviewDraft': { savedAt: number };
  /** The reply's outgoing item, now holding the new text (sent again if it had stopped). */
  'inbox.editReply': { outboxId: number };
  /** The conversation, with what the owner added to its booking. */
  'inbox.saveBookingFacts': ThreadDetail;
}

export interface InboxEvents {
  /** Something in the inbox changed (a push arrived, something was read). */
  'inbox.changed': { threadId: number | null; reviewId: number | null; counts: InboxCounts };
  'inbox.newMessage': NewMessageEvent;
}

/** The inbox slice of the contract (listed in contract.ts). */
export const inboxContract = defineSlice<InboxResults, InboxEvents>()(inboxMethods, [
  'inbox.changed',
  'inbox.newMessage',
]);
