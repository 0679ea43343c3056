import { AppFailure, ErrorCode } from '../../shared/result';
import {
  legacyReviewReplySchema,
  messageReplySchema,
  reviewReplySchema,
  type LegacyReviewReply,
  type MessageReply,
  type ReviewReply,
} from '../../shared/su/messaging';
import { placeholderProblem } from '../../shared/savedReplies';
import { validationError } from '../../shared/validation';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import { inboxKey, REPLY_KINDS, type ReplyKinds } from './replySenders';
import type { InboxQueries } from './inboxQueries';

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
    error.message = `This conversation cannot be answered from Innkeeper: ${error.message} The provider's delivery did not include it.`;
  }
  throw new AppFailure(error);
}

/**
 * A text that still holds a {{placeholder}} (a saved reply the conversation could not fill) never goes out: it is
 * refused before anything is written or queued, naming the placeholder, for the composer's `body` field.
 */
function refuseUnfilled(body: string): void {
  const problem = placeholderProblem(body);
  if (problem) throw new AppFailure({ code: ErrorCode.Validation, message: problem, field: 'body', retryable: false });
}

/**
 * Replies to guests and reviews. Each reply is written locally (the owner sees it at once, marked queued) and
 * queued in the outbox in ONE transaction (both survive a crash, or neither); the outbox sends it when the provider
 * is reachable.
 */
export function createReplyService(deps: {
  database: Database;
  outbox: Outbox<ReplyKinds>;
  inbox: InboxQueries;
  now: () => number;
}) {
  const { database, outbox, inbox, now } = deps;
  const { db } = database;

  /**
   * The reply as Su expects it: every id the thread has (the channel's required ones are checked, the others
   * go along too: Su's documentation calls listingid required for every channel, and its 244 sample sends
   * bookingid).
   */
  function messagePayload(threadId: number, body: string): MessageReply {
    const t = inbox.thread(threadId);
    return checked(messageReplySchema, {
      hotelid: t.hotelId ?? undefined,
      channelcode: t.channel,
      message: body,
      threadid: t.threadRef ?? undefined,
      guestid: t.guestId ?? undefined,
      listingid: t.listingId ?? undefined,
      bookingid: t.bookingId ?? undefined,
    });
  }

  /** A review reply's outbox kind and payload, checked before anything is written. */
  function reviewPayload(reviewId: number, body: string) {
    const review = inbox.review(reviewId);
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    if (review.kind === 'current') {
      return {
        review,
        kind: REPLY_KINDS.review,
        payload: checked<ReviewReply>(reviewReplySchema, {
          hotel_id: review.hotelId ?? undefined,
          channel_id: review.channel,
          channel_property_id: text(review.detail.channelPropertyId),
          channel_review_id: review.providerReviewId,
          review_reply: body,
        }),
      } as const;
    }
    return {
      review,
      kind: REPLY_KINDS.legacyReview,
      payload: checked<LegacyReviewReply>(legacyReviewReplySchema, {
        hotelid: review.hotelId ?? undefined,
        channelid: '244',
        replytext: body,
        reviewid: review.providerReviewId,
        listingid: text(review.detail.listingId),
      }),
    } as const;
  }

  /**
   * 'demo' when the conversation or review came from the built-in demo provider: a reply to it goes to the demo
   * only, never to Su, whichever provider is in use when it is written.
   */
  const threadSource = (threadId: number) =>
    db
      .prepare(
        `SELECT 1 FROM messages m JOIN push_log p ON p.id = m.push_log_id
         WHERE m.thread_id = ? AND p.source = 'demo' LIMIT 1`,
      )
      .get(threadId)
      ? 'demo'
      : undefined;
  const reviewSource = (reviewId: number) =>
    db
      .prepare(`SELECT 1 FROM reviews r JOIN push_log p ON p.id = r.push_log_id WHERE r.id = ? AND p.source = 'demo'`)
      .get(reviewId)
      ? 'demo'
      : undefined;

  /** A reply written into its thread and queued, in one commit (or inside the caller's transaction). */
  function queue(threadId: number, body: string, options: { clearDraft: boolean }) {
    refuseUnfilled(body);
    const payload = messagePayload(threadId, body);
    const at = now();
    return database.transaction((): { messageId: number; outboxId: number } => {
      const item = outbox.enqueue(REPLY_KINDS.message, inboxKey.thread(threadId), payload, threadSource(threadId));
      const inserted = db
        .prepare(
          "INSERT INTO messages (thread_id, channel, author, body, sent_at, outbox_id) VALUES (?, ?, 'host', ?, ?, ?)",
        )
        .run(threadId, payload.channelcode, body, at, item.id);
      const messageId = Number(inserted.lastInsertRowid);
      // The thread moves up the list; whether it is read is the owner's reading alone (opening it, Mark unread),
      // never a side effect of a reply: one queued by anything but the owner must not hide a guest's message.
      db.prepare('UPDATE threads SET last_message_at = max(coalesce(last_message_at, 0), ?) WHERE id = ?').run(
        at,
        threadId,
      );
      inbox.refreshThread(threadId);
      if (options.clearDraft) db.prepare('DELETE FROM drafts WHERE thread_id = ?').run(threadId);
      return { messageId, outboxId: item.id };
    });
  }

  return {
    /** Writes the owner's reply into the thread and queues it; the draft is cleared in the same commit. */
    sendReply: (threadId: number, body: string) => queue(threadId, body, { clearDraft: true }),

    /**
     * Queues a reply that is not the owner's Send (an automatic one): written into the thread and queued like
     * theirs, through the outbox, but the draft the owner may be typing stays. Inside the caller's transaction when
     * there is one (its own bookkeeping commits with it), else in its own.
     */
    queueReply: (threadId: number, body: string) => queue(threadId, body, { clearDraft: false }),

    /**
     * Replaces the text of a reply that has not gone out (refused, or still queued) — a guest reply or a review
     * reply — and sends it again if it had stopped. The local copy and its search entry change with it.
     */
    editReply(outboxId: number, body: string): void {
      refuseUnfilled(body);
      const message = db.prepare('SELECT id, thread_id FROM messages WHERE outbox_id = ?').get(outboxId) as
        { id: number; thread_id: number } | undefined;
      const reviewReply = message
        ? undefined
        : (db.prepare('SELECT id, review_id FROM review_replies WHERE outbox_id = ?').get(outboxId) as
            { id: number; review_id: number } | undefined);
      if (!message && !reviewReply)
        throw new AppFailure({ code: 'not_found', message: 'This reply no longer exists.', retryable: false });
      if (message) {
        outbox.edit(outboxId, messagePayload(message.thread_id, body));
        database.transaction(() => {
          db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(body, message.id);
          inbox.refreshThread(message.thread_id);
        });
      } else {
        const { kind, payload } = reviewPayload(reviewReply!.review_id, body);
        if (kind === REPLY_KINDS.review) outbox.edit(outboxId, payload as ReviewReply);
        else outbox.edit(outboxId, payload as LegacyReviewReply);
        db.prepare('UPDATE review_replies SET body = ? WHERE id = ?').run(body, reviewReply!.id);
      }
      if (outbox.get(outboxId)?.state === 'failed') outbox.retry(outboxId);
    },

    /**
     * Queues a reply to a review, once the channel's rules allow it: a review takes one reply, so a second one (the
     * first sent, queued while Su is away, or refused and waiting for the owner) is refused, naming why. The rules
     * are read in the same transaction that writes the reply: two calls at once cannot both pass them.
     */
    replyToReview(reviewId: number, body: string): { outboxId: number } {
      // Checked before anything is written: nothing is kept of a reply the provider or the channel would refuse.
      refuseUnfilled(body);
      return database.transaction(() => {
        const { review, kind, payload } = reviewPayload(reviewId, body);
        if (!review.reply.allowed) {
          throw new AppFailure({
            code: ErrorCode.Validation,
            message: review.reply.reason,
            field: 'reply',
            retryable: false,
          });
        }
        const key = inboxKey.review(reviewId);
        const item =
          kind === REPLY_KINDS.review
            ? outbox.enqueue(REPLY_KINDS.review, key, payload as ReviewReply, reviewSource(reviewId))
            : outbox.enqueue(REPLY_KINDS.legacyReview, key, payload as LegacyReviewReply, reviewSource(reviewId));
        db.prepare('INSERT INTO review_replies (review_id, body, outbox_id, created_at) VALUES (?, ?, ?, ?)').run(
          reviewId,
          body,
          item.id,
          now(),
        );
        db.prepare('DELETE FROM review_drafts WHERE review_id = ?').run(reviewId);
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

    /** Keeps what the owner is typing under a review; survives a restart. */
    saveReviewDraft(reviewId: number, body: string): { savedAt: number } {
      const at = now();
      if (body.trim() === '') db.prepare('DELETE FROM review_drafts WHERE review_id = ?').run(reviewId);
      else
        db.prepare(
          'INSERT INTO review_drafts (review_id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT (review_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at',
        ).run(reviewId, body, at);
      return { savedAt: at };
    },
  };
}
export type ReplyService = ReturnType<typeof createReplyService>;
