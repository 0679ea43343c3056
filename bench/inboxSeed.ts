// The benchmark's inbox: 10,000 threads and 50,000 messages, filed with the app's own fileMessage.
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { indexBeforeSearch, waitingToIndex } from '../src/main/inbox/messageIndex';
import { fileMessage } from '../src/main/inbox/fileMessage';
import type { MessageDelivery } from '../src/shared/su/deliveries';
import { openAppDatabase } from '../src/main/schema';

export const THREADS = 10_000;
export const MESSAGES = 50_000;

// ---- a realistic inbox ----------------------------------------------------------------------------------------
const GUEST_LINES = [
  'Hello! What time can we check in on the day we arrive?',
  'Is there parking near the property, and is it free?',
  'Could you put a baby cot in the room for us, please?',
  'We will arrive late, around 23:00. Is a late check-in possible?',
  'Do you have towels and a hairdryer, or should we bring our own?',
  'Is breakfast included, and from what time is it served?',
  'Can we leave our luggage with you after check-out?',
  'How do we get from the train station to you?',
  'Thank you for a wonderful stay, we loved the view!',
  'Is the wifi fast enough to work from the apartment?',
];
const HOST_LINES = [
  'Hi! Check-in is from 15:00; the key box code comes the day before.',
  'Yes, there is free parking right in front of the house.',
  'Of course, the cot will be ready in your room.',
  'No problem, the self check-in works at any time.',
  'You are welcome, we hope to see you again!',
];
const NAMES = ['Chris', 'Anna', 'Luca', 'Sofia', 'Jonas', 'Emma', 'Noah', 'Mia', 'Liam', 'Olivia'];
const LISTINGS = ['Harbour View Guesthouse', 'Old Town Loft', 'Mill Cottage', 'Garden Studio'];
const CHANNELS = ['244', '244', '244', '19', '19', '9'];

/**
 * Seeds the database file with the app's own store function (thread upsert, message, FTS row), in one go: by default
 * bench:inbox's 10,000 threads and 50,000 messages on the demo's property; bench:scale asks for more, over its properties.
 */
export function seed(
  dbPath: string,
  { threads = THREADS, messages = MESSAGES, hotels = ['IK-DEMO-001'] } = {},
): { oldestThreadId: number } {
  const database = openAppDatabase(dbPath);
  const { db } = database;
  const start = Date.now() - 365 * 86_400_000;
  database.transaction(() => {
    const log = db
      .prepare("INSERT INTO push_log (received_at, body, kind, outcome) VALUES (?, '{}', 'message', 'stored')")
      .run(start);
    const pushLogId = Number(log.lastInsertRowid);
    let messageNo = 0;
    for (let t = 0; t < threads; t++) {
      const channel = CHANNELS[t % CHANNELS.length]!;
      const name = NAMES[t % NAMES.length]!;
      const key = String(4_000_000_000 + t);
      const checkIn = new Date(start + (t % 365) * 86_400_000).toISOString().slice(0, 10);
      const checkOut = new Date(start + ((t % 365) + 3) * 86_400_000).toISOString().slice(0, 10);
      const base: MessageDelivery = {
        message: '',
        guestid: `g${t}`,
        bookingid: key,
        listingid: String(47_500_000 + (t % 4)),
        bookingflag: 'B',
        messageid: '',
        channel_id: channel,
        threadid: key,
        hotelid: hotels[t % hotels.length]!,
        ...(channel === '244' && {
          user_details: {
            roles: [{ role: 'guest', user_ids: [`g${t}`] }],
            users: [{ id: `g${t}`, first_name: name, location: 'Hamburg, Germany', preferred_locale: 'de' }],
          },
          booking_details: {
            checkin_date: checkIn,
            checkout_date: checkOut,
            nights: 3,
            number_of_guests: 2,
            listing_name: LISTINGS[t % LISTINGS.length],
            expected_payout_amount_accurate: '355.50',
          },
        }),
      } as MessageDelivery;
      // 1 to 9 messages a thread, 5 on average: 50,000 in all (the last thread takes what is left).
      const count = t < threads - 1 ? 1 + ((t * 7) % 9) : messages - messageNo;
      const threadStart = start + t * ((365 * 86_400_000) / threads);
      for (let m = 0; m < count; m++, messageNo++) {
        const fromGuest = m % 2 === 0;
        let text = fromGuest ? GUEST_LINES[(t + m) % GUEST_LINES.length]! : HOST_LINES[(t + m) % HOST_LINES.length]!;
        if (messageNo % 500 === 7) text += ' Does the apartment have a jacuzzi?'; // a rare word: 100 messages
        fileMessage(
          db,
          {
            ...base,
            message: text,
            messageid: `m${messageNo}`,
            ...(fromGuest ? {} : { message_type: 'property' }),
          },
          { receivedAt: threadStart + m * 3_600_000, pushLogId },
        );
      }
    }
    db.exec('UPDATE threads SET unread = 0 WHERE id % 10 != 0'); // most conversations have been read
    indexBeforeSearch(db); // all of it, as the app's indexer does soon after the pushes (messageIndex.ts)
  });
  const oldest = db.prepare('SELECT id FROM threads ORDER BY last_message_at ASC, id ASC LIMIT 1').get() as {
    id: number;
  };
  database.close();
  return { oldestThreadId: oldest.id };
}

/**
 * Waits until the app started on the seeded file has indexed what its first start left waiting: the demo names its
 * property then, and the seeded conversations, all on that property, have their search rows written again (10,000
 * rows, several seconds of the core's background work). A benchmark of the app at rest starts after it.
 */
export async function settled(dbPath: string, timeoutMs = 120_000): Promise<void> {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const until = Date.now() + timeoutMs;
    const busy = () => {
      const left = waitingToIndex(db);
      return left.messages + left.threads > 0;
    };
    // Idle twice in a row: the first start's own writes come over its first seconds.
    for (let idle = 0; ; await sleep(500)) {
      idle = busy() ? 0 : idle + 1;
      if (idle === 2) return;
      if (Date.now() > until) throw new Error(`the app still indexes after ${timeoutMs / 1000} s`);
    }
  } finally {
    db.close();
  }
}
