import type { DataFileStatus } from '../../shared/dataFile';
import type { Settings } from '../config/settings';
import type { Database } from './database';
import { AppFailure, errorText } from '../../shared/result';
import {
  backupsDir,
  cancelRestore,
  completeRestore,
  listBackups,
  pendingRestore,
  requestRestore,
  restoreUnfinished,
  takeBackup,
  type BackupInfo,
} from './backup';
import { DATA_FILE_COMPONENT } from './health';
import { writeProbe, type DataFileFault } from './faults';
import { createUptimeLog } from './uptime';

/** A backup every few hours while the app runs (and one at each start after a sound check). */
export const BACKUP_EVERY_MS = 4 * 60 * 60 * 1000;
/**
 * How often the running app checks the file (`PRAGMA quick_check` on a worker: the core goes on meanwhile), so that
 * damage under a running app is found the same day rather than at the next start or backup. A store error has it
 * checked at once too (database.ts).
 */
export const CHECK_EVERY_MS = 30 * 60 * 1000;
/** How long after the start its backup is taken: once the listener and the web host are up. */
export const FIRST_BACKUP_AFTER_MS = 1000;
const LAST_RESTORE_KEY = 'store.lastRestore';
const RESTORE_PROBLEM_KEY = 'store.restoreProblem';
const SHOW_RESTORE_FOR_MS = 7 * 24 * 60 * 60 * 1000;

type LastRestore = NonNullable<DataFileStatus['lastRestore']>;
type RestoreProblem = NonNullable<DataFileStatus['restoreProblem']>;

/**
 * The data file behind the listener: its health (damaged, cannot write), the rolling backups, and a restore the
 * owner chose. A damaged file is never backed up (the good backups stay), and deliveries are refused until a backup
 * is restored; the restore happens at the next start, when deliveries received after the backup are read back from
 * the damaged file and filed again: here, as the service is built (before the listener or anything else runs), all
 * in one transaction, and only then is restore.json removed (a start that dies before carries on at the next).
 */
/**
 * Files again one delivery read back from a damaged file, inside the restore's transaction; answers whether it was
 * new (false: already in the file). The intake supplies it (its filers).
 */
export type Refiler = (
  db: Database['db'],
  body: string | Uint8Array,
  receivedAt: number,
  source: 'demo' | null,
) => boolean;

export function createDataFileService(deps: {
  database: Database;
  /** How deliveries read back from a damaged file are filed again (the intake's filing). */
  refile: Refiler;
  settings: Settings;
  now: () => number;
  everyMs?: number;
  /** How long after `start` its backup is taken (default FIRST_BACKUP_AFTER_MS). */
  firstBackupAfterMs?: number;
  /** How often the file is checked while the app runs (default CHECK_EVERY_MS). */
  checkEveryMs?: number;
}) {
  const { database, settings, now } = deps;
  const onDisk = database.path !== ':memory:';
  let timer: NodeJS.Timeout | null = null;
  let checkTimer: NodeJS.Timeout | null = null;
  let started = false;
  /** The backup being taken: one at a time (a second ask while it runs gets the same one). */
  let underWay: Promise<BackupInfo | null> | null = null;
  const taken = new Set<() => void>();

  /**
   * Checks the file, then backs it up; a failed check marks the store damaged instead. Resolves once the backup is
   * whole and listed (null when none was taken); the core goes on answering meanwhile.
   */
  function backupNow(checked = false): Promise<BackupInfo | null> {
    underWay ??= checkThenBackUp(checked)
      .catch((error: unknown) => {
        console.error(`the data file could not be backed up: ${errorText(error)}`);
        return null;
      })
      .finally(() => (underWay = null));
    return underWay;
  }

  async function checkThenBackUp(checked: boolean): Promise<BackupInfo | null> {
    // The start's check (on a worker while the core starts) has said whether the file is sound.
    await database.checked;
    if (!onDisk || database.health.refusing()) return null;
    // Later backups check the file first (on a worker too): a damaged file is never backed up over good backups.
    if (!checked && !(await database.recheck())) return null;
    const info = await takeBackup(database.db, database.path, now());
    taken.forEach((listener) => listener());
    return info;
  }

  /**
   * After a restore: the deliveries the damaged file still held are filed again, all in one transaction with the
   * period's downtime, then what it did is recorded and restore.json removed. A delivery already in the file (filed by
   * a start that died before removing the marker) is not filed twice. When filing fails (a store fault), nothing is
   * half-done: the marker stays, the screen says so, and the next start files them.
   */
  function finishRestore(): void {
    const refused = database.restoreRefused;
    if (refused) {
      settings.set(RESTORE_PROBLEM_KEY, { at: now(), ...refused } satisfies RestoreProblem);
    }
    const restored = database.restored;
    if (!restored) return;
    const { db } = database;
    let refiled: number;
    try {
      refiled = database.transaction(() => {
        let count = 0;
        const present = db.prepare('SELECT 1 AS x FROM push_log WHERE received_at = ? AND body = ? LIMIT 1');
        for (const delivery of restored.salvaged ?? []) {
          if (present.get(delivery.receivedAt, delivery.body)) count += 1;
          else if (deps.refile(db, delivery.body, delivery.receivedAt, delivery.source)) count += 1;
        }
        const recorded = db
          .prepare("SELECT 1 AS x FROM uptime_log WHERE component = ? AND state = 'up' AND at = ?")
          .get(DATA_FILE_COMPONENT, restored.restoredAt);
        if (restored.damagedSince !== null && !recorded) {
          const insert = db.prepare('INSERT INTO uptime_log (component, state, at, detail) VALUES (?, ?, ?, ?)');
          insert.run(DATA_FILE_COMPONENT, 'down', restored.damagedSince, 'the data file was damaged');
          insert.run(DATA_FILE_COMPONENT, 'up', restored.restoredAt, String(restored.restoredAt));
        }
        return count;
      });
    } catch (error) {
      database.health.writeFailed(error);
      console.error(`the deliveries read back from the damaged file could not be filed: ${errorText(error)}`);
      settings.set(RESTORE_PROBLEM_KEY, {
        at: now(),
        kind: 'refile-failed',
        takenAt: restored.backup.takenAt,
        detail: errorText(error),
        pending: true,
      } satisfies RestoreProblem);
      return;
    }
    const note: LastRestore = {
      takenAt: restored.backup.takenAt,
      restoredAt: restored.restoredAt,
      refiled,
      unreadable: restored.salvageError,
      keptAs: restored.keptAs,
      automatic: restored.automatic,
    };
    settings.set(LAST_RESTORE_KEY, note);
    settings.delete(RESTORE_PROBLEM_KEY);
    completeRestore(database.path);
  }

  if (onDisk) finishRestore();

  function deliveriesAfter(takenAt: number): number | null {
    try {
      return (
        database.db.prepare('SELECT count(*) AS n FROM push_log WHERE received_at >= ?').get(takenAt) as { n: number }
      ).n;
    } catch {
      return null;
    }
  }

  /**
   * The scheduled check: once the start's check has answered, and only of a file not yet known to be damaged. Damage
   * found is marked as the start's check marks it (the listener answers 503, the screen says so).
   */
  async function scheduledCheck(): Promise<void> {
    await database.checked;
    if (database.health.refusing()) return;
    await database.recheck();
  }

  /** The start's backup, when it is still to be taken. */
  let firstBackup: NodeJS.Timeout | null = null;
  function takeFirstBackup(): Promise<unknown> {
    if (!firstBackup) return underWay ?? Promise.resolve();
    clearTimeout(firstBackup);
    firstBackup = null;
    return backupNow(true);
  }

  return {
    /**
     * Once per run: backs up a sound file (with what a restore filed again), and schedules the next backups. The
     * start's backup (a copy of the whole file, in steps: longer as the inbox grows) is begun just after the start,
     * once the listener and the window are up, or sooner when the backups are asked for or the store stops; it waits
     * for the file's check it relies on (`quick_check`, begun on a worker when the database was opened; no delivery is
     * acknowledged before it either).
     */
    start(): void {
      if (!started) {
        started = true;
        firstBackup = setTimeout(() => void takeFirstBackup(), deps.firstBackupAfterMs ?? FIRST_BACKUP_AFTER_MS);
        firstBackup.unref();
      }
      if (onDisk && !timer) {
        timer = setInterval(() => void backupNow(), deps.everyMs ?? BACKUP_EVERY_MS);
        timer.unref();
      }
      if (onDisk && !checkTimer) {
        checkTimer = setInterval(() => void scheduledCheck(), deps.checkEveryMs ?? CHECK_EVERY_MS);
        checkTimer.unref();
      }
    },
    /** Takes the start's backup if it is still to be taken, and waits for the one under way (the file closes next). */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      if (checkTimer) clearInterval(checkTimer);
      checkTimer = null;
      // A backup under way is finished, and the start's backup taken if it still was to be.
      await underWay;
      await takeFirstBackup();
    },
    /** Calls `listener` each time a backup is whole and listed; returns the function that stops. */
    onBackup(listener: () => void): () => void {
      taken.add(listener);
      return () => taken.delete(listener);
    },
    backupNow,
    /** Null when the file can be written; else why not (a read-only file or folder, a full disk). */
    writable(): DataFileFault | null {
      return writeProbe(database.db);
    },
    status(): DataFileStatus {
      // Asked for before its time: the start's backup is begun now, and listed once whole (see onBackup).
      void takeFirstBackup();
      const problem = database.health.problem();
      const damaged = problem?.kind === 'damaged';
      const last = settings.get<LastRestore>(LAST_RESTORE_KEY) ?? null;
      const trouble = settings.get<RestoreProblem>(RESTORE_PROBLEM_KEY) ?? null;
      return {
        problem,
        backups: onDisk
          ? listBackups(database.path).map((b) => (damaged ? { ...b, deliveriesAfter: deliveriesAfter(b.takenAt) } : b))
          : [],
        restorePending: onDisk ? pendingRestore(database.path) : null,
        lastRestore: last && now() - last.restoredAt < SHOW_RESTORE_FOR_MS ? last : null,
        restoreProblem: trouble && now() - trouble.at < SHOW_RESTORE_FOR_MS ? trouble : null,
        downtime: createUptimeLog(database, DATA_FILE_COMPONENT, now)
          .downSpans()
          .map(({ from, to }) => ({ from, to })),
      };
    },
    /** The owner chose a backup: Innkeeper swaps it in when it next starts. */
    restore(file: string): void {
      if (restoreUnfinished(database.path)) {
        throw new AppFailure({
          code: 'validation',
          message:
            'The last restore is not finished: the messages read back from the damaged file are filed when Innkeeper next starts. Start it again, then choose a backup if you still need one.',
          field: 'file',
          retryable: false,
        });
      }
      const problem = database.health.problem();
      requestRestore(database.path, file, now(), problem?.kind === 'damaged' ? problem.since : null);
      settings.delete(RESTORE_PROBLEM_KEY);
    },
    cancelRestore(): void {
      cancelRestore(database.path);
      settings.delete(RESTORE_PROBLEM_KEY);
    },
    backupsFolder: () => backupsDir(database.path),
  };
}
export type DataFileService = ReturnType<typeof createDataFileService>;
