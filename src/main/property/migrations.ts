import type { Migration } from '../db/migrations';

/** The property's tables: the record and facilities Su confirmed, drafts, pushes, the Booking.com ids (per provider). */
export const PROPERTY_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'property: the record and facilities Su confirmed, drafts, pushes',
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
    `,
  },
];
