import { closeSync, openSync, writeSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { eventually } from '../support/eventually';
import { message, messageTexts, push, storeCore } from '../support/storeKit';

/**
 * Damage that happens while Innkeeper runs (a failing disk, another program writing into the file) is found the same
 * day, not at the next start or backup: the file is checked again on a schedule and after any store error, and from
 * then on it is treated as the start's check treats it (pushes answered 503, the screen says so, a backup restored).
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Indexes no guest message touches (payment links): their pages stay damaged on disk while messages are filed. */
const UNTOUCHED = ['payment_links_by_provider', 'payment_links_due', 'payment_links_order_once'];

/**
 * Writes garbage over three pages of the file under the running core, as a failing disk would: what the core wrote
 * is first checkpointed into the file, so the pages read from it are the damaged ones.
 */
async function damageUnderRunningCore(database: Database, names = UNTOUCHED): Promise<void> {
  const { db, path } = database;
  const { page_size } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  const pages = names.map(
    (name) =>
      (db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(name) as { rootpage: number }).rootpage,
  );
  // A check reading the file at that moment holds the checkpoint back: tried until the whole WAL is in the file.
  const checkpointed = await eventually(
    async () => db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number },
    (r) => r.busy === 0,
  );
  expect(checkpointed.busy).toBe(0);
  const fd = openSync(path, 'r+');
  for (const page of pages) writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (page - 1) * page_size);
  closeSync(fd);
}

describe('damage under a running Innkeeper', () => {
  it('the scheduled check finds it: pushes are answered 503, the screen says so, and a restore files them all again', async () => {
    const first = await storeCore(undefined, { dataFile: { checkEveryMs: 300 } });
    const { dataDir } = first;
    const backup = (await first.call('dataFile.status')).backups[0]!;
    expect(backup).toBeDefined();
    expect((await push(first, message('9100000001', 'After the backup'))).status).toBe(200);
    const changes: (string | null)[] = [];
    first.core.events.on('dataFile.changed', (s) => changes.push(s.problem?.kind ?? null));

    await damageUnderRunningCore(first.core.db);
    // Nothing the core does touches those pages: only a check can tell.
    expect((await push(first, message('9100000002', 'After the damage'))).status).toBe(200);

    const status = await eventually(
      () => first.call('dataFile.status'),
      (s) => s.problem !== null,
    );
    expect(status.problem).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/integrity check/) });
    expect(status.problem!.lastGoodCheck).toBeGreaterThanOrEqual(backup.takenAt);
    expect(changes).toContain('damaged');
    // As after a start that found it: nothing more is acknowledged into the damaged file, Su reposts.
    const refused = await push(first, message('9100000003', 'Once it was found'));
    expect(refused.status).toBe(503);
    expect(messageTexts(first.core.db)).not.toContain('Once it was found');
    expect(status.backups[0]).toMatchObject({ file: backup.file, deliveriesAfter: 2 });

    await first.call('dataFile.restoreBackup', { file: backup.file });
    await first.core.close();
    const second = await storeCore(dataDir);
    cleanups.push(() => second.stop());
    const after = await second.call('dataFile.status');
    expect(after.problem).toBeNull();
    expect(after.lastRestore).toMatchObject({ takenAt: backup.takenAt, refiled: 2, unreadable: null });
    expect(messageTexts(second.core.db)).toEqual(['After the backup', 'After the damage']);
    // Su's repost of the refused push is acknowledged now.
    expect((await push(second, message('9100000003', 'Once it was found'))).status).toBe(200);
  });

  it('a store error has the file checked at once: damage found then is not taken for a passing failure', async () => {
    // The schedule is far off: only the error can have the file checked.
    const t = await storeCore(undefined, { dataFile: { checkEveryMs: 60 * 60 * 1000 } });
    cleanups.push(() => t.stop());
    await damageUnderRunningCore(t.core.db);
    expect((await push(t, message('9200000001', 'Still acknowledged'))).status).toBe(200);
    expect((await t.call('dataFile.status')).problem).toBeNull();

    // The file cannot grow any more: the next push fails with SQLITE_FULL, a store error.
    const { db } = t.core.db;
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    expect((await push(t, message('9200000002', 'z'.repeat(30_000)))).status).toBe(503);
    db.exec('PRAGMA max_page_count = 1073741823');

    const status = await eventually(
      () => t.call('dataFile.status'),
      (s) => s.problem?.kind === 'damaged',
    );
    expect(status.problem).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/integrity check/) });
    // The disk has room again, but the file is damaged: still refused.
    expect((await push(t, message('9200000003', 'Refused'))).status).toBe(503);
  });

  it('a call that finds the file damaged (SQLite: malformed) marks it damaged at once', async () => {
    const t = await storeCore(undefined, { dataFile: { checkEveryMs: 60 * 60 * 1000 } });
    cleanups.push(() => t.stop());
    await damageUnderRunningCore(t.core.db, ['payment_links', ...UNTOUCHED]);
    // The core's connection no longer holds those pages in memory (in a large file, most are not): it reads the disk.
    t.core.db.db.exec('PRAGMA shrink_memory');
    const answer = await t.dispatch('payments.list', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    const status = await t.call('dataFile.status');
    expect(status.problem).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/damaged/) });
    expect((await push(t, message('9300000001', 'Refused'))).status).toBe(503);
  });
});
