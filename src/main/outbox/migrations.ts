import type { Migration } from '../db/migrations';

/** The outbox's table: work for the provider that must survive a crash, queued with the change it belongs to. */
export const OUTBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: 'outbox',
    sql: `
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
    `,
  },
  {
    version: 9,
    name: 'the provider each outbox item belongs to',
    sql: `
      -- 'demo', 'sandbox' or 'production': an item goes only to that provider (NULL, older rows: the one in use).
      ALTER TABLE outbox ADD COLUMN provider TEXT;
    `,
  },
];
