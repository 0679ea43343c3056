/** How many groups were committed and how many items they held (for the benchmark and the tests). */
export interface GroupWriterStats {
  /** Transactions that stored items (one `commit` each), committed or not. */
  groups: number;
  /** Items those transactions held. */
  deliveries: number;
  /** The most items one transaction held. */
  largest: number;
}

/** What became of one item of a group: stored (acknowledge it), or failed on its own (answer 5xx, the sender reposts). */
export type GroupOutcome<Result> = { result: Result } | { error: unknown };

/**
 * Stores a group of items in ONE transaction (synchronous=FULL: one sync for the whole group) and answers an outcome
 * per item, in the order given. Throws when nothing of the group was stored (a store fault): every item then fails
 * with that error.
 */
export type GroupCommit<Item, Result> = (batch: readonly Item[]) => GroupOutcome<Result>[];

export interface GroupWriter<Item, Result> {
  /**
   * Stores one item; resolves once the transaction holding it has COMMITTED, so the item may be acknowledged. Rejects
   * when it was not stored: a store fault (every item of its group rejects with the same error), or a failure of this
   * item alone.
   */
  submit(item: Item): Promise<Result>;
  stats(): GroupWriterStats;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. node:sqlite commits synchronously, so while one group's commit (and its fsync) runs, the items that
 * arrive wait in the sockets; the event loop reads them all once the commit has returned, and they are stored
 * together in the next transaction, one sync for all of them. An item is never held back for company: the group is
 * written in the same turn of the event loop that received it (setImmediate, no timer), so a lone item is committed
 * at once in its own transaction.
 *
 * `ready`: nothing is committed (or acknowledged) before it resolved (the desktop: the data file's integrity check).
 */
export function createGroupWriter<Item, Result>(
  commit: GroupCommit<Item, Result>,
  options: { ready?: Promise<unknown> } = {},
): GroupWriter<Item, Result> {
  let waiting: Waiting<Item, Result>[] = [];
  let scheduled = false;
  let ready = options.ready === undefined;
  void options.ready?.then(() => (ready = true));
  const stats: GroupWriterStats = { groups: 0, deliveries: 0, largest: 0 };

  function write(): void {
    scheduled = false;
    const group = waiting;
    waiting = [];
    if (group.length === 0) return;
    stats.groups += 1;
    stats.deliveries += group.length;
    stats.largest = Math.max(stats.largest, group.length);
    let outcomes: GroupOutcome<Result>[];
    try {
      outcomes = commit(group.map((w) => w.item));
    } catch (error) {
      // Nothing of the group was stored: every item in it is answered 5xx and reposted by the sender.
      for (const w of group) w.reject(error);
      return;
    }
    group.forEach((w, i) => {
      const outcome = outcomes[i];
      if (outcome && 'result' in outcome) w.resolve(outcome.result);
      else w.reject(outcome?.error ?? new Error('the store answered no outcome for this item'));
    });
  }

  return {
    submit(item) {
      return new Promise<Result>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          if (ready) setImmediate(write);
          else void options.ready!.then(() => setImmediate(write));
        }
      });
    },
    stats: () => ({ ...stats }),
  };
}
