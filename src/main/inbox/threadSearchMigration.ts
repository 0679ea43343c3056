import type { Migration } from '../db/migrations';
import { nameOf, reviewFactsSql } from './searchMigration';

// Issue 27, search at scale: one row per conversation in the search index, under a key that sorts as the inbox does
// (threadWords.ts), instead of one row per message (message_text) and a trigram index of what each conversation is
// about (thread_facts). With one row per message, a word in most conversations (`parking`, in 61,111 of 100,000)
// had every match read and sorted before the first page: 40 ms. With one row per conversation in the list's order,
// the index hands the page over in order and stops: under a millisecond, whatever the word.
//
// - thread_search: contentless, no positions (detail=none), with prefix indexes for typed words of 2 to 12
//   characters, so a typed word is read like a whole one (lazily, newest first).
// - thread_words: each conversation's row key and the distinct pieces of its messages (threadWords.ts).
// - thread_search_pending: conversations whose row is to be written again, with `rebuild` = 1 when a message was
//   edited, moved or removed (its pieces are read again from all its messages). A new message waits in
//   message_text_pending as before. SQLite's triggers mark both in the writer's own transaction, so nothing is ever
//   left out; the indexer (messageIndex.ts) writes the rows in batches soon after, and a search writes what waits
//   before it looks.
//
// Every conversation already filed waits to be indexed: the indexer does it in batches after the start, the app
// usable meanwhile (a search before it is done waits for the rest: 36 s in all for 100,000 conversations).

/** Marks conversation `id` (SQL) for its row to be written again; `rebuild` (SQL) also reads its messages again. */
const mark = (id: string, rebuild: 0 | 1) =>
  `INSERT INTO thread_search_pending (thread_id, rebuild) SELECT ${id}, ${rebuild} WHERE ${id} IS NOT NULL
     ON CONFLICT (thread_id) DO UPDATE SET rebuild = max(rebuild, excluded.rebuild);`;

/** The conversations and reviews of property `hotel` (SQL), their facts written again: its name changed. */
const refreshProperty = (hotel: string) => `
    INSERT INTO thread_search_pending (thread_id, rebuild) SELECT id, 0 FROM threads WHERE hotel_id = ${hotel} AND true
      ON CONFLICT (thread_id) DO NOTHING;
    DELETE FROM review_facts WHERE rowid IN (SELECT id FROM reviews WHERE hotel_id = ${hotel});
    INSERT INTO review_facts (rowid, text) SELECT r.id, ${reviewFactsSql('r')} FROM reviews r WHERE r.hotel_id = ${hotel};`;

export const THREAD_SEARCH_MIGRATION: Migration = {
  version: 20,
  name: 'inbox: one search row per conversation, in the inbox’s order (search at scale)',
  sql: `
    CREATE VIRTUAL TABLE thread_search USING fts5 (
      text, content = '', contentless_delete = 1, detail = none,
      prefix = '2 3 4 5 6 7 8 9 10 11 12', tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TABLE thread_words (
      thread_id INTEGER PRIMARY KEY,
      row_key   INTEGER NOT NULL,
      words     TEXT    NOT NULL
    );
    CREATE TABLE thread_search_pending (
      thread_id INTEGER PRIMARY KEY,
      rebuild   INTEGER NOT NULL DEFAULT 0
    );
    -- Every conversation filed so far: indexed from its messages in the indexer's first batches.
    INSERT INTO thread_search_pending (thread_id, rebuild) SELECT id, 1 FROM threads;
    DELETE FROM message_text_pending;

    DROP TRIGGER message_text_changed;
    DROP TRIGGER message_text_removed;
    DROP TRIGGER thread_facts_added;
    DROP TRIGGER thread_facts_changed;
    DROP TRIGGER thread_facts_removed;
    DROP TABLE message_text;
    DROP TABLE thread_facts;

    -- A new message waits in message_text_pending (its trigger, message_text_added, stays as schema 15 wrote it).
    CREATE TRIGGER thread_search_message_changed AFTER UPDATE OF body, thread_id ON messages
    WHEN old.body IS NOT new.body OR old.thread_id IS NOT new.thread_id
    BEGIN
      ${mark('old.thread_id', 1)}
      ${mark('new.thread_id', 1)}
    END;
    CREATE TRIGGER thread_search_message_removed AFTER DELETE ON messages BEGIN
      DELETE FROM message_text_pending WHERE id = old.id;
      ${mark('old.thread_id', 1)}
    END;

    CREATE TRIGGER thread_search_added AFTER INSERT ON threads BEGIN
      ${mark('new.id', 0)}
    END;
    -- Its newest message (the row's key) or what it is about changed.
    CREATE TRIGGER thread_search_changed AFTER UPDATE OF last_message_at, guest, booking_id, booking, hotel_id,
      added_facts ON threads
    WHEN old.last_message_at IS NOT new.last_message_at OR old.guest IS NOT new.guest
      OR old.booking_id IS NOT new.booking_id OR old.booking IS NOT new.booking OR old.hotel_id IS NOT new.hotel_id
      OR old.added_facts IS NOT new.added_facts
    BEGIN
      ${mark('new.id', 0)}
    END;
    CREATE TRIGGER thread_search_removed AFTER DELETE ON threads BEGIN
      DELETE FROM thread_search WHERE rowid = (SELECT row_key FROM thread_words WHERE thread_id = old.id);
      DELETE FROM thread_words WHERE thread_id = old.id;
      DELETE FROM thread_search_pending WHERE thread_id = old.id;
    END;

    -- A property named, renamed or set up no more under Rates: its conversations' rows are written again, its
    -- reviews' facts at once (as schema 14 and 19 did).
    DROP TRIGGER facts_property_added;
    CREATE TRIGGER facts_property_added AFTER INSERT ON rate_setups WHEN ${nameOf('new')} IS NOT NULL BEGIN
      ${refreshProperty('new.hotel_id')}
    END;
    DROP TRIGGER facts_property_renamed;
    CREATE TRIGGER facts_property_renamed AFTER UPDATE OF setup ON rate_setups
    WHEN old.hotel_id IS new.hotel_id AND ${nameOf('old')} IS NOT ${nameOf('new')}
    BEGIN
      ${refreshProperty('new.hotel_id')}
    END;
    DROP TRIGGER facts_property_moved;
    CREATE TRIGGER facts_property_moved AFTER UPDATE OF hotel_id ON rate_setups WHEN old.hotel_id IS NOT new.hotel_id
    BEGIN
      ${refreshProperty('old.hotel_id')}
      ${refreshProperty('new.hotel_id')}
    END;
    DROP TRIGGER facts_property_removed;
    CREATE TRIGGER facts_property_removed AFTER DELETE ON rate_setups WHEN ${nameOf('old')} IS NOT NULL BEGIN
      ${refreshProperty('old.hotel_id')}
    END;
  `,
};

// The index's segments are merged by the indexer, a few pages at a time between its batches (messageIndex.ts,
// `mergeStep`), no more by FTS5 itself at a commit: with its eleven prefix indexes, a merge FTS5 chose to make there
// held the core for up to 150 ms while the indexer wrote every conversation's row again (after an update of the app,
// or a property named), and a call waited that long.
export const SEARCH_MERGE_MIGRATION: Migration = {
  version: 21,
  name: 'inbox: the search index merged in small steps by the indexer',
  sql: `INSERT INTO thread_search (thread_search, rank) VALUES ('automerge', 0);`,
};
