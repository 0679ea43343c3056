import { performance } from 'node:perf_hooks';
import type { DatabaseSync } from 'node:sqlite';
import { errorText } from '../../shared/result';
import { immediateTransaction } from '../db/database';
import { withCachedStatements } from '../db/statements';
import { threadFactsWithAddedSql } from './bookingFactsMigration';
import { addPieces, factSuffixes, piecesOf, rowKey } from './threadWords';

// The search index (thread_search: one row per conversation, threadSearchMigration.ts) is written in batches soon
// after a group of deliveries was acknowledged, not in the delivery's own transaction, where indexing was about a
// quarter of filing a delivery. Until then a new message's id waits in message_text_pending, and a conversation
// whose row is to be written again (its newest message, what it is about, an edited or removed message) waits in
// thread_search_pending, both written with the change itself, so nothing is ever left out, whatever happens between
// (a crash, a full disk): the next batch, or the next start, indexes it. A search indexes what waits before it looks
// (`indexBeforeSearch`), so it always finds every message stored.
//
// A conversation's row is written whole each time (the index keys it by its newest message), from its stored
// pieces and the new messages' ones: the cost of a batch is bounded by the distinct words of the conversations it
// touches, never by how many messages they hold.

/** How long after a group of deliveries its texts are indexed: later batches are larger (cheaper per message). */
export const INDEX_DELAY_MS = 250;
/** The longest the indexer waits while deliveries keep coming (see {@link nextIndexDelay}). */
export const MAX_INDEX_DELAY_MS = 5000;

/**
 * How long the indexer waits after deliveries, when its last run took `lastRunMs` of work: nine times that, so it
 * takes about a tenth of the core while deliveries keep coming (a conversation's row is written once for all the
 * messages it got meanwhile), and never less than `delayMs` nor more than {@link MAX_INDEX_DELAY_MS}. A search does
 * not wait for it: it indexes what waits first.
 */
export const nextIndexDelay = (lastRunMs: number, delayMs = INDEX_DELAY_MS): number =>
  Math.min(MAX_INDEX_DELAY_MS, Math.max(delayMs, 9 * lastRunMs));
/** At most this many new messages per transaction; more wait for the next turn of the event loop. */
export const INDEX_BATCH = 2000;
/**
 * At most this many conversations written again per transaction: a row costs about 0.4 ms (more when it is read
 * again from all its messages, as every conversation is after an update of the app), so a batch holds the core for
 * about 9 ms. Measured over the batches that index 100,000 conversations again: with 20 a batch, 6 ms each (median),
 * 41 ms at the 99th percentile, 124 ms at most (FTS5 merging its segments); with 40, 11 / 52 / 103 ms.
 */
export const THREAD_BATCH = 20;

/** Whether work waits (1) or not (0): new messages, conversations whose row is to be written again. */
export function waitingToIndex(db: DatabaseSync): { messages: number; threads: number } {
  const cached = withCachedStatements(db);
  return cached
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM message_text_pending) AS messages,
              EXISTS (SELECT 1 FROM thread_search_pending) AS threads`,
    )
    .get() as { messages: number; threads: number };
}

/**
 * Indexes up to `limit` waiting messages, oldest first, as long as they touch at most `threadLimit` conversations,
 * and then waiting conversations up to that many in all, in one transaction (or in the caller's, when one is open);
 * returns how many messages and marked conversations it indexed. What it indexes leaves the waiting lists in the
 * same transaction.
 */
export function indexPendingMessages(
  db: DatabaseSync,
  limit = Number.MAX_SAFE_INTEGER,
  threadLimit = THREAD_BATCH,
): { messages: number; threads: number } {
  const cached = withCachedStatements(db);
  const index = () => {
    const messages = cached
      .prepare(
        `SELECT p.id, m.thread_id, m.body FROM message_text_pending p JOIN messages m ON m.id = p.id
         ORDER BY p.id LIMIT ?`,
      )
      .all(limit) as { id: number; thread_id: number; body: string }[];
    // Per conversation: the new messages' pieces, and whether all its messages are to be read again.
    const touched = new Map<number, { pieces: Map<string, string>; rebuild: boolean }>();
    const of = (id: number) => {
      let t = touched.get(id);
      if (!t) touched.set(id, (t = { pieces: new Map(), rebuild: false }));
      return t;
    };
    let taken = 0;
    for (const m of messages) {
      if (!touched.has(m.thread_id) && touched.size >= threadLimit) break;
      addPieces(m.body, of(m.thread_id).pieces);
      taken++;
    }
    const marked = cached
      .prepare('SELECT thread_id, rebuild FROM thread_search_pending ORDER BY thread_id LIMIT ?')
      .all(Math.max(0, threadLimit - touched.size)) as { thread_id: number; rebuild: number }[];
    for (const t of marked) {
      const row = of(t.thread_id);
      if (t.rebuild) row.rebuild = true;
    }
    for (const [id, t] of touched) writeRow(cached, id, t.rebuild, t.pieces);
    if (taken) cached.prepare('DELETE FROM message_text_pending WHERE id <= ?').run(messages[taken - 1]!.id);
    if (marked.length)
      cached
        .prepare('DELETE FROM thread_search_pending WHERE thread_id IN (SELECT value FROM json_each(?))')
        .run(JSON.stringify(marked.map((t) => t.thread_id)));
    return { messages: taken, threads: marked.length };
  };
  return db.isTransaction ? index() : immediateTransaction(db, index);
}

/** Writes conversation `id`'s row again: its stored pieces and `added` (all its messages' when `rebuild`), its facts. */
function writeRow(db: DatabaseSync, id: number, rebuild: boolean, added: Map<string, string>): void {
  // The key itself stays in SQL: it is beyond JavaScript's safe integers.
  db.prepare('DELETE FROM thread_search WHERE rowid = (SELECT row_key FROM thread_words WHERE thread_id = ?)').run(id);
  const stored = db.prepare('SELECT words FROM thread_words WHERE thread_id = ?').get(id) as
    { words: string } | undefined;
  const thread = db
    .prepare(`SELECT t.last_message_at AS at, ${threadFactsWithAddedSql('t')} AS facts FROM threads t WHERE t.id = ?`)
    .get(id) as { at: number | null; facts: string | null } | undefined;
  if (!thread) {
    db.prepare('DELETE FROM thread_words WHERE thread_id = ?').run(id);
    return;
  }
  let pieces: Map<string, string>;
  if (rebuild) {
    pieces = new Map();
    for (const m of db.prepare('SELECT body FROM messages WHERE thread_id = ?').iterate(id) as Iterable<{
      body: string;
    }>)
      addPieces(m.body, pieces);
  } else {
    pieces = piecesOf(stored?.words ?? '');
    for (const [k, piece] of added) if (!pieces.has(k)) pieces.set(k, piece);
  }
  const words = [...pieces.values()].join(' ');
  const key = rowKey(thread.at, id);
  db.prepare('INSERT INTO thread_search (rowid, text) VALUES (?, ?)').run(
    key,
    `${words}\n${factSuffixes(thread.facts)}`,
  );
  db.prepare(
    `INSERT INTO thread_words (thread_id, row_key, words) VALUES (?, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET row_key = excluded.row_key, words = excluded.words`,
  ).run(id, key, words);
}

/** Whether a batch did something and left work waiting (one that did nothing would do nothing again). */
function more(db: DatabaseSync, done: { messages: number; threads: number }): boolean {
  if (done.messages + done.threads === 0) return false;
  const left = waitingToIndex(db);
  return left.messages + left.threads > 0;
}

/**
 * Before a search: everything stored is indexed, so the search finds it. When that fails (a full disk), the search
 * still runs and misses only what is still waiting.
 */
export function indexBeforeSearch(db: DatabaseSync): void {
  try {
    while (more(db, indexPendingMessages(db, INDEX_BATCH)));
  } catch (error) {
    console.error(`Could not index the newest messages before a search: ${errorText(error)}`);
  }
}

/**
 * Indexes waiting messages in the background: `soon()` after deliveries were filed (and once at the start, for what a
 * crash left waiting, or every conversation after an update of the app). A failure (a full disk) is logged and tried
 * again at the next `soon()`; nothing is lost, the messages keep waiting. `catchUp()` is for a search: it indexes
 * what waits a batch at a time, letting deliveries and calls in between, and resolves once nothing waits (or a batch
 * failed: the search then runs without what still waits).
 */
export function createMessageIndexer(db: DatabaseSync, delayMs = INDEX_DELAY_MS) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let runMs = 0; // work of the run under way, its batches summed
  let lastRunMs = 0;
  const batch = (): boolean => {
    try {
      return more(db, indexPendingMessages(db, INDEX_BATCH));
    } catch (error) {
      console.error(`Could not index new messages for search yet: ${errorText(error)}`);
      return false;
    }
  };
  const run = (): void => {
    timer = null;
    if (stopped) return;
    // A batch's worth at a time, so deliveries arriving meanwhile are not held for long.
    const started = performance.now();
    const more = batch();
    runMs += performance.now() - started;
    if (more) timer = setTimeout(run, 0);
    else [lastRunMs, runMs] = [runMs, 0];
  };
  const soon = (): void => {
    if (stopped || timer) return;
    timer = setTimeout(run, nextIndexDelay(lastRunMs, delayMs));
    timer.unref();
  };
  soon();
  return {
    soon,
    async catchUp(): Promise<void> {
      while (!stopped && batch()) await new Promise((resolve) => setImmediate(resolve));
    },
    /** The core is closing: what still waits is indexed at the next start. */
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export type MessageIndexer = ReturnType<typeof createMessageIndexer>;
