import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Every Innkeeper process that opens a data file marks the folder as in use: `locks/<pid>.lock`, created
 * exclusively (O_EXCL) and owner-only, with the pid and when the computer started, removed when the file is closed.
 * A restore renames the data file, so it is done only while no OTHER live process has a mark (the Electron app and
 * browser mode may be pointed at the same folder, and each acknowledges deliveries into the file it has open). A mark
 * whose process is gone (a crash, a kill, a reboot that reused the pid) is stale: removed when a process takes its
 * own mark, and when one looks for other users.
 */
const openHere = new Map<string, number>();
const locksDir = (dbPath: string) => join(dirname(dbPath), 'locks');
const ownFile = (dbPath: string) => join(locksDir(dbPath), `${process.pid}.lock`);
const LOCK_NAME = /^(\d+)\.lock$/;
/** When this computer started, to the minute (a mark from before a reboot is stale even if its pid is alive now). */
const bootedAt = () => Math.round((Date.now() - uptime() * 1000) / 60_000);

/** Marks the data file as open in this process; the returned function unmarks it (once). */
export function markInUse(dbPath: string): () => void {
  const count = openHere.get(dbPath) ?? 0;
  openHere.set(dbPath, count + 1);
  if (count === 0) {
    mkdirSync(locksDir(dbPath), { recursive: true, mode: 0o700 });
    const file = ownFile(dbPath);
    const content = JSON.stringify({ pid: process.pid, bootedAt: bootedAt() });
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeFileSync(fd, content);
      closeSync(fd);
    } catch (error) {
      // A mark with this pid left by a process that died (pids are reused): it is ours now.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      writeFileSync(file, content, { mode: 0o600 });
    }
    // Marks left by processes that died without removing theirs (a crash, a kill) would pile up: they go now.
    liveMarks(dbPath);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openHere.get(dbPath) ?? 1) - 1;
    if (left > 0) {
      openHere.set(dbPath, left);
      return;
    }
    openHere.delete(dbPath);
    rmSync(ownFile(dbPath), { force: true });
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another account.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The pids of the OTHER processes whose marks are live; every stale mark (its process gone, or from before a reboot)
 * is removed on the way. With `firstOnly`, stops at the first live one.
 */
function liveMarks(dbPath: string, firstOnly = false): number[] {
  let names: string[];
  try {
    names = readdirSync(locksDir(dbPath));
  } catch {
    return [];
  }
  const live: number[] = [];
  for (const name of names) {
    const pid = Number(LOCK_NAME.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    const path = join(locksDir(dbPath), name);
    let booted: unknown = null;
    try {
      booted = (JSON.parse(readFileSync(path, 'utf8')) as { bootedAt?: unknown }).bootedAt;
    } catch {
      // Unreadable content: the pid in the name still tells whether it runs.
    }
    const beforeReboot = typeof booted === 'number' && Math.abs(booted - bootedAt()) > 2;
    if (beforeReboot || !alive(pid)) {
      rmSync(path, { force: true });
      continue;
    }
    live.push(pid);
    if (firstOnly) break;
  }
  return live;
}

/**
 * Who else has the data file open, in the owner's words ("another Innkeeper (process 4321)"), or null when nobody
 * does. Stale marks are removed on the way.
 */
export function otherUsers(dbPath: string): string | null {
  if ((openHere.get(dbPath) ?? 0) > 1) return 'another part of this Innkeeper';
  const [pid] = liveMarks(dbPath, true);
  return pid === undefined ? null : `another Innkeeper (process ${pid})`;
}
