import {
  legacyReviewReplySchema,
  reviewReplySchema,
  type LegacyReviewReply,
  type ReviewReply,
} from '../../../shared/su/messaging';
import { isSuccess } from '../envelope';
import { callEndpoint, fieldByKeywords, pick, type ProviderContext } from '../request';

/** The provider's confirmation of a current review reply. */
export interface ReviewReplySent {
  message: string;
  ruid: string | null;
  warnings: unknown[];
}

/** Which reply field a review-reply error code is about (558 invalid hotel code, 573 mapping, 947 inactive). */
const reviewField = (p: { code: string | null; text: string; field?: string }) =>
  p.code === '558' || p.code === '947' ? 'hotel_id' : p.code === '573' ? 'channel_property_id' : fieldByKeywords([])(p);

/** Endpoint 7: reply to a Booking.com or Expedia review. */
export function replyToReview(ctx: ProviderContext, input: ReviewReply): Promise<ReviewReplySent> {
  return callEndpoint(
    ctx,
    {
      what: 'Sending the review reply',
      host: 'main',
      path: '/jservice/review/reply',
      auth: 'bearer',
      schema: reviewReplySchema,
      parse: (body) => {
        if (!isSuccess(body)) return null;
        const message = pick(body, 'Message', 'message');
        const ruid = pick(body, 'Ruid', 'ruid');
        const warnings = pick(body, 'Warnings', 'warnings');
        return {
          message: typeof message === 'string' ? message : 'Reply sent',
          ruid: typeof ruid === 'string' && ruid ? ruid : null,
          warnings: Array.isArray(warnings) ? warnings : [],
        };
      },
      fieldFor: reviewField,
    },
    input,
  );
}

/** Endpoint 8: reply to a legacy Airbnb review. */
export function replyToLegacyReview(ctx: ProviderContext, input: LegacyReviewReply): Promise<{ accepted: true }> {
  return callEndpoint(
    ctx,
    {
      what: 'Sending the review reply',
      host: 'main',
      path: '/jservice/OTA_ReplyReview',
      auth: 'bearer',
      schema: legacyReviewReplySchema,
      parse: (body) => (isSuccess(body) ? { accepted: true as const } : null),
      fieldFor: fieldByKeywords([
        [/listing/i, 'listingid'],
        [/location|account/i, 'locationid'],
        [/review/i, 'reviewid'],
        [/hotel|property/i, 'hotelid'],
      ]),
    },
    input,
  );
}
