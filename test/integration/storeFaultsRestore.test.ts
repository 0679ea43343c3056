import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { listBackups, requestRestore, restoreUnfinished, takeBackup } from '../../src/main/db/backup';
import { createConfSettings } from '../../src/main/config/settings';
import { fileDelivery } from '../../src/main/intake/ingest';
import { createDataFileService } from '../../src/main/db/dataFile';
import { refileThroughInbox } from '../support/storeKit';
import { damage, dataFileChild, message, messageTexts, push, storeCore } from '../support/storeKit';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import { intakeFeature } from '../../src/main/intake/feature';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder whose file holds one message in its backup and `later` messages received after it. */
async function folderWithBackup(later: string[]) {
  const dir = tempDir();
  cleanups.push(() => dir.remove());
  const path = join(dir.path, 'innkeeper.db');
  const database = openAppDatabase(path);
  fileDelivery(database, INBOX_FILERS, message('9100000000', 'In the backup'), Date.now() - 60_000);
  const backup = await takeBackup(database.db, path, Date.now() - 30_000);
  later.forEach((text, i) => fileDelivery(database, INBOX_FILERS, message(`91000000${10 + i}`, text), Date.now() + i));
  database.close();
  return { dir: dir.path, path, backup };
}

describe('a restore never loses the pushes it read back from the damaged file', () => {
  it('a start killed between the swap and the filing: after the restart the acknowledged pushes are there', async () => {
    const first = await storeCore();
    const dataDir = first.dataDir;
    await first.core.close();
    const second = await storeCore(dataDir); // its start backs the sound file up
    for (const [id, text] of [
      ['9200000001', 'One'],
      ['9200000002', 'Two'],
      ['9200000003', 'Three'],
    ] as const) {
      expect((await push(second, message(id, text))).status).toBe(200);
    }
    await second.core.close();
    const dbPath = join(dataDir, 'innkeeper.db');
    damage(dbPath);
    const third = await storeCore(dataDir);
    const backup = (await third.call('dataFile.status')).backups[0]!;
    await third.call('dataFile.restoreBackup', { file: backup.file });
    await third.core.close();

    // The next start swaps the backup in and dies before anything else runs.
    const killed = await dataFileChild(dbPath, 'kill');
    expect(await killed.exited).toBe('SIGKILL');
    expect(restoreUnfinished(dbPath)).toBe(true);

    const fourth = await storeCore(dataDir);
    cleanups.push(() => fourth.stop());
    expect(messageTexts(fourth.core.db)).toEqual(['One', 'Three', 'Two']);
    const status = await fourth.call('dataFile.status');
    expect(status).toMatchObject({
      problem: null,
      restorePending: null,
      restoreProblem: null,
      lastRestore: { takenAt: backup.takenAt, refiled: 3, unreadable: null },
    });
    expect(existsSync(join(dataDir, 'restore.json'))).toBe(false);
    // The restored file was not moved aside a second time: one damaged file kept.
    expect(readdirSync(join(dataDir, 'damaged')).filter((f) => f.endsWith('.db'))).toHaveLength(1);
  });

  it('filing that fails (a store fault) leaves the restore unfinished and says so; the next start files them', async () => {
    const { dir, path, backup } = await folderWithBackup(['Later one', 'Later two']);
    requestRestore(path, backup.file, Date.now(), null);
    const settings = createConfSettings(dir);

    const blocked = openAppDatabase(path);
    blocked.db.exec('PRAGMA query_only = ON'); // every write fails, as on a read-only file
    const store = createDataFileService({ database: blocked, settings, now: Date.now, refile: refileThroughInbox });
    expect(store.status()).toMatchObject({
      restorePending: null,
      lastRestore: null,
      restoreProblem: { kind: 'refile-failed', takenAt: backup.takenAt, pending: true, detail: /readonly/ },
    });
    expect(restoreUnfinished(path)).toBe(true);
    expect(messageTexts(blocked)).toEqual(['In the backup']);
    blocked.close();

    const database = openAppDatabase(path);
    cleanups.push(() => database.close());
    const after = createDataFileService({ database, settings, now: Date.now, refile: refileThroughInbox }).status();
    expect(messageTexts(database)).toEqual(['In the backup', 'Later one', 'Later two']);
    expect(after).toMatchObject({ restoreProblem: null, lastRestore: { refiled: 2 } });
    expect(restoreUnfinished(path)).toBe(false);
    // Filed once: the push log holds each push once.
    expect((database.db.prepare('SELECT count(*) AS n FROM push_log').get() as { n: number }).n).toBe(3);
  });
});

describe('the backup the owner chose', () => {
  it('survives the rotation of later backups and is restored at the next start', async () => {
    const { dir, path, backup } = await folderWithBackup(['After the chosen backup']);
    requestRestore(path, backup.file, Date.now(), null);
    // Four more backups before the next start (one every 4 hours while the file is sound, 3 kept): the chosen one stays.
    const open = new DatabaseSync(path);
    for (let i = 1; i <= 4; i += 1) await takeBackup(open, path, Date.now() + i * 1000);
    open.close();
    const kept = listBackups(path).map((b) => b.file);
    expect(kept).toHaveLength(4);
    expect(kept).toContain(backup.file);

    const t = await storeCore(dir);
    cleanups.push(() => t.core.close());
    const status = await t.call('dataFile.status');
    expect(status).toMatchObject({ restoreProblem: null, lastRestore: { takenAt: backup.takenAt, refiled: 1 } });
    expect(messageTexts(t.core.db)).toEqual(['After the chosen backup', 'In the backup']);
  });

  it('gone before the start: Innkeeper starts on the current file and says the backup was not restored', async () => {
    const { dir, path, backup } = await folderWithBackup(['Kept in the current file']);
    requestRestore(path, backup.file, Date.now(), null);
    rmSync(join(dir, 'backups', backup.file));
    const t = await storeCore(dir);
    cleanups.push(() => t.core.close());
    const store = await t.call('dataFile.status');
    expect(store).toMatchObject({
      restorePending: null,
      lastRestore: null,
      restoreProblem: { kind: 'backup-missing', takenAt: backup.takenAt, pending: false },
    });
    expect(messageTexts(t.core.db)).toEqual(['In the backup', 'Kept in the current file']);
    expect(t.core.use(intakeFeature).service.status().listening).toBe(true);
  });

  it('damaged too: Innkeeper starts on the current file and says why the backup was not used', async () => {
    const { dir, path, backup } = await folderWithBackup(['Kept in the current file']);
    requestRestore(path, backup.file, Date.now(), null);
    damage(join(dir, 'backups', backup.file));
    const t = await storeCore(dir);
    cleanups.push(() => t.core.close());
    const store = await t.call('dataFile.status');
    expect(store.restoreProblem).toMatchObject({ kind: 'backup-damaged', pending: false });
    expect(store.restoreProblem!.detail).toMatch(/messages_by_thread|btree|page/i);
    expect(messageTexts(t.core.db)).toEqual(['In the backup', 'Kept in the current file']);
  });
});

describe('a data file too damaged to open, and its newest backup damaged too', () => {
  it('the newest SOUND backup is restored at once', async () => {
    const { dir, path, backup } = await folderWithBackup(['Received later']);
    const later = new DatabaseSync(path);
    const newest = await takeBackup(later, path, Date.now() + 1000);
    later.close();
    damage(join(dir, 'backups', newest.file));
    // Garbage over the schema on page 1 (the header stays): SQLite cannot even read the table list.
    writeFileSync(path, readFileSync(path).fill(0xa5, 100, 3100));

    const database = openAppDatabase(path);
    cleanups.push(() => database.close());
    expect(database.restored).toMatchObject({ backup: { file: backup.file }, automatic: true });
    expect(messageTexts(database)).toEqual(['In the backup']);
  });
});

describe('a restore while another process has the data file open', () => {
  it('is not swapped in, says which process, stays chosen, and happens once that process is gone', async () => {
    const { dir, path, backup } = await folderWithBackup(['Received after the backup']);
    const other = await dataFileChild(path, 'hold');
    cleanups.push(() => other.kill());
    requestRestore(path, backup.file, Date.now(), null);

    const refused = await storeCore(dir);
    const store = await refused.call('dataFile.status');
    expect(store).toMatchObject({
      restorePending: { file: backup.file },
      restoreProblem: { kind: 'folder-in-use', pending: true, detail: `another Innkeeper (process ${other.pid})` },
    });
    expect(existsSync(join(dir, 'damaged'))).toBe(false);
    expect(messageTexts(refused.core.db)).toEqual(['In the backup', 'Received after the backup']);
    await refused.core.close();

    // Killed: its mark in locks/ is stale (no cleanup ran) and no longer stops the restore.
    other.kill();
    await other.exited;
    expect(existsSync(join(dir, 'locks', `${other.pid}.lock`))).toBe(true);
    const restored = await storeCore(dir);
    cleanups.push(() => restored.core.close());
    expect(await restored.call('dataFile.status')).toMatchObject({
      restorePending: null,
      restoreProblem: null,
      lastRestore: { takenAt: backup.takenAt, refiled: 1 },
    });
    expect(existsSync(join(dir, 'locks', `${other.pid}.lock`))).toBe(false);
  });
});

describe('restore.json is checked before anything is moved', () => {
  it('a crafted place for the damaged file is refused: the data file stays where it is', async () => {
    const { dir, path, backup } = await folderWithBackup(['Still here']);
    const elsewhere = tempDir();
    cleanups.push(() => elsewhere.remove());
    const before = readFileSync(path);
    for (const marker of [
      { file: backup.file, requestedAt: 1, damagedSince: null, keptAs: join(elsewhere.path, 'stolen.db') },
      { file: `../${backup.file}`, requestedAt: 1, damagedSince: null },
      { file: backup.file, requestedAt: '1', damagedSince: null },
      { file: backup.file, requestedAt: 1, damagedSince: null, keptAt: -1 },
    ]) {
      writeFileSync(join(dir, 'restore.json'), JSON.stringify(marker));
      const database = openAppDatabase(path);
      expect(database.restored).toBeNull();
      expect(database.restoreRefused).toMatchObject({ kind: 'request-unreadable', pending: false });
      expect(messageTexts(database)).toEqual(['In the backup', 'Still here']);
      database.close();
      expect(existsSync(join(dir, 'restore.json'))).toBe(false);
      expect(existsSync(join(dir, 'restore.json.invalid'))).toBe(true);
    }
    expect(readdirSync(elsewhere.path)).toEqual([]);
    expect(existsSync(join(dir, 'damaged'))).toBe(false);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
