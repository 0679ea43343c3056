import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Database } from '../../src/main/db/database';
import type { CoreOptions } from '../../src/main/feature';
import { contractClient } from './contract';
import { startTestCore } from './core';
import { fixtureText } from './fixtures';
import { intakeFeature } from '../../src/main/intake/feature';
import { dataFileFeature } from '../../src/main/dataFile/feature';
import type { Refiler } from '../../src/main/db/dataFile';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import { fileInTransaction } from '../../src/main/intake/ingest';

/** Helpers for the store's fault tests: a core with push credentials, a push over HTTP, a damaged file. */
export type TestCore = Awaited<ReturnType<typeof startTestCore>>;
export const PASSWORD = 'store-faults-password-1234';
const auth = `Basic ${Buffer.from(`su-partner:${PASSWORD}`).toString('base64')}`;
const root = join(import.meta.dirname, '..', '..');

/** A guest message with its own message id, so that each is a new message. */
export function message(id: string, text: string): string {
  const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
  return JSON.stringify({ ...body, messageid: id, message: text });
}

export async function storeCore(dataDir?: string, coreOptions?: CoreOptions) {
  const t = await startTestCore({ ...(dataDir ? { dataDir } : {}), ...(coreOptions ? { coreOptions } : {}) });
  const { call, dispatch } = contractClient(() => t.core.dispatcher);
  await call('intake.save', { port: 8787, username: 'su-partner', password: PASSWORD });
  // As the app's shell does at start: the data file's status is read, which begins the start's backup; the test
  // goes on once that backup is whole (none is taken of a damaged file).
  await call('dataFile.status');
  await t.core.use(dataFileFeature).backupNow();
  return { ...t, call, dispatch };
}

export async function push(t: TestCore, body: string): Promise<Response> {
  const url = t.core.use(intakeFeature).status().localUrl!;
  return fetch(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
}

export const messageTexts = (db: Database) =>
  (db.db.prepare('SELECT body FROM messages ORDER BY body').all() as { body: string }[]).map((m) => m.body);

/** Writes garbage over an index's pages in the closed file (as a failing disk would), leaving page 1 intact. */
export function damage(dbPath: string, indexName = 'messages_by_thread'): void {
  const reader = new DatabaseSync(dbPath, { readOnly: true });
  const { page_size } = reader.prepare('PRAGMA page_size').get() as { page_size: number };
  const { rootpage } = reader.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(indexName) as {
    rootpage: number;
  };
  reader.close();
  if (existsSync(`${dbPath}-wal`) && statSync(`${dbPath}-wal`).size > 0) throw new Error('the file was not closed');
  const fd = openSync(dbPath, 'r+');
  writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (rootpage - 1) * page_size);
  closeSync(fd);
}

/** test/support/dataFileChild.ts in its own process: 'kill' dies right after opening, 'hold' keeps the file open. */
export async function dataFileChild(dbPath: string, mode: 'kill' | 'hold') {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'test', 'support', 'dataFileChild.ts'), dbPath, mode],
    { cwd: root },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  if (mode === 'hold') {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += String(d);
        if (out.includes('ready')) resolve();
      });
      child.stderr!.on('data', (d) => (out += String(d)));
      child.on('exit', () => reject(new Error(`the child exited early: ${out}`)));
    });
  }
  return { pid: child.pid!, exited, kill: () => child.kill('SIGKILL') };
}

/** A restore's filing again of what the damaged file held, as the intake does it: through the inbox's filers. */
export const refileThroughInbox: Refiler = (db, body, receivedAt, source) =>
  fileInTransaction(db, INBOX_FILERS, body, receivedAt, source).outcome !== 'duplicate';
