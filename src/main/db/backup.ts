import { DatabaseSync } from 'node:sqlite';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { quickCheck } from './storeFaults';

/** One rolling backup of the data file (a consistent copy made with VACUUM INTO after a sound check). */
export interface BackupInfo {
  file: string;
  takenAt: number;
}

/** A push read back from the damaged file, received after the backup was taken. */
export interface SalvagedPush {
  receivedAt: number;
  body: string | Uint8Array;
  source: 'demo' | null;
}

/** What the last start did when the owner had chosen a backup to restore. */
export interface RestoreOutcome {
  backup: BackupInfo;
  restoredAt: number;
  /** Where the damaged file was kept (never deleted). */
  keptAs: string;
  /** When the damage was found, when it was. */
  damagedSince: number | null;
  /** Restored without the owner's choice: the file could not be opened at all. */
  automatic: boolean;
  /** Pushes received after the backup, read back from the damaged file; null when it could not be read. */
  salvaged: SalvagedPush[] | null;
  salvageError: string | null;
}

export const BACKUPS_KEPT = 3;
const NAME = /^innkeeper-(\d{13})\.db$/;

export const backupsDir = (dbPath: string) => join(dirname(dbPath), 'backups');
const markerFile = (dbPath: string) => join(dirname(dbPath), 'restore.json');
const OWNER_ONLY = 0o600;

function chmodIfThere(path: string, mode: number) {
  if (existsSync(path)) chmodSync(path, mode);
}

/** The backups in the data folder, newest first. */
export function listBackups(dbPath: string): BackupInfo[] {
  const dir = backupsDir(dbPath);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const m = NAME.exec(name);
      return m ? [{ file: name, takenAt: Number(m[1]) }] : [];
    })
    .sort((a, b) => b.takenAt - a.takenAt);
}

/**
 * Copies the open database into `backups/innkeeper-<ms>.db` with VACUUM INTO (a consistent snapshot even while
 * pushes arrive), owner-only from the moment it exists, and keeps the newest `keep`. The caller checks the file
 * first: a damaged file is never backed up over good backups.
 */
export function takeBackup(db: DatabaseSync, dbPath: string, at: number, keep = BACKUPS_KEPT): BackupInfo {
  const dir = backupsDir(dbPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  let takenAt = at;
  while (existsSync(join(dir, `innkeeper-${takenAt}.db`))) takenAt += 1;
  const file = `innkeeper-${takenAt}.db`;
  const path = join(dir, file);
  // VACUUM INTO accepts an empty file: create it owner-only first, so the copy is never readable by others.
  closeSync(openSync(path, 'wx', OWNER_ONLY));
  try {
    db.prepare('VACUUM INTO ?').run(path);
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
  chmodSync(path, OWNER_ONLY);
  for (const old of listBackups(dbPath).slice(keep)) rmSync(join(dir, old.file), { force: true });
  return { file, takenAt };
}

interface RestoreMarker {
  file: string;
  requestedAt: number;
  damagedSince: number | null;
  automatic?: boolean;
  /** Set once the damaged file was moved aside (a restart in the middle carries on from there). */
  keptAs?: string;
  /** Set once the backup is in place: a restart in the middle must not move the restored file aside. */
  swapped?: boolean;
}

/** The backup the owner chose to restore at the next start, if any. */
export function pendingRestore(dbPath: string): (BackupInfo & { requestedAt: number }) | null {
  const marker = readMarker(dbPath);
  if (!marker) return null;
  const m = NAME.exec(marker.file);
  return m ? { file: marker.file, takenAt: Number(m[1]), requestedAt: marker.requestedAt } : null;
}

function readMarker(dbPath: string): RestoreMarker | null {
  const path = markerFile(dbPath);
  if (!existsSync(path)) return null;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as RestoreMarker;
    return typeof value.file === 'string' && NAME.test(value.file) ? value : null;
  } catch {
    return null;
  }
}

function writeMarker(dbPath: string, marker: RestoreMarker) {
  const path = markerFile(dbPath);
  writeFileSync(`${path}.tmp`, JSON.stringify(marker), { mode: OWNER_ONLY });
  renameSync(`${path}.tmp`, path);
}

/** The owner chose a backup: it is swapped in at the next start (after a check that it is sound). */
export function requestRestore(
  dbPath: string,
  file: string,
  at: number,
  damagedSince: number | null,
  automatic = false,
): BackupInfo {
  const backup = listBackups(dbPath).find((b) => b.file === file);
  if (!backup) throw new Error(`There is no backup named ${file}.`);
  writeMarker(dbPath, { file, requestedAt: at, damagedSince, automatic });
  return backup;
}

export function cancelRestore(dbPath: string): void {
  rmSync(markerFile(dbPath), { force: true });
}

/**
 * Swaps the chosen backup in, before the database is opened. The damaged file (with its -wal) is moved to
 * `damaged/`, never deleted; the pushes it received after the backup are read back so that they can be filed
 * again. A backup that fails its own check is not used (the marker stays off and the error says why).
 */
export function applyPendingRestore(dbPath: string, now: number): RestoreOutcome | null {
  const marker = readMarker(dbPath);
  if (!marker) return null;
  const backupPath = join(backupsDir(dbPath), marker.file);
  const takenAt = Number(NAME.exec(marker.file)![1]);
  if (!existsSync(backupPath)) {
    cancelRestore(dbPath);
    throw new Error(`The backup ${marker.file} chosen for restoring is no longer in ${backupsDir(dbPath)}.`);
  }
  const check = new DatabaseSync(backupPath, { readOnly: true });
  const problem = quickCheck(check);
  check.close();
  if (problem) {
    cancelRestore(dbPath);
    throw new Error(`The backup ${marker.file} is damaged too (${problem}); choose another one.`);
  }

  let keptAs = marker.keptAs;
  if (!keptAs) {
    const asideDir = join(dirname(dbPath), 'damaged');
    mkdirSync(asideDir, { recursive: true, mode: 0o700 });
    keptAs = join(asideDir, `${basename(dbPath, '.db')}-${now}.db`);
    writeMarker(dbPath, { ...marker, keptAs });
  }
  if (!marker.swapped) {
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, keptAs + suffix);
      chmodIfThere(keptAs + suffix, OWNER_ONLY);
    }
    copyFileSync(backupPath, `${dbPath}.restoring`);
    chmodSync(`${dbPath}.restoring`, OWNER_ONLY);
    renameSync(`${dbPath}.restoring`, dbPath);
    writeMarker(dbPath, { ...marker, keptAs, swapped: true });
  }

  let salvaged: SalvagedPush[] | null = null;
  let salvageError: string | null = null;
  try {
    const damaged = new DatabaseSync(keptAs, { readOnly: true });
    try {
      salvaged = (
        damaged
          .prepare('SELECT received_at, body, source FROM push_log WHERE received_at >= ? ORDER BY id')
          .all(takenAt) as { received_at: number; body: string | Uint8Array; source: 'demo' | null }[]
      ).map((r) => ({ receivedAt: r.received_at, body: r.body, source: r.source }));
    } finally {
      damaged.close();
    }
  } catch (error) {
    salvageError = error instanceof Error ? error.message : String(error);
  }
  cancelRestore(dbPath);
  return {
    backup: { file: marker.file, takenAt },
    restoredAt: now,
    keptAs,
    damagedSince: marker.damagedSince,
    automatic: marker.automatic === true,
    salvaged,
    salvageError,
  };
}
