import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { z } from 'zod';
import { channelName } from '../../shared/channels';
import {
  scoreBand,
  type CurrentReviewDetail,
  type Delivery,
  type LegacyReviewDetail,
  type ReviewItem,
  type reviewQuerySchema,
} from '../../shared/inbox';
import { currentOverall, legacyOverall } from '../../shared/reviewScore';
import { AppFailure } from '../../shared/result';
import { propertyNameSql, reviewSearch } from './inboxSearch';
import { replyPermission } from './replyRules';

export type DeliveryRow = { outbox_id: number | null; state: Delivery['state'] | null; last_error: string | null };
export const delivery = (row: DeliveryRow): Delivery | null =>
  row.outbox_id === null || row.state === null
    ? null
    : {
        outboxId: row.outbox_id,
        state: row.state,
        error: row.last_error ? (JSON.parse(row.last_error) as Delivery['error']) : null,
      };

type ReviewRow = {
  id: number;
  kind: 'current' | 'legacy';
  channel: string;
  provider_review_id: string;
  hotel_id: string | null;
  property_name: string | null;
  detail: string;
  received_at: number;
  unread: number;
  replies: number;
  refused: number;
};

// A refused reply (failed, and known not to have arrived) is counted apart from the replies that went out.
const REFUSED = `o.state = 'failed' AND coalesce(json_extract(o.last_error, '$.outcomeUnknown'), 0) = 0`;
const REVIEW_SELECT = `SELECT r.*, ${propertyNameSql('r.hotel_id')} AS property_name,
                         (SELECT count(*) FROM review_replies rr LEFT JOIN outbox o ON o.id = rr.outbox_id
                          WHERE rr.review_id = r.id AND coalesce(o.state, 'sent') <> 'discarded'
                            AND NOT coalesce(${REFUSED}, 0)) AS replies,
                         (SELECT count(*) FROM review_replies rr JOIN outbox o ON o.id = rr.outbox_id
                          WHERE rr.review_id = r.id AND ${REFUSED}) AS refused
                       FROM reviews r`;

/** The most reviews one list holds (newest first). */
const REVIEW_LIST_LIMIT = 500;

const named = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Reviews: the filtered list, one review, read state. */
export function createReviewQueries(db: DatabaseSync, now: () => number) {
  const reviewItem = (r: ReviewRow): ReviewItem => {
    // The stored JSON is what fileReview wrote for the row's kind.
    const review =
      r.kind === 'current'
        ? { kind: r.kind, detail: JSON.parse(r.detail) as CurrentReviewDetail }
        : { kind: r.kind, detail: JSON.parse(r.detail) as LegacyReviewDetail };
    const reply = replyPermission({
      ...review,
      channel: r.channel,
      replies: r.replies,
      refused: r.refused,
      now: now(),
    });
    const booking = named(review.detail.bookingId);
    const firstName =
      review.kind === 'legacy' && review.detail.reviewerRole !== 'host' ? named(review.detail.guestFirstName) : null;
    return {
      id: r.id,
      ...review,
      channel: r.channel,
      channelName: channelName(r.channel),
      providerReviewId: r.provider_review_id,
      hotelId: r.hotel_id,
      propertyName: r.property_name ?? r.hotel_id,
      guestLabel: firstName ?? (booking ? `Booking ${booking}` : null),
      overallScore:
        review.kind === 'current' ? currentOverall(review.detail.scores) : legacyOverall(review.detail.ratings),
      // A refused reply leaves the review needing one (the owner still has to act on it).
      needsReply: (reply.allowed || r.refused > 0) && r.replies === 0,
      receivedAt: r.received_at,
      unread: r.unread === 1,
      reply,
      replies: (
        db
          .prepare(
            `SELECT rr.id, rr.body, rr.created_at, rr.outbox_id, o.state, o.last_error
             FROM review_replies rr LEFT JOIN outbox o ON o.id = rr.outbox_id WHERE rr.review_id = ? ORDER BY rr.id`,
          )
          .all(r.id) as ({ id: number; body: string; created_at: number } & DeliveryRow)[]
      ).map((rr) => ({ id: rr.id, body: rr.body, createdAt: rr.created_at, delivery: delivery(rr) })),
      draft:
        (db.prepare('SELECT body FROM review_drafts WHERE review_id = ?').get(r.id) as { body: string } | undefined)
          ?.body ?? null,
    };
  };

  return {
    /**
     * Reviews, newest first, at most 500: narrowed by property, channel, unread, needs a reply, score band, and a
     * search over their texts and who and what they are about.
     */
    reviews(q: z.output<typeof reviewQuerySchema> = {}): ReviewItem[] {
      const where: string[] = [];
      const params: SQLInputValue[] = [];
      if (q.hotelId) {
        where.push('r.hotel_id = ?');
        params.push(q.hotelId);
      }
      if (q.channel) {
        where.push('r.channel = ?');
        params.push(q.channel);
      }
      if (q.unreadOnly) where.push('r.unread = 1');
      const search = q.search ? reviewSearch(db, q.search) : null;
      if (search) {
        where.push(search.sql);
        params.push(...search.params);
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const rows = db
        .prepare(`${REVIEW_SELECT} ${clause} ORDER BY r.received_at DESC, r.id DESC`)
        .iterate(...params) as Iterable<ReviewRow>;
      // Whether a reply is needed and the score come from the review's own rules and shapes: read row by row.
      const items: ReviewItem[] = [];
      for (const row of rows) {
        const item = reviewItem(row);
        if (q.needsReplyOnly && !item.needsReply) continue;
        if (q.score && scoreBand(item.overallScore) !== q.score) continue;
        items.push(item);
        if (items.length >= REVIEW_LIST_LIMIT) break;
      }
      return items;
    },

    /** One review, however old. */
    review(id: number): ReviewItem {
      const row = db.prepare(`${REVIEW_SELECT} WHERE r.id = ?`).get(id) as ReviewRow | undefined;
      if (!row) throw new AppFailure({ code: 'not_found', message: 'This review no longer exists.', retryable: false });
      return reviewItem(row);
    },

    /**
     * Whether the review a reply is for has a reply that went out already (sent, or kept from before the outbox):
     * the last check before a reply to it leaves, so that one queued twice is not sent twice.
     */
    reviewAnswered(review: { kind: 'current' | 'legacy'; channel: string; providerReviewId: string }): boolean {
      return !!db
        .prepare(
          `SELECT 1 FROM reviews r JOIN review_replies rr ON rr.review_id = r.id
           LEFT JOIN outbox o ON o.id = rr.outbox_id
           WHERE r.kind = ? AND r.channel = ? AND r.provider_review_id = ? AND coalesce(o.state, 'sent') = 'sent'
           LIMIT 1`,
        )
        .get(review.kind, review.channel, review.providerReviewId);
    },

    markReviewRead(id: number): void {
      db.prepare('UPDATE reviews SET unread = 0 WHERE id = ?').run(id);
    },
  };
}
