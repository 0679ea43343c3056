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

/**
 * At most this many pages of the index's segments written by one merge step. FTS5 no longer merges them on its own
 * at a commit (schema 21, threadSearchMigration.ts): the indexer merges a step at a time with each batch, so that no
 * batch holds the core for a whole merge. Measured in one process over the 500 batches that write 10,000
 * conversations' rows again: with FTS5 merging at the commits (and the rows in the conversations' order), 5–6 ms a
 * batch (median), 51–55 ms at the 95th percentile, 93–130 ms at most; with the rows in key order and steps of 32
 * pages, batches of 2.5 ms (median), 5–6 ms at the 95th percentile, 23 ms at most, and merge steps of 2 / 4 / 20–40
 * ms. The merging itself costs about the same in all (4 s); steps of 16 or 64 pages came out alike.
 */
export const MERGE_PAGES = 32;

/**
 * One step of merging the search index's segments, writing at most `pages` pages: FTS5 starts a merge when a level
 * holds four segments (its `usermerge`) and goes on with one under way. Returns whether it wrote anything (SQLite then
 * counts two changes or more), so whether another step may have more to do. It first writes out the rows the
 * transaction holds in memory, which counts too: right after a batch of rows it answers true, and the indexer's next
 * turn finds out whether merging is left.
 */
export function mergeStep(db: DatabaseSync, pages = MERGE_PAGES): boolean {
  const cached = withCachedStatements(db);
  const changes = cached.prepare('SELECT total_changes() AS n');
  const before = (changes.get() as { n: number }).n;
  cached.prepare("INSERT INTO thread_search (thread_search, rank) VALUES ('merge', ?)").run(pages);
  return (changes.get() as { n: number }).n - before >= 2;
}

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
    writeRows(
      cached,
      [...touched].map(([id, t]) => planRow(cached, id, t.rebuild, t.pieces)),
    );
    if (taken) cached.prepare('DELETE FROM message_text_pending WHERE id <= ?').run(messages[taken - 1]!.id);
    if (marked.length)
      cached
        .prepare('DELETE FROM thread_search_pending WHERE thread_id IN (SELECT value FROM json_each(?))')
        .run(JSON.stringify(marked.map((t) => t.thread_id)));
    return { messages: taken, threads: marked.length };
  };
  return db.isTransaction ? index() : immediateTransaction(db, index);
}

/** A conversation's row as a batch writes it again: the key it is under now, if any, and its new key and text. */
interface RowPlan {
  id: number;
  old: bigint | null;
  /** Null: the conversation is gone, its row only removed. */
  row: { key: bigint; text: string; words: string } | null;
}

/** Conversation `id`'s row as it is to be written: its stored pieces and `added` (all its messages' when `rebuild`). */
function planRow(db: DatabaseSync, id: number, rebuild: boolean, added: Map<string, string>): RowPlan {
  // The key is beyond JavaScript's safe integers: read as a BigInt.
  const stored = db.prepare('SELECT row_key, words FROM thread_words WHERE thread_id = ?');
  stored.setReadBigInts(true);
  const { row_key: old = null, words: storedWords = '' } =
    (stored.get(id) as { row_key: bigint; words: string } | undefined) ?? {};
  const thread = db
    .prepare(`SELECT t.last_message_at AS at, ${threadFactsWithAddedSql('t')} AS facts FROM threads t WHERE t.id = ?`)
    .get(id) as { at: number | null; facts: string | null } | undefined;
  if (!thread) return { id, old, row: null };
  let pieces: Map<string, string>;
  if (rebuild) {
    pieces = new Map();
    for (const m of db.prepare('SELECT body FROM messages WHERE thread_id = ?').iterate(id) as Iterable<{
      body: string;
    }>)
      addPieces(m.body, pieces);
  } else {
    pieces = piecesOf(storedWords);
    for (const [k, piece] of added) if (!pieces.has(k)) pieces.set(k, piece);
  }
  const words = [...pieces.values()].join(' ');
  return { id, old, row: { key: rowKey(thread.at, id), text: `${words}\n${factSuffixes(thread.facts)}`, words } };
}

/**
 * Writes a batch's rows: each one's old row out of the index, its new one in. In key order, an old row before a new one
 * under the same key: FTS5 holds a transaction's rows in memory and writes them out as a new segment whenever a row's
 * key is below the one before it. In the conversations' order, a batch of 20 made up to 20 small segments, each one
 * written at once and merged soon after: taking the old rows out took 3.4–3.6 s of the 5.5–5.9 s it took to write
 * 10,000 conversations' rows again.
 */
function writeRows(db: DatabaseSync, plans: readonly RowPlan[]): void {
  const writes: { key: bigint; plan: RowPlan; insert: boolean }[] = [];
  for (const plan of plans) {
    if (plan.old !== null) writes.push({ key: plan.old, plan, insert: false });
    if (plan.row) writes.push({ key: plan.row.key, plan, insert: true });
  }
  writes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Number(a.insert) - Number(b.insert)));
  for (const { key, plan, insert } of writes) {
    if (!insert) db.prepare('DELETE FROM thread_search WHERE rowid = ?').run(key);
    else db.prepare('INSERT INTO thread_search (rowid, text) VALUES (?, ?)').run(key, plan.row!.text);
  }
  for (const { id, row } of plans) {
    if (!row) db.prepare('DELETE FROM thread_words WHERE thread_id = ?').run(id);
    else
      db.prepare(
        `INSERT INTO thread_words (thread_id, row_key, words) VALUES (?, ?, ?)
         ON CONFLICT (thread_id) DO UPDATE SET row_key = excluded.row_key, words = excluded.words`,
      ).run(id, row.key, row.words);
  }
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
  // A batch of rows and a step of merging the index's segments, in one transaction: whether rows still wait, and
  // whether the merge did anything (the next step may have more to merge).
  const batch = (): { more: boolean; merging: boolean } => {
    try {
      return immediateTransaction(db, () => {
        const done = indexPendingMessages(db, INDEX_BATCH);
        return { more: more(db, done), merging: mergeStep(db) };
      });
    } catch (error) {
      console.error(`Could not index new messages for search yet: ${errorText(error)}`);
      return { more: false, merging: false };
    }
  };
  const run = (): void => {
    timer = null;
    if (stopped) return;
    // A batch's worth at a time, so deliveries arriving meanwhile are not held for long.
    const started = performance.now();
    const { more, merging } = batch();
    runMs += performance.now() - started;
    if (more || merging) timer = setTimeout(run, 0);
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
      while (!stopped && batch().more) await new Promise((resolve) => setImmediate(resolve));
      soon(); // the index's merging goes on in the background
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
