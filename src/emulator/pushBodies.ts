import { randomBytes, randomInt } from 'node:crypto';
import { addDays, isoDate } from './calendar';
import type { EmulatedProperty, EmulatorState } from './state';
import { isObject, type Json } from './validate';

/**
 * Realistic push bodies (shaped like the fixtures push-message-244.json and push-review-19.json). Every push
 * gets new message, review and thread ids unless the caller overrides them.
 */

export type PushKind = 'message' | 'review' | 'legacy-review';

/** Which channels carry which push: messages on all three, current reviews on 19 and 9, legacy reviews on 244. */
export const PUSH_CHANNELS: Record<PushKind, readonly string[]> = {
  message: ['244', '19', '9'],
  review: ['19', '9'],
  'legacy-review': ['244'],
};

/** The body field that names the property, per kind (the push's own spelling). */
export const PROPERTY_FIELD: Record<PushKind, string> = {
  message: 'hotelid',
  review: 'hotel_id',
  'legacy-review': 'hotelcode',
};

const GUESTS = [
  { first_name: 'Chris', location: 'Leeds, United Kingdom', preferred_locale: 'en-GB' },
  { first_name: 'Anna', location: 'Hamburg, Germany', preferred_locale: 'de' },
  { first_name: 'Luca', location: 'Milan, Italy', preferred_locale: 'it' },
  { first_name: 'Sofia', location: 'Lisbon, Portugal', preferred_locale: 'pt' },
];

const MESSAGES = [
  'Hello! What time can we check in on the day we arrive?',
  'Is there parking near the property, and is it free?',
  'Could we have two extra towels, please?',
  'We have just arrived, thank you for the warm welcome!',
];

const REVIEWS = [
  { title: 'Lovely stay by the harbour', text: 'Spotless room, friendly host and a great breakfast.', negative: '' },
  {
    title: 'Great location',
    text: 'Everything within walking distance; the bed was very comfortable.',
    negative: 'The shower pressure was low.',
  },
  { title: 'Would come back', text: 'Quiet, clean and exactly as described.', negative: 'Parking is a bit far away.' },
];

const SCORE_CATEGORIES: Record<string, string[]> = {
  '19': ['staff', 'facilities', 'cleanliness', 'comfort', 'value_for_money', 'location', 'overall'],
  '9': ['overall', 'cleanliness', 'service', 'comfort', 'condition', 'neighborhood'],
};

const digits = (length: number) => String(randomInt(10 ** (length - 1), 10 ** length));
const code = (length: number) => randomBytes(length).toString('hex').toUpperCase().slice(0, length);

/** Deep-merges caller overrides into a body (objects merged, everything else replaced). */
export function merge(base: Json, overrides: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const current = out[key];
    out[key] = isObject(value) && isObject(current) ? merge(current, value) : value;
  }
  return out;
}

/** Builds one push for a property; `n` (a per-emulator counter) varies the guest, text and dates. */
export function buildPush(state: EmulatorState, kind: PushKind, channel: string, property: EmulatedProperty): Json {
  const n = state.nextId('push');
  const today = isoDate(state.now());
  const guest = GUESTS[n % GUESTS.length]!;
  const guestNumber = Number(`3${digits(8)}`);
  const hostNumber = Number(property.channel244Accounts[0]?.accountId ?? digits(8));
  const threadid = digits(9);
  const checkin = addDays(today, 7 + (n % 5));
  const nights = 2 + (n % 3);
  const confirmation = `HM${code(8)}`;
  const listingid = property.channels[channel] ?? '';
  const messageFields = {
    guestid: channel === '244' ? String(guestNumber) : digits(9),
    bookingid: channel === '244' ? confirmation : digits(10),
    listingid,
    bookingflag: 'B',
    messageid: `${digits(6)}${String(n).padStart(4, '0')}`,
    channel_id: channel,
    threadid,
  };
  // Channel 244 pushes carry user and booking details with numeric ids and counts, as the real ones do.
  const userDetails = {
    roles: [
      { role: 'owner', user_ids: [hostNumber] },
      { role: 'guest', user_ids: [guestNumber] },
      { role: 'cohost', user_ids: [] },
    ],
    users: [
      {
        first_name: property.hostName.split(' ')[0],
        location: 'Copenhagen, Denmark',
        preferred_locale: 'en',
        id: hostNumber,
      },
      { ...guest, id: guestNumber },
    ],
  };
  if (kind === 'message') {
    const extra244 =
      channel === '244'
        ? {
            user_details: userDetails,
            booking_details: {
              expected_payout_amount_accurate: (nights * 118.5).toFixed(2),
              checkout_date: addDays(checkin, nights),
              number_of_infants: 0,
              non_response_at: null,
              listing_name: property.name,
              number_of_adults: 2,
              reservation_confirmation_code: confirmation,
              number_of_children: n % 2,
              nights,
              listing_id: listingid,
              checkin_date: checkin,
              listing_id_str: listingid,
              number_of_guests: 2 + (n % 2),
            },
          }
        : {};
    return {
      message: MESSAGES[n % MESSAGES.length],
      ...messageFields,
      ...extra244,
      attachment: [],
      hotelid: property.hotelid,
    };
  }
  const review = REVIEWS[n % REVIEWS.length]!;
  if (kind === 'review') {
    const scores = Object.fromEntries(
      SCORE_CATEGORIES[channel]!.map((category, i) => [category, Math.round((8 + ((n + i) % 5) * 0.5) * 10) / 10]),
    );
    return {
      hotel_id: property.hotelid,
      channel_id: channel,
      channel_property_id: listingid,
      channel_review_id: `${channel}_${code(10)}`,
      channel_booking_id: digits(10),
      review_title: review.title,
      review_description: review.text,
      review_negative_description: review.negative,
      review_score: scores,
      review_type: 'guest_to_host',
      review_status: 'published',
      review_date: today,
      is_eligible_to_respond: true,
      reviewee_name: property.hostName,
    };
  }
  const submitted = new Date(state.now());
  return {
    message: review.text,
    ...messageFields,
    user_details: userDetails,
    booking_details: {},
    attachment: [],
    hotelcode: property.hotelid,
    review: {
      action: 'review_published',
      reviewid: digits(12),
      reviewerid: String(guestNumber),
      reviewer_role: 'guest',
      revieweeid: String(hostNumber),
      reviewee_role: 'host',
      listing_id: listingid,
      private_feedback: 'Thanks for having us!',
      public_review: review.text,
      hidden: false,
      submitted: true,
      submitted_at: submitted.toISOString(),
      // Airbnb gives hosts 30 days to respond.
      expires_at: new Date(submitted.getTime() + 30 * 86_400_000).toISOString(),
      booking_id: confirmation,
      ratings: ['overall', 'cleanliness', 'communication', 'location'].map((category, i) => ({
        category,
        rating: 4 + ((n + i) % 2),
      })),
    },
  };
}

/** Remembers a pushed review so replies to it can be checked (eligibility, one reply, guest with booking). */
export function rememberReview(state: EmulatorState, kind: PushKind, body: Json): void {
  if (kind === 'review') {
    const eligible = body.is_eligible_to_respond === true || body.is_eligible_to_respond === 'Y';
    state.reviews.set(String(body.channel_review_id), {
      hotelid: String(body.hotel_id),
      channel: String(body.channel_id),
      eligible,
      fromGuest: true,
      hasBooking: Boolean(body.channel_booking_id),
      replies: [],
    });
  } else if (kind === 'legacy-review' && isObject(body.review)) {
    state.reviews.set(`legacy:${String(body.review.reviewid)}`, {
      hotelid: String(body.hotelcode),
      channel: '244',
      eligible: true,
      fromGuest: body.review.reviewer_role === 'guest',
      hasBooking: Boolean(body.review.booking_id),
      replies: [],
    });
  }
}
