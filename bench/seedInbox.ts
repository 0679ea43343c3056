// A large inbox for the benchmarks that need one loaded (core-start's memory): 10,000 threads, 50,000 messages,
// stored with the app's own `storeMessage` in one transaction. A lighter copy of bench/inbox-render.ts's seed.
import { openDatabase } from '../src/main/db/database';
import { storeMessage } from '../src/main/inbox/storeMessage';
import type { MessagePush } from '../src/shared/su/pushPayloads';

const GUEST_LINES = [
  'Hello! What time can we check in on the day we arrive?',
  'Is there parking near the property, and is it free?',
  'We will arrive late, around 23:00. Is a late check-in possible?',
  'Is breakfast included, and from what time is it served?',
  'Thank you for a wonderful stay, we loved the view!',
];
const HOST_LINES = [
  'Hi! Check-in is from 15:00; the key box code comes the day before.',
  'Yes, there is free parking right in front of the house.',
  'No problem, the self check-in works at any time.',
];
const CHANNELS = ['244', '244', '244', '19', '19', '9'];

export function seedInbox(dbPath: string, threads = 10_000, messages = 50_000): void {
  const database = openDatabase(dbPath);
  const { db } = database;
  const start = Date.now() - 365 * 86_400_000;
  database.transaction(() => {
    const log = db
      .prepare("INSERT INTO push_log (received_at, body, kind, outcome) VALUES (?, '{}', 'message', 'stored')")
      .run(start);
    const pushLogId = Number(log.lastInsertRowid);
    let messageNo = 0;
    for (let t = 0; t < threads; t++) {
      const key = String(4_000_000_000 + t);
      const base = {
        message: '',
        guestid: `g${t}`,
        bookingid: key,
        listingid: String(47_500_000 + (t % 4)),
        bookingflag: 'B',
        messageid: '',
        channel_id: CHANNELS[t % CHANNELS.length]!,
        threadid: key,
        hotelid: 'IK-DEMO-001',
      } as MessagePush;
      const count = t < threads - 1 ? 1 + ((t * 7) % 9) : messages - messageNo;
      const threadStart = start + t * ((365 * 86_400_000) / threads);
      for (let m = 0; m < count; m++, messageNo++) {
        const fromGuest = m % 2 === 0;
        let text = fromGuest ? GUEST_LINES[(t + m) % GUEST_LINES.length]! : HOST_LINES[(t + m) % HOST_LINES.length]!;
        if (messageNo % 500 === 7) text += ' Does the apartment have a jacuzzi?';
        storeMessage(
          db,
          { ...base, message: text, messageid: `m${messageNo}`, ...(fromGuest ? {} : { message_type: 'property' }) },
          { receivedAt: threadStart + m * 3_600_000, pushLogId },
        );
      }
    }
  });
  database.close();
}
