import { z } from 'zod';
import { replyBodySchema } from './inbox';
import { idArgSchema, noArgs } from './validation';

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

/** A failed reply, rewritten by the owner before it is sent again. */
export const editReplySchema = z.object({ id: z.number().int().positive(), body: replyBodySchema }).strict();

/** The outbox's slice of the contract: the queue of replies and rates pushes on their way to Su. */
export const outboxMethods = {
  'outbox.status': noArgs,
  'outbox.retry': idArgSchema,
  'outbox.discard': idArgSchema,
  'outbox.editReply': editReplySchema,
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
