import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'mailbox.lock';

/** Locks this process holds (a lock file with our own pid is otherwise one left by an earlier run: a container's pid 1). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another account.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two mailboxes never share a data folder: the running one holds `mailbox.lock` (created exclusively, 0600, with its
 * pid). A lock whose process is gone (a crash, kill -9) is taken over; a live one is refused, naming its process.
 * Answers the function that gives the folder back.
 */
export function lockFolder(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  if (heldHere.has(file)) throw inUse(dataDir, file, process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw inUse(dataDir, file);
        throw error;
      }
      let pid = NaN;
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {
        // Unreadable: treated as left behind.
      }
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw inUse(dataDir, file, pid);
      // Left by a mailbox that died: it is ours now (a second start racing for it finds the new one).
      rmSync(file, { force: true });
    }
  }
  heldHere.add(file);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(file);
    rmSync(file, { force: true });
  };
}

function inUse(dataDir: string, file: string, pid?: number): Error {
  return new Error(
    `--data: another mailbox${pid ? ` (process ${pid})` : ''} is using ${dataDir}; two mailboxes cannot share a data folder (${file}).`,
  );
}
