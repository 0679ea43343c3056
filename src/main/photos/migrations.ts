import type { Migration } from '../db/migrations';

/** The photos feature's tables: the library, uploads to Su per provider, media addresses, what Su holds. */
export const PHOTOS_MIGRATION: Migration = {
  version: 11,
  name: 'photos: the library, uploads to Su per provider, media addresses, what Su holds',
  sql: `
    -- The owner's photos: files in the data folder (original, upload copy, thumbnail), one row each.
    CREATE TABLE photos (
      -- AUTOINCREMENT: a removed photo's id is never given to another (queued uploads name photos by id).
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      hotel_id      TEXT    NOT NULL,
      pms_image_id  TEXT    NOT NULL UNIQUE,
      caption       TEXT    NOT NULL,
      file_name     TEXT    NOT NULL,
      width         INTEGER NOT NULL,
      height        INTEGER NOT NULL,
      bytes         INTEGER NOT NULL,
      original      TEXT    NOT NULL,
      property      INTEGER NOT NULL DEFAULT 1,
      rooms         TEXT    NOT NULL DEFAULT '[]',
      added_at      INTEGER NOT NULL
    );
    CREATE INDEX photos_by_hotel ON photos (hotel_id, id);
    -- Each upload of a photo to a provider: the create call in the outbox, then Su's copy.
    CREATE TABLE photo_uploads (
      id          INTEGER PRIMARY KEY,
      photo_id    INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
      provider    TEXT    NOT NULL,
      outbox_id   INTEGER NOT NULL REFERENCES outbox (id),
      queued_at   INTEGER NOT NULL,
      su_url      TEXT,
      fetched_at  INTEGER,
      verified    TEXT,
      verify_until INTEGER,
      problem     TEXT
    );
    CREATE INDEX photo_uploads_by_photo ON photo_uploads (photo_id, provider, id DESC);
    -- Each association call: a photo to the property ('' ) or a room, per provider.
    CREATE TABLE photo_associations (
      id         INTEGER PRIMARY KEY,
      photo_id   INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
      provider   TEXT    NOT NULL,
      room_id    TEXT    NOT NULL,
      outbox_id  INTEGER NOT NULL REFERENCES outbox (id)
    );
    CREATE INDEX photo_associations_by_photo ON photo_associations (photo_id, provider, room_id, id DESC);
    -- The unguessable public addresses Su fetches upload copies from; revoked once done, or after a day.
    CREATE TABLE media_links (
      token        TEXT    PRIMARY KEY,
      photo_id     INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
      created_at   INTEGER NOT NULL,
      expires_at   INTEGER NOT NULL,
      revoked_at   INTEGER,
      fetched_at   INTEGER,
      fetches      INTEGER NOT NULL DEFAULT 0
    );
    -- What Su held at the last reconcile, per provider and property.
    CREATE TABLE photo_su_images (
      provider    TEXT    NOT NULL,
      hotel_id    TEXT    NOT NULL,
      images      TEXT    NOT NULL,
      checked_at  INTEGER NOT NULL,
      error       TEXT,
      PRIMARY KEY (provider, hotel_id)
    );
  `,
};

/**
 * Photos handed to the owner's mailbox for Su to fetch (no tunnel needed): the name a link has there, and when it
 * was deleted there (once Su's copy answers, the photo is settled, or its day is over).
 */
export const PHOTOS_MAILBOX_MIGRATION: Migration = {
  version: 18,
  name: 'photos: media addresses served by the owner’s mailbox',
  sql: `
    ALTER TABLE media_links ADD COLUMN mailbox_name TEXT;
    ALTER TABLE media_links ADD COLUMN mailbox_cleared_at INTEGER;
  `,
};

export const PHOTOS_MIGRATIONS: readonly Migration[] = [PHOTOS_MIGRATION, PHOTOS_MAILBOX_MIGRATION];
