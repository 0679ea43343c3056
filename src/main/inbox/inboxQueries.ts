import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { z } from 'zod';
import { channelName } from '../../shared/channels';
import type {
  AddedFacts,
  InboxCounts,
  InboxProperty,
  NewMessageEvent,
  ThreadDetail,
  ThreadPage,
  ThreadSummary,
  threadQuerySchema,
} from '../../shared/inbox';
import { AppFailure } from '../../shared/result';
import { conversationValues } from '../../shared/savedReplies';
import { withCachedStatements } from '../db/statements';
import { propertyNameSql, threadSearch } from './inboxSearch';
import { indexBeforeSearch } from './messageIndex';
import { ID_MASK } from './threadWords';
import type { ThreadDetailsRow } from './fileMessage';
import { createReviewQueries, delivery, type DeliveryRow } from './reviewQueries';

type ThreadRow = ThreadDetailsRow & {
  id: number;
  channel: string;
  last_message_at: number | null;
  last_preview: string | null;
  unread: number;
  needs_reply: number;
  done_through: number | null;
  property_name: string | null;
  has_draft: number;
  is_done: number;
  /** JSON: what the owner added to the booking (AddedFacts). */
  added_facts: string | null;
};

const THREAD_SELECT = `SELECT t.*, ${propertyNameSql('t.hotel_id')} AS property_name,
                         EXISTS (SELECT 1 FROM drafts d WHERE d.thread_id = t.id AND trim(d.body) <> '') AS has_draft,
                         -- Done: marked done, and neither the guest nor the owner has written since.
                         (t.done_through IS NOT NULL AND t.needs_reply = 0 AND NOT EXISTS (
                            SELECT 1 FROM messages dm WHERE dm.thread_id = t.id AND dm.id > t.done_through)) AS is_done
                       FROM threads t`;

/**
 * Who a conversation is with, by what is known: the first name; else the booking number (Booking.com and Expedia
 * send no name) or Airbnb's confirmation code, as the saved replies fill it; an Airbnb enquiry without a name is an
 * enquiry.
 */
export function guestLabel(t: {
  channel: string;
  firstName: string | null;
  bookingId: string | null;
  bookingFlag: string | null;
  confirmationCode: string | null;
}): string {
  const values = conversationValues({ ...t, checkIn: null, checkOut: null, listingName: null });
  if (values.guest_first_name) return values.guest_first_name;
  if (values.booking_number) return `Booking ${values.booking_number}`;
  return t.channel === '244' && t.bookingFlag === 'T' ? 'Enquiry' : 'Guest';
}

/** What the owner added to a thread's booking, as stored (JSON); null when nothing. */
export function addedFacts(json: string | null): AddedFacts | null {
  if (!json) return null;
  const v = JSON.parse(json) as Partial<AddedFacts>;
  const facts: AddedFacts = {
    guestName: v.guestName ?? null,
    checkIn: v.checkIn ?? null,
    checkOut: v.checkOut ?? null,
    guests: v.guests ?? null,
  };
  return Object.values(facts).some((f) => f !== null) ? facts : null;
}

/** The label of a thread row as stored: its guest and booking columns are JSON; the owner's name where none came. */
function rowGuestLabel(
  row: Pick<ThreadRow, 'channel' | 'booking_id' | 'booking_flag'>,
  guest: { firstName?: string | null } | null,
  booking: { confirmationCode?: string | null } | null,
  added: AddedFacts | null,
): string {
  return guestLabel({
    channel: row.channel,
    firstName: guest?.firstName || added?.guestName || null,
    bookingId: row.booking_id,
    bookingFlag: row.booking_flag,
    confirmationCode: booking?.confirmationCode ?? null,
  });
}

function summary(row: ThreadRow): ThreadSummary {
  const added = addedFacts(row.added_facts);
  const guest = row.guest ? (JSON.parse(row.guest) as { firstName?: string | null }) : null;
  const booking = row.booking
    ? (JSON.parse(row.booking) as {
        checkIn?: string;
        checkOut?: string;
        listingName?: string;
        confirmationCode?: string | null;
      })
    : null;
  return {
    id: row.id,
    channel: row.channel,
    channelName: channelName(row.channel),
    // The channel's word first: what the owner added fills only what it did not send.
    guestName: guest?.firstName || added?.guestName || null,
    guestLabel: rowGuestLabel(row, guest, booking, added),
    hotelId: row.hotel_id,
    propertyName: row.property_name ?? row.hotel_id,
    listingName: booking?.listingName ?? null,
    preview: row.last_preview,
    lastMessageAt: row.last_message_at,
    unread: row.unread,
    needsReply: row.needs_reply === 1,
    checkIn: booking?.checkIn || added?.checkIn || null,
    checkOut: booking?.checkOut || added?.checkOut || null,
    done: row.is_done === 1,
    hasDraft: row.has_draft === 1,
  };
}

/**
 * A search counts the conversations it finds up to this many past the page asked for: past that, the answer says
 * "more" (the list grows as it is scrolled), so a word in most of 100,000 conversations is not counted to the end.
 */
export const SEARCH_COUNT_AHEAD = 1000;

const notFound = () =>
  new AppFailure({ code: 'not_found', message: 'This conversation no longer exists.', retryable: false });

/** Read side of the inbox: pages of threads, one thread, reviews, counts, read state and triage. */
export function createInboxQueries(db: DatabaseSync, now: () => number = Date.now) {
  const reviews = createReviewQueries(db, now);
  // Asked after every group of deliveries: prepared once, not at each call.
  const cached = withCachedStatements(db);

  const setThread = (sql: string, ...params: SQLInputValue[]) => {
    if (db.prepare(sql).run(...params).changes === 0) throw notFound();
  };

  return {
    ...reviews,

    threads(q: z.output<typeof threadQuerySchema>): ThreadPage {
      const where: string[] = [];
      const params: SQLInputValue[] = [];
      if (q.channel) {
        where.push('t.channel = ?');
        params.push(q.channel);
      }
      if (q.hotelId) {
        where.push('t.hotel_id = ?');
        params.push(q.hotelId);
      }
      if (q.unreadOnly) where.push('t.unread > 0');
      if (q.needsReplyOnly) where.push('t.needs_reply = 1');
      const order = 'ORDER BY t.last_message_at DESC, t.id DESC';
      const filters = where.map((w) => ` AND ${w}`).join('');
      let ids: { id: number }[];
      let total: number;
      let more = false;
      if (q.search) {
        indexBeforeSearch(db);
        const search = threadSearch(q.search);
        if (!search || 'nothing' in search) return { total: 0, more: false, offset: q.offset, threads: [] };
        // The index hands over the conversations it finds in the list's order (threadWords.ts): the page is read
        // and the count stops a little past it, whatever the number of matches. Without a filter, the index alone
        // answers: each of its rows is a conversation (a rare word's matches are spread over the whole file, and
        // looking each one up cost 1.5 ms for 1,000 of 100,000).
        const [id, key, source] = where.length
          ? ['t.id', 's.rowid', `thread_search s JOIN threads t ON t.id = (s.rowid & ${ID_MASK})`]
          : [`rowid & ${ID_MASK}`, 'rowid', 'thread_search'];
        const from = `FROM ${source} WHERE thread_search MATCH ?${filters}`;
        ids = cached
          .prepare(`SELECT ${id} AS id ${from} ORDER BY ${key} DESC LIMIT ? OFFSET ?`)
          .all(search.match, ...params, q.limit, q.offset) as { id: number }[];
        const cap = q.offset + q.limit + SEARCH_COUNT_AHEAD;
        const { n } = cached
          .prepare(`SELECT count(*) AS n FROM (SELECT 1 ${from} LIMIT ?)`)
          .get(search.match, ...params, cap + 1) as { n: number };
        more = n > cap;
        total = Math.min(n, cap);
      } else {
        const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
        total = (db.prepare(`SELECT count(*) AS n FROM threads t ${clause}`).get(...params) as { n: number }).n;
        // The page's ids first, then their rows: what each row says is worked out for this page only.
        ids = db
          .prepare(`SELECT t.id FROM threads t ${clause} ${order} LIMIT ? OFFSET ?`)
          .all(...params, q.limit, q.offset) as { id: number }[];
      }
      const rows = ids.length
        ? (db
            .prepare(`${THREAD_SELECT} WHERE t.id IN (SELECT value FROM json_each(?)) ${order}`)
            .all(JSON.stringify(ids.map((r) => r.id))) as ThreadRow[])
        : [];
      return { total, more, offset: q.offset, threads: rows.map(summary) };
    },

    thread(id: number): ThreadDetail {
      const row = db.prepare(`${THREAD_SELECT} WHERE t.id = ?`).get(id) as ThreadRow | undefined;
      if (!row) throw notFound();
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
        added: addedFacts(row.added_facts),
      };
    },

    /** The properties the inbox has conversations or reviews for, by name (as set up under Rates, else the id). */
    properties(): InboxProperty[] {
      const rows = db
        .prepare(
          `SELECT h.hotel_id, ${propertyNameSql('h.hotel_id')} AS name
           FROM (SELECT hotel_id FROM threads WHERE hotel_id IS NOT NULL
                 UNION SELECT hotel_id FROM reviews WHERE hotel_id IS NOT NULL) h`,
        )
        .all() as { hotel_id: string; name: string | null }[];
      return rows
        .map((r) => ({ hotelId: r.hotel_id, name: r.name ?? r.hotel_id }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.hotelId.localeCompare(b.hotelId));
    },

    markThreadRead(id: number): void {
      db.prepare('UPDATE threads SET unread = 0 WHERE id = ?').run(id);
    },

    /** The owner wants to come back to it: it counts as unread again (at least one message). */
    markThreadUnread(id: number): void {
      setThread('UPDATE threads SET unread = max(unread, 1) WHERE id = ?', id);
    },

    /**
     * The owner handled it without a reply: it leaves "needs a reply" until the guest writes again (a message
     * newer than the last one now in the thread).
     */
    markThreadDone(id: number): void {
      setThread(
        `UPDATE threads SET needs_reply = 0,
           done_through = coalesce((SELECT max(id) FROM messages WHERE thread_id = ?), 0) WHERE id = ?`,
        id,
        id,
      );
    },

    /**
     * Recomputes a thread's summary from what is really in it: it needs a reply while its latest message that
     * counts is the guest's (a failed or discarded reply does not count) and came after the owner marked it done;
     * the preview is that message.
     */
    refreshThread(id: number): void {
      const latest = db
        .prepare(
          `SELECT m.id, m.author, m.body FROM messages m LEFT JOIN outbox o ON o.id = m.outbox_id
           WHERE m.thread_id = ? AND coalesce(o.state, 'sent') NOT IN ('failed', 'discarded')
           ORDER BY m.sent_at DESC, m.id DESC LIMIT 1`,
        )
        .get(id) as { id: number; author: string; body: string } | undefined;
      if (!latest) return;
      db.prepare(
        `UPDATE threads SET needs_reply = CASE WHEN ? = 'guest' AND coalesce(done_through, 0) < ? THEN 1 ELSE 0 END,
           last_preview = ? WHERE id = ?`,
      ).run(latest.author, latest.id, latest.body.slice(0, 200), id);
    },

    /** A new guest message as its notification tells it: who wrote, on which channel, how it starts. */
    newMessage(messageId: number): NewMessageEvent | null {
      // Only what the notification needs (a thread's full summary reads drafts, property names and more).
      const row = cached
        .prepare(
          `SELECT t.id, t.channel, t.guest, t.booking_id, t.booking_flag, t.booking, t.added_facts, m.body
           FROM messages m JOIN threads t ON t.id = m.thread_id WHERE m.id = ?`,
        )
        .get(messageId) as
        | (Pick<ThreadRow, 'id' | 'channel' | 'guest' | 'booking_id' | 'booking_flag' | 'booking' | 'added_facts'> & {
            body: string;
          })
        | undefined;
      if (!row) return null;
      const guest = row.guest ? (JSON.parse(row.guest) as { firstName?: string | null }) : null;
      const booking = row.booking ? (JSON.parse(row.booking) as { confirmationCode?: string | null }) : null;
      return {
        threadId: row.id,
        channelName: channelName(row.channel),
        // Who wrote, by what is known: the first name, else the booking number (never a bare "Guest").
        guestName: rowGuestLabel(row, guest, booking, addedFacts(row.added_facts)),
        preview: row.body.slice(0, 140),
      };
    },

    counts(): InboxCounts {
      const n = (sql: string) => (cached.prepare(sql).get() as { n: number }).n;
      return {
        unreadThreads: n('SELECT count(*) AS n FROM threads WHERE unread > 0'),
        unreadReviews: n('SELECT count(*) AS n FROM reviews WHERE unread = 1'),
        quarantined: n('SELECT count(*) AS n FROM quarantine WHERE dismissed_at IS NULL'),
      };
    },
  };
}
export type InboxQueries = ReturnType<typeof createInboxQueries>;
