import { z } from 'zod';
import type { ThreadDetail } from './inbox';
import { idArgSchema, noArgs } from './validation';
import { defineSlice } from './contractSlice';

/** The variables a saved reply can use, written {{name}} in its text. */
export const TEMPLATE_VARIABLES = {
  guest_first_name: 'the guest’s first name',
  check_in: 'the check-in date',
  check_out: 'the check-out date',
  number_of_guests: 'how many guests',
  listing_name: 'the listing name (else the property’s name)',
  property_name: 'the property’s name, as set up under Rates',
  channel_name: 'the channel: Airbnb, Booking.com or Expedia',
  booking_number: 'the booking number (Airbnb: the confirmation code)',
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

/** What every conversation fills from what the app holds: the property's name under Rates, the channel. */
const ALWAYS: readonly TemplateVariable[] = ['property_name', 'channel_name'];

/**
 * Which variables a conversation on each channel fills from what the channel's pushes carry: an Airbnb message
 * brings the guest (`user_details`) and, once booked, the stay (`booking_details`: dates, party, listing,
 * confirmation code); a Booking.com or Expedia message brings only its booking id (its listing is the property).
 * What a channel does not send, the owner adds to the booking once ({@link OWNER_VARIABLES}).
 */
export const CHANNEL_VARIABLES: Record<'244' | '19' | '9', readonly TemplateVariable[]> = {
  '244': ['guest_first_name', 'check_in', 'check_out', 'number_of_guests', 'listing_name', 'booking_number', ...ALWAYS],
  '19': ['booking_number', 'listing_name', ...ALWAYS],
  '9': ['booking_number', 'listing_name', ...ALWAYS],
};

/** The variables that are facts of the booking the owner can add where the channel sent none (`AddedFacts`). */
export const OWNER_VARIABLES = {
  guest_first_name: 'guestName',
  check_in: 'checkIn',
  check_out: 'checkOut',
  number_of_guests: 'guests',
} as const satisfies Partial<Record<TemplateVariable, string>>;
export type OwnerVariable = keyof typeof OWNER_VARIABLES;

/** What a conversation knows that a saved reply can use (the thread's fields, as stored). */
export interface ConversationFacts {
  channel: string;
  firstName: string | null | undefined;
  /** Su's booking id; for an Airbnb enquiry (flag `T`) it is the thread's id, not a booking. */
  bookingId: string | null | undefined;
  /** Airbnb's flag: `B` a booking, `T` an enquiry. */
  bookingFlag: string | null | undefined;
  confirmationCode: string | null | undefined;
  checkIn: string | null | undefined;
  checkOut: string | null | undefined;
  guests?: number | null | undefined;
  listingName: string | null | undefined;
  /** The property's name as set up under Rates (never its hotel id). */
  propertyName?: string | null | undefined;
  channelName?: string | null | undefined;
}

const known = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The values a conversation fills in (the one place that says so: the composer fills saved replies with them, the
 * core names the guest with them). The booking number is Airbnb's confirmation code, or Su's booking id on Airbnb
 * only when the thread is a booking (flag `B`): an enquiry's id is its thread's, which the guest never saw.
 * Dates go through `day` (as stored, YYYY-MM-DD, unless a format is given).
 */
export function conversationValues(
  t: ConversationFacts,
  day: (value: string) => string = (value) => value,
): Record<TemplateVariable, string | null> {
  const booking =
    t.channel === '244'
      ? (known(t.confirmationCode) ?? (t.bookingFlag === 'B' ? known(t.bookingId) : null))
      : known(t.bookingId);
  const date = (value: string | null | undefined) => {
    const v = known(value);
    return v ? day(v) : null;
  };
  const property = known(t.propertyName);
  return {
    guest_first_name: known(t.firstName),
    check_in: date(t.checkIn),
    check_out: date(t.checkOut),
    number_of_guests: typeof t.guests === 'number' && t.guests > 0 ? String(t.guests) : null,
    // Booking.com and Expedia name no listing: what the guest booked is the property.
    listing_name: known(t.listingName) ?? property,
    property_name: property,
    channel_name: known(t.channelName),
    booking_number: booking,
  };
}

/**
 * The values of a thread as the inbox shows it: the channel's booking details first, else its summary's (which
 * holds what the owner added to the booking).
 */
export function threadValues(
  t: Pick<
    ThreadDetail,
    'channel' | 'guest' | 'guestName' | 'booking' | 'bookingId' | 'bookingFlag' | 'checkIn' | 'checkOut' | 'listingName'
  > &
    Partial<Pick<ThreadDetail, 'added' | 'propertyName' | 'hotelId' | 'channelName'>>,
  day?: (value: string) => string,
): Record<TemplateVariable, string | null> {
  return conversationValues(
    {
      channel: t.channel,
      firstName: t.guest?.firstName ?? t.guestName,
      bookingId: t.bookingId,
      bookingFlag: t.bookingFlag,
      confirmationCode: t.booking?.confirmationCode,
      checkIn: t.booking?.checkIn ?? t.checkIn,
      checkOut: t.booking?.checkOut ?? t.checkOut,
      guests: t.booking?.guests ?? t.added?.guests,
      listingName: t.booking?.listingName ?? t.listingName,
      // A property without a name under Rates is shown by its hotel id, which is not a name for a guest.
      propertyName: t.propertyName !== t.hotelId ? t.propertyName : null,
      channelName: t.channelName,
    },
    day,
  );
}

/** The longest placeholder named as written; a longer one is cut with an ellipsis. */
const SHOWN = 40;

/**
 * Any {{…}} left in a text, as written (spaces dropped, a long one cut), each once: a variable or not, and in any
 * odd form (`{{a}b}}`, `{{ {{x}} }}`, across lines), whatever lies between a `{{` and the next `}}` never goes to
 * a guest.
 */
export function unfilledPlaceholders(text: string): string[] {
  const shown = (whole: string) => {
    const tight = whole.replace(/\s+/g, '');
    return tight.length > SHOWN ? `${tight.slice(0, SHOWN - 3)}…}}` : tight;
  };
  return [...new Set([...text.matchAll(/\{\{[\s\S]*?\}\}/g)].map((m) => shown(m[0])))];
}

/** The sentence for a text that still holds placeholders, naming them; null when it holds none. */
export function placeholderProblem(text: string): string | null {
  const left = unfilledPlaceholders(text);
  if (!left.length) return null;
  const names = left.length > 1 ? `${left.slice(0, -1).join(', ')} and ${left.at(-1)}` : left[0]!;
  return left.length === 1
    ? `Replace ${names} with the real value before sending: this conversation does not say what it is.`
    : `Replace ${names} with the real values before sending: this conversation does not say what they are.`;
}

/**
 * Fills a saved reply for one thread. A variable the thread does not know is left visible as {{name}}, so the
 * owner sees what to fill in by hand; the composer and the core refuse to send a text that still holds one.
 */
export function fillTemplate(body: string, values: Partial<Record<TemplateVariable, string | null>>): string {
  return body.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name as TemplateVariable];
    return value ? value : whole;
  });
}

/** A saved reply as the owner edits it. Unknown {{variables}} are refused, naming the allowed ones. */
export const savedReplySchema = z
  .object({
    id: z.number().int().positive().optional(),
    title: z.string().trim().min(1, 'Give the saved reply a title.').max(100, 'At most 100 characters.'),
    body: z
      .string()
      .trim()
      .min(1, 'Write the reply text.')
      .max(5000, 'At most 5000 characters.')
      .refine(
        (body) => [...body.matchAll(/\{\{\s*([a-z_]+)\s*\}\}/g)].every((m) => m[1]! in TEMPLATE_VARIABLES),
        `Use only these variables: ${Object.keys(TEMPLATE_VARIABLES)
          .map((v) => `{{${v}}}`)
          .join(', ')}.`,
      ),
  })
  .strict();
export type SavedReplyInput = z.input<typeof savedReplySchema>;

export interface SavedReply {
  id: number;
  title: string;
  body: string;
  updatedAt: number;
}

/** The saved replies' slice of the contract: each call answers with the whole list. */
export const savedRepliesMethods = {
  'savedReplies.list': noArgs,
  'savedReplies.save': savedReplySchema,
  'savedReplies.delete': idArgSchema,
} as const;

export type SavedRepliesResults = {
  [M in keyof typeof savedRepliesMethods]: SavedReply[];
};

/** The savedReplies slice of the contract (listed in contract.ts). */
export const savedRepliesContract = defineSlice<SavedRepliesResults>()(savedRepliesMethods, []);
