import type { Database } from '../db/database';
import type { DeliveryFilers } from './deliveryKinds';
import { ingestGroup, type IngestResult, type PendingDelivery } from './ingest';

/** How many groups were committed and how many deliveries they held (for the benchmark and the tests). */
export interface GroupWriterStats {
  /** Transactions that filed deliveries (BEGIN IMMEDIATE … COMMIT), committed or not. */
  groups: number;
  /** Deliveries those transactions held. */
  deliveries: number;
  /** The most deliveries one transaction held. */
  largest: number;
}

export interface GroupWriter {
  /**
   * Files one delivery; resolves once the transaction holding it has COMMITTED (synchronous=FULL), so the delivery may
   * be acknowledged. Rejects when it was not stored: a store fault (every delivery of its group rejects with the same
   * error), a damaged store, or a failure of this delivery alone.
   */
  submit(delivery: PendingDelivery): Promise<IngestResult>;
  stats(): GroupWriterStats;
}

interface Waiting {
  delivery: PendingDelivery;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for deliveries. node:sqlite commits synchronously, so while one group's commit (and its fsync) runs,
 * the deliveries that arrive wait in the sockets; the event loop reads them all once the commit has returned, and
 * they are filed together in the next transaction, one sync for all of them. A delivery is never held back for
 * company: the group is written in the same turn of the event loop that received it (setImmediate, no timer),
 * so a lone delivery is committed at once in its own transaction.
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
  const stats: GroupWriterStats = { groups: 0, deliveries: 0, largest: 0 };

  function write(): void {
    scheduled = false;
    const group = waiting;
    waiting = [];
    if (group.length === 0) return;
    stats.groups += 1;
    stats.deliveries += group.length;
    stats.largest = Math.max(stats.largest, group.length);
    let outcomes;
    try {
      outcomes = ingestGroup(
        database,
        filers,
        group.map((w) => w.delivery),
        now(),
      );
    } catch (error) {
      // Nothing of the group was stored: every delivery in it is answered 5xx and reposted by the provider.
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
    submit(delivery) {
      return new Promise<IngestResult>((resolve, reject) => {
        waiting.push({ delivery, resolve, reject });
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
