import { backup, DatabaseSync } from 'node:sqlite';
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
import { z } from 'zod';
import { errorText } from '../../shared/result';
import { otherUsers } from './folderLock';
import { quickCheck } from './faults';

/** One rolling backup of the data file (a consistent copy made with SQLite's online backup after a sound check). */
export interface BackupInfo {
  file: string;
  takenAt: number;
}

/** A delivery read back from the damaged file, received after the backup was taken. */
export interface SalvagedDelivery {
  receivedAt: number;
  body: string | Uint8Array;
  source: 'demo' | null;
}

/** What the last start did when the owner had chosen a backup to restore. */
export interface RestoreOutcome {
  backup: BackupInfo;
  /** When the backup was swapped in (kept in restore.json: a start that carries on after a crash keeps it). */
  restoredAt: number;
  /** Where the damaged file was kept (never deleted). */
  keptAs: string;
  /** When the damage was found, when it was. */
  damagedSince: number | null;
  /** Restored without the owner's choice: the file could not be opened at all. */
  automatic: boolean;
  /** Deliveries received after the backup, read back from the damaged file; null when it could not be read. */
  salvaged: SalvagedDelivery[] | null;
  salvageError: string | null;
}

/** Why the chosen backup was not swapped in at this start. */
export interface RestoreRefusal {
  kind: 'backup-missing' | 'backup-damaged' | 'folder-in-use' | 'request-unreadable';
  /** The backup chosen (null when restore.json could not be read). */
  takenAt: number | null;
  detail: string;
  /** Still chosen: tried again at the next start ('folder-in-use'); otherwise the choice was dropped. */
  pending: boolean;
}

export type RestoreStart = { restored: RestoreOutcome } | { refused: RestoreRefusal };

export const BACKUPS_KEPT = 3;
const NAME = /^innkeeper-(\d{13})\.db$/;
/** A backup being written: renamed to its NAME once whole, so a backup listed (and offered) is always complete. */
const PARTIAL = '.partial';
/**
 * Pages copied per step of a backup. SQLite's backup copies the file in steps on Node's thread pool; between steps
 * the core answers calls and files deliveries (about 100 pages take a few ms). VACUUM INTO, used before, held the core
 * for the whole copy: ~100 ms for bench:inbox's 17 MiB inbox, longer as it grows.
 */
export const BACKUP_PAGES_PER_STEP = 100;

/**
 * How long a backup that met the core writing is tried again. SQLite's step answers "locked" while the same
 * connection is inside a write transaction; Node carries on past a locked step in the middle of the copy, but one at
 * its first step (nothing copied yet) rejects the whole backup with SQLite's "not an error" (errcode 0). The core's
 * transactions last milliseconds, so a fresh start a moment later copies the file.
 */
export const BACKUP_RETRY_MS = 2_000;
const BACKUP_RETRY_PAUSE_MS = 25;

/** The backup met a write of the same connection (see BACKUP_RETRY_MS): SQLITE_BUSY, SQLITE_LOCKED, or Node's 0. */
function metAWrite(error: unknown): boolean {
  const code = (error as { code?: unknown; errcode?: unknown } | null)?.errcode;
  return (error as { code?: unknown } | null)?.code === 'ERR_SQLITE_ERROR' && (code === 0 || code === 5 || code === 6);
}

/** SQLite's online backup of `db` into `partial`, started again while it meets the core writing. */
async function copyInSteps(db: DatabaseSync, partial: string): Promise<void> {
  const giveUpAt = Date.now() + BACKUP_RETRY_MS;
  for (;;) {
    try {
      await backup(db, partial, { rate: BACKUP_PAGES_PER_STEP });
      return;
    } catch (error) {
      if (!metAWrite(error) || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, BACKUP_RETRY_PAUSE_MS));
    }
  }
}

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
 * Copies the open database into `backups/innkeeper-<ms>.db` with SQLite's online backup (a consistent snapshot:
 * what the same connection writes meanwhile is carried into the copy), in steps that leave the core free between
 * them. The copy is owner-only from the moment it exists, and gets its name only once whole; the newest `keep` are
 * kept. The caller checks the file first (a damaged file is never backed up over good backups), and takes one
 * backup at a time.
 */
export async function takeBackup(
  db: DatabaseSync,
  dbPath: string,
  at: number,
  keep = BACKUPS_KEPT,
): Promise<BackupInfo> {
  const dir = backupsDir(dbPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // A copy a stopped run left half-written is of no use.
  for (const name of readdirSync(dir)) if (name.includes(PARTIAL)) rmSync(join(dir, name), { force: true });
  let takenAt = at;
  while (existsSync(join(dir, `innkeeper-${takenAt}.db`))) takenAt += 1;
  const file = `innkeeper-${takenAt}.db`;
  const path = join(dir, file);
  const partial = `${path}${PARTIAL}`;
  // SQLite writes into an empty file: create it owner-only first, so the copy is never readable by others.
  closeSync(openSync(partial, 'wx', OWNER_ONLY));
  try {
    await copyInSteps(db, partial);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  chmodSync(path, OWNER_ONLY);
  // The backup chosen for the next start is never rotated away, however many are taken before then.
  const chosen = readMarker(dbPath).marker?.file;
  for (const old of listBackups(dbPath)
    .filter((b) => b.file !== chosen)
    .slice(keep)) {
    rmSync(join(dir, old.file), { force: true });
  }
  return { file, takenAt };
}

const stamp = z.number().int().nonnegative().max(99_999_999_999_999);
/**
 * restore.json, every field checked: a marker that does not fit is not acted on. Paths are never read from it:
 * the damaged file goes to `damaged/innkeeper-<keptAt>.db`, built here.
 */
const markerSchema = z
  .object({
    file: z.string().regex(NAME),
    requestedAt: stamp,
    damagedSince: stamp.nullable(),
    automatic: z.boolean().optional(),
    /** Set once the damaged file is being moved aside (a restart in the middle carries on from there). */
    keptAt: stamp.optional(),
    /** Set once the backup is in place: a restart must not move the restored file aside; the deliveries read back from
     * the damaged file are filed again before the marker goes. */
    restoredAt: stamp.optional(),
  })
  .strict();
type RestoreMarker = z.infer<typeof markerSchema>;

const keptPath = (dbPath: string, keptAt: number) =>
  join(dirname(dbPath), 'damaged', `${basename(dbPath, '.db')}-${keptAt}.db`);

function readMarker(dbPath: string): { marker: RestoreMarker | null; unreadable: string | null } {
  const path = markerFile(dbPath);
  if (!existsSync(path)) return { marker: null, unreadable: null };
  try {
    const parsed = markerSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (parsed.success) return { marker: parsed.data, unreadable: null };
    const issue = parsed.error.issues[0]!;
    return { marker: null, unreadable: `${issue.path.join('.') || 'restore.json'}: ${issue.message}` };
  } catch (error) {
    return { marker: null, unreadable: errorText(error) };
  }
}

function writeMarker(dbPath: string, marker: RestoreMarker) {
  const path = markerFile(dbPath);
  writeFileSync(`${path}.tmp`, JSON.stringify(marker), { mode: OWNER_ONLY });
  renameSync(`${path}.tmp`, path);
}

/** The backup the owner chose to restore at the next start, if any (not one already swapped in). */
export function pendingRestore(dbPath: string): (BackupInfo & { requestedAt: number }) | null {
  const { marker } = readMarker(dbPath);
  if (!marker || marker.restoredAt !== undefined) return null;
  return { file: marker.file, takenAt: Number(NAME.exec(marker.file)![1]), requestedAt: marker.requestedAt };
}

/** A backup was swapped in, but the deliveries read back from the damaged file are not filed yet. */
export function restoreUnfinished(dbPath: string): boolean {
  return readMarker(dbPath).marker?.restoredAt !== undefined;
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
  if (restoreUnfinished(dbPath)) {
    throw new Error('The last restore is not finished yet (its messages are filed again at the next start).');
  }
  writeMarker(dbPath, { file, requestedAt: at, damagedSince, automatic });
  return backup;
}

/** The owner keeps the current file. A restore already swapped in is not undone (nor its filing dropped). */
export function cancelRestore(dbPath: string): void {
  if (!restoreUnfinished(dbPath)) rmSync(markerFile(dbPath), { force: true });
}

/** The restore is complete: the deliveries read back were filed (committed) and what it did was recorded. */
export function completeRestore(dbPath: string): void {
  rmSync(markerFile(dbPath), { force: true });
}

/**
 * Swaps the chosen backup in, before the database is opened. The damaged file (with its -wal) is moved to
 * `damaged/`, never deleted; the deliveries it received after the backup are read back so that they can be filed
 * again. restore.json stays until they are (`completeRestore`): a start that dies in between carries on at the next.
 *
 * Not swapped in, and said why: a request that cannot be read (left aside as restore.json.invalid), a backup that
 * is gone or fails its own check (the choice is dropped, the current file kept), or another process that has the
 * data file open (the choice stays for the next start).
 */
export function applyPendingRestore(
  dbPath: string,
  now: number,
  inUseBy: () => string | null = () => otherUsers(dbPath),
): RestoreStart | null {
  const { marker, unreadable } = readMarker(dbPath);
  if (unreadable !== null) {
    renameSync(markerFile(dbPath), `${markerFile(dbPath)}.invalid`);
    return { refused: { kind: 'request-unreadable', takenAt: null, detail: unreadable, pending: false } };
  }
  if (!marker) return null;
  const takenAt = Number(NAME.exec(marker.file)![1]);
  const refuse = (kind: RestoreRefusal['kind'], detail: string, pending = false) => {
    if (!pending) rmSync(markerFile(dbPath), { force: true });
    return { refused: { kind, takenAt, detail, pending } };
  };

  let restoredAt = marker.restoredAt;
  let keptAt = marker.keptAt;
  if (restoredAt === undefined) {
    const backupPath = join(backupsDir(dbPath), marker.file);
    if (!existsSync(backupPath)) return refuse('backup-missing', `${marker.file} is not in ${backupsDir(dbPath)}`);
    let problem: string | null;
    try {
      const check = new DatabaseSync(backupPath, { readOnly: true });
      problem = quickCheck(check);
      check.close();
    } catch (error) {
      problem = errorText(error);
    }
    if (problem) return refuse('backup-damaged', problem);
    const user = inUseBy();
    if (user) return refuse('folder-in-use', user, true);

    const asideDir = join(dirname(dbPath), 'damaged');
    mkdirSync(asideDir, { recursive: true, mode: 0o700 });
    if (keptAt === undefined) {
      keptAt = now;
      writeMarker(dbPath, { ...marker, keptAt });
    }
    const keptAs = keptPath(dbPath, keptAt);
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, keptAs + suffix);
      chmodIfThere(keptAs + suffix, OWNER_ONLY);
    }
    copyFileSync(backupPath, `${dbPath}.restoring`);
    chmodSync(`${dbPath}.restoring`, OWNER_ONLY);
    renameSync(`${dbPath}.restoring`, dbPath);
    restoredAt = now;
    writeMarker(dbPath, { ...marker, keptAt, restoredAt });
  }
  const keptAs = keptPath(dbPath, keptAt ?? restoredAt);

  let salvaged: SalvagedDelivery[] | null = null;
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
    salvageError = errorText(error);
  }
  return {
    restored: {
      backup: { file: marker.file, takenAt },
      restoredAt,
      keptAs,
      damagedSince: marker.damagedSince,
      automatic: marker.automatic === true,
      salvaged,
      salvageError,
    },
  };
}
