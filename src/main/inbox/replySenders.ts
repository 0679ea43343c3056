import type { LegacyReviewReply, MessageReply, ReviewReply } from '../../shared/su/messaging';
import type { ProviderClient } from '../provider/client';

/** The outbox kinds of the three replies: to a guest message, to a current review, to a legacy Airbnb review. */
export const REPLY_KINDS = {
  message: 'message-reply',
  review: 'review-reply',
  legacyReview: 'legacy-review-reply',
} as const;

/**
 * Senders for the three kinds of reply, through the provider client. The client is looked up at each send, so
 * an attempt after the owner changed credentials (and the app built a new client) uses the new ones.
 */
export function replySenders(client: () => ProviderClient) {
  return {
    [REPLY_KINDS.message]: (reply: MessageReply) => client().messages.reply(reply),
    [REPLY_KINDS.review]: (reply: ReviewReply) => client().reviews.reply(reply),
    [REPLY_KINDS.legacyReview]: (reply: LegacyReviewReply) => client().reviews.replyLegacy(reply),
  };
}

export type ReplySenders = ReturnType<typeof replySenders>;
