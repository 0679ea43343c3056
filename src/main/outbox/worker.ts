import type { AppError } from '../../shared/result';
import { backoffDelay, classify, INTERRUPTED, noSender, otherProvider, toAppError } from './policy';
import type { OutboxSql } from './outboxSql';
import type { OutboxItem, OutboxKinds, Timers } from './types';

export interface WorkerDeps {
  store: OutboxSql;
  kinds: OutboxKinds;
  now: () => number;
  random: () => number;
  timers: Timers;
  maxInFlight: number;
  backoff: { baseMs: number; capMs: number };
  /** Tells the UI that item `id` changed. */
  notify: (id: number) => void;
  onError: (error: unknown) => void;
  /** The provider in use now: an item queued for another one is not sent. */
  provider?: () => string;
}

/**
 * The longest the worker sleeps while something waits: timers follow the monotonic clock, due times the wall
 * clock, so after a laptop sleeps or its clock is set the worker looks again within a minute.
 */
const MAX_SLEEP_MS = 60_000;

type Outcome = { ok: true; value: unknown } | { ok: false; error: AppError };

/**
 * Sends due items: one at a time per entity (the head of each entity's open items), at most `maxInFlight` at
 * once, each attempt's outcome recorded before the next one of its entity can start.
 */
export function createWorker(deps: WorkerDeps) {
  const { store, kinds, now, random, timers, backoff, notify, onError } = deps;
  let running = false;
  let timer: unknown = null;
  const inFlight = new Map<number, Promise<void>>();
  /**
   * Set after an attempt proved the provider unreachable (connection refused, no DNS). Until `until`, no item is
   * attempted; after it, one item at a time probes, so a queue of many threads costs one attempt per backoff
   * step while offline, not one per thread. Kept in memory: after a restart, one attempt finds out again.
   */
  let offline: { failures: number; until: number } | null = null;

  const clearTimer = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  const schedule = (ms: number) => {
    timer = timers.setTimeout(
      () => {
        timer = null;
        pump();
      },
      Math.min(Math.max(0, ms), MAX_SLEEP_MS),
    );
  };

  /** Starts whatever may start now and sets the timer for the next due item. Never throws. */
  function pump(): void {
    if (!running) return;
    clearTimer();
    try {
      // The whole queue waits for credentials; `resume()` pumps again.
      if (store.paused()) return;
      const t = now();
      if (offline && t < offline.until) return schedule(offline.until - t);
      const room = (offline ? 1 : deps.maxInFlight) - inFlight.size;
      if (room > 0) for (const item of store.dueHeads(t, room)) begin(item.id);
      const next = store.nextDueAt();
      // A due item that did not fit starts when a send in flight settles (which pumps), not on a timer.
      if (next !== null && next > t) schedule(next - t);
    } catch (error) {
      onError(error);
    }
  }

  function begin(id: number): void {
    // Durable before the request leaves: a crash from here on is found at start as `sending` (outcome unknown).
    if (!store.markSending(id, now())) return;
    const item = store.get(id)!;
    notify(id);
    const run = attempt(item)
      .catch(onError)
      .finally(() => {
        inFlight.delete(id);
        pump();
      });
    inFlight.set(id, run);
  }

  async function attempt(item: OutboxItem): Promise<void> {
    const kind = Object.hasOwn(kinds, item.kind) ? kinds[item.kind] : undefined;
    const sender = kind ? (payload: unknown) => kind.send(payload) : null;
    let outcome: Outcome;
    const current = deps.provider?.();
    if (item.provider && current && item.provider !== current) {
      outcome = { ok: false, error: otherProvider(item.provider, current) };
    } else if (!sender) outcome = { ok: false, error: noSender(item.kind) };
    else {
      try {
        outcome = { ok: true, value: await sender(item.payload) };
      } catch (error) {
        outcome = { ok: false, error: toAppError(error) };
      }
    }
    record(item, outcome);
    notify(item.id);
  }

  /** Moves a `sending` item on according to its outcome: sent, queued again with backoff, or stopped. */
  function record(item: OutboxItem, outcome: Outcome): void {
    const t = now();
    if (outcome.ok) {
      offline = null;
      store.markSent(item.id, outcome.value, t);
      return;
    }
    const { error } = outcome;
    const kind = classify(error);
    // Any answer from the provider proves it is reachable again; a lost answer proves nothing either way.
    if (kind !== 'offline' && kind !== 'unknown') offline = null;
    switch (kind) {
      case 'pause':
        // Not the item's fault: back at the head of its entity, the attempt not counted against its backoff.
        store.requeue(item.id, { attempts: item.attempts - 1, at: t, error, now: t, from: 'sending' });
        return;
      case 'transient':
      case 'offline': {
        const at = t + backoffDelay(item.attempts - 1, random, backoff);
        store.requeue(item.id, { attempts: item.attempts, at, error, now: t, from: 'sending' });
        if (kind === 'offline') {
          const failures = (offline?.failures ?? 0) + 1;
          offline = { failures, until: t + backoffDelay(failures - 1, random, backoff) };
        }
        return;
      }
      case 'unknown':
      case 'permanent':
        store.fail(item.id, error, t);
    }
  }

  return {
    /** Recovers items a previous process left mid-send, then starts sending. */
    start(): void {
      if (running) return;
      for (const item of store.sending()) {
        // Sends this worker started before a stop() may still be settling: those were not interrupted.
        if (inFlight.has(item.id)) continue;
        // The request may have reached the provider: neither resend nor call it sent.
        if (store.fail(item.id, INTERRUPTED, now())) notify(item.id);
      }
      running = true;
      pump();
    },
    /** Stops starting sends; resolves when the ones in flight have settled and been recorded. */
    async stop(): Promise<void> {
      running = false;
      clearTimer();
      await Promise.allSettled([...inFlight.values()]);
    },
    /** Runs a pass now; resolves when nothing is in flight any more (sends it started and their follow-ups). */
    async kick(): Promise<void> {
      pump();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
    },
    pump,
    /** Until when the provider is taken as unreachable (epoch ms), or null. */
    unreachableUntil: () => offline?.until ?? null,
  };
}
