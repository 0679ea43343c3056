import { channelProfile } from '../../shared/channels';
import { AppFailure, ErrorCode } from '../../shared/result';
import {
  legacyReviewReplySchema,
  messageReplySchema,
  reviewReplySchema,
  type LegacyReviewReply,
  type MessageReply,
  type ReviewReply,
} from '../../shared/schemas/messaging';
import { validationError } from '../../shared/validation';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import { REPLY_KINDS, type ReplySenders } from '../outbox/senders';
import type { InboxQueries } from './inboxQueries';

/** The outbox entity of a thread or a review: replies in one of them go out strictly in order. */
export const threadEntity = (threadId: number) => `thread:${threadId}`;
export const reviewEntity = (reviewId: number) => `review:${reviewId}`;

/** A reply the provider would refuse is refused here first, naming the composer field or the missing id. */
function checked<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  payload: unknown,
): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const error = validationError(parsed.error);
  const field = error.field ?? '';
  if (field !== 'message' && field !== 'replytext' && field !== 'review_reply') {
    // A missing id is not something the owner can type: say what the conversation lacks.
    error.message = `This conversation cannot be answered from Innkeeper: ${error.message} The provider's push did not include it.`;
  }
  throw new AppFailure(error);
}

/**
 * Replies to guests and reviews. Each reply is written locally (the owner sees it at once, marked queued) and
 * queued in the outbox in ONE transaction (RELIABILITY 11); the outbox sends it when the provider is reachable.
 */
export function createReplyService(deps: {
  database: Database;
  outbox: Outbox<ReplySenders>;
  inbox: InboxQueries;
  now: () => number;
}) {
  const { database, outbox, inbox, now } = deps;
  const { db } = database;

  function messagePayload(threadId: number, body: string): MessageReply {
    const t = inbox.thread(threadId);
    const requires = channelProfile(t.channel).replyRequires;
    return checked(messageReplySchema, {
      hotelid: t.hotelId ?? undefined,
      channelcode: t.channel,
      message: body,
      ...(requires.includes('threadid') ? { threadid: t.threadRef ?? undefined } : {}),
      ...(requires.includes('guestid') ? { guestid: t.guestId ?? undefined } : {}),
      ...(requires.includes('listingid') ? { listingid: t.listingId ?? undefined } : {}),
      ...(requires.includes('bookingid') ? { bookingid: t.bookingId ?? undefined } : {}),
    });
  }

  return {
    /** Writes the owner's reply into the thread and queues it; the draft is cleared in the same commit. */
    sendReply(threadId: number, body: string): { messageId: number; outboxId: number } {
      const payload = messagePayload(threadId, body);
      const at = now();
      return database.transaction(() => {
        const item = outbox.enqueue(REPLY_KINDS.message, threadEntity(threadId), payload);
        const inserted = db
          .prepare(
            "INSERT INTO messages (thread_id, channel, author, body, sent_at, outbox_id) VALUES (?, ?, 'host', ?, ?, ?)",
          )
          .run(threadId, payload.channelcode, body, at, item.id);
        const messageId = Number(inserted.lastInsertRowid);
        db.prepare(
          'UPDATE threads SET needs_reply = 0, unread = 0, last_preview = ?, last_message_at = max(coalesce(last_message_at, 0), ?) WHERE id = ?',
        ).run(body.slice(0, 200), at, threadId);
        db.prepare('DELETE FROM drafts WHERE thread_id = ?').run(threadId);
        db.prepare("INSERT INTO search_index (text, source, ref) VALUES (?, 'message', ?)").run(body, messageId);
        return { messageId, outboxId: item.id };
      });
    },

    /** Replaces the text of a reply the provider refused, and queues it again (Edit). */
    editReply(outboxId: number, body: string): void {
      const row = db.prepare('SELECT id, thread_id FROM messages WHERE outbox_id = ?').get(outboxId) as
        { id: number; thread_id: number } | undefined;
      if (!row) throw new AppFailure({ code: 'not_found', message: 'This reply no longer exists.', retryable: false });
      const payload = messagePayload(row.thread_id, body);
      database.transaction(() => {
        outbox.edit(outboxId, payload);
        db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(body, row.id);
      });
      outbox.retry(outboxId);
    },

    /** Queues a reply to a review, once the channel's rules allow it. */
    replyToReview(reviewId: number, body: string): { outboxId: number } {
      const review = inbox.reviews().find((r) => r.id === reviewId);
      if (!review)
        throw new AppFailure({ code: 'not_found', message: 'This review no longer exists.', retryable: false });
      if (!review.reply.allowed)
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: review.reply.reason,
          field: 'reply',
          retryable: false,
        });
      const d = review.detail;
      const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
      const key = reviewEntity(reviewId);
      // Checked before the transaction: nothing is written for a reply the provider would refuse.
      const enqueue =
        review.kind === 'current'
          ? (
              (payload: ReviewReply) => () =>
                outbox.enqueue(REPLY_KINDS.review, key, payload)
            )(
              checked<ReviewReply>(reviewReplySchema, {
                hotel_id: review.hotelId ?? undefined,
                channel_id: review.channel,
                channel_property_id: text(d.channelPropertyId),
                channel_review_id: review.providerReviewId,
                review_reply: body,
              }),
            )
          : (
              (payload: LegacyReviewReply) => () =>
                outbox.enqueue(REPLY_KINDS.legacyReview, key, payload)
            )(
              checked<LegacyReviewReply>(legacyReviewReplySchema, {
                hotelid: review.hotelId ?? undefined,
                channelid: '244',
                replytext: body,
                reviewid: review.providerReviewId,
                listingid: text(d.listingId),
              }),
            );
      return database.transaction(() => {
        const item = enqueue();
        db.prepare('INSERT INTO review_replies (review_id, body, outbox_id, created_at) VALUES (?, ?, ?, ?)').run(
          reviewId,
          body,
          item.id,
          now(),
        );
        db.prepare('UPDATE reviews SET unread = 0 WHERE id = ?').run(reviewId);
        return { outboxId: item.id };
      });
    },

    /** Keeps what the owner is typing, per thread; survives a restart. */
    saveDraft(threadId: number, body: string): { savedAt: number } {
      const at = now();
      if (body.trim() === '') db.prepare('DELETE FROM drafts WHERE thread_id = ?').run(threadId);
      else
        db.prepare(
          'INSERT INTO drafts (thread_id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT (thread_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at',
        ).run(threadId, body, at);
      return { savedAt: at };
    },
  };
}
export type ReplyService = ReturnType<typeof createReplyService>;
