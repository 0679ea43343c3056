import type { Migration } from '../db/migrations';

/**
 * The intake's tables: every delivery as received (the push log), those kept aside (quarantine), and when the
 * listener, its tunnel and the data file were up and down (the uptime log).
 */
export const INTAKE_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: 'push log, quarantine, uptime log',
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
    version: 9,
    name: 'deliveries from the built-in demo provider marked as such',
    sql: `
      -- 'demo' for a push the built-in demo provider made (its own credentials); NULL for Su's.
      ALTER TABLE push_log ADD COLUMN source TEXT;
    `,
  },
];
