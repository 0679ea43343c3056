import type { DatabaseSync } from 'node:sqlite';
import type { DataFileProblem } from '../../shared/dataFile';
import { errorText } from '../../shared/result';
import { dataFileFault, type DataFileFault } from './faults';

/** The component name of the store's periods in the uptime log (shown with the listener's downtime). */
export const DATA_FILE_COMPONENT = 'store';

/**
 * The store's health while the app runs. A damaged file stays damaged until a backup is restored; a write failure
 * lasts until the next write succeeds, and the period is then recorded in the uptime log (it cannot be written while
 * the failure lasts: the disk is full, the file read-only).
 */
export function createDataFileHealth(db: DatabaseSync, now: () => number = Date.now) {
  let damaged: DataFileProblem | null = null;
  let failing: DataFileProblem | null = null;
  const listeners = new Set<() => void>();
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
    markDamaged(reason: string, lastGoodCheck: number | null = null, at = now()): void {
      if (damaged) return;
      damaged = { kind: 'damaged', since: at, reason, lastGoodCheck };
      changed();
    },
    /** A write failed: returns the store fault it was, or null when it was not the store's (a payload problem). */
    writeFailed(error: unknown, at = now()): DataFileFault | null {
      const fault = dataFileFault(error);
      if (!fault) return null;
      if (fault.damaged) {
        this.markDamaged(fault.reason, null, at);
        return fault;
      }
      this.cannotWrite(fault, at);
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
  };
}
export type DataFileHealth = ReturnType<typeof createDataFileHealth>;
