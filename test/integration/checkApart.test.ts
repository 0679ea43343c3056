import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkApart } from '../../src/main/db/checkApart';
import type { Database } from '../../src/main/db/database';
import { quickCheck } from '../../src/main/db/faults';
import { createDeliveryWriter } from '../../src/main/intake/listener';
import { StoreUnavailable } from '../../src/main/intake/ingest';
import { damage, message, messageTexts } from '../support/storeKit';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

// The start's integrity check reads the whole file (~200 ms for bench:inbox's 17 MiB inbox, more as it grows). It
// runs on a worker while the core starts; nothing is acknowledged into the file before it has said the file is sound.

const cleanups: (() => void)[] = [];
afterEach(() =>
  cleanups
    .splice(0)
    .reverse()
    .forEach((cleanup) => cleanup()),
);

/** A data file with one message in it, closed; damaged when asked. */
async function dataFile(damaged: boolean): Promise<string> {
  const dir = tempDir();
  cleanups.push(() => dir.remove());
  const path = join(dir.path, 'innkeeper.db');
  const database = openAppDatabase(path);
  await createDeliveryWriter(database, INBOX_FILERS).submit({
    raw: message('9500000001', 'Already here'),
    now: Date.now(),
    source: null,
  });
  database.close();
  if (damaged) damage(path);
  return path;
}

const open = (path: string): Database => {
  const database = openAppDatabase(path, { checkApart: true });
  cleanups.push(() => database.close());
  return database;
};

describe('the integrity check on a worker', () => {
  it('finds what the check on the main thread finds, sound or damaged', async () => {
    for (const damaged of [false, true]) {
      const path = await dataFile(damaged);
      const here = openAppDatabase(path);
      const expected = quickCheck(here.db);
      const apart = await checkApart(path, here.db).result;
      here.close();
      expect(apart).toBe(expected);
      if (damaged) expect(apart).toMatch(/\S/);
      else expect(apart).toBeNull();
    }
  });

  it('a push arriving before the check has said the file is damaged is refused, not acknowledged into it', async () => {
    const path = await dataFile(true);
    const database = open(path);
    // Opened at once: the check is still under way.
    expect(database.health.problem()).toBeNull();
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const answer = writer.submit({ raw: message('9500000002', 'During the check'), now: Date.now(), source: null });
    await expect(answer).rejects.toBeInstanceOf(StoreUnavailable);
    expect(database.health.problem()).toMatchObject({ kind: 'damaged' });
    expect(messageTexts(database)).toEqual(['Already here']);
  });

  it('on a sound file the push waits for the check, then is filed', async () => {
    const path = await dataFile(false);
    const database = open(path);
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const filed = await writer.submit({ raw: message('9500000003', 'After the check'), now: Date.now(), source: null });
    expect(filed.outcome).toBe('stored');
    expect(database.health.problem()).toBeNull();
    expect(messageTexts(database)).toEqual(['After the check', 'Already here']);
  });

  it('a later check (before a backup) finds damage that came after the start, and says so', async () => {
    const path = await dataFile(false);
    const database = openAppDatabase(path);
    cleanups.push(() => database.close());
    expect(await database.recheck()).toBe(true);
    database.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    damage(path); // as a failing disk would, while the app runs
    expect(await database.recheck()).toBe(false);
    expect(database.health.problem()).toMatchObject({ kind: 'damaged' });
  });

  it('a file closed while its check runs: the check is stopped and nothing is marked', async () => {
    const path = await dataFile(true);
    const database = openAppDatabase(path, { checkApart: true });
    database.close();
    await database.checked;
    expect(database.health.problem()).toBeNull();
  });
});
