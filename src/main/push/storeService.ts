import type { StoreStatus } from '../../shared/push';
import type { SettingsStore } from '../config/settingsStore';
import type { Database } from '../db/database';
import {
  backupsDir,
  cancelRestore,
  listBackups,
  pendingRestore,
  requestRestore,
  takeBackup,
  type BackupInfo,
} from '../db/backup';
import { STORE_COMPONENT } from '../db/storeHealth';
import { quickCheck, writeProbe, type StoreFault } from '../db/storeFaults';
import { ingestPush } from './ingest';
import { createUptimeLog } from './uptime';

/** A backup every few hours while the app runs (and one at each start after a sound check). */
export const BACKUP_EVERY_MS = 4 * 60 * 60 * 1000;
const LAST_RESTORE_KEY = 'store.lastRestore';
const SHOW_RESTORE_FOR_MS = 7 * 24 * 60 * 60 * 1000;

type LastRestore = NonNullable<StoreStatus['lastRestore']>;

/**
 * The store behind the push listener: its health (damaged, cannot write), the rolling backups, and a restore the
 * owner chose. A damaged file is never backed up (the good backups stay), and pushes are refused until a backup
 * is restored; the restore happens at the next start, when pushes received after the backup are read back from
 * the damaged file and filed again.
 */
export function createStoreService(deps: {
  database: Database;
  settings: SettingsStore;
  now: () => number;
  everyMs?: number;
}) {
  const { database, settings, now } = deps;
  const onDisk = database.path !== ':memory:';
  let timer: NodeJS.Timeout | null = null;
  let started = false;

  /** Checks the file, then backs it up; a failed check marks the store damaged instead. */
  function backupNow(checked = false): BackupInfo | null {
    if (!onDisk || database.health.refusing()) return null;
    if (!checked) {
      const problem = quickCheck(database.db);
      if (problem) {
        database.health.markDamaged(
          `the data file failed its integrity check (SQLite: ${problem})`,
          listBackups(database.path)[0]?.takenAt ?? null,
        );
        return null;
      }
    }
    try {
      return takeBackup(database.db, database.path, now());
    } catch (error) {
      console.error(`the data file could not be backed up: ${String(error)}`);
      return null;
    }
  }

  /** After a restore: the pushes the damaged file still held are filed again (duplicates are recognised). */
  function finishRestore(): void {
    const restored = database.restored;
    if (!restored) return;
    let refiled = 0;
    for (const push of restored.salvaged ?? []) {
      try {
        const result = ingestPush(database, push.body, push.receivedAt, push.source);
        if (result.outcome !== 'duplicate') refiled += 1;
      } catch (error) {
        console.error(`a push read back from the damaged file could not be filed: ${String(error)}`);
      }
    }
    if (restored.damagedSince !== null) {
      const insert = database.db.prepare('INSERT INTO uptime_log (component, state, at, detail) VALUES (?, ?, ?, ?)');
      insert.run(STORE_COMPONENT, 'down', restored.damagedSince, 'the data file was damaged');
      insert.run(STORE_COMPONENT, 'up', restored.restoredAt, String(restored.restoredAt));
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
  }

  function pushesAfter(takenAt: number): number | null {
    try {
      return (
        database.db.prepare('SELECT count(*) AS n FROM push_log WHERE received_at >= ?').get(takenAt) as { n: number }
      ).n;
    } catch {
      return null;
    }
  }

  return {
    /** Once per run: files what a restore read back, backs up a sound file, and schedules the next backups. */
    start(): void {
      if (!started) {
        started = true;
        finishRestore();
        backupNow(true);
      }
      if (onDisk && !timer) {
        timer = setInterval(() => backupNow(), deps.everyMs ?? BACKUP_EVERY_MS);
        timer.unref();
      }
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    backupNow,
    /** Null when the file can be written; else why not (a read-only file or folder, a full disk). */
    writable(): StoreFault | null {
      return writeProbe(database.db);
    },
    status(): StoreStatus {
      const problem = database.health.problem();
      const damaged = problem?.kind === 'damaged';
      const last = settings.get<LastRestore>(LAST_RESTORE_KEY) ?? null;
      return {
        problem,
        backups: onDisk
          ? listBackups(database.path).map((b) => (damaged ? { ...b, pushesAfter: pushesAfter(b.takenAt) } : b))
          : [],
        restorePending: onDisk ? pendingRestore(database.path) : null,
        lastRestore: last && now() - last.restoredAt < SHOW_RESTORE_FOR_MS ? last : null,
        downtime: createUptimeLog(database, STORE_COMPONENT, now)
          .downSpans()
          .map(({ from, to }) => ({ from, to })),
      };
    },
    /** The owner chose a backup: Innkeeper swaps it in when it next starts. */
    restore(file: string): void {
      const problem = database.health.problem();
      requestRestore(database.path, file, now(), problem?.kind === 'damaged' ? problem.since : null);
    },
    cancelRestore(): void {
      cancelRestore(database.path);
    },
    backupsFolder: () => backupsDir(database.path),
  };
}
export type StoreService = ReturnType<typeof createStoreService>;
