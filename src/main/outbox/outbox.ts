import { AppFailure, ErrorCode, errorText } from '../../shared/result';
import { DEFAULT_BACKOFF, OTHER_PROVIDER } from './policy';
import { createOutboxSql } from './outboxSql';
import type { OutboxItem, OutboxKinds, OutboxOptions, OutboxState, PayloadOf, Timers } from './types';
import { createWorker } from './worker';

const realTimers: Timers = {
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    // A waiting outbox must not keep a process alive by itself (CLI runs, tests); the app is alive anyway.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const STATE_WORDS: Record<OutboxState, string> = {
  queued: 'waiting to be sent',
  sending: 'being sent right now',
  sent: 'already sent',
  failed: 'stopped',
  discarded: 'discarded',
};

const notFound = (id: number) =>
  new AppFailure({ code: 'not_found', message: `There is no outgoing item ${id}.`, retryable: false });

/**
 * The durable outbox: work for the provider (message and review replies, rate pushes) that must survive a crash
 * and go out exactly as the owner intended: retried with backoff, one at a time per entity, and never marked sent
 * when its outcome is unknown.
 *
 * Callers queue an item in the same transaction as their local change, on the same connection:
 *
 *     database.transaction(() => {
 *       const item = outbox.enqueue(REPLY_KINDS.message, entityKey.thread(threadId), payload);
 *       db.prepare('INSERT INTO messages … outbox_id …').run(…, item.id);
 *     });
 *
 * so either both are committed or neither is; `onChange` hears about the item only after that commit.
 */
export function createOutbox<K extends OutboxKinds>(options: OutboxOptions<K>) {
  const { db, now, kinds } = options;
  const store = createOutboxSql(db);
  // A message, never a stack or an object dump: those could carry a payload.
  const onError = options.onError ?? ((error: unknown) => console.error(`outbox: ${errorText(error)}`));

  /** Tells the item's own feature (its kind's `changed`), then the outbox's listener. */
  const notify = (id: number) => {
    const item = store.get(id);
    if (!item) return;
    for (const listener of [kindOf(item.kind)?.changed, options.onChange]) {
      try {
        listener?.(item);
      } catch (error) {
        // A broken listener must not leave an item half-recorded or stop the worker.
        onError(error);
      }
    }
  };

  const kindOf = (kind: string) => (Object.hasOwn(kinds, kind) ? kinds[kind] : undefined);

  const worker = createWorker({
    store,
    kinds,
    now,
    random: options.random,
    timers: options.timers ?? realTimers,
    maxInFlight: Math.max(1, options.maxInFlight ?? 4),
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    notify,
    onError,
    ...(options.provider ? { provider: options.provider } : {}),
  });

  /**
   * Tells the UI and the worker about a new item once the caller's transaction has ended. Until then the row is
   * not committed (and may yet be rolled back), so the UI must not say "queued" yet.
   */
  const afterCommit = (id: number) => {
    const check = () => {
      try {
        // Closed right after queueing (the app shutting down): the row is durable, the next start sends it.
        if (!db.db.isOpen) return;
        if (db.db.isTransaction) return void setImmediate(check);
        // Absent when the caller's transaction rolled back.
        if (!store.get(id)) return;
        notify(id);
        worker.pump();
      } catch (error) {
        onError(error);
      }
    };
    queueMicrotask(check);
  };

  const serialize = (payload: unknown): string => {
    const text = JSON.stringify(payload);
    if (text === undefined) {
      throw new AppFailure({ code: ErrorCode.Validation, message: 'There is nothing to send.', retryable: false });
    }
    return text;
  };

  /** Applies an owner's decision to one item, allowed only from some states, and tells UI and worker. */
  const decide = (id: number, verb: string, from: OutboxState[], change: () => boolean): OutboxItem => {
    const before = store.get(id);
    if (!before) throw notFound(id);
    // The guarded UPDATE re-checks the state, so a send that began in between is never changed under it.
    if (!from.includes(before.state) || !change()) {
      const state = store.get(id)?.state ?? before.state;
      throw new AppFailure({
        code: 'invalid_state',
        message: `This item cannot be ${verb}: it is ${STATE_WORDS[state]}.`,
        retryable: false,
      });
    }
    // The item as the decision left it (a retried item may be on its way by the time the caller looks again).
    const after = store.get(id)!;
    notify(id);
    worker.pump();
    return after;
  };

  return {
    /**
     * Queues `payload` for the sender of `kind`, after every open item of `entityKey`. Call it inside the
     * transaction that makes the local change (it opens none itself); it is durable when that commits.
     */
    enqueue<Kind extends keyof K & string>(
      kind: Kind,
      entityKey: string,
      payload: PayloadOf<K, Kind>,
      /** The provider it belongs to, when not the one in use (a reply to the built-in demo provider's guest). */
      provider?: string,
    ): OutboxItem<PayloadOf<K, Kind>> {
      if (!kindOf(kind)) {
        throw new AppFailure({ code: ErrorCode.Validation, message: `No sender for “${kind}”.`, retryable: false });
      }
      if (!entityKey) {
        throw new AppFailure({ code: ErrorCode.Validation, message: 'An item needs an entity key.', retryable: false });
      }
      const item = store.insert(kind, entityKey, serialize(payload), now(), provider ?? options.provider?.() ?? null);
      afterCommit(item.id);
      return item as OutboxItem<PayloadOf<K, Kind>>;
    },

    /** Marks items left mid-send by a previous process as failed (outcome unknown), then sends. */
    start: () => worker.start(),
    /** Stops sending; resolves once the sends in flight are recorded. */
    stop: () => worker.stop(),
    /** Once started: sends what is due now; resolves when nothing is in flight any more. */
    kick: () => worker.kick(),

    /** Sends a failed item again, from a fresh backoff. */
    retry: (id: number) =>
      decide(id, 'sent again', ['failed'], () =>
        store.requeue(id, { attempts: 0, at: now(), error: null, now: now(), from: 'failed' }),
      ),
    /** Replaces the payload of a waiting or stopped item; its sender validates it again on the next attempt. */
    edit: (id: number, payload: unknown) => {
      const text = serialize(payload);
      return decide(id, 'edited', ['queued', 'failed'], () => store.setPayload(id, text, now()));
    },
    /** Gives up on a waiting or stopped item; the entity's later items go ahead. */
    discard: (id: number) => decide(id, 'discarded', ['queued', 'failed'], () => store.discard(id, now())),
    /** The owner confirmed that a stopped item (typically one whose outcome was unknown) did arrive. */
    markSent(id: number) {
      const item = store.get(id);
      const refusal =
        item?.lastError?.code === OTHER_PROVIDER
          ? 'This was not sent anywhere, so it cannot be marked as sent: discard it, or send it again.'
          : item && kindOf(item.kind)?.markSentRefusal?.(item);
      if (refusal) throw new AppFailure({ code: 'invalid_state', message: refusal, retryable: false });
      return decide(id, 'marked as sent', ['failed'], () =>
        store.markSent(id, { confirmedByOwner: true }, now(), 'failed'),
      );
    },

    /** Why the whole queue is paused (an authorization failure), or null. Persisted with the waiting item. */
    paused: () => store.paused(),
    /** After the owner fixed the credentials: the waiting items are attempted again now. */
    resume(): void {
      for (const item of store.resume(now())) notify(item.id);
      worker.pump();
    },
    /** Until when the provider is taken as unreachable (nothing is attempted before), or null. */
    unreachableUntil: () => worker.unreachableUntil(),

    /** Every item of one entity (a thread's outgoing messages), oldest first. */
    list: (entityKey: string) => store.list(entityKey),
    get: (id: number) => store.get(id),
    counts: (only?: (kind: string) => boolean) => store.counts(only),
    /** Every item not yet settled (queued, sending or failed), oldest first. */
    pending: () => store.pending(),
  };
}

/** An outbox with the kinds `K` (services that queue replies take `Outbox<ReplyKinds>`). */
export type Outbox<K extends OutboxKinds = OutboxKinds> = ReturnType<typeof createOutbox<K>>;

/** The outbox as one feature sees it: typed by the kinds it owns (the same outbox; every kind is registered). */
export const outboxFor = <K extends OutboxKinds>(outbox: Outbox): Outbox<K> => outbox as unknown as Outbox<K>;
