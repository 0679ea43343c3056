import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPendingRestore, requestRestore, takeBackup } from '../../src/main/db/backup';
import type { Database } from '../../src/main/db/database';
import { quickCheck } from '../../src/main/db/faults';
import { fileDelivery } from '../../src/main/intake/ingest';
import { startListener } from '../../src/main/intake/listener';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { fixtureText } from '../support/fixtures';
import { startPushTarget } from '../support/pushTarget';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import { intakeFeature } from '../../src/main/intake/feature';
import { dataFileFeature } from '../../src/main/dataFile/feature';

type TestCore = Awaited<ReturnType<typeof startTestCore>>;
const PASSWORD = 'store-faults-password-1234';
const auth = `Basic ${Buffer.from(`su-partner:${PASSWORD}`).toString('base64')}`;

/** A guest message with its own message id, so that each is a new message. */
function message(id: string, text: string): string {
  const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
  return JSON.stringify({ ...body, messageid: id, message: text });
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function core(dataDir?: string): Promise<TestCore & { call: ReturnType<typeof contractClient>['call'] }> {
  const t = await startTestCore(dataDir ? { dataDir } : {});
  const { call } = contractClient(() => t.core.dispatcher);
  await call('intake.save', { port: 8787, username: 'su-partner', password: PASSWORD });
  // As the app's shell does at start: the data file's status is read, which begins the start's backup; the test
  // goes on once that backup is whole (none is taken of a damaged file).
  await call('dataFile.status');
  await t.core.use(dataFileFeature).backupNow();
  return { ...t, call };
}

async function push(t: TestCore, body: string): Promise<Response> {
  const url = t.core.use(intakeFeature).service.status().localUrl!;
  return fetch(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
}

const messageTexts = (db: Database) =>
  (db.db.prepare('SELECT body FROM messages ORDER BY body').all() as { body: string }[]).map((m) => m.body);

/** Writes garbage over an index's pages in the closed file (as a failing disk would), leaving page 1 intact. */
function damage(dbPath: string, indexName: string): void {
  const reader = new DatabaseSync(dbPath, { readOnly: true });
  const { page_size } = reader.prepare('PRAGMA page_size').get() as { page_size: number };
  const { rootpage } = reader.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(indexName) as {
    rootpage: number;
  };
  reader.close();
  expect(existsSync(`${dbPath}-wal`) ? statSync(`${dbPath}-wal`).size : 0).toBe(0);
  const fd = openSync(dbPath, 'r+');
  writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (rootpage - 1) * page_size);
  closeSync(fd);
}

describe('a damaged data file is never used to acknowledge pushes', () => {
  it('refuses pushes (503) and says so; the backup restored at the next start brings the data back', async () => {
    // First run: one message. Second run: its start backs the file up after a sound check, then a second message.
    const first = await core();
    const dataDir = first.dataDir;
    expect((await push(first, message('9000000001', 'Before the backup'))).status).toBe(200);
    await first.core.close();
    const second = await core(dataDir);
    const backups = (await second.call('dataFile.status')).backups;
    const backup = backups[0];
    expect(backup).toBeDefined();
    expect(statSync(join(dataDir, 'backups', backup!.file)).mode & 0o777).toBe(0o600);
    expect((await push(second, message('9000000002', 'After the backup'))).status).toBe(200);
    await second.core.close();

    damage(join(dataDir, 'innkeeper.db'), 'messages_by_thread');

    const third = await core(dataDir);
    const status = await third.call('dataFile.status');
    expect(status.problem).toMatchObject({
      kind: 'damaged',
      reason: expect.stringMatching(/integrity check/),
      lastGoodCheck: backup!.takenAt,
    });
    // The listener answers, but acknowledges nothing: Su keeps the push and reposts it.
    const refused = await push(third, message('9000000003', 'While damaged'));
    expect(refused.status).toBe(503);
    expect(messageTexts(third.core.db)).not.toContain('While damaged');
    expect((third.core.db.db.prepare('SELECT count(*) AS n FROM push_log').get() as { n: number }).n).toBe(2);
    // No backup of the damaged file replaced the good one.
    expect(status.backups.map((b) => b.file)).toEqual(backups.map((b) => b.file));
    expect(status.backups[0]!.deliveriesAfter).toBe(1);

    const bad = await contractClient(() => third.core.dispatcher).dispatch('dataFile.restoreBackup', {
      file: 'innkeeper-0000000000000.db',
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'validation', field: 'file' } });
    const chosen = await third.call('dataFile.restoreBackup', { file: backup!.file });
    expect(chosen.restorePending).toMatchObject({ file: backup!.file, takenAt: backup!.takenAt });
    await third.core.close();

    const fourth = await core(dataDir);
    cleanups.push(() => fourth.stop());
    const after = await fourth.call('dataFile.status');
    expect(after.problem).toBeNull();
    expect(after.restorePending).toBeNull();
    // The message received after the backup was read back from the damaged file and filed again.
    expect(after.lastRestore).toMatchObject({ takenAt: backup!.takenAt, refiled: 1, unreadable: null });
    expect(messageTexts(fourth.core.db)).toEqual(['After the backup', 'Before the backup']);
    expect(quickCheck(fourth.core.db.db)).toBeNull();
    // The damaged file is kept aside, owner-only, never deleted.
    const kept = readdirSync(join(dataDir, 'damaged')).filter((f) => f.endsWith('.db'));
    expect(kept).toHaveLength(1);
    expect(statSync(join(dataDir, 'damaged', kept[0]!)).mode & 0o777).toBe(0o600);
    // The period is downtime, and the repost of the refused push is acknowledged now.
    expect(after.downtime).toEqual([{ from: status.problem!.since, to: after.lastRestore!.restoredAt }]);
    expect((await push(fourth, message('9000000003', 'While damaged'))).status).toBe(200);
    expect(messageTexts(fourth.core.db)).toContain('While damaged');
  });
});

describe('restoring is safe to repeat after a crash', () => {
  it('a start that dies after the swap does not move the restored file aside at the next start', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const path = join(dir.path, 'innkeeper.db');
    const database = openAppDatabase(path);
    database.db
      .prepare("INSERT INTO push_log (received_at, body, outcome) VALUES (1, 'in the backup', 'stored')")
      .run();
    const backup = await takeBackup(database.db, path, Date.now());
    database.db
      .prepare("INSERT INTO push_log (received_at, body, outcome) VALUES (?, 'later', 'stored')")
      .run(Date.now() + 1);
    database.close();
    requestRestore(path, backup.file, Date.now(), null);
    // As if the process died right after the swap: restore.json stays until the pushes read back are filed.
    const first = applyPendingRestore(path, Date.now());
    if (!first || !('restored' in first)) throw new Error('not restored');
    const outcome = first.restored;
    const damagedCopy = readFileSync(outcome.keptAs);
    const again = applyPendingRestore(path, Date.now() + 5000);
    if (!again || !('restored' in again)) throw new Error('not carried on');
    expect(again.restored.keptAs).toBe(outcome.keptAs);
    expect(again.restored.restoredAt).toBe(outcome.restoredAt);
    expect(readFileSync(outcome.keptAs).equals(damagedCopy)).toBe(true);
    expect(again.restored.salvaged?.map((p) => p.body)).toEqual(['later']);
    expect(existsSync(join(dir.path, 'restore.json'))).toBe(true);
  });
});

describe('a data file too damaged to open', () => {
  const wreck = (dbPath: string) => {
    // Garbage over the schema on page 1 (the 100-byte header stays): SQLite cannot even read the table list.
    const fd = openSync(dbPath, 'r+');
    writeSync(fd, Buffer.alloc(3000, 0xa5), 0, 3000, 100);
    closeSync(fd);
  };

  it('the newest backup is restored at once, the damaged file kept aside, and the owner told', async () => {
    const first = await core();
    const dataDir = first.dataDir;
    expect((await push(first, message('9000000021', 'Kept by the backup'))).status).toBe(200);
    await first.core.close();
    const second = await core(dataDir);
    await second.core.close();
    wreck(join(dataDir, 'innkeeper.db'));

    const third = await core(dataDir);
    cleanups.push(() => third.stop());
    const status = await third.call('dataFile.status');
    expect(status.problem).toBeNull();
    expect(status.lastRestore).toMatchObject({ automatic: true, unreadable: expect.any(String) });
    expect(messageTexts(third.core.db)).toEqual(['Kept by the backup']);
    expect(readdirSync(join(dataDir, 'damaged')).filter((f) => f.endsWith('.db'))).toHaveLength(1);
    expect((await push(third, message('9000000022', 'After the restore'))).status).toBe(200);
  });

  it('without a sound backup the file is left as it is and the error says what to do', () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const path = join(dir.path, 'innkeeper.db');
    openAppDatabase(path).close();
    wreck(path);
    const before = readFileSync(path);
    expect(() => openAppDatabase(path)).toThrow(/is damaged and cannot be opened .*no backup to restore/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('a failing store answers 5xx and says so until it works again', () => {
  it('a full disk: 503 with the original error, "cannot store" since then, then acknowledged again', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    const { db } = t.database;
    expect((await t.post(message('9000000001', 'first'))).status).toBe(200);
    // The file may not grow any more: every insert that needs a page fails with SQLITE_FULL, as on a full disk. (Its
    // free pages first given back, those of tables a schema step dropped: an insert would take them instead.)
    db.exec('VACUUM');
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    const big = message('9000000002', 'x'.repeat(20_000));

    const refused = await t.post(big);
    expect(refused.status).toBe(503);
    expect(t.count('quarantine')).toBe(0);
    expect(t.count('push_log')).toBe(1);
    const problem = t.database.health.problem();
    expect(problem).toMatchObject({ kind: 'cannot-write', reason: expect.stringMatching(/disk is full/) });
    // The error thrown is SQLite's own, not "cannot rollback".
    let thrown: unknown;
    try {
      fileDelivery(t.database, INBOX_FILERS, big, Date.now());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ errcode: 13, message: expect.stringMatching(/full/) });
    expect(String(thrown)).not.toMatch(/rollback/);
    expect(t.database.health.problem()!.since).toBe(problem!.since);

    db.exec('PRAGMA max_page_count = 1073741823');
    expect((await t.post(big)).status).toBe(200);
    expect(t.database.health.problem()).toBeNull();
    expect(t.count('messages')).toBe(2);
    const spans = db.prepare("SELECT state, at FROM uptime_log WHERE component = 'store' ORDER BY id").all();
    expect(spans).toEqual([
      { state: 'down', at: problem!.since },
      { state: 'up', at: expect.any(Number) },
    ]);
  });

  it('a payload problem is still quarantined and acknowledged (only the store is answered 5xx)', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    expect((await t.post({ event: 'booking_modified' })).status).toBe(200);
    expect(t.count('quarantine')).toBe(1);
    expect(t.database.health.problem()).toBeNull();
  });

  it('the push status reports the failure to the screen while it lasts', async () => {
    const t = await core();
    cleanups.push(() => t.stop());
    const { db } = t.core.db;
    const changes: (string | null)[] = [];
    t.core.events.on('dataFile.changed', (s) => changes.push(s.problem?.kind ?? null));
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    expect((await push(t, message('9000000009', 'y'.repeat(30_000)))).status).toBe(503);
    const status = await t.call('dataFile.status');
    expect(status.problem).toMatchObject({ kind: 'cannot-write', reason: expect.stringMatching(/disk is full/) });
    expect(changes).toContain('cannot-write');
    db.exec('PRAGMA max_page_count = 1073741823');
    expect((await push(t, message('9000000009', 'y'.repeat(30_000)))).status).toBe(200);
    expect(await t.call('dataFile.status')).toMatchObject({ problem: null, downtime: [expect.any(Object)] });
  });
});

describe('start-up on a store that cannot be written', () => {
  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });

  it('a read-only database: the listener is not left answering on its port', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const database = openAppDatabase(join(dir.path, 'innkeeper.db'));
    cleanups.push(() => database.close());
    // The connection may read but not write, as with a read-only file (the tests run as root, which chmod does not stop).
    database.db.exec('PRAGMA query_only = ON');
    const port = await freePort();
    await expect(
      startListener({
        database,
        filers: INBOX_FILERS,
        port,
        credentials: () => [{ username: 'su', password: PASSWORD }],
      }),
    ).rejects.toThrow(/readonly/);
    await expect(fetch(`http://127.0.0.1:${port}/push`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('the core on a read-only database says it is not listening, and nothing answers', async () => {
    const t = await core();
    cleanups.push(() => t.stop());
    const before = t.core.use(intakeFeature).service.status();
    await t.core.use(intakeFeature).service.stop();
    t.core.db.db.exec('PRAGMA query_only = ON');
    await t.core.use(intakeFeature).service.start();
    const status = t.core.use(intakeFeature).service.status();
    expect(status).toMatchObject({ listening: false, localUrl: null, error: expect.stringMatching(/read-only/) });
    const { problem } = await t.call('dataFile.status');
    expect(problem).toMatchObject({ kind: 'cannot-write', reason: expect.stringMatching(/read-only/) });
    await expect(fetch(before.localUrl!, { method: 'POST', body: '{}' })).rejects.toThrow();
    // Writable again: the next try starts the listener, and the period is recorded.
    t.core.db.db.exec('PRAGMA query_only = OFF');
    await t.core.use(intakeFeature).service.start();
    const after = t.core.use(intakeFeature).service.status();
    expect(after).toMatchObject({ listening: true, error: null });
    const file = await t.call('dataFile.status');
    expect(file.problem).toBeNull();
    expect(file.downtime).toEqual([{ from: problem!.since, to: expect.any(Number) }]);
    expect((await push(t, message('9000000031', 'Writable again'))).status).toBe(200);
  });
});

describe('what Su sends is kept byte for byte', () => {
  it('JSON with a UTF-8 byte-order mark is stored and acknowledged; the log keeps the mark', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(message('9000000010', 'Grüße'), 'utf8')]);
    const response = await fetch(t.receiver.localUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('su-partner:correct horse battery staple').toString('base64')}` },
      body: raw,
    });
    expect(response.status).toBe(200);
    expect(messageTexts(t.database)).toEqual(['Grüße']);
    const logged = t.database.db.prepare('SELECT CAST(body AS BLOB) AS bytes, outcome FROM push_log').get() as {
      bytes: Uint8Array;
      outcome: string;
    };
    expect(logged.outcome).toBe('stored');
    expect(Buffer.from(logged.bytes).equals(raw)).toBe(true);
  });

  it('bytes that are not UTF-8 are logged as they came (a BLOB), not replaced', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    const raw = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"a":"\xff\xfe"}
    const response = await fetch(t.receiver.localUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('su-partner:correct horse battery staple').toString('base64')}` },
      body: raw,
    });
    expect(response.status).toBe(200);
    const logged = t.database.db.prepare('SELECT body, typeof(body) AS type FROM push_log').get() as {
      body: Uint8Array;
      type: string;
    };
    expect(logged.type).toBe('blob');
    expect(Buffer.from(logged.body).equals(raw)).toBe(true);
  });
});
