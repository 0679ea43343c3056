import type { LegacyReviewReply, MessageReply, ReviewReply } from '../../shared/su/messaging';
import { ErrorCode, AppFailure } from '../../shared/result';
import { placeholderProblem } from '../../shared/savedReplies';
import type { OutboxKind, OutboxPlace } from '../outbox/types';
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
export function replySenders(client: () => ProviderClient, answered: (review: AnsweredReview) => boolean) {
  return {
    [REPLY_KINDS.message]: async (reply: MessageReply) => {
      refuseUnfilled(reply.message);
      return client().messages.reply(reply);
    },
    [REPLY_KINDS.review]: async (reply: ReviewReply) => {
      refuseUnfilled(reply.review_reply);
      refuseSecond(answered({ kind: 'current', channel: reply.channel_id, providerReviewId: reply.channel_review_id }));
      return client().reviews.reply(reply);
    },
    [REPLY_KINDS.legacyReview]: async (reply: LegacyReviewReply) => {
      refuseUnfilled(reply.replytext);
      refuseSecond(answered({ kind: 'legacy', channel: '244', providerReviewId: reply.reviewid }));
      return client().reviews.replyLegacy(reply);
    },
  };
}

/** The review a reply is for, as the reply's payload names it. */
export type AnsweredReview = { kind: 'current' | 'legacy'; channel: string; providerReviewId: string };

/**
 * A review takes one reply. The core refuses a second one when it is written; this is the last check, for a second
 * one already in the outbox (queued twice by an earlier Innkeeper while Su was away): it is not sent, and fails for
 * the owner, who discards it.
 */
function refuseSecond(alreadyAnswered: boolean): void {
  if (alreadyAnswered)
    throw new AppFailure({
      code: ErrorCode.Validation,
      message:
        'Not sent: your earlier reply to this review went out already, and a review takes one public reply. Discard this copy.',
      retryable: false,
    });
}

/**
 * The last check before a reply leaves: one that still holds a {{placeholder}} (queued before the composer and the
 * core checked, or put in the outbox by any other way) is not sent. It fails for the owner, naming the
 * placeholder, and is not retried: they edit it or discard it.
 */
function refuseUnfilled(text: unknown): void {
  const problem = typeof text === 'string' ? placeholderProblem(text) : null;
  if (problem)
    throw new AppFailure({
      code: ErrorCode.Validation,
      message: `Not sent. ${problem}`,
      field: 'body',
      retryable: false,
    });
}

export type ReplySenders = ReturnType<typeof replySenders>;
/** The reply kinds as the outbox holds them (what `Outbox<ReplyKinds>` may queue). */
export type ReplyKinds = { [K in keyof ReplySenders]: OutboxKind<Parameters<ReplySenders[K]>[0]> };

/** What an inbox item in the outbox belongs to: its conversation, or its review (replies go out in order). */
export const inboxKey = {
  thread: (threadId: number) => `thread:${threadId}`,
  review: (reviewId: number) => `review:${reviewId}`,
};

/** The conversation or review of a reply's key (null for a key of any other shape). */
export function placeOfKey(key: string): OutboxPlace | null {
  const match = /^(thread|review):([1-9]\d*)$/.exec(key);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  return match[1] === 'thread' ? { threadId: id } : { reviewId: id };
}
