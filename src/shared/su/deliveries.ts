import { z } from 'zod';

// Deliveries arrive from the provider: parse leniently (numbers or strings for ids and counts, nulls, unknown extra
// keys kept), validate only what the app needs to file them.

const idLike = z.union([z.string(), z.number()]).transform(String);
const optionalText = z.string().nullish();
const numberLike = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .nullish();
/** true/false or the letters Y/N: the provider sends flags such as `is_eligible_to_respond` either way. */
export const yesNoSchema = z.union([
  z.boolean(),
  z.enum(['Y', 'N', 'y', 'n']).transform((v) => v.toUpperCase() === 'Y'),
]);

const userDetails = z
  .object({
    roles: z.array(z.object({ role: z.string(), user_ids: z.array(idLike).default([]) }).loose()).default([]),
    users: z
      .array(
        z
          .object({ id: idLike, first_name: optionalText, location: optionalText, preferred_locale: optionalText })
          .loose(),
      )
      .default([]),
  })
  .loose();

const bookingDetails = z
  .object({
    expected_payout_amount_accurate: z.union([z.string(), z.number()]).nullish(),
    checkin_date: optionalText,
    checkout_date: optionalText,
    nights: numberLike,
    number_of_guests: numberLike,
    number_of_adults: numberLike,
    number_of_children: numberLike,
    number_of_infants: numberLike,
    listing_id: idLike.nullish(),
    listing_name: optionalText,
    reservation_confirmation_code: optionalText,
    non_response_at: optionalText,
  })
  .loose();

const attachments = z.array(z.object({ attachment_id: idLike.nullish(), mime_type: optionalText }).loose()).nullish();

/** A guest (or host echo) message delivery. */
export const messageDeliverySchema = z
  .object({
    message: z.string(),
    guestid: idLike,
    bookingid: idLike,
    listingid: idLike,
    bookingflag: z.string(),
    messageid: idLike,
    channel_id: idLike,
    threadid: idLike,
    user_details: userDetails.nullish(),
    booking_details: bookingDetails.nullish(),
    attachment: attachments,
    message_type: optionalText,
    hotelid: idLike.nullish(),
  })
  .loose();
export type MessageDelivery = z.output<typeof messageDeliverySchema>;

/** A current review delivery, channels 19 and 9. */
export const reviewDeliverySchema = z
  .object({
    hotel_id: idLike,
    channel_id: idLike,
    channel_property_id: idLike.nullish(),
    channel_review_id: idLike,
    channel_booking_id: idLike.nullish(),
    review_title: optionalText,
    review_description: optionalText,
    review_negative_description: optionalText,
    review_score: z
      .record(z.string(), z.union([z.number(), z.null(), z.string().transform((s) => (s === '' ? null : Number(s)))]))
      .nullish(),
    review_type: optionalText,
    review_status: optionalText,
    review_date: optionalText,
    is_eligible_to_respond: yesNoSchema.nullish(),
    reviewee_name: optionalText,
  })
  .loose();
export type ReviewDelivery = z.output<typeof reviewDeliverySchema>;

/** A legacy Airbnb review delivery: every field optional, the review itself in `review`. */
export const legacyReviewDeliverySchema = z
  .object({
    message: optionalText,
    guestid: idLike.nullish(),
    bookingid: idLike.nullish(),
    listingid: idLike.nullish(),
    bookingflag: optionalText,
    messageid: idLike.nullish(),
    channel_id: idLike.nullish(),
    threadid: idLike.nullish(),
    user_details: userDetails.nullish(),
    booking_details: z.union([bookingDetails, z.array(z.unknown())]).nullish(),
    attachment: attachments,
    hotelcode: idLike.nullish(),
    review: z
      .object({
        action: optionalText,
        reviewid: idLike,
        reviewerid: idLike.nullish(),
        reviewer_role: optionalText,
        revieweeid: idLike.nullish(),
        reviewee_role: optionalText,
        listing_id: idLike.nullish(),
        private_feedback: optionalText,
        public_review: optionalText,
        hidden: yesNoSchema.nullish(),
        submitted: yesNoSchema.nullish(),
        submitted_at: optionalText,
        expires_at: optionalText,
        booking_id: idLike.nullish(),
        ratings: z.union([z.array(z.unknown()), z.string(), z.record(z.string(), z.unknown())]).nullish(),
      })
      .loose(),
  })
  .loose();
export type LegacyReviewDelivery = z.output<typeof legacyReviewDeliverySchema>;

/** Which kind of delivery a body is: a current review has `channel_review_id`, a legacy one a `review` object. */
export function classifyDelivery(body: unknown): 'review' | 'legacy-review' | 'message' | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  if ('channel_review_id' in body) return 'review';
  const review = (body as { review?: unknown }).review;
  if (typeof review === 'object' && review !== null && !Array.isArray(review)) return 'legacy-review';
  if ('messageid' in body || 'message' in body) return 'message';
  return null;
}
