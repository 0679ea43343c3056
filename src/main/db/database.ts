import { DatabaseSync } from 'node:sqlite';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorText } from '../../shared/result';
import {
  applyPendingRestore,
  listBackups,
  requestRestore,
  type RestoreOutcome,
  type RestoreRefusal,
  type RestoreStart,
} from './backup';
import { markInUse } from './folderLock';
import type { Migration } from './migrations';
import { createDataFileHealth, type DataFileHealth } from './health';
import { checkApart, type CheckApart } from './checkApart';
import { quickCheck, dataFileFault } from './faults';

/** The app's SQLite database (node:sqlite), migrated and tuned. */
export interface Database {
  readonly db: DatabaseSync;
  readonly path: string;
  /** Schema version after migrations. */
  version(): number;
  /**
   * Runs `fn` in one IMMEDIATE transaction; rolls back when it throws, and throws what `fn` threw. Called inside
   * another transaction (a feature queuing a reply with its own bookkeeping), it runs in a savepoint of that one:
   * undone alone when it throws, committed with the caller's.
   */
  transaction<T>(fn: () => T): T;
  /** Whether the file passed its integrity check, and whether writes currently fail. */
  readonly health: DataFileHealth;
  /**
   * Settles once the file's integrity check has run and `health` says what it found. At once unless opened with
   * `checkApart`: then the check runs on a worker while the start goes on, and what must not happen in a damaged
   * file (acknowledging a delivery, a backup over the good ones) waits for it.
   */
  readonly checked: Promise<void>;
  /**
   * Checks the file again, on a worker while the core goes on (before a later backup, on the running app's schedule):
   * true when it is sound; false when the check marked it damaged, or the file closed meanwhile. A check already
   * under way is the one answered.
   */
  recheck(): Promise<boolean>;
  /** Set when this start swapped in a backup (or carries on with one swapped in by a start that died). */
  readonly restored: RestoreOutcome | null;
  /** Set when the backup chosen for this start was not swapped in, and why. */
  readonly restoreRefused: RestoreRefusal | null;
  close(): void;
}

const OWNER_ONLY = 0o600;
/**
 * After a store error (a read or write SQLite failed) the file is checked again at once; further errors within this
 * time are followed by one more check at its end (a disk failing for minutes is not checked hundreds of times).
 */
export const RECHECK_AFTER_ERROR_GAP_MS = 60_000;

/** The database file and its -wal/-shm are the owner's only (they hold guests' messages); a link is not followed. */
export function makeDatabaseFilesOwnerOnly(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      if (lstatSync(path + suffix).isFile()) chmodSync(path + suffix, OWNER_ONLY);
    } catch {
      // Missing, or a file we cannot chmod (not ours, a read-only medium): left as it is; opening it tells the rest.
    }
  }
}

/** Runs `fn` in one IMMEDIATE transaction on `db`; rolls back when it throws, and throws what `fn` threw. */
export function immediateTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    // SQLite rolls some failures back by itself (SQLITE_FULL, IOERR, …): a second ROLLBACK would throw "cannot
    // rollback - no transaction is active" and hide the real error. Roll back only what is still open, and
    // always throw the original error.
    if (db.isTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch (rollbackError) {
        console.error(`rollback after "${errorText(error)}" failed too: ${errorText(rollbackError)}`);
      }
    }
    throw error;
  }
}

/**
 * Opens (creating when missing) the database file and applies pending migrations.
 *
 * WAL lets the UI read while the intake writes. `synchronous=FULL` makes every commit durable before it
 * returns: this connection is the one that acknowledges provider deliveries and queues outbox rows, and an
 * acknowledged delivery or a queued outbox row must survive a power cut.
 *
 * A file (not `:memory:`) is first swapped for the backup the owner chose to restore, if any, then checked with
 * `PRAGMA quick_check`: a damaged file is still opened (the owner can read what is readable), but `health` says so
 * and the listener refuses to acknowledge deliveries into it.
 */
export function openDatabase(
  path: string,
  /** The schema (`schemaOf(FEATURES)`, or `openAppDatabase` in schema.ts). */
  migrations: readonly Migration[],
  now: () => number = Date.now,
  /** Runs the integrity check on a worker thread (see `checked`); else here, before this returns. */
  options: { checkApart?: boolean } = {},
): Database {
  const onDisk = path !== ':memory:';
  if (onDisk) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Marked as in use before anything is swapped: a restore in another process waits while this one has it open.
  const release = onDisk ? markInUse(path) : () => {};
  try {
    return open(path, migrations, now, onDisk, release, options.checkApart === true);
  } catch (error) {
    release();
    throw error;
  }
}

function open(
  path: string,
  migrations: readonly Migration[],
  now: () => number,
  onDisk: boolean,
  release: () => void,
  apart: boolean,
): Database {
  let start: RestoreStart | null = onDisk ? applyPendingRestore(path, now()) : null;
  let db: DatabaseSync;
  try {
    db = connect(path);
  } catch (error) {
    const fault = dataFileFault(error);
    if (!onDisk || !fault?.damaged) throw error;
    // The file is too damaged to open at all: nothing in it can be shown or kept working, so the newest sound backup
    // is swapped in now (the damaged file is kept aside, and what it still holds is read back). Without one the
    // file is left untouched and the error says so.
    start = null;
    let refusals = '';
    for (const backup of listBackups(path)) {
      requestRestore(path, backup.file, now(), now(), true);
      start = applyPendingRestore(path, now());
      if (start && 'restored' in start) break;
      refusals += start ? `; ${backup.file}: ${start.refused.detail}` : '';
      if (start?.refused.pending) break;
      start = null;
    }
    if (!start || !('restored' in start)) {
      throw new Error(
        `The data file ${path} is damaged and cannot be opened (${fault.reason}), and there is no backup to restore${refusals}. Innkeeper did not change it; move it aside to start with an empty one.`,
        { cause: error },
      );
    }
    db = connect(path);
  }
  const restored = start && 'restored' in start ? start.restored : null;
  const restoreRefused = start && 'refused' in start ? start.refused : null;
  if (onDisk) makeDatabaseFilesOwnerOnly(path);

  const health = createDataFileHealth(db, now);
  let closed = false;
  const found = (problem: string | null, begunAt: number) => {
    if (closed) return;
    if (!problem) return health.checkedSound(begunAt);
    // The last time it was known sound: a check of this run, or the newest backup (each was checked first).
    const newestBackup = listBackups(path)[0]?.takenAt ?? null;
    const lastSound = health.lastSound();
    health.markDamaged(
      `the data file failed its integrity check (SQLite: ${problem})`,
      lastSound === null ? newestBackup : Math.max(lastSound, newestBackup ?? lastSound),
    );
  };
  /** The check under way on a worker (one at a time): stopped when the file closes. */
  let underWay: { check: CheckApart; result: Promise<boolean> } | null = null;
  const checkOnWorker = (): Promise<boolean> => {
    if (closed) return Promise.resolve(false);
    if (underWay) return underWay.result;
    const begunAt = now();
    const check = checkApart(path, db);
    const result = check.result.then((problem) => {
      underWay = null;
      found(problem, begunAt);
      return !problem && !closed;
    });
    underWay = { check, result };
    return result;
  };
  let checked = Promise.resolve();
  if (onDisk && apart) checked = checkOnWorker().then(() => {});
  else if (onDisk) found(quickCheck(db), now());

  let nested = 0;
  const transaction = <T>(fn: () => T): T => {
    if (!db.isTransaction) return immediateTransaction(db, fn);
    const savepoint = `nested_${++nested}`;
    db.exec(`SAVEPOINT ${savepoint}`);
    try {
      const result = fn();
      db.exec(`RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      // As at the top level: SQLite may have rolled the whole transaction back by itself (a full disk).
      if (db.isTransaction) {
        db.exec(`ROLLBACK TO ${savepoint}`);
        db.exec(`RELEASE ${savepoint}`);
      }
      throw error;
    } finally {
      nested -= 1;
    }
  };

  migrate(db, path, migrations, transaction);
  const version = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

  // A store error may be the first sign of damage that no check has seen yet: the file is checked again (once the
  // check under way, which may have read it before, is over), and not more than once per RECHECK_AFTER_ERROR_GAP_MS.
  let lastErrorCheck = -Infinity;
  let errorCheck: NodeJS.Timeout | null = null;
  const checkAfterError = () => {
    errorCheck = null;
    lastErrorCheck = Date.now();
    void (underWay?.result ?? Promise.resolve()).then(() => checkOnWorker());
  };
  const stopSuspecting = health.onSuspect(() => {
    if (!onDisk || closed || health.refusing() || errorCheck) return;
    const wait = lastErrorCheck + RECHECK_AFTER_ERROR_GAP_MS - Date.now();
    if (wait <= 0) return checkAfterError();
    errorCheck = setTimeout(checkAfterError, wait);
    errorCheck.unref();
  });

  return {
    db,
    path,
    version,
    transaction: <T>(fn: () => T): T => {
      try {
        return transaction(fn);
      } catch (error) {
        health.storeError(error);
        throw error;
      }
    },
    health,
    restored,
    restoreRefused,
    checked,
    recheck: checkOnWorker,
    close: () => {
      closed = true;
      stopSuspecting();
      if (errorCheck) clearTimeout(errorCheck);
      underWay?.check.stop();
      db.close();
      release();
    },
  };
}

/** A tuned connection; closed again when tuning fails (a damaged file), so that the file can be moved aside. */
function connect(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
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
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  // Every pending migration and the version bump commit together: a crash or a failing step leaves the schema the
  // file had or the newest one, never a part. One commit (one sync to disk) rather than one per migration: a
  // new data file's first start writes its whole schema at once.
  transaction(() => {
    for (const migration of pending) db.exec(migration.sql);
    db.exec(`PRAGMA user_version = ${pending.at(-1)!.version}`);
  });
}
