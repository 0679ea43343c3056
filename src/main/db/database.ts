import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';

/** The app's SQLite database (node:sqlite), migrated and tuned. */
export interface Database {
  readonly db: DatabaseSync;
  readonly path: string;
  /** Schema version after migrations. */
  version(): number;
  /** Runs `fn` in one IMMEDIATE transaction; rolls back when it throws. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/**
 * Opens (creating when missing) the database file and applies pending migrations.
 *
 * WAL lets the UI read while the push receiver writes. `synchronous=FULL` makes every commit durable before it
 * returns: this connection is the one that acknowledges provider pushes and queues outbox rows, and an
 * acknowledged push or a queued outbox row must survive a power cut.
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');

  const transaction = <T>(fn: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };

  migrate(db, path, migrations, transaction);
  const version = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  return { db, path, version, transaction, close: () => db.close() };
}

function migrate(
  db: DatabaseSync,
  path: string,
  migrations: readonly Migration[],
  transaction: <T>(fn: () => T) => T,
): void {
  const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `The data file ${path} was written by a newer Innkeeper (schema ${current}, this version knows ${latest}). Update Innkeeper.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // Each migration and its version bump commit together: a crash leaves the old or the new schema, never half.
    transaction(() => {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
}
