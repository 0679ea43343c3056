import { closeSync, openSync, writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** Garbage over one index's pages of the closed file (page 1 intact), as a failing disk leaves it. */
export function damage(dbPath: string): void {
  const reader = new DatabaseSync(dbPath, { readOnly: true });
  const { page_size } = reader.prepare('PRAGMA page_size').get() as { page_size: number };
  const { rootpage } = reader.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'messages_by_thread'").get() as {
    rootpage: number;
  };
  reader.close();
  const fd = openSync(dbPath, 'r+');
  writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (rootpage - 1) * page_size);
  closeSync(fd);
}
