import type { DatabaseSync } from 'node:sqlite';
import { errorText } from '../../shared/result';
import { immediateTransaction } from '../db/database';
import { withCachedStatements } from '../db/statements';
import { messageRowSql } from './searchMigration';

// A new message's text goes into the search index (message_text) in a batch soon after its delivery was acknowledged,
// not in the delivery's own transaction, where it was about a quarter of filing a delivery (its pages written and
// synced with the delivery's); in a batch of hundreds it costs 10–20 µs a message. Until then its id waits in
// message_text_pending, written with the message itself, so a message is never left out, whatever happens between (a
// crash, a full disk): the next batch, or the next start, indexes it. A search indexes what waits before it looks
// (`indexBeforeSearch`), so it always finds every message stored.

/** How long after a group of deliveries its texts are indexed: later batches are larger (cheaper per message). */
export const INDEX_DELAY_MS = 250;
/** At most this many messages per transaction; more wait for the next turn of the event loop. */
export const INDEX_BATCH = 2000;

/**
 * Indexes up to `limit` waiting messages, oldest first, in one transaction (or in the caller's, when one is open);
 * returns how many. What it indexes leaves the waiting list in the same transaction.
 */
export function indexPendingMessages(db: DatabaseSync, limit = Number.MAX_SAFE_INTEGER): number {
  const cached = withCachedStatements(db);
  const last = cached
    .prepare('SELECT max(id) AS id, count(*) AS n FROM (SELECT id FROM message_text_pending ORDER BY id LIMIT ?)')
    .get(limit) as { id: number | null; n: number };
  if (last.id === null) return 0;
  const index = () => {
    cached
      .prepare(
        `INSERT INTO message_text (rowid, text) SELECT ${messageRowSql('m')}, m.body
           FROM message_text_pending p JOIN messages m ON m.id = p.id WHERE p.id <= ?`,
      )
      .run(last.id);
    cached.prepare('DELETE FROM message_text_pending WHERE id <= ?').run(last.id);
  };
  if (db.isTransaction) index();
  else immediateTransaction(db, index);
  return last.n;
}

/**
 * Before a search: every message stored is indexed, so the search finds it. When that fails (a full disk), the
 * search still runs and misses only the messages still waiting.
 */
export function indexBeforeSearch(db: DatabaseSync): void {
  try {
    indexPendingMessages(db);
  } catch (error) {
    console.error(`Could not index the newest messages before a search: ${errorText(error)}`);
  }
}

/**
 * Indexes waiting messages in the background: `soon()` after deliveries were filed (and once at the start, for what a
 * crash left waiting). A failure (a full disk) is logged and tried again at the next `soon()`; nothing is lost,
 * the messages keep waiting.
 */
export function createMessageIndexer(db: DatabaseSync, delayMs = INDEX_DELAY_MS) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = (): void => {
    timer = null;
    if (stopped) return;
    try {
      // A batch's worth at a time, so deliveries arriving meanwhile are not held for long.
      if (indexPendingMessages(db, INDEX_BATCH) === INDEX_BATCH) timer = setTimeout(run, 0);
    } catch (error) {
      console.error(`Could not index new messages for search yet: ${errorText(error)}`);
    }
  };
  const soon = (): void => {
    if (stopped || timer) return;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  soon();
  return {
    soon,
    /** The core is closing: what still waits is indexed at the next start. */
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export type MessageIndexer = ReturnType<typeof createMessageIndexer>;
