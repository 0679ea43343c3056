import { z } from 'zod';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

// The data file (the SQLite database every message, review and change is kept in): its health, the rolling backups
// and a restore the owner chose. Deliveries are refused (Su reposts them) while it cannot store them.

/** Why deliveries cannot be stored right now (Su is answered "try again later" and reposts them). */
export interface DataFileProblem {
  /** 'damaged': the data file failed its integrity check; 'cannot-write': writes fail (disk full, read-only, I/O). */
  kind: 'damaged' | 'cannot-write';
  since: number;
  /** In the owner's words, with SQLite's own text. */
  reason: string;
  /** When the file was last found sound (a check while the app ran, or its newest backup), when known. */
  lastGoodCheck?: number | null;
}

/** A rolling backup of the data file (the newest few are kept in the data folder's backups folder). */
export interface DataFileBackup {
  file: string;
  takenAt: number;
  /** While the file is damaged: deliveries it received after this backup (filed again on restore), or null if
   * unreadable. */
  deliveriesAfter?: number | null;
}

export interface DataFileStatus {
  problem: DataFileProblem | null;
  /** Newest first. */
  backups: DataFileBackup[];
  /** The backup the owner chose: it is swapped in when Innkeeper next starts. */
  restorePending: { file: string; takenAt: number; requestedAt: number } | null;
  /** What the last restore did (shown for a week). */
  lastRestore: {
    takenAt: number;
    restoredAt: number;
    /** Deliveries received after the backup, read from the damaged file and filed again. */
    refiled: number;
    /** Why the damaged file could not be read (those deliveries are lost unless Su reposts them), or null. */
    unreadable: string | null;
    /** Where the damaged file was kept. */
    keptAs: string;
    /** Restored at start without the owner's choice: the data file could not be opened at all. */
    automatic?: boolean;
  } | null;
  /**
   * What stopped the last restore (shown for a week): the chosen backup was gone or damaged (dropped; the current
   * file kept), another process had the data file open (still chosen), the request could not be read, or the
   * messages read back from the damaged file could not be filed yet (tried again at the next start).
   */
  restoreProblem?: {
    at: number;
    kind: 'backup-missing' | 'backup-damaged' | 'folder-in-use' | 'request-unreadable' | 'refile-failed';
    /** The backup chosen (null when the request could not be read). */
    takenAt: number | null;
    /** What was found, in SQLite's or the system's words ("another Innkeeper (process 4321)"). */
    detail: string;
    /** Tried again at the next start. */
    pending: boolean;
  } | null;
  /** Periods in which deliveries could not be stored (recorded once writing worked again). */
  downtime: { from: number; to: number | null }[];
}

/** The data file's slice of the contract. */
export const dataFileMethods = {
  'dataFile.status': noArgs,
  'dataFile.restoreBackup': z
    .object({ file: z.string().regex(/^innkeeper-\d{13}\.db$/, 'Choose one of the backups listed.') })
    .strict(),
  'dataFile.cancelRestore': noArgs,
} as const;

export interface DataFileResults {
  'dataFile.status': DataFileStatus;
  'dataFile.restoreBackup': DataFileStatus;
  'dataFile.cancelRestore': DataFileStatus;
}

export interface DataFileEvents {
  'dataFile.changed': DataFileStatus;
}

/** The dataFile slice of the contract (listed in contract.ts). */
export const dataFileContract = defineSlice<DataFileResults, DataFileEvents>()(dataFileMethods, ['dataFile.changed']);
