import type { DatabaseSync } from 'node:sqlite';
import type { DataFileProblem } from '../../shared/dataFile';
import { errorText } from '../../shared/result';
import { dataFileFault, type DataFileFault } from './faults';

/** The component name of the store's periods in the uptime log (shown with the listener's downtime). */
export const DATA_FILE_COMPONENT = 'store';

/**
 * The store's health while the app runs. A damaged file stays damaged until a backup is restored; a write failure
 * lasts until the next write succeeds, and the period is then recorded in the uptime log (it cannot be written while
 * the failure lasts: the disk is full, the file read-only). Any other store error (a read or write SQLite failed:
 * the disk, a lock, memory) may be the first sign of damage: whoever checks the file is told (`onSuspect`).
 */
export function createDataFileHealth(db: DatabaseSync, now: () => number = Date.now) {
  let damaged: DataFileProblem | null = null;
  let failing: DataFileProblem | null = null;
  /** When a check last found the file sound while the app runs (null: not yet in this run). */
  let lastSound: number | null = null;
  const listeners = new Set<() => void>();
  const suspects = new Set<() => void>();
  const told = new WeakSet<object>();
  const changed = () => {
    for (const listener of listeners) listener();
  };

  return {
    /** The problem to show (damage wins over a passing write failure), or null. */
    problem(): DataFileProblem | null {
      return damaged ?? failing;
    },
    /** True while deliveries must not be acknowledged: the file is damaged (a repost would land in it again). */
    refusing(): boolean {
      return damaged !== null;
    },
    /** The file is damaged; `lastGoodCheck` defaults to the last check of this run that found it sound. */
    markDamaged(reason: string, lastGoodCheck: number | null = lastSound, at = now()): void {
      if (damaged) return;
      damaged = { kind: 'damaged', since: at, reason, lastGoodCheck };
      changed();
    },
    /** A check begun at `at` found the file sound. */
    checkedSound(at = now()): void {
      lastSound = Math.max(lastSound ?? at, at);
    },
    /** When a check of this run last found the file sound, or null. */
    lastSound: (): number | null => lastSound,
    /**
     * SQLite failed a read or a write: returns the store fault it was, or null when it was not the store's. Damage
     * SQLite noticed (SQLITE_CORRUPT, "malformed") is marked at once; any other fault has the file checked again.
     */
    storeError(error: unknown, at = now()): DataFileFault | null {
      const fault = dataFileFault(error);
      if (!fault) return null;
      // The same error is told once (a transaction, then the listener, then the call that failed with it).
      if (told.has(error as object)) return fault;
      told.add(error as object);
      if (fault.damaged) this.markDamaged(fault.reason, lastSound, at);
      else for (const suspect of suspects) suspect();
      return fault;
    },
    /** A write failed: returns the store fault it was, or null when it was not the store's (a payload problem). */
    writeFailed(error: unknown, at = now()): DataFileFault | null {
      const fault = this.storeError(error, at);
      if (fault && !fault.damaged) this.cannotWrite(fault, at);
      return fault;
    },
    /** Writes fail for this reason (a write that failed, or a probe at start). */
    cannotWrite(fault: DataFileFault, at = now()): void {
      if (!failing) {
        failing = { kind: 'cannot-write', since: at, reason: fault.reason };
        changed();
      } else if (failing.reason !== fault.reason) {
        failing = { ...failing, reason: fault.reason };
        changed();
      }
    },
    /** A write succeeded: a failure period ends, and is recorded as downtime now that it can be written. */
    writeSucceeded(at = now()): void {
      if (!failing) return;
      const ended = failing;
      failing = null;
      try {
        const insert = db.prepare('INSERT INTO uptime_log (component, state, at, detail) VALUES (?, ?, ?, ?)');
        insert.run(DATA_FILE_COMPONENT, 'down', ended.since, `cannot store deliveries: ${ended.reason}`);
        insert.run(DATA_FILE_COMPONENT, 'up', at, String(at));
      } catch (error) {
        console.error(`the store's downtime could not be recorded: ${errorText(error)}`);
      }
      changed();
    },
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Calls `listener` after a store error that may be damage not yet found (the file is to be checked again). */
    onSuspect(listener: () => void): () => void {
      suspects.add(listener);
      return () => suspects.delete(listener);
    },
  };
}
export type DataFileHealth = ReturnType<typeof createDataFileHealth>;
