import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { channelName } from '../../shared/channels';
import type {
  CurrentReviewDetail,
  Delivery,
  InboxCounts,
  LegacyReviewDetail,
  ReviewItem,
  ThreadDetail,
  ThreadPage,
  ThreadSummary,
} from '../../shared/inbox';
import type { z } from 'zod';
import type { threadQuerySchema } from '../../shared/inbox';
import { AppFailure } from '../../shared/result';
import { replyPermission } from './replyRules';

type ThreadRow = {
  id: number;
  channel: string;
  hotel_id: string | null;
  listing_id: string | null;
  booking_id: string | null;
  thread_ref: string | null;
  guest_id: string | null;
  booking_flag: string | null;
  guest: string | null;
  booking: string | null;
  last_message_at: number | null;
  last_preview: string | null;
  unread: number;
  needs_reply: number;
};

type DeliveryRow = { outbox_id: number | null; state: Delivery['state'] | null; last_error: string | null };
const delivery = (row: DeliveryRow): Delivery | null =>
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
  detail: string;
  received_at: number;
  unread: number;
  replies: number;
  refused: number;
};

// A refused reply (failed, and known not to have arrived) is counted apart from the replies that went out.
const REFUSED = `o.state = 'failed' AND coalesce(json_extract(o.last_error, '$.outcomeUnknown'), 0) = 0`;
const REVIEW_SELECT = `SELECT r.*, (SELECT count(*) FROM review_replies rr LEFT JOIN outbox o ON o.id = rr.outbox_id
                        WHERE rr.review_id = r.id AND coalesce(o.state, 'sent') <> 'discarded'
                          AND NOT coalesce(${REFUSED}, 0)) AS replies,
                       (SELECT count(*) FROM review_replies rr JOIN outbox o ON o.id = rr.outbox_id
                        WHERE rr.review_id = r.id AND ${REFUSED}) AS refused
                       FROM reviews r`;

/** FTS5 query from what the owner typed: each word a prefix term, quotes escaped (never FTS syntax errors). */
export function ftsQuery(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"*`)
    .join(' ');
}

function summary(row: ThreadRow): ThreadSummary {
  const guest = row.guest ? (JSON.parse(row.guest) as { firstName?: string | null }) : null;
  const booking = row.booking
    ? (JSON.parse(row.booking) as { checkIn?: string; checkOut?: string; listingName?: string })
    : null;
  return {
    id: row.id,
    channel: row.channel,
    channelName: channelName(row.channel),
    guestName: guest?.firstName ?? null,
    listingName: booking?.listingName ?? null,
    preview: row.last_preview,
    lastMessageAt: row.last_message_at,
    unread: row.unread,
    needsReply: row.needs_reply === 1,
    checkIn: booking?.checkIn ?? null,
    checkOut: booking?.checkOut ?? null,
  };
}

/** Read side of the inbox: pages of threads, one thread, reviews, counts, read state. */
export function createInboxQueries(db: DatabaseSync, now: () => number = Date.now) {
  const reviewItem = (r: ReviewRow): ReviewItem => {
    // The stored JSON is what storeReview wrote for the row's kind.
    const review =
      r.kind === 'current'
        ? { kind: r.kind, detail: JSON.parse(r.detail) as CurrentReviewDetail }
        : { kind: r.kind, detail: JSON.parse(r.detail) as LegacyReviewDetail };
    return {
      id: r.id,
      ...review,
      channel: r.channel,
      channelName: channelName(r.channel),
      providerReviewId: r.provider_review_id,
      hotelId: r.hotel_id,
      receivedAt: r.received_at,
      unread: r.unread === 1,
      reply: replyPermission({ ...review, channel: r.channel, replies: r.replies, refused: r.refused, now: now() }),
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
    threads(q: z.output<typeof threadQuerySchema>): ThreadPage {
      const where: string[] = [];
      const params: SQLInputValue[] = [];
      if (q.channel) {
        where.push('t.channel = ?');
        params.push(q.channel);
      }
      if (q.unreadOnly) where.push('t.unread > 0');
      if (q.needsReplyOnly) where.push('t.needs_reply = 1');
      if (q.search && ftsQuery(q.search)) {
        where.push(
          "t.id IN (SELECT m.thread_id FROM search_index s JOIN messages m ON s.source = 'message' AND m.id = s.ref WHERE search_index MATCH ?)",
        );
        params.push(ftsQuery(q.search));
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (db.prepare(`SELECT count(*) AS n FROM threads t ${clause}`).get(...params) as { n: number }).n;
      const rows = db
        .prepare(`SELECT t.* FROM threads t ${clause} ORDER BY t.last_message_at DESC, t.id DESC LIMIT ? OFFSET ?`)
        .all(...params, q.limit, q.offset) as ThreadRow[];
      return { total, offset: q.offset, threads: rows.map(summary) };
    },

    thread(id: number): ThreadDetail {
      const row = db.prepare('SELECT * FROM threads WHERE id = ?').get(id) as ThreadRow | undefined;
      if (!row)
        throw new AppFailure({ code: 'not_found', message: 'This conversation no longer exists.', retryable: false });
      const messages = db
        .prepare(
          `SELECT m.id, m.author, m.body, m.sent_at, m.attachments, m.outbox_id, o.state, o.last_error
           FROM messages m LEFT JOIN outbox o ON o.id = m.outbox_id WHERE m.thread_id = ? ORDER BY m.sent_at, m.id`,
        )
        .all(id) as ({
        id: number;
        author: 'guest' | 'host';
        body: string;
        sent_at: number;
        attachments: string | null;
      } & DeliveryRow)[];
      const draft = db.prepare('SELECT body FROM drafts WHERE thread_id = ?').get(id) as { body: string } | undefined;
      return {
        ...summary(row),
        hotelId: row.hotel_id,
        listingId: row.listing_id,
        bookingId: row.booking_id,
        threadRef: row.thread_ref,
        guestId: row.guest_id,
        bookingFlag: row.booking_flag,
        guest: row.guest ? JSON.parse(row.guest) : null,
        booking: row.booking ? JSON.parse(row.booking) : null,
        messages: messages.map((m) => ({
          id: m.id,
          author: m.author,
          body: m.body,
          sentAt: m.sent_at,
          attachments: (m.attachments
            ? (JSON.parse(m.attachments) as { attachment_id?: unknown; mime_type?: unknown }[])
            : []
          ).map((a) => ({
            id: a.attachment_id == null ? null : String(a.attachment_id),
            mimeType: a.mime_type == null ? null : String(a.mime_type),
          })),
          delivery: delivery(m),
        })),
        draft: draft?.body ?? null,
      };
    },

    markThreadRead(id: number): void {
      db.prepare('UPDATE threads SET unread = 0 WHERE id = ?').run(id);
    },

    /** Reviews, newest first; `search` keeps those whose text matches (FTS5, as for messages). */
    reviews(search?: string): ReviewItem[] {
      const match = search ? ftsQuery(search) : '';
      const rows = db
        .prepare(
          `${REVIEW_SELECT}
           ${match ? "WHERE r.id IN (SELECT ref FROM search_index WHERE source = 'review' AND search_index MATCH ?)" : ''}
           ORDER BY received_at DESC, id DESC LIMIT 500`,
        )
        .all(...(match ? [match] : [])) as ReviewRow[];
      return rows.map(reviewItem);
    },

    /** One review, however old. */
    review(id: number): ReviewItem {
      const row = db.prepare(`${REVIEW_SELECT} WHERE r.id = ?`).get(id) as ReviewRow | undefined;
      if (!row) throw new AppFailure({ code: 'not_found', message: 'This review no longer exists.', retryable: false });
      return reviewItem(row);
    },

    /**
     * Recomputes a thread's summary from what is really in it: it needs a reply while its latest message that
     * counts is the guest's (a failed or discarded reply does not count), and the preview is that message.
     */
    refreshThread(id: number): void {
      const latest = db
        .prepare(
          `SELECT m.author, m.body FROM messages m LEFT JOIN outbox o ON o.id = m.outbox_id
           WHERE m.thread_id = ? AND coalesce(o.state, 'sent') NOT IN ('failed', 'discarded')
           ORDER BY m.sent_at DESC, m.id DESC LIMIT 1`,
        )
        .get(id) as { author: string; body: string } | undefined;
      if (!latest) return;
      db.prepare('UPDATE threads SET needs_reply = ?, last_preview = ? WHERE id = ?').run(
        latest.author === 'guest' ? 1 : 0,
        latest.body.slice(0, 200),
        id,
      );
    },

    markReviewRead(id: number): void {
      db.prepare('UPDATE reviews SET unread = 0 WHERE id = ?').run(id);
    },

    counts(): InboxCounts {
      const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return {
        unreadThreads: n('SELECT count(*) AS n FROM threads WHERE unread > 0'),
        unreadReviews: n('SELECT count(*) AS n FROM reviews WHERE unread = 1'),
        quarantined: n('SELECT count(*) AS n FROM quarantine WHERE dismissed_at IS NULL'),
      };
    },
  };
}
export type InboxQueries = ReturnType<typeof createInboxQueries>;
