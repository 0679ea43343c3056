import type { Migration } from '../db/migrations';
import { BOOKING_FACTS_MIGRATION } from './bookingFactsMigration';
import { SEARCH_MERGE_MIGRATION, THREAD_SEARCH_MIGRATION } from './threadSearchMigration';
import { INBOX_SEARCH_MIGRATION, MESSAGE_TEXT_LATER_MIGRATION } from './searchMigration';

/** The inbox's tables: conversations, messages, reviews, replies, drafts, and their search indexes. */
/** The inbox's triage and per-property lists (issue 13). */
export const INBOX_TRIAGE_MIGRATION: Migration = {
  version: 13,
  name: 'inbox: conversations marked done, lists per property',
  sql: `
    -- The owner marked a conversation done up to this message (its id): it needs no reply until a later guest
    -- message arrives. NULL: never marked done.
    ALTER TABLE threads ADD COLUMN done_through INTEGER;
    -- The property filters of the conversation and review lists.
    CREATE INDEX threads_by_hotel ON threads (hotel_id, last_message_at DESC);
    CREATE INDEX reviews_by_hotel ON reviews (hotel_id, received_at DESC);
  `,
};

export const INBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: 'inbox',
    sql: `
      -- A conversation: channel 244 by threadid, 19 and 9 by bookingid.
      CREATE TABLE threads (
        id                  INTEGER PRIMARY KEY,
        channel             TEXT    NOT NULL,
        thread_key          TEXT    NOT NULL,
        hotel_id            TEXT,
        listing_id          TEXT,
        booking_id          TEXT,
        thread_ref          TEXT,
        guest_id            TEXT,
        booking_flag        TEXT,
        guest               TEXT,   -- JSON: first name, location, locale
        booking             TEXT,   -- JSON: dates, guests, nights, payout, confirmation code, listing name
        last_message_at     INTEGER,
        last_preview        TEXT,
        unread              INTEGER NOT NULL DEFAULT 0,
        needs_reply         INTEGER NOT NULL DEFAULT 0,
        updated_at          INTEGER NOT NULL,
        UNIQUE (channel, thread_key)
      );
      CREATE INDEX threads_by_recent ON threads (last_message_at DESC);

      CREATE TABLE messages (
        id                  INTEGER PRIMARY KEY,
        thread_id           INTEGER NOT NULL REFERENCES threads (id),
        channel             TEXT    NOT NULL,
        provider_message_id TEXT,
        author              TEXT    NOT NULL CHECK (author IN ('guest', 'host')),
        body                TEXT    NOT NULL,
        sent_at             INTEGER NOT NULL,
        attachments         TEXT,
        outbox_id           INTEGER,
        push_log_id         INTEGER REFERENCES push_log (id),
        UNIQUE (channel, provider_message_id)
      );
      CREATE INDEX messages_by_thread ON messages (thread_id, sent_at);

      CREATE TABLE reviews (
        id                  INTEGER PRIMARY KEY,
        kind                TEXT    NOT NULL CHECK (kind IN ('current', 'legacy')),
        channel             TEXT    NOT NULL,
        provider_review_id  TEXT    NOT NULL,
        hotel_id            TEXT,
        detail              TEXT    NOT NULL,  -- JSON in the owner's words (scores, texts, status, roles, dates)
        received_at         INTEGER NOT NULL,
        unread              INTEGER NOT NULL DEFAULT 1,
        push_log_id         INTEGER REFERENCES push_log (id),
        UNIQUE (kind, channel, provider_review_id)
      );
      CREATE INDEX reviews_by_time ON reviews (received_at DESC);

      CREATE TABLE review_replies (
        id          INTEGER PRIMARY KEY,
        review_id   INTEGER NOT NULL REFERENCES reviews (id),
        body        TEXT    NOT NULL,
        outbox_id   INTEGER,
        created_at  INTEGER NOT NULL
      );

      -- Full-text search over every message and review.
      CREATE VIRTUAL TABLE search_index USING fts5 (
        text, source UNINDEXED, ref UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
      );

      CREATE TABLE drafts (
        thread_id   INTEGER PRIMARY KEY REFERENCES threads (id),
        body        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'inbox: a draft reply per review, as per thread',
    sql: `
      -- What the owner is typing under a review, kept as typed so a restart does not lose it.
      CREATE TABLE review_drafts (
        review_id   INTEGER PRIMARY KEY REFERENCES reviews (id),
        body        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  INBOX_TRIAGE_MIGRATION,
  INBOX_SEARCH_MIGRATION,
  MESSAGE_TEXT_LATER_MIGRATION,
  BOOKING_FACTS_MIGRATION,
  THREAD_SEARCH_MIGRATION,
  SEARCH_MERGE_MIGRATION,
];
