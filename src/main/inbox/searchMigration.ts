import type { Migration } from '../db/migrations';

// The inbox's search indexes, kept current by SQLite itself (triggers): whoever writes a message, a thread, a review
// or a property's name under Rates, the index follows in the same transaction, and nothing copied can go stale.
// - message_text: each message's text, under a rowid that says its thread (messageRowSql); since schema 15 a new
//   message is marked in the same transaction and its text indexed in a batch soon after (messageIndex.ts);
// - thread_facts, review_facts: what a conversation or review is about (guest names, booking numbers, confirmation
//   codes, listing and property names, hotel ids), one row per thread (review) under its id.
//
// The trigram tokenizer finds any part of a text of 3 characters or more (`40123` inside a booking number, `demo`
// inside `IK-DEMO-001`), as the LIKE it replaces did, without case or accents; shorter words are looked for in the
// stored texts (inboxSearch.ts).

/** The property's name as set up under Rates (NULL when none); `hotel` is the SQL naming the hotel id. */
export const propertyNameSql = (hotel: string) =>
  `(SELECT nullif(trim(json_extract(rs.setup, '$.name')), '') FROM rate_setups rs WHERE rs.hotel_id = ${hotel})`;

export const facts = (parts: string[]) => `concat_ws(' ', ${parts.join(', ')})`;

/** Everything the thread row `t` is about, as one text (as of schema 14; 19 adds the owner's own: bookingFacts.ts). */
export const threadFactsSql = (t: string) =>
  facts([
    `json_extract(${t}.guest, '$.firstName')`,
    `${t}.booking_id`,
    `json_extract(${t}.booking, '$.confirmationCode')`,
    `json_extract(${t}.booking, '$.listingName')`,
    `${t}.hotel_id`,
    propertyNameSql(`${t}.hotel_id`),
  ]);

/** Everything the review row `r` is about, as one text. */
export const reviewFactsSql = (r: string) =>
  facts([
    `json_extract(${r}.detail, '$.guestFirstName')`,
    `json_extract(${r}.detail, '$.revieweeName')`,
    `json_extract(${r}.detail, '$.bookingId')`,
    `${r}.provider_review_id`,
    `${r}.hotel_id`,
    propertyNameSql(`${r}.hotel_id`),
  ]);

/**
 * The facts of the threads and reviews of property `hotel` written again (its name under Rates changed);
 * `threadFacts` is what a thread is about as of the step that writes the trigger.
 */
export const refreshProperty = (hotel: string, threadFacts: (t: string) => string = threadFactsSql) => `
    DELETE FROM thread_facts WHERE rowid IN (SELECT id FROM threads WHERE hotel_id = ${hotel});
    INSERT INTO thread_facts (rowid, text) SELECT t.id, ${threadFacts('t')} FROM threads t WHERE t.hotel_id = ${hotel};
    DELETE FROM review_facts WHERE rowid IN (SELECT id FROM reviews WHERE hotel_id = ${hotel});
    INSERT INTO review_facts (rowid, text) SELECT r.id, ${reviewFactsSql('r')} FROM reviews r WHERE r.hotel_id = ${hotel};`;

export const nameOf = (row: string) => `nullif(trim(json_extract(${row}.setup, '$.name')), '')`;

/**
 * A message's row in `message_text`: its thread's id in the high 32 bits, its own id in the low 32, so a search
 * reads which threads it found from the index alone, without looking up a single message (ids below 2^31 and 2^32
 * respectively: far beyond any inbox).
 */
export const messageRowSql = (m: string) => `((${m}.thread_id << 32) | ${m}.id)`;

/** Issue 15: search in a blink. */
export const INBOX_SEARCH_MIGRATION: Migration = {
  version: 14,
  name: 'inbox: what each conversation and review is about, in full-text indexes kept current by SQLite',
  sql: `
    -- The text of every message, by thread (messageRowSql); the texts themselves stay in messages only.
    CREATE VIRTUAL TABLE message_text USING fts5 (
      text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
    );
    INSERT INTO message_text (rowid, text) SELECT ${messageRowSql('m')}, m.body FROM messages m;
    CREATE TRIGGER message_text_added AFTER INSERT ON messages BEGIN
      INSERT INTO message_text (rowid, text) VALUES (${messageRowSql('new')}, new.body);
    END;
    CREATE TRIGGER message_text_changed AFTER UPDATE OF body, thread_id ON messages
    WHEN old.body IS NOT new.body OR old.thread_id IS NOT new.thread_id
    BEGIN
      DELETE FROM message_text WHERE rowid = ${messageRowSql('old')};
      INSERT INTO message_text (rowid, text) VALUES (${messageRowSql('new')}, new.body);
    END;
    CREATE TRIGGER message_text_removed AFTER DELETE ON messages BEGIN
      DELETE FROM message_text WHERE rowid = ${messageRowSql('old')};
    END;
    -- search_index keeps the reviews' texts only (rebuilt: deleting 50,000 rows one by one would take longer).
    CREATE VIRTUAL TABLE search_index_reviews USING fts5 (
      text, source UNINDEXED, ref UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
    );
    INSERT INTO search_index_reviews (text, source, ref) SELECT text, source, ref FROM search_index WHERE source = 'review';
    DROP TABLE search_index;
    ALTER TABLE search_index_reviews RENAME TO search_index;

    CREATE VIRTUAL TABLE thread_facts USING fts5 (text, tokenize = 'trigram remove_diacritics 1');
    CREATE VIRTUAL TABLE review_facts USING fts5 (text, tokenize = 'trigram remove_diacritics 1');
    INSERT INTO thread_facts (rowid, text) SELECT t.id, ${threadFactsSql('t')} FROM threads t;
    INSERT INTO review_facts (rowid, text) SELECT r.id, ${reviewFactsSql('r')} FROM reviews r;

    CREATE TRIGGER thread_facts_added AFTER INSERT ON threads BEGIN
      INSERT INTO thread_facts (rowid, text) VALUES (new.id, ${threadFactsSql('new')});
    END;
    -- Only when a fact changed: a message's upsert of its thread writes the same values most of the time.
    CREATE TRIGGER thread_facts_changed AFTER UPDATE OF guest, booking_id, booking, hotel_id ON threads
    WHEN old.guest IS NOT new.guest OR old.booking_id IS NOT new.booking_id OR old.booking IS NOT new.booking
      OR old.hotel_id IS NOT new.hotel_id
    BEGIN
      DELETE FROM thread_facts WHERE rowid = old.id;
      INSERT INTO thread_facts (rowid, text) VALUES (new.id, ${threadFactsSql('new')});
    END;
    CREATE TRIGGER thread_facts_removed AFTER DELETE ON threads BEGIN
      DELETE FROM thread_facts WHERE rowid = old.id;
    END;

    CREATE TRIGGER review_facts_added AFTER INSERT ON reviews BEGIN
      INSERT INTO review_facts (rowid, text) VALUES (new.id, ${reviewFactsSql('new')});
    END;
    CREATE TRIGGER review_facts_changed AFTER UPDATE OF detail, provider_review_id, hotel_id ON reviews
    WHEN old.detail IS NOT new.detail OR old.provider_review_id IS NOT new.provider_review_id
      OR old.hotel_id IS NOT new.hotel_id
    BEGIN
      DELETE FROM review_facts WHERE rowid = old.id;
      INSERT INTO review_facts (rowid, text) VALUES (new.id, ${reviewFactsSql('new')});
    END;
    CREATE TRIGGER review_facts_removed AFTER DELETE ON reviews BEGIN
      DELETE FROM review_facts WHERE rowid = old.id;
    END;

    -- A property named, renamed or set up no more under Rates: its conversations and reviews are found by the new
    -- name (or no longer by the old one).
    CREATE TRIGGER facts_property_added AFTER INSERT ON rate_setups WHEN ${nameOf('new')} IS NOT NULL BEGIN
      ${refreshProperty('new.hotel_id')}
    END;
    CREATE TRIGGER facts_property_renamed AFTER UPDATE OF setup ON rate_setups
    WHEN old.hotel_id IS new.hotel_id AND ${nameOf('old')} IS NOT ${nameOf('new')}
    BEGIN
      ${refreshProperty('new.hotel_id')}
    END;
    CREATE TRIGGER facts_property_moved AFTER UPDATE OF hotel_id ON rate_setups WHEN old.hotel_id IS NOT new.hotel_id
    BEGIN
      ${refreshProperty('old.hotel_id')}
      ${refreshProperty('new.hotel_id')}
    END;
    CREATE TRIGGER facts_property_removed AFTER DELETE ON rate_setups WHEN ${nameOf('old')} IS NOT NULL BEGIN
      ${refreshProperty('old.hotel_id')}
    END;
  `,
};

/**
 * Issue 15, pushes acknowledged in groups: a message's text is indexed after its push is acknowledged, in batches
 * (messageIndex.ts), no longer in the push's own transaction, where it cost about a quarter of filing it. A new
 * message waits in `message_text_pending` (in the same transaction as the message: nothing stored is ever left
 * out) until the batch that indexes it; a search indexes what waits before it looks.
 */
export const MESSAGE_TEXT_LATER_MIGRATION: Migration = {
  version: 15,
  name: 'inbox: message texts indexed in batches after their pushes were acknowledged',
  sql: `
    CREATE TABLE message_text_pending (id INTEGER PRIMARY KEY);
    DROP TRIGGER message_text_added;
    CREATE TRIGGER message_text_added AFTER INSERT ON messages BEGIN
      INSERT INTO message_text_pending (id) VALUES (new.id);
    END;
    -- A message still waiting is indexed with its text as it is then: only an indexed one is written again.
    DROP TRIGGER message_text_changed;
    CREATE TRIGGER message_text_changed AFTER UPDATE OF body, thread_id ON messages
    WHEN (old.body IS NOT new.body OR old.thread_id IS NOT new.thread_id)
      AND NOT EXISTS (SELECT 1 FROM message_text_pending WHERE id = old.id)
    BEGIN
      DELETE FROM message_text WHERE rowid = ${messageRowSql('old')};
      INSERT INTO message_text (rowid, text) VALUES (${messageRowSql('new')}, new.body);
    END;
    -- Removing a row the index never had changes nothing in it.
    DROP TRIGGER message_text_removed;
    CREATE TRIGGER message_text_removed AFTER DELETE ON messages BEGIN
      DELETE FROM message_text WHERE rowid = ${messageRowSql('old')};
      DELETE FROM message_text_pending WHERE id = old.id;
    END;
  `,
};
