import type { AppError } from '../../shared/result';
import type { Database } from '../db/database';

/**
 * Where an item is in its life:
 * - `queued`: waiting for its turn (or its next attempt after a transient failure);
 * - `sending`: the request is on its way; a row still here after a restart was interrupted mid-send;
 * - `sent`: the provider confirmed it (or the owner confirmed it arrived);
 * - `failed`: stopped for the owner: refused by the provider, or the outcome is unknown;
 * - `discarded`: the owner gave up on it.
 * `queued`, `sending` and `failed` items block later items of the same entity.
 */
export type OutboxState = 'queued' | 'sending' | 'sent' | 'failed' | 'discarded';

/** One unit of work for the provider, as stored. */
export interface OutboxItem<P = unknown> {
  id: number;
  /** Which sender handles it: 'message-reply', 'review-reply', 'legacy-review-reply' or 'rates-push'. */
  kind: string;
  /**
   * What it belongs to, for ordering: items with the same key go out strictly one after another, in the order
   * they were queued (e.g. `thread:12`, `review:7`).
   */
  entityKey: string;
  payload: P;
  state: OutboxState;
  /** Sends started so far (the basis of the backoff; reset by `retry`). */
  attempts: number;
  /** Epoch ms before which a queued item is not attempted. */
  nextAttemptAt: number;
  /** Why the last attempt did not succeed; for `failed` items what the owner is shown. */
  lastError: AppError | null;
  /** What the provider answered on success (JSON). */
  result: unknown;
  createdAt: number;
  updatedAt: number;
  /** The provider in use when it was queued ('demo', 'sandbox', 'production'); it goes to that one only. */
  provider: string | null;
}

/** Sends one payload. Resolves when the provider confirmed; throws an `AppFailure` otherwise. */
export type Sender<P = never> = (payload: P) => Promise<unknown>;

/** Where the owner finds an item: the conversation or the review a reply belongs to. */
export type OutboxPlace = { threadId: number } | { reviewId: number };

/**
 * One kind of outgoing work, as the feature that owns it declares it (`FeatureParts.outboxKinds`). The outbox
 * hands each item of the kind to its own feature only: `send` it, ask whether it may be marked sent, tell it
 * that the item changed.
 */
export interface OutboxKind<P = unknown> {
  /** Sends one payload. Resolves when the provider confirmed; throws an `AppFailure` otherwise. */
  send(payload: P): Promise<unknown>;
  /**
   * Why the owner may not mark an item of this kind as sent (null when they may). Marking an item sent tells its
   * feature the provider has it, which some kinds allow only when that may be true.
   */
  markSentRefusal?(item: OutboxItem<P>): string | null;
  /** The item changed (queued, sending, sent, failed, retried, edited, discarded), once the change is committed. */
  changed?(item: OutboxItem<P>): void;
  /**
   * For kinds the outbox's banner speaks of (replies): where the owner finds an item. Kinds without it are followed
   * on their own screens (rates and property pushes, photo uploads).
   */
  place?(item: OutboxItem<P>): OutboxPlace | null;
}

/** Kind → how it is sent. The payload type of each kind is its `send`'s parameter. */
export type OutboxKinds = Record<string, OutboxKind>;

export type PayloadOf<K extends OutboxKinds, Kind extends keyof K> = Parameters<K[Kind]['send']>[0];

/** The kinds of a record of senders (a kind that only sends). */
export function sendersAsKinds<S extends Record<string, Sender<never>>>(
  senders: S,
): { [Kind in keyof S]: OutboxKind<Parameters<S[Kind]>[0]> } {
  return Object.fromEntries(Object.entries(senders).map(([kind, send]) => [kind, { send }])) as never;
}

/** Why the whole queue is paused: an authorization failure that only the owner can fix. */
export interface OutboxPause {
  error: AppError;
  /** When it happened (epoch ms). */
  since: number;
  /** The item whose attempt was refused; it waits, queued, at the head of its entity. */
  itemId: number;
}

export interface OutboxCounts {
  queued: number;
  sending: number;
  failed: number;
}

/** The timer functions the worker uses to wake for the next due item (injectable for tests). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface OutboxOptions<K extends OutboxKinds> {
  /** The app's database; callers enqueue inside their own `db.transaction` on this same connection. */
  db: Database;
  now: () => number;
  /** Uniform in [0, 1): the jitter of the backoff. */
  random: () => number;
  /** Every kind it sends (a live record: kinds added later are found when their items are sent). */
  kinds: K;
  /**
   * The provider in use now. An item is sent only to the provider it was queued for: a reply written on the demo
   * never reaches production because the owner switched meanwhile. Without it, items carry no provider.
   */
  provider?: () => string;
  /**
   * Called after every change of an item, after its kind's own `changed` (the outbox's status for the UI); a
   * throwing listener does not stop the outbox.
   */
  onChange?: (item: OutboxItem) => void;
  timers?: Timers;
  /** Sends in flight at once (default 4): the provider is one partner API with rate limits, not a CDN. */
  maxInFlight?: number;
  /** Backoff bounds (default 2 s base, 5 min cap). */
  backoff?: { baseMs: number; capMs: number };
  /** Problems the worker could not record (e.g. the database went away mid-send); default console.error. */
  onError?: (error: unknown) => void;
}
