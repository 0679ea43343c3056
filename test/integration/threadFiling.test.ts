import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { openAppDatabase } from '../../src/main/schema';
import { fileDelivery } from '../../src/main/intake/ingest';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import { threadQuerySchema } from '../../src/shared/inbox';
import { fixtureText } from '../support/fixtures';
import { tempDir } from '../support/tempDir';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

// How a conversation's details are completed by the messages filed into it (fileMessage.ts): a message carries
// what it knows, a later one without details erases nothing, a booked conversation stays booked, and a message
// that changes nothing leaves the conversation's row untouched.
const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
let database: Database;
let next = 0;
const file = (fields: Record<string, unknown>, at = 1_000 + next) =>
  fileDelivery(database, INBOX_FILERS, JSON.stringify({ ...template, messageid: `m-${next++}`, ...fields }), at);
/** The conversations' details (not their summary: unread count, last message). */
const threadRow = () =>
  database.db
    .prepare(
      'SELECT id, hotel_id, listing_id, booking_id, thread_ref, guest_id, booking_flag, guest, booking FROM threads',
    )
    .all() as {
    id: number;
    booking_id: string | null;
    booking_flag: string | null;
    guest: string | null;
    booking: string | null;
    listing_id: string | null;
    hotel_id: string | null;
  }[];
const changedAt = () => (database.db.prepare('SELECT updated_at AS at FROM threads').get() as { at: number }).at;

afterEach(() => database?.close());

describe('a conversation’s details as its messages are filed', () => {
  it('are kept when a later message has none, completed by one that knows more, and never fall back to an inquiry', () => {
    database = openAppDatabase(join(tempDir('innkeeper-thread-filing-').path, 'innkeeper.db'));
    expect(file({}).outcome).toBe('stored');
    const [first] = threadRow();
    expect(first).toMatchObject({ booking_id: 'ABCAJKYSJ8', booking_flag: 'B', hotel_id: 'abc123' });
    expect(JSON.parse(first!.guest!)).toMatchObject({ firstName: 'Chris' });
    expect(JSON.parse(first!.booking!)).toMatchObject({ confirmationCode: 'ABCAJKYSJ8', nights: 4 });

    // No details at all: nothing is erased.
    expect(file({ user_details: undefined, booking_details: undefined, hotelid: null }, 2_000).outcome).toBe('stored');
    expect(threadRow()).toEqual([first]);
    expect(changedAt()).toBe(2_000);

    // An older inquiry (T) arriving late, with another booking number: the conversation stays booked (B).
    expect(file({ bookingflag: 'T', bookingid: 'OTHER', booking_details: undefined }, 3_000).outcome).toBe('stored');
    expect(threadRow()[0]).toMatchObject({ booking_id: 'ABCAJKYSJ8', booking_flag: 'B' });

    // New booking details: written, and the conversation is found by them.
    const changed = { ...(template.booking_details as object), nights: 6, reservation_confirmation_code: 'NEWCODE77' };
    expect(file({ booking_details: changed }, 4_000).outcome).toBe('stored');
    const [after] = threadRow();
    expect(JSON.parse(after!.booking!)).toMatchObject({ nights: 6, confirmationCode: 'NEWCODE77' });
    expect(changedAt()).toBe(4_000);
    expect(after!.guest).toBe(first!.guest);
    const found = createInboxQueries(database.db).threads(threadQuerySchema.parse({ search: 'NEWCODE77' }));
    expect(found.total).toBe(1);

    // Every message is in the one conversation, and a repost files nothing.
    expect((database.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(4);
    const repost = fileDelivery(database, INBOX_FILERS, JSON.stringify({ ...template, messageid: 'm-0' }), 5_000);
    expect(repost.outcome).toBe('duplicate');
    expect(threadRow()).toEqual([after]);
  });

  it('an inquiry that is booked later becomes the booking', () => {
    database = openAppDatabase(join(tempDir('innkeeper-thread-booked-').path, 'innkeeper.db'));
    file({ bookingflag: 'T', bookingid: 'INQ1', booking_details: undefined });
    expect(threadRow()[0]).toMatchObject({ booking_flag: 'T', booking_id: 'INQ1', booking: null });
    file({});
    expect(threadRow()[0]).toMatchObject({ booking_flag: 'B', booking_id: 'ABCAJKYSJ8' });
    expect(threadRow()).toHaveLength(1);
  });
});
