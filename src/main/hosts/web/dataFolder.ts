import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Browser mode runs under plain Node, where new files follow the umask (often 0644, readable by every account on
 * the computer). The data folder holds guests' messages and the push password: the folder is made 0700 and every
 * file in it (the database and its -wal/-shm, backups, settings) 0600, also for a folder an older version created.
 * The process's umask is set so that what is created later is owner-only from the start.
 *
 * Symbolic links inside the folder are left alone (lstat, never followed): a link to a folder or file elsewhere does
 * not make that owner-only, and a link back up the tree (a cycle) is not walked.
 */
export function makeDataFolderOwnerOnly(dataDir: string, setUmask = true): void {
  if (setUmask) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodTree(dataDir);
}

function chmodTree(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue; // gone in the meantime
    }
    if (stat.isDirectory()) chmodTree(path);
    else if (stat.isFile()) chmodSync(path, 0o600);
  }
}
