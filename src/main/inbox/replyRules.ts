import { channelProfile } from '../../shared/channels';
import type { CurrentReviewDetail, LegacyReviewDetail } from '../../shared/inbox';

/**
 * Whether a review may be answered, with the reason in the owner's words when not. A review takes one public reply
 * on every channel: Booking.com says so (one reply, moderated, not editable); for Expedia and Airbnb the provider
 * says nothing, and Innkeeper sends one all the same (a second public reply under one review reads as a mistake, and
 * a reply queued twice while Su was away must not go out twice). A refused reply holds the place of the one reply
 * until the owner edits, retries or discards it. Then the provider's own eligibility flag; Booking.com does not
 * take a reply to a score-only review; legacy Airbnb replies only to reviews written by a guest with a booking,
 * within the response window.
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
  const booking = review.channel === '19';
  if (review.replies > 0) {
    return {
      allowed: false,
      reason: booking
        ? 'Booking.com allows one reply per review, and it cannot be edited; you have replied already.'
        : `You have replied to this review already: a review takes one public reply, shown under it on ${name}.`,
    };
  }
  // A refused reply is not a reply: the owner edits, retries or discards it below (a second one is not offered).
  if ((review.refused ?? 0) > 0) {
    return {
      allowed: false,
      reason: `Your reply was not published: see below why, and what you can do. ${
        booking ? 'Booking.com takes one reply per review.' : 'A review takes one public reply.'
      }`,
    };
  }
  if (review.kind === 'current') {
    const d = review.detail;
    if (d.eligibleToReply === false) return { allowed: false, reason: `${name} says this review cannot be answered.` };
    if (booking && !d.title && !d.positive && !d.negative) {
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
