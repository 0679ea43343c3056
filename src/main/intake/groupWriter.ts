import type { Database } from '../db/database';
import type { DeliveryFilers } from './deliveryKinds';
import { ingestGroup, type IngestResult, type PendingDelivery } from './ingest';

/** How many groups were committed and how many pushes they held (for the benchmark and the tests). */
export interface GroupWriterStats {
  /** Transactions that filed pushes (BEGIN IMMEDIATE … COMMIT), committed or not. */
  groups: number;
  /** Pushes those transactions held. */
  pushes: number;
  /** The most pushes one transaction held. */
  largest: number;
}

export interface GroupWriter {
  /**
   * Files one push; resolves once the transaction holding it has COMMITTED (synchronous=FULL), so the push may be
   * acknowledged. Rejects when it was not stored: a store fault (every push of its group rejects with the same
   * error), a damaged store, or a failure of this push alone.
   */
  submit(push: PendingDelivery): Promise<IngestResult>;
  stats(): GroupWriterStats;
}

interface Waiting {
  push: PendingDelivery;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for pushes. node:sqlite commits synchronously, so while one group's commit (and its fsync) runs,
 * the pushes that arrive wait in the sockets; the event loop reads them all once the commit has returned, and
 * they are filed together in the next transaction, one sync for all of them. A push is never held back for
 * company: the group is written in the same turn of the event loop that received it (setImmediate, no timer),
 * so a lone push is committed at once in its own transaction.
 */
export function createGroupWriter(
  database: Database,
  filers: DeliveryFilers,
  now: () => number = Date.now,
): GroupWriter {
  let waiting: Waiting[] = [];
  let scheduled = false;
  // Nothing is filed (or acknowledged) before the file's integrity check has said whether it is sound.
  let checked = false;
  void database.checked.then(() => (checked = true));
  const stats: GroupWriterStats = { groups: 0, pushes: 0, largest: 0 };

  function write(): void {
    scheduled = false;
    const group = waiting;
    waiting = [];
    if (group.length === 0) return;
    stats.groups += 1;
    stats.pushes += group.length;
    stats.largest = Math.max(stats.largest, group.length);
    let outcomes;
    try {
      outcomes = ingestGroup(
        database,
        filers,
        group.map((w) => w.push),
        now(),
      );
    } catch (error) {
      // Nothing of the group was stored: every push in it is answered 5xx and reposted by the provider.
      for (const w of group) w.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => {
      const w = group[i]!;
      if ('result' in outcome) w.resolve(outcome.result);
      else w.reject(outcome.error);
    });
  }

  return {
    submit(push) {
      return new Promise<IngestResult>((resolve, reject) => {
        waiting.push({ push, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          if (checked) setImmediate(write);
          else void database.checked.then(() => setImmediate(write));
        }
      });
    },
    stats: () => ({ ...stats }),
  };
}
