import type { Migration } from '../db/migrations';

/** The notices' tables: Airbnb notices, each account's last answer, how checking each property goes. */
export const NOTICES_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'Airbnb notices',
    sql: `
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
];
