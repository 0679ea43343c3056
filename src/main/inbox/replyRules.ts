import { channelProfile } from '../../shared/channels';
import type { CurrentReviewDetail, LegacyReviewDetail } from '../../shared/inbox';

/**
 * Whether a review may be answered, with the reason in the owner's words when not: the provider's own
 * eligibility flag; Booking.com allows one reply, and not to a score-only review; legacy Airbnb replies only to
 * reviews written by a guest with a booking, within the response window.
 */
export function replyPermission(
  review: ({ kind: 'current'; detail: CurrentReviewDetail } | { kind: 'legacy'; detail: LegacyReviewDetail }) & {
    channel: string;
    /** Replies that went out or are on their way (or may have arrived): not the refused, not the discarded. */
    replies: number;
    /** Replies the provider refused that the owner has not discarded yet. */
    refused?: number;
    now: number;
  },
): { allowed: true } | { allowed: false; reason: string } {
  const name = channelProfile(review.channel).name;
  if (review.kind === 'current') {
    const d = review.detail;
    if (d.eligibleToReply === false) return { allowed: false, reason: `${name} says this review cannot be answered.` };
    if (review.channel === '19' && review.replies > 0) {
      return {
        allowed: false,
        reason: 'Booking.com allows one reply per review, and it cannot be edited; you have replied already.',
      };
    }
    // A refused reply is not a reply: the owner edits, retries or discards it below (a second one would be refused).
    if (review.channel === '19' && (review.refused ?? 0) > 0) {
      return {
        allowed: false,
        reason:
          'Your reply was not published: see below why, and what you can do. Booking.com takes one reply per review.',
      };
    }
    if (review.channel === '19' && !d.title && !d.positive && !d.negative) {
      return { allowed: false, reason: 'Booking.com does not allow replies to a review with scores only.' };
    }
    return { allowed: true };
  }
  const d = review.detail;
  // Su takes replies only to reviews the guest wrote; a review that does not say who wrote it is not assumed to be.
  if (d.reviewerRole !== 'guest') {
    return { allowed: false, reason: 'Only reviews written by a guest can be answered on Airbnb.' };
  }
  if (!d.bookingId) {
    return { allowed: false, reason: 'Airbnb only allows replies to reviews from guests who had a booking.' };
  }
  const expires = typeof d.expiresAt === 'string' ? Date.parse(d.expiresAt) : NaN;
  if (Number.isFinite(expires) && expires < review.now) {
    return { allowed: false, reason: 'Airbnb’s time to respond to this review has passed (hosts have 30 days).' };
  }
  return { allowed: true };
}
