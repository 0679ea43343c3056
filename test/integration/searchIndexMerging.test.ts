import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { openDatabase } from '../../src/main/db/database';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import type { FiledMessage } from '../../src/main/inbox/fileMessage';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import {
  createMessageIndexer,
  INDEX_BATCH,
  indexPendingMessages,
  mergeStep,
  waitingToIndex,
} from '../../src/main/inbox/messageIndex';
import { fileDelivery } from '../../src/main/intake/ingest';
import { MIGRATIONS, openAppDatabase } from '../../src/main/schema';
import { threadQuerySchema } from '../../src/shared/inbox';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { tempDir } from '../support/tempDir';

// Issue 27: the search index (thread_search, FTS5) is merged by the indexer a step at a time (schema 21), and a batch
// writes its rows in the index's key order, so that writing every conversation's row again (after an update of the
// app, or a property named) never holds the core for a merge.

const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;

/** A real database file, at schema `upTo` (the app's latest when not given). */
function store(upTo?: number) {
  const dir = tempDir('innkeeper-merge-');
  const path = join(dir.path, 'innkeeper.db');
  const database =
    upTo === undefined
      ? openAppDatabase(path)
      : openDatabase(
          path,
          MIGRATIONS.filter((m) => m.version <= upTo),
        );
  cleanups.push(() => {
    database.close();
    dir.remove();
  });
  const { db } = database;
  return {
    database,
    db,
    /**
     * Files `count` conversations of one guest message each, the first filed the newest: their index keys (newest
     * first, threadWords.ts) run against the order of their ids, which is the order a batch takes them in.
     */
    conversations(count: number, from: number, word = 'harbour'): number[] {
      const at = Date.now();
      return Array.from({ length: count }, (_, i) => {
        const n = from + i;
        const result = fileDelivery(
          database as Database,
          INBOX_FILERS,
          JSON.stringify({
            ...body,
            messageid: `97${n}`,
            threadid: `M-${n}`,
            message: `A ${word} question about room${n}`,
          }),
          at - i * 60_000,
        );
        return (result.filed as FiledMessage).threadId;
      });
    },
    /** The pages of the index's segments as stored (FTS5's %_data rows, the structure record included). */
    pages: () => (db.prepare('SELECT count(*) AS n FROM thread_search_data').get() as { n: number }).n,
    structure: () =>
      (db.prepare('SELECT block FROM thread_search_data WHERE id = 10').get() as { block: Uint8Array }).block,
    search: (text: string) =>
      createInboxQueries(db)
        .threads(threadQuerySchema.parse({ search: text, limit: 500 }))
        .threads.map((t) => t.id),
    integrity: () => db.exec("INSERT INTO thread_search (thread_search) VALUES ('integrity-check')"),
  };
}

describe('the search index’s merging', () => {
  it('is left to the indexer from schema 21: FTS5 no longer merges at a commit', () => {
    const automerge = (s: ReturnType<typeof store>) =>
      s.db.prepare("SELECT v FROM thread_search_config WHERE k = 'automerge'").get() as { v: number } | undefined;
    expect(automerge(store(20))).toBeUndefined(); // FTS5's own default: merge at the commits
    expect(automerge(store())).toEqual({ v: 0 });
  });

  it('a batch writes its rows as one segment, whatever order their keys come in', () => {
    const s = store();
    const ids = s.conversations(20, 1);
    expect(indexPendingMessages(s.db, INDEX_BATCH)).toEqual({ messages: 20, threads: 0 });
    // Nothing to merge: FTS5 merges four segments or more of a level, and the batch wrote one. Taken in the order
    // of their ids, each row's key was below the one before, and each row made a segment of its own.
    expect(mergeStep(s.db)).toBe(false);
    // A new conversation is also marked to have its row written again (as a property renamed marks its
    // conversations): the next batch takes each old row out and puts its new one in, in key order.
    expect(indexPendingMessages(s.db, INDEX_BATCH)).toEqual({ messages: 0, threads: 20 });
    expect(s.search('harbour')).toEqual(ids); // newest first: the order they were filed in
    expect(s.search('room7')).toEqual([ids[6]]);
    s.integrity();
  });

  it('goes on by steps until nothing is left to merge, the search finding every conversation meanwhile', () => {
    const s = store();
    const ids: number[] = [];
    // 8 batches, one segment each: FTS5 would have merged them at the fourth commit.
    for (let b = 0; b < 8; b++) {
      ids.push(...s.conversations(20, 100 + b * 20));
      indexPendingMessages(s.db, INDEX_BATCH);
    }
    const pages = s.pages();
    let steps = 0;
    while (mergeStep(s.db, 4)) {
      steps++;
      if (steps % 3 === 0) expect(s.search('harbour')).toHaveLength(160);
      expect(steps).toBeLessThan(500);
    }
    expect(steps).toBeGreaterThan(1); // 4 pages a step: more than one step
    expect(s.pages()).toBeLessThan(pages);
    expect(mergeStep(s.db)).toBe(false);
    const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);
    expect(ascending(s.search('harbour'))).toEqual(ascending(ids));
    s.integrity();
  });

  it('the indexer merges in the background after its batches, until nothing is left', async () => {
    const s = store();
    for (let b = 0; b < 8; b++) {
      s.conversations(20, 300 + b * 20);
      indexPendingMessages(s.db, INDEX_BATCH);
    }
    s.conversations(20, 500, 'ferry'); // waiting, as after deliveries
    const indexer = createMessageIndexer(s.db, 20);
    cleanups.push(() => indexer.stop());
    // Settled: nothing waits and the index's structure has not changed for a second (the indexer runs a step every turn
    // of the event loop while there is merging to do, a few ms each).
    let last = s.structure();
    let since = Date.now();
    await eventually(
      () => {
        const now = s.structure();
        if (Buffer.compare(now, last) !== 0) [last, since] = [now, Date.now()];
        const waiting = waitingToIndex(s.db);
        return Promise.resolve(waiting.messages + waiting.threads === 0 && Date.now() - since > 1000);
      },
      (settled) => settled,
    );
    indexer.stop();
    expect(mergeStep(s.db)).toBe(false); // the indexer left nothing to merge
    expect(s.search('ferry')).toHaveLength(20);
    expect(s.search('harbour')).toHaveLength(160);
    s.integrity();
  });
});
