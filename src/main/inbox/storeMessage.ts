import type { DatabaseSync } from 'node:sqlite';
import type { BookingInfo, GuestInfo } from '../../shared/inbox';
import type { MessagePush } from '../../shared/su/pushPayloads';

/** The conversation a message belongs to: 244 by thread id, 19 and 9 by booking id. */
export const threadKeyOf = (push: Pick<MessagePush, 'channel_id' | 'threadid' | 'bookingid'>) =>
  push.channel_id === '244' ? push.threadid : push.bookingid;

function guestOf(push: MessagePush): GuestInfo | null {
  const details = push.user_details;
  if (!details) return null;
  const guestIds = new Set(details.roles.filter((r) => r.role === 'guest').flatMap((r) => r.user_ids));
  const user = details.users.find((u) => guestIds.has(u.id)) ?? details.users.find((u) => u.id === push.guestid);
  if (!user) return null;
  return {
    id: user.id,
    firstName: user.first_name ?? null,
    location: user.location ?? null,
    locale: user.preferred_locale ?? null,
  };
}

function bookingOf(push: MessagePush): BookingInfo | null {
  const b = push.booking_details;
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

/**
 * Files one pushed message: the thread is created or completed (a message for an unknown thread is simply its
 * first), the message inserted once (unique on channel + messageid); SQLite indexes it and the thread's facts for
 * search (inbox/searchMigration.ts). Runs inside the caller's transaction. Returns the message id, or null when it was already stored (a repost).
 */
export function storeMessage(
  db: DatabaseSync,
  push: MessagePush,
  meta: { receivedAt: number; pushLogId: number },
): { messageId: number; threadId: number; author: 'guest' | 'host' } | null {
  const channel = push.channel_id;
  const author = push.message_type === 'property' ? 'host' : 'guest';
  // A repost changes nothing, not even the thread's details: what was stored stays as it was.
  const known = db
    .prepare('SELECT 1 FROM messages WHERE channel = ? AND provider_message_id = ?')
    .get(channel, push.messageid);
  if (known) return null;
  const guest = guestOf(push);
  const booking = bookingOf(push);
  // Only what this push knows is written: a later push without details never erases earlier ones, and a thread
  // that has a booking (B) never falls back to a pre-booking inquiry (T) because an older message arrives late.
  db.prepare(
    `INSERT INTO threads (channel, thread_key, hotel_id, listing_id, booking_id, thread_ref, guest_id, booking_flag, guest, booking, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (channel, thread_key) DO UPDATE SET
       hotel_id = coalesce(excluded.hotel_id, hotel_id),
       listing_id = coalesce(excluded.listing_id, listing_id),
       booking_id = CASE WHEN booking_flag = 'B' AND excluded.booking_flag <> 'B' THEN booking_id
                         ELSE coalesce(excluded.booking_id, booking_id) END,
       thread_ref = coalesce(excluded.thread_ref, thread_ref),
       guest_id = coalesce(excluded.guest_id, guest_id),
       booking_flag = CASE WHEN booking_flag = 'B' THEN 'B' ELSE coalesce(excluded.booking_flag, booking_flag) END,
       guest = coalesce(excluded.guest, guest),
       booking = coalesce(excluded.booking, booking),
       updated_at = excluded.updated_at`,
  ).run(
    channel,
    threadKeyOf(push),
    push.hotelid ?? null,
    push.listingid,
    push.bookingid,
    push.threadid,
    push.guestid,
    push.bookingflag,
    guest ? JSON.stringify(guest) : null,
    booking ? JSON.stringify(booking) : null,
    meta.receivedAt,
  );
  const thread = db
    .prepare('SELECT id FROM threads WHERE channel = ? AND thread_key = ?')
    .get(channel, threadKeyOf(push)) as { id: number };

  // A host echo of a reply written in Innkeeper is that reply, not a new message: it gets the provider's id.
  if (author === 'host') {
    const own = db
      .prepare(
        `SELECT id FROM messages WHERE thread_id = ? AND author = 'host' AND provider_message_id IS NULL AND outbox_id IS NOT NULL
         AND replace(replace(body, char(13), ''), char(10), '') = ? ORDER BY id LIMIT 1`,
      )
      .get(thread.id, push.message.replace(/\\\\n|\\n|\r|\n/g, '')) as { id: number } | undefined;
    if (own) {
      db.prepare('UPDATE messages SET provider_message_id = ?, push_log_id = ? WHERE id = ?').run(
        push.messageid,
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
      push.messageid,
      author,
      push.message,
      meta.receivedAt,
      push.attachment?.length ? JSON.stringify(push.attachment) : null,
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
       last_message_at = max(coalesce(last_message_at, 0), ?)
     WHERE id = ?`,
  ).run(
    author === 'guest' ? 1 : 0,
    meta.receivedAt,
    author === 'guest' ? 1 : 0,
    meta.receivedAt,
    push.message.slice(0, 200),
    meta.receivedAt,
    thread.id,
  );
  return { messageId, threadId: thread.id, author };
}
