import { INBOX_TRIAGE_MIGRATION } from '../inbox/migration';
import { INBOX_SEARCH_MIGRATION, MESSAGE_TEXT_LATER_MIGRATION } from '../inbox/searchMigration';
import { PAYMENTS_MIGRATION } from '../payments/migration';
import { PHOTOS_MIGRATION } from '../photos/migration';

/**
 * One schema step. Versions are consecutive; a released migration is never edited, only followed. Newer features
 * keep their step beside their code (`<feature>/migration.ts`) and it is listed here in order.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'connection checks',
    // Every "Test connection" outcome, so the owner can see when the connection last worked.
    sql: `
      CREATE TABLE connection_check (
        id           INTEGER PRIMARY KEY,
        environment  TEXT    NOT NULL CHECK (environment IN ('demo', 'sandbox', 'production')),
        checked_at   INTEGER NOT NULL,
        ok           INTEGER NOT NULL CHECK (ok IN (0, 1)),
        error_code   TEXT,
        error_field  TEXT,
        message      TEXT    NOT NULL
      );
      CREATE INDEX connection_check_by_env ON connection_check (environment, checked_at DESC);
    `,
  },
  {
    version: 2,
    name: 'inbox, push log, outbox',
    sql: `
      -- Every authenticated push exactly as received, before anything else happens to it: nothing authenticated is lost.
      CREATE TABLE push_log (
        id            INTEGER PRIMARY KEY,
        received_at   INTEGER NOT NULL,
        body          TEXT    NOT NULL,
        kind          TEXT    CHECK (kind IN ('message', 'review', 'legacy-review')),
        outcome       TEXT    NOT NULL CHECK (outcome IN ('stored', 'duplicate', 'quarantined', 'not-json')),
        detail        TEXT
      );
      CREATE INDEX push_log_by_time ON push_log (received_at);

      -- Pushes that authenticated and parsed as JSON but fit no kind: kept and shown to the owner.
      CREATE TABLE quarantine (
        id            INTEGER PRIMARY KEY,
        push_log_id   INTEGER NOT NULL REFERENCES push_log (id),
        reason        TEXT    NOT NULL,
        created_at    INTEGER NOT NULL,
        dismissed_at  INTEGER
      );

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

      -- Work for the provider that must survive a crash: queued in the same transaction as the local change.
      CREATE TABLE outbox (
        id               INTEGER PRIMARY KEY,
        entity_key       TEXT    NOT NULL,
        kind             TEXT    NOT NULL,
        payload          TEXT    NOT NULL,
        state            TEXT    NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'discarded')),
        attempts         INTEGER NOT NULL DEFAULT 0,
        next_attempt_at  INTEGER NOT NULL,
        last_error       TEXT,
        result           TEXT,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL
      );
      CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
      CREATE INDEX outbox_by_entity ON outbox (entity_key, id);

      CREATE TABLE drafts (
        thread_id   INTEGER PRIMARY KEY REFERENCES threads (id),
        body        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      CREATE TABLE saved_replies (
        id          INTEGER PRIMARY KEY,
        title       TEXT    NOT NULL,
        body        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      -- When the push listener and the tunnel went up and down, so gaps are visible (Su reposts only 3 times).
      CREATE TABLE uptime_log (
        id          INTEGER PRIMARY KEY,
        component   TEXT    NOT NULL,
        state       TEXT    NOT NULL CHECK (state IN ('up', 'down')),
        at          INTEGER NOT NULL,
        detail      TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'starter saved replies',
    // Two examples an owner can edit or delete; they show how {{variables}} work.
    sql: `
      INSERT INTO saved_replies (title, body, updated_at) VALUES
        ('Welcome', 'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at {{listing_name}} on {{check_in}}.', 0),
        ('Check-in details', 'Hi {{guest_first_name}}, check-in on {{check_in}} is from 15:00. We will send you the door code on the morning of your arrival.', 0);
    `,
  },
  {
    version: 4,
    name: 'rates: last pushed rules, drafts, push history',
    sql: `
      -- What Su holds, as far as Innkeeper pushed it and Su confirmed: property, target (inv:ROOM or rate:ROOM:RATE), day,
      -- and the day's full rule set (channel -> rule). Su offers no way to read rules back, so this is the record.
      CREATE TABLE rate_rules (
        hotel_id  TEXT NOT NULL,
        target    TEXT NOT NULL,
        day       TEXT NOT NULL,
        rules     TEXT NOT NULL,
        PRIMARY KEY (hotel_id, target, day)
      ) WITHOUT ROWID;

      -- One draft per property: the owner's edits, kept as they are made, sendable later.
      CREATE TABLE rate_drafts (
        hotel_id    TEXT PRIMARY KEY,
        name        TEXT NOT NULL DEFAULT '',
        edits       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      -- Every push: its edits, the request sent, the rule sets before it (for the diff and for revert).
      CREATE TABLE rate_pushes (
        id          INTEGER PRIMARY KEY,
        hotel_id    TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        edits       TEXT    NOT NULL,
        request     TEXT    NOT NULL,
        before      TEXT    NOT NULL,
        outbox_id   INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        applied_at  INTEGER,
        reverts     INTEGER REFERENCES rate_pushes (id)
      );
      CREATE INDEX rate_pushes_by_hotel ON rate_pushes (hotel_id, id DESC);
    `,
  },
  {
    version: 5,
    name: 'rates: rooms, rate plans and base figures per property, as the owner entered them',
    sql: `
      -- Su cannot list a property's rooms or rate plans: the owner enters them (ids as at Su, names, base figures).
      CREATE TABLE rate_setups (
        hotel_id    TEXT PRIMARY KEY,
        setup       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'rates: drafts count their revisions; a push names the revision it was made from',
    sql: `
      -- Which draft a push came from, by revision rather than by clock: Su's confirmation clears exactly that draft,
      -- and a draft edited after the push (or a clock that stepped back) cannot be mistaken for it.
      ALTER TABLE rate_drafts ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE rate_pushes ADD COLUMN draft_revision INTEGER;
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
  {
    version: 8,
    name: 'rates: the rooms and rate plans Su ever confirmed a push for',
    sql: `
      -- The first-push warning reads this instead of every push in the history.
      CREATE TABLE rate_pushed_targets (
        hotel_id  TEXT NOT NULL,
        target    TEXT NOT NULL,
        PRIMARY KEY (hotel_id, target)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO rate_pushed_targets (hotel_id, target)
        SELECT p.hotel_id,
               CASE json_extract(e.value, '$.target.level')
                 WHEN 'inventory' THEN 'inv:' || json_extract(e.value, '$.target.roomId')
                 ELSE 'rate:' || json_extract(e.value, '$.target.roomId') || ':' || json_extract(e.value, '$.target.rateId')
               END
        FROM rate_pushes p, json_each(p.edits) e
        WHERE p.applied_at IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'the provider each outbox item belongs to; pushes from the built-in demo provider marked as such',
    sql: `
      -- 'demo', 'sandbox' or 'production': an item goes only to that provider (NULL, older rows: the one in use).
      ALTER TABLE outbox ADD COLUMN provider TEXT;
      -- 'demo' for a push the built-in demo provider made (its own credentials); NULL for Su's.
      ALTER TABLE push_log ADD COLUMN source TEXT;
    `,
  },
  {
    version: 10,
    name: 'property: the record and facilities Su confirmed, drafts, pushes; Airbnb notices',
    sql: `
      -- Su cannot be asked for a property's record or facilities: what it last confirmed is kept here.
      -- scope: 'details', 'facilities:' (the property) or 'facilities:<room id>'.
      -- Everything here is per provider ('demo', 'sandbox', 'production'): each holds its own record.
      CREATE TABLE property_records (
        provider      TEXT    NOT NULL,
        hotel_id      TEXT    NOT NULL,
        scope         TEXT    NOT NULL,
        record        TEXT    NOT NULL,
        confirmed_at  INTEGER NOT NULL,
        PRIMARY KEY (provider, hotel_id, scope)
      ) WITHOUT ROWID;
      -- What the owner is typing, as typed (also when it is not valid yet).
      CREATE TABLE property_drafts (
        provider    TEXT    NOT NULL,
        hotel_id    TEXT    NOT NULL,
        scope       TEXT    NOT NULL,
        draft       TEXT    NOT NULL,
        revision    INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (provider, hotel_id, scope)
      ) WITHOUT ROWID;
      -- Every push of details or facilities: the exact request, the record it makes (after), Su's answer.
      CREATE TABLE property_pushes (
        id              INTEGER PRIMARY KEY,
        provider        TEXT    NOT NULL,
        hotel_id        TEXT    NOT NULL,
        scope           TEXT    NOT NULL,
        request         TEXT    NOT NULL,
        after           TEXT    NOT NULL,
        changes         TEXT    NOT NULL,
        outbox_id       INTEGER NOT NULL REFERENCES outbox (id),
        created_at      INTEGER NOT NULL,
        applied_at      INTEGER,
        answer          TEXT,
        reverts         INTEGER,
        draft_revision  INTEGER
      );
      CREATE INDEX property_pushes_by_hotel ON property_pushes (provider, hotel_id, id DESC);
      CREATE UNIQUE INDEX property_pushes_by_outbox ON property_pushes (outbox_id);
      -- The Booking.com ids the facility set needs: the property's, and each room's by the owner's room id.
      CREATE TABLE property_channel_ids (
        provider          TEXT NOT NULL,
        hotel_id          TEXT NOT NULL,
        channel_hotel_id  TEXT,
        rooms             TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (provider, hotel_id)
      );

      -- Airbnb notices, one row per notice of an account, however often Su lists it.
      CREATE TABLE notices (
        id               INTEGER PRIMARY KEY,
        provider         TEXT    NOT NULL,
        hotel_id         TEXT    NOT NULL,
        account_id       TEXT    NOT NULL,
        notification_id  TEXT    NOT NULL,
        type             TEXT    NOT NULL,
        title            TEXT    NOT NULL,
        subtitle         TEXT    NOT NULL,
        cta_url          TEXT    NOT NULL,
        first_seen_at    INTEGER NOT NULL,
        seen_at          INTEGER,
        UNIQUE (provider, hotel_id, account_id, notification_id)
      );
      CREATE INDEX notices_unseen ON notices (provider, seen_at) WHERE seen_at IS NULL;
      -- Each Airbnb account's last answer.
      CREATE TABLE notice_accounts (
        provider    TEXT    NOT NULL,
        hotel_id    TEXT    NOT NULL,
        account_id  TEXT    NOT NULL,
        ok          INTEGER NOT NULL CHECK (ok IN (0, 1)),
        message     TEXT,
        checked_at  INTEGER NOT NULL,
        PRIMARY KEY (provider, hotel_id, account_id)
      ) WITHOUT ROWID;
      -- How checking each property goes: the last success, the last try, the failure streak behind the backoff.
      CREATE TABLE notice_checks (
        provider       TEXT NOT NULL,
        hotel_id       TEXT NOT NULL,
        last_ok_at     INTEGER,
        last_tried_at  INTEGER,
        error          TEXT,
        failures       INTEGER NOT NULL DEFAULT 0,
        next_at        INTEGER,
        PRIMARY KEY (provider, hotel_id)
      );
    `,
  },
  PHOTOS_MIGRATION,
  PAYMENTS_MIGRATION,
  INBOX_TRIAGE_MIGRATION,
  INBOX_SEARCH_MIGRATION,
  MESSAGE_TEXT_LATER_MIGRATION,
];
