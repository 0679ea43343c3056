import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfSettings } from '../../src/main/config/settings';
import { listBackups } from '../../src/main/db/backup';
import type { Database } from '../../src/main/db/database';
import { createDataFileService } from '../../src/main/db/dataFile';
import { refileThroughInbox } from '../support/storeKit';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

/**
 * The start's backup (a copy of the whole file) is taken just after the start rather than before the listener
 * answers, and never skipped: when its time comes, when the backups are asked for, or when the store stops.
 */
describe('the backup at start', () => {
  let dir: ReturnType<typeof tempDir>;
  let database: Database;
  beforeEach(() => {
    dir = tempDir();
    database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  });
  afterEach(() => {
    database.close();
    dir.remove();
  });
  const store = (firstBackupAfterMs: number) =>
    createDataFileService({
      database,
      settings: createConfSettings(dir.path),
      now: Date.now,
      firstBackupAfterMs,
      refile: refileThroughInbox,
    });

  it('is not taken during start, and is begun when the backups are first asked for, then said', async () => {
    const service = store(60_000);
    let told = 0;
    service.onBackup(() => told++);
    service.start();
    expect(listBackups(database.path)).toEqual([]);
    // Asked for: begun, listed once whole, and the listeners told (the screen's status is sent again).
    expect(service.status().backups).toEqual([]);
    await eventually(
      async () => told,
      (n) => n === 1,
    );
    const listed = service.status().backups;
    expect(listed).toHaveLength(1);
    expect(listBackups(database.path).map((b) => b.file)).toEqual(listed.map((b) => b.file));
    // Once per run: asking again takes no second one.
    expect(service.status().backups).toHaveLength(1);
    await service.stop();
    expect(told).toBe(1);
  });

  it('is taken by itself once its time comes', async () => {
    const service = store(0);
    service.start();
    const backups = await eventually(
      async () => listBackups(database.path),
      (b) => b.length === 1,
    );
    expect(backups).toHaveLength(1);
    await service.stop();
  });

  it('is taken when the store stops before its time, and the stop waits for it', async () => {
    const service = store(60_000);
    service.start();
    await service.stop();
    expect(listBackups(database.path)).toHaveLength(1);
  });
});
