import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { fileMessage } from '../../src/main/inbox/fileMessage';
import { createInboxQueries, SEARCH_COUNT_AHEAD } from '../../src/main/inbox/inboxQueries';
import { threadQuerySchema } from '../../src/shared/inbox';
import type { MessageDelivery } from '../../src/shared/su/deliveries';
import { openAppDatabase } from '../../src/main/schema';
import { tempDir } from '../support/tempDir';

// Issue 27, search at scale: a word in most conversations is read from the index page by page in the list's order
// (one row per conversation, keyed by its newest message), and counted only a little past the page asked for. On a
// real file: the pages are the list's, the count says "more" where it stopped, and SQLite sorts nothing.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const CONVERSATIONS = 1250;

/** A file with 1,250 conversations asking about parking (every 5th on Booking.com), one about a sauna. */
function inbox(): Database {
  const dir = tempDir('innkeeper-scale-');
  const database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  cleanups.push(() => {
    database.close();
    dir.remove();
  });
  const { db } = database;
  database.transaction(() => {
    const log = db
      .prepare("INSERT INTO push_log (received_at, body, kind, outcome) VALUES (1, '{}', 'message', 'stored')")
      .run();
    for (let i = 0; i < CONVERSATIONS; i++) {
      const delivery = {
        message: i === 700 ? 'Is parking free, and the sauna?' : `Is parking free? (${i})`,
        guestid: `g${i}`,
        bookingid: String(4_100_000_000 + i),
        listingid: '1',
        bookingflag: 'B',
        messageid: `m${i}`,
        channel_id: i % 5 === 0 ? '19' : '244',
        threadid: String(4_100_000_000 + i),
        hotelid: 'IK-DEMO-001',
      } as MessageDelivery;
      // Times out of id order: the list's order is the newest message's, not the filing's.
      fileMessage(db, delivery, {
        receivedAt: 1_790_000_000_000 + ((i * 7919) % CONVERSATIONS) * 60_000,
        pushLogId: Number(log.lastInsertRowid),
      });
    }
  });
  return database;
}

describe('a word in every conversation', () => {
  it('is read a page at a time in the list’s order, and counted a little past the page', () => {
    const { db } = inbox();
    const queries = createInboxQueries(db);
    const search = (args: Record<string, unknown>) =>
      queries.threads(threadQuerySchema.parse({ search: 'parking', ...args }));
    const listOrder = (where = '') =>
      (
        db.prepare(`SELECT id FROM threads ${where} ORDER BY last_message_at DESC, id DESC`).all() as { id: number }[]
      ).map((r) => r.id);
    const all = listOrder();

    const first = search({ limit: 100 });
    expect(first.threads.map((t) => t.id)).toEqual(all.slice(0, 100));
    expect([first.total, first.more]).toEqual([100 + SEARCH_COUNT_AHEAD, true]);

    // Further down, the count reaches the end: exact again.
    const last = search({ offset: 1200, limit: 100 });
    expect(last.threads.map((t) => t.id)).toEqual(all.slice(1200));
    expect([last.total, last.more]).toEqual([CONVERSATIONS, false]);
    const middle = search({ offset: 600, limit: 100 });
    expect(middle.threads.map((t) => t.id)).toEqual(all.slice(600, 700));

    // With a filter, the same order; a rarer word counts exactly.
    const booking = search({ channel: '19', limit: 100 });
    expect(booking.threads.map((t) => t.id)).toEqual(listOrder("WHERE channel = '19'").slice(0, 100));
    expect([booking.total, booking.more]).toEqual([CONVERSATIONS / 5, false]);
    const sauna = search({ search: 'sauna parking' });
    expect([sauna.total, sauna.more, sauna.threads.map((t) => t.guestLabel)]).toEqual([
      1,
      false,
      ['Booking 4100000700'],
    ]);
  });

  it('is read straight from the index: SQLite sorts nothing and stops at the page', () => {
    const { db } = inbox();
    createInboxQueries(db).threads(threadQuerySchema.parse({ search: 'parking' })); // indexes what waits
    const plan = (
      db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT t.id FROM thread_search s JOIN threads t ON t.id = (s.rowid & 4194303)
       WHERE thread_search MATCH '"parking"*' AND t.channel = '19' ORDER BY s.rowid DESC LIMIT 100`,
        )
        .all() as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('a new message moves its conversation to the top of what the search finds', () => {
    const database = inbox();
    const queries = createInboxQueries(database.db);
    const search = () => queries.threads(threadQuerySchema.parse({ search: 'parking', limit: 3 })).threads;
    const bottom = queries.threads(threadQuerySchema.parse({ search: 'parking', offset: CONVERSATIONS - 1, limit: 1 }))
      .threads[0]!;
    database.transaction(() =>
      fileMessage(
        database.db,
        {
          message: 'Thank you!',
          guestid: 'g',
          bookingid: bottom.guestLabel.replace('Booking ', ''),
          listingid: '1',
          bookingflag: 'B',
          messageid: 'm-new',
          channel_id: bottom.channel,
          threadid: bottom.guestLabel.replace('Booking ', ''),
          hotelid: 'IK-DEMO-001',
        } as MessageDelivery,
        { receivedAt: 1_900_000_000_000, pushLogId: 1 },
      ),
    );
    expect(search()[0]!.id).toBe(bottom.id);
    expect(queries.threads(threadQuerySchema.parse({ search: 'thank parking' })).threads.map((t) => t.id)).toEqual([
      bottom.id,
    ]);
  });
});
