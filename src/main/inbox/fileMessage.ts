import type { DatabaseSync } from 'node:sqlite';
import type { BookingInfo, GuestInfo } from '../../shared/inbox';
import type { MessageDelivery } from '../../shared/su/deliveries';

/** The conversation a message belongs to: 244 by thread id, 19 and 9 by booking id. */
export const threadKeyOf = (delivery: Pick<MessageDelivery, 'channel_id' | 'threadid' | 'bookingid'>) =>
  delivery.channel_id === '244' ? delivery.threadid : delivery.bookingid;

function guestOf(delivery: MessageDelivery): GuestInfo | null {
  const details = delivery.user_details;
  if (!details) return null;
  const guestIds = new Set(details.roles.filter((r) => r.role === 'guest').flatMap((r) => r.user_ids));
  const user = details.users.find((u) => guestIds.has(u.id)) ?? details.users.find((u) => u.id === delivery.guestid);
  if (!user) return null;
  return {
    id: user.id,
    firstName: user.first_name ?? null,
    location: user.location ?? null,
    locale: user.preferred_locale ?? null,
  };
}

function bookingOf(delivery: MessageDelivery): BookingInfo | null {
  const b = delivery.booking_details;
  if (!b || Object.keys(b).length === 0) return null;
  const num = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    checkIn: b.checkin_date ?? null,
    checkOut: b.checkout_date ?? null,
    nights: num(b.nights),
    guests: num(b.number_of_guests),
    adults: num(b.number_of_adults),
    children: num(b.number_of_children),
    infants: num(b.number_of_infants),
    payout: b.expected_payout_amount_accurate == null ? null : String(b.expected_payout_amount_accurate),
    confirmationCode: b.reservation_confirmation_code ?? null,
    listingName: b.listing_name ?? null,
  };
}

const THREAD_FIELDS = [
  'hotel_id',
  'listing_id',
  'booking_id',
  'thread_ref',
  'guest_id',
  'booking_flag',
  'guest',
  'booking',
] as const;
/** The columns of a thread's row that its messages tell (the rest is the inbox's summary of it). */
export type ThreadDetailsRow = Record<(typeof THREAD_FIELDS)[number], string | null>;
/** A thread's row as the message's filing reads and completes it. */
type ThreadRow = ThreadDetailsRow & { id: number };
const SELECT_THREAD = `SELECT id, ${THREAD_FIELDS.join(', ')} FROM threads WHERE channel = ? AND thread_key = ?`;
const INSERT_THREAD = `INSERT INTO threads (channel, thread_key, ${THREAD_FIELDS.join(', ')}, updated_at)
  VALUES (?, ?, ${THREAD_FIELDS.map(() => '?').join(', ')}, ?) RETURNING id`;

/**
 * The thread a message belongs to, created or completed. Only what this delivery knows is written: a later delivery
 * without details never erases earlier ones, and a thread that has a booking (B) never falls back to a
 * pre-booking inquiry (T) because an older message arrives late. The row is read first and written only when a
 * value changes (most messages of a conversation carry the same details): the upsert it replaces rewrote the row
 * every time, and filing a delivery takes about 8 % less time without it (bench/RESULTS.md, bench:push).
 */
function fileThread(
  db: DatabaseSync,
  delivery: MessageDelivery,
  guest: GuestInfo | null,
  booking: BookingInfo | null,
  receivedAt: number,
): { id: number } {
  const channel = delivery.channel_id;
  const key = threadKeyOf(delivery);
  const known: ThreadDetailsRow = {
    hotel_id: delivery.hotelid ?? null,
    listing_id: delivery.listingid ?? null,
    booking_id: delivery.bookingid ?? null,
    thread_ref: delivery.threadid ?? null,
    guest_id: delivery.guestid ?? null,
    booking_flag: delivery.bookingflag ?? null,
    guest: guest ? JSON.stringify(guest) : null,
    booking: booking ? JSON.stringify(booking) : null,
  };
  const row = db.prepare(SELECT_THREAD).get(channel, key) as ThreadRow | undefined;
  if (!row) {
    return db.prepare(INSERT_THREAD).get(channel, key, ...THREAD_FIELDS.map((f) => known[f]), receivedAt) as {
      id: number;
    };
  }
  const merged: ThreadDetailsRow = {
    hotel_id: known.hotel_id ?? row.hotel_id,
    listing_id: known.listing_id ?? row.listing_id,
    // As SQL's CASE read it: a delivery that does not say (no flag) does not count as leaving the booking.
    booking_id:
      row.booking_flag === 'B' && known.booking_flag !== null && known.booking_flag !== 'B'
        ? row.booking_id
        : (known.booking_id ?? row.booking_id),
    thread_ref: known.thread_ref ?? row.thread_ref,
    guest_id: known.guest_id ?? row.guest_id,
    booking_flag: row.booking_flag === 'B' ? 'B' : (known.booking_flag ?? row.booking_flag),
    guest: known.guest ?? row.guest,
    booking: known.booking ?? row.booking,
  };
  const changed = THREAD_FIELDS.filter((f) => merged[f] !== row[f]);
  if (changed.length > 0) {
    db.prepare(`UPDATE threads SET ${changed.map((f) => `${f} = ?`).join(', ')}, updated_at = ? WHERE id = ?`).run(
      ...changed.map((f) => merged[f]),
      receivedAt,
      row.id,
    );
  }
  return { id: row.id };
}

/** A message filed: the guest's, or the owner's own sent from elsewhere (Su delivers those too). */
export interface FiledMessage {
  messageId: number;
  threadId: number;
  author: 'guest' | 'host';
}

/**
 * Files one delivered message: the thread is created or completed (a message for an unknown thread is simply its
 * first), the message inserted once (unique on channel + messageid); SQLite marks it and its conversation for the
 * search index's next batch (threadSearchMigration.ts, messageIndex.ts). Runs inside the caller's transaction. Returns the message id, or null when it was
 * already stored (a repost).
 */
export function fileMessage(
  db: DatabaseSync,
  delivery: MessageDelivery,
  meta: { receivedAt: number; pushLogId: number },
): FiledMessage | null {
  const channel = delivery.channel_id;
  const author = delivery.message_type === 'property' ? 'host' : 'guest';
  // A repost changes nothing, not even the thread's details: what was stored stays as it was.
  const known = db
    .prepare('SELECT 1 FROM messages WHERE channel = ? AND provider_message_id = ?')
    .get(channel, delivery.messageid);
  if (known) return null;
  const guest = guestOf(delivery);
  const booking = bookingOf(delivery);
  const thread = fileThread(db, delivery, guest, booking, meta.receivedAt);

  // A host echo of a reply written in Innkeeper is that reply, not a new message: it gets the provider's id.
  if (author === 'host') {
    const own = db
      .prepare(
        `SELECT id FROM messages WHERE thread_id = ? AND author = 'host' AND provider_message_id IS NULL AND outbox_id IS NOT NULL
         AND replace(replace(body, char(13), ''), char(10), '') = ? ORDER BY id LIMIT 1`,
      )
      .get(thread.id, delivery.message.replace(/\\\\n|\\n|\r|\n/g, '')) as { id: number } | undefined;
    if (own) {
      db.prepare('UPDATE messages SET provider_message_id = ?, push_log_id = ? WHERE id = ?').run(
        delivery.messageid,
        meta.pushLogId,
        own.id,
      );
      return null;
    }
  }

  const inserted = db
    .prepare(
      `INSERT INTO messages (thread_id, channel, provider_message_id, author, body, sent_at, attachments, push_log_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel, provider_message_id) DO NOTHING`,
    )
    .run(
      thread.id,
      channel,
      delivery.messageid,
      author,
      delivery.message,
      meta.receivedAt,
      delivery.attachment?.length ? JSON.stringify(delivery.attachment) : null,
      meta.pushLogId,
    );
  if (inserted.changes === 0) return null;
  const messageId = Number(inserted.lastInsertRowid);

  // The thread's summary only moves forward in time, so a late message never hides a newer one.
  db.prepare(
    `UPDATE threads SET
       unread = unread + ?,
       needs_reply = CASE WHEN coalesce(last_message_at, 0) <= ? THEN ? ELSE needs_reply END,
       last_preview = CASE WHEN coalesce(last_message_at, 0) <= ? THEN ? ELSE last_preview END,
       last_message_at = max(coalesce(last_message_at, 0), ?),
       updated_at = ?
     WHERE id = ?`,
  ).run(
    author === 'guest' ? 1 : 0,
    meta.receivedAt,
    author === 'guest' ? 1 : 0,
    meta.receivedAt,
    delivery.message.slice(0, 200),
    meta.receivedAt,
    meta.receivedAt,
    thread.id,
  );
  return { messageId, threadId: thread.id, author };
}
