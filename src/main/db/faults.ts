import type { DatabaseSync } from 'node:sqlite';
import { errorText } from '../../shared/result';

/**
 * SQLite's primary result codes that mean the STORE failed (the disk, the file, a lock), never the data being
 * written: a delivery that hit one of these was not stored, and the provider must be asked to repost it.
 */
const STORE_CODES: Record<number, { name: string; reason: string; damaged?: true }> = {
  5: { name: 'SQLITE_BUSY', reason: 'the data file is locked by another program' },
  6: { name: 'SQLITE_LOCKED', reason: 'the data file is locked' },
  7: { name: 'SQLITE_NOMEM', reason: 'the computer ran out of memory' },
  8: { name: 'SQLITE_READONLY', reason: 'the data file is read-only' },
  10: { name: 'SQLITE_IOERR', reason: 'the disk could not be read or written' },
  11: { name: 'SQLITE_CORRUPT', reason: 'the data file is damaged', damaged: true },
  13: { name: 'SQLITE_FULL', reason: 'the disk is full' },
  14: { name: 'SQLITE_CANTOPEN', reason: 'the data file could not be opened' },
  15: { name: 'SQLITE_PROTOCOL', reason: 'the data file is locked' },
  26: { name: 'SQLITE_NOTADB', reason: 'the data file is damaged', damaged: true },
};

/** A failure of the store itself, in the owner's words, with SQLite's own text kept. */
export interface DataFileFault {
  /** SQLite's code name, e.g. SQLITE_FULL. */
  code: string;
  /** "the disk is full (SQLite: database or disk is full)". */
  reason: string;
  /** The file itself is damaged (not a passing condition). */
  damaged: boolean;
}

/** The store fault behind an error thrown by node:sqlite, or null when the error is not one (a payload problem). */
export function dataFileFault(error: unknown): DataFileFault | null {
  if (!error || typeof error !== 'object') return null;
  const { code, errcode, errstr, message } = error as {
    code?: unknown;
    errcode?: unknown;
    errstr?: unknown;
    message?: unknown;
  };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return null;
  const known = STORE_CODES[errcode & 0xff];
  if (!known) return null;
  const sqlite = typeof message === 'string' && message ? message : typeof errstr === 'string' ? errstr : known.name;
  return { code: known.name, reason: `${known.reason} (SQLite: ${sqlite})`, damaged: known.damaged === true };
}

/**
 * `PRAGMA quick_check` on an open connection: null when the file is sound, else what SQLite found (the first few
 * problems). A check that cannot even run (the file is too damaged to read) counts as a failed check.
 */
export function quickCheck(db: DatabaseSync): string | null {
  try {
    const rows = db.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    return problems.length ? problems.join('; ') : null;
  } catch (error) {
    return errorText(error);
  }
}

/**
 * Whether this connection can write to the file: a header write inside a transaction that is rolled back. A
 * read-only file (or folder) or a lock fails here, before anything relies on writing. A full disk does NOT: nothing
 * rolled back reaches the disk; the first delivery that cannot be stored finds it (answered 503, "cannot store since").
 */
export function writeProbe(db: DatabaseSync): DataFileFault | null {
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const { user_version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
      db.exec(`PRAGMA user_version = ${user_version}`);
      db.exec('CREATE TABLE IF NOT EXISTS innkeeper_write_probe (x INTEGER)');
      db.exec('DROP TABLE innkeeper_write_probe');
    } finally {
      if (db.isTransaction) db.exec('ROLLBACK');
    }
    return null;
  } catch (error) {
    return dataFileFault(error) ?? { code: 'unknown', reason: errorText(error), damaged: false };
  }
}
