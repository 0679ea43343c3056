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

/** Kind → sender. The payload type of each kind is its sender's parameter. */
export type Senders = Record<string, Sender>;

export type PayloadOf<S extends Senders, K extends keyof S> = Parameters<S[K]>[0];

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

export interface OutboxOptions<S extends Senders> {
  /** The app's database; callers enqueue inside their own `db.transaction` on this same connection. */
  db: Database;
  now: () => number;
  /** Uniform in [0, 1): the jitter of the backoff. */
  random: () => number;
  senders: S;
  /**
   * The provider in use now. An item is sent only to the provider it was queued for: a reply written on the demo
   * never reaches production because the owner switched meanwhile. Without it, items carry no provider.
   */
  provider?: () => string;
  /**
   * Kind → why an item of that kind may not be marked as sent by the owner (null when it may). Marking an item
   * sent tells its feature the provider has it, which some kinds allow only when that may be true.
   */
  markSentRefusals?: Partial<Record<string, (item: OutboxItem) => string | null>>;
  /** Called after every change of an item (for the UI); a throwing listener does not stop the outbox. */
  onChange?: (item: OutboxItem) => void;
  timers?: Timers;
  /** Sends in flight at once (default 4): the provider is one partner API with rate limits, not a CDN. */
  maxInFlight?: number;
  /** Backoff bounds (default 2 s base, 5 min cap). */
  backoff?: { baseMs: number; capMs: number };
  /** Problems the worker could not record (e.g. the database went away mid-send); default console.error. */
  onError?: (error: unknown) => void;
}
