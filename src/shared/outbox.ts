import { idArgSchema, noArgs } from './validation';
import { defineSlice } from './contractSlice';

/** The outbox as the app shell shows it. */
export interface OutboxStatus {
  queued: number;
  sending: number;
  failed: number;
  /** Set when an authorization failure paused every send until the owner fixes the credentials. */
  paused: { message: string; since: number } | null;
  /** Set while the provider cannot be reached (no attempt before then). */
  unreachableUntil: number | null;
  /** Where the oldest reply that did not go out is: its conversation or its review. */
  firstFailed: { threadId: number } | { reviewId: number } | null;
}

/** The outbox's slice of the contract: the queue of replies and rates pushes on their way to Su. */
export const outboxMethods = {
  'outbox.status': noArgs,
  'outbox.retry': idArgSchema,
  'outbox.discard': idArgSchema,
  'outbox.markSent': idArgSchema,
  'outbox.resume': noArgs,
} as const;

export type OutboxResults = {
  [M in keyof typeof outboxMethods]: OutboxStatus;
};

export interface OutboxEvents {
  /** A reply changed state (queued, sending, sent, failed), or the queue paused or resumed. */
  'outbox.changed': OutboxStatus;
}

/** The outbox slice of the contract (listed in contract.ts). */
export const outboxContract = defineSlice<OutboxResults, OutboxEvents>()(outboxMethods, ['outbox.changed']);
