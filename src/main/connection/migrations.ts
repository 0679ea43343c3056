import type { Migration } from '../db/migrations';

/** The connection's tables: every Test connection outcome. */
export const CONNECTION_MIGRATIONS: readonly Migration[] = [
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
];
