import { z } from 'zod';
import { CHANNELS, channelProfile, MESSAGING_CHANNELS } from '../channels';
import { hotelIdSchema, idSchema, textSchema } from './common';

/** Channels by review API, from the channel table. */
const byReviewApi = (api: 'current' | 'legacy') =>
  Object.values(CHANNELS)
    .filter((c) => c.reviewApi === api)
    .map((c) => c.code) as [string, ...string[]];
const CURRENT_REVIEW_CHANNELS = byReviewApi('current');
const LEGACY_REVIEW_CHANNELS = byReviewApi('legacy');

const channelSchema = z.enum(MESSAGING_CHANNELS, {
  message: 'Choose channel 244 (Airbnb), 19 (Booking.com) or 9 (Expedia).',
});

/**
 * A reply to a guest message. `message` holds the owner's text with real line breaks; the client encodes them for the
 * channel. Which ids are required depends on the channel (the channel table).
 */
export const messageReplySchema = z
  .object({
    hotelid: hotelIdSchema(),
    channelcode: channelSchema,
    message: textSchema('The message', 5000),
    threadid: idSchema('The thread id').optional(),
    guestid: idSchema('The guest id').optional(),
    bookingid: idSchema('The booking id').optional(),
    listingid: idSchema('The listing id').optional(),
    channelhotelid: idSchema('The channel hotel id').optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const profile = channelProfile(value.channelcode);
    for (const field of profile.replyRequires) {
      if (!value[field]) {
        ctx.addIssue({ code: 'custom', path: [field], message: `Required for replies on ${profile.name}.` });
      }
    }
  });
export type MessageReply = z.input<typeof messageReplySchema>;

/** A reply to a current review on Booking.com or Expedia; all fields required. */
export const reviewReplySchema = z
  .object({
    hotel_id: hotelIdSchema(),
    channel_id: z.enum(CURRENT_REVIEW_CHANNELS, {
      message: `Current reviews are answered on ${CURRENT_REVIEW_CHANNELS.map((c) => `channel ${c} (${CHANNELS[c]!.name})`).join(' or ')}.`,
    }),
    channel_property_id: idSchema('The channel property id'),
    channel_review_id: idSchema('The review id', 100),
    review_reply: textSchema('The reply', 5000),
  })
  .strict();
export type ReviewReply = z.input<typeof reviewReplySchema>;

/**
 * A reply to a legacy Airbnb review. The provider's field list marks everything optional; a reply cannot be
 * placed without the property, the review and the text, so those are required here.
 */
export const legacyReviewReplySchema = z
  .object({
    hotelid: hotelIdSchema(),
    channelid: z
      .enum(LEGACY_REVIEW_CHANNELS, {
        message: `Legacy reviews are answered on channel ${LEGACY_REVIEW_CHANNELS.join(', ')}.`,
      })
      .default(LEGACY_REVIEW_CHANNELS[0]),
    replytext: textSchema('The reply', 5000),
    reviewid: idSchema('The review id', 100),
    listingid: idSchema('The listing id').optional(),
    locationid: idSchema('The host account id').optional(),
  })
  .strict();
export type LegacyReviewReply = z.input<typeof legacyReviewReplySchema>;
