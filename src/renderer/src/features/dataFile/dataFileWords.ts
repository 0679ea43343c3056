import type { DataFileBackup, DataFileProblem, DataFileStatus } from '@shared/dataFile';
import { formatDateTime, plural } from '@renderer/lib/format';

/** What Su does with a delivery that is not acknowledged, in the owner's words. */
export const SU_RETRIES = 'Su keeps each message and sends it again, up to three times, then gives up on it.';

/** SQLite's own words at the end of a reason ("… (SQLite: database or disk is full)"). */
const SQLITE_WORDS = /\s*\(SQLite:\s*(.*)\)$/s;

/**
 * SQLite's report of a damaged file (`*** in database main *** Tree 18 page 18: btreeInitPage() …`, its index names):
 * not for the owner to read, only to copy for whoever helps them. Null for other problems, whose SQLite words are
 * plain ("database or disk is full") and said in the headline.
 */
export const sqliteReport = (problem: DataFileProblem): string | null =>
  problem.kind === 'damaged' ? (SQLITE_WORDS.exec(problem.reason)?.[1] ?? null) : null;

/**
 * The one line: what is wrong with storing messages, since when. `short` (the banner on every screen) leaves out
 * SQLite's own words, which the Connection screen shows.
 */
export function storeHeadline(problem: DataFileProblem, short = false): string {
  const reason = short ? problem.reason.replace(SQLITE_WORDS, '') : problem.reason;
  return problem.kind === 'damaged'
    ? `Innkeeper is not accepting new messages since ${formatDateTime(problem.since)}: its data file is damaged.`
    : `Innkeeper cannot store new messages and reviews since ${formatDateTime(problem.since)}: ${reason}.`;
}

/** What happened and what to do, under the headline on the Connection screen. */
export function storeAdvice(problem: DataFileProblem): string[] {
  if (problem.kind === 'damaged') {
    return [
      `Innkeeper checks the file each time it starts and every few hours, and this check found damage. Details: ${problem.reason.replace(SQLITE_WORDS, '')}.` +
        (problem.lastGoodCheck
          ? ` The last check that found it sound was at ${formatDateTime(problem.lastGoodCheck)}.`
          : ''),
      `So that nothing lands in a damaged file, Innkeeper answers Su “try again later”. ${SU_RETRIES}`,
      'Restore a backup below: Innkeeper swaps it in the next time it starts. Anything you change before then is not in the backup.',
    ];
  }
  return [
    `Innkeeper confirms nothing to Su that it could not store. ${SU_RETRIES}`,
    /disk is full/.test(problem.reason)
      ? 'Free some space on the disk: Innkeeper stores the next message Su sends, and this note goes away.'
      : 'Fix what stops Innkeeper from writing its data file: it then stores the next message Su sends, and this note goes away.',
  ];
}

/** One backup as the owner chooses it: when it was taken, and what restoring it means for later deliveries. */
export function backupLine(backup: DataFileBackup): { title: string; detail: string | null } {
  const title = `Backup of ${formatDateTime(backup.takenAt)}`;
  if (backup.deliveriesAfter === undefined) return { title, detail: null };
  if (backup.deliveriesAfter === null) {
    return {
      title,
      detail:
        'Messages and reviews received after it cannot be read from the damaged file: they are lost unless Su sends them again; check each channel’s own inbox.',
    };
  }
  return {
    title,
    detail:
      backup.deliveriesAfter === 0
        ? 'Nothing was received after it.'
        : `${plural(backup.deliveriesAfter, 'message or review', 'messages and reviews')} received after it are read back from the damaged file and kept.`,
  };
}

/** After a restore: what it did, honestly (lost only if they are). */
export function restoreSummary(last: NonNullable<DataFileStatus['lastRestore']>): string {
  const head = last.automatic
    ? `The data file was too damaged to open, so Innkeeper restored its newest backup, of ${formatDateTime(last.takenAt)}, on ${formatDateTime(last.restoredAt)}.`
    : `Innkeeper restored the backup of ${formatDateTime(last.takenAt)} on ${formatDateTime(last.restoredAt)}.`;
  const lost = last.unreadable
    ? ` Messages and reviews received after the backup could not be read from the damaged file (${last.unreadable}): they are lost unless Su sent them again; check each channel’s own inbox for that period.`
    : last.refiled > 0
      ? ` ${plural(last.refiled, 'message or review', 'messages and reviews')} received after the backup ${last.refiled === 1 ? 'was' : 'were'} read back from the damaged file and kept.`
      : ' Nothing received after the backup was missing.';
  return `${head}${lost} The damaged file is kept at ${last.keptAs}.`;
}

/** What stopped the chosen restore at the last start, and what happens now. */
export function restoreProblemText(p: NonNullable<DataFileStatus['restoreProblem']>): string {
  const backup = p.takenAt === null ? 'the backup you chose' : `the backup of ${formatDateTime(p.takenAt)}`;
  switch (p.kind) {
    case 'backup-missing':
      return `Innkeeper did not restore ${backup}: it is no longer in the backups folder (${p.detail}). It kept using the current data file; if that is still damaged, choose another backup.`;
    case 'backup-damaged':
      return `Innkeeper did not restore ${backup}: it is damaged too (${p.detail}). It kept using the current data file; if that is still damaged, choose another backup.`;
    case 'folder-in-use':
      return `Innkeeper has not restored ${backup} yet: ${p.detail} has the same data file open, and swapping it now would lose what that one stores. Quit the other one, then start Innkeeper again; the backup stays chosen.`;
    case 'request-unreadable':
      return `Innkeeper found a restore request it could not read (${p.detail}) and restored nothing; it kept it aside as restore.json.invalid. Choose a backup again if you need one.`;
    case 'refile-failed':
      return `Innkeeper restored ${backup}, but could not yet file the messages and reviews it read back from the damaged file (${p.detail}). They are safe in the damaged file and are filed the next time Innkeeper starts.`;
  }
}
