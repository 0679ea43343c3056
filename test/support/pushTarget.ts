import { join } from 'node:path';
import type { Database } from '../../src/main/db/database';
import { startListener, type ListenerOptions, type RunningListener } from '../../src/main/intake/listener';
import type { IngestResult } from '../../src/main/intake/ingest';
import { tempDir } from './tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

export const PUSH_USER = 'su-partner';
export const PUSH_PASSWORD = 'correct horse battery staple';

/** A push receiver on a real database file in a temp folder, with known Basic credentials. */
export async function startPushTarget(
  options: Partial<
    Pick<ListenerOptions, 'limits' | 'now' | 'bodyLimit' | 'onIngested' | 'publicRoutes' | 'forwarded'>
  > = {},
) {
  const dir = tempDir('innkeeper-push-');
  const database: Database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  const ingested: IngestResult[] = [];
  const receiver: RunningListener = await startListener({
    database,
    filers: INBOX_FILERS,
    port: 0,
    credentials: () => [{ username: PUSH_USER, password: PUSH_PASSWORD }],
    ...options,
    onIngested: (r) => {
      ingested.push(r);
      options.onIngested?.(r);
    },
  });
  const auth = `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`;
  return {
    database,
    receiver,
    ingested,
    dataDir: dir.path,
    /** POSTs a body (object → JSON, string → as is) with the right credentials unless others are given. */
    post: (body: unknown, headers: Record<string, string> = {}) =>
      fetch(receiver.localUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    count: (table: string) => (database.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    async stop() {
      await receiver.close();
      database.close();
      dir.remove();
    },
  };
}
