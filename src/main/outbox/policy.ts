import { ENVIRONMENT_LABELS, type Environment } from '../../shared/environments';
import { AppFailure, ErrorCode, type AppError, errorText } from '../../shared/result';

/**
 * What an attempt's outcome means for the item:
 * - `pause`: the provider refused our credentials (after the client already renewed the token once), or none are
 *   configured. Every other item would be refused the same way, so the whole queue waits for the owner.
 * - `unknown`: the request may have arrived (timeout, connection cut). Never marked sent, never sent again by
 *   itself: the owner checks and decides.
 * - `transient`: the provider did not get it or could not take it now (not delivered, 429, 5xx): try again later.
 * - `offline`: a transient failure that proves the provider is unreachable (connection refused, no DNS): the
 *   item backs off and the whole queue holds back too, so nothing is attempted while offline.
 * - `permanent`: the provider refused this request (validation, 4xx): only an edit or a decision helps.
 */
export type FailureKind = 'pause' | 'unknown' | 'transient' | 'offline' | 'permanent';

/** Codes that mean "the owner must fix the connection", not "this item is wrong". */
export const PAUSING_CODES: readonly string[] = [
  ErrorCode.Unauthorized,
  ErrorCode.NotConfigured,
  ErrorCode.WrongEnvironment,
];

export function classify(error: AppError): FailureKind {
  if (PAUSING_CODES.includes(error.code) || error.httpStatus === 401) return 'pause';
  if (error.outcomeUnknown) return 'unknown';
  if (error.retryable === true) return error.code === ErrorCode.Network ? 'offline' : 'transient';
  // Anything not known to be safe to repeat stops for the owner rather than being retried blindly.
  return 'permanent';
}

/** The AppError a sender failed with. A sender that threw anything else had a bug, possibly after sending. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppFailure) return error.error;
  const detail = errorText(error);
  return {
    code: ErrorCode.Internal,
    message: `Sending failed unexpectedly (${detail}); it may or may not have reached the provider.`,
    retryable: false,
    outcomeUnknown: true,
  };
}

/** For a row found in `sending` at start: the process stopped after the request may have left. */
export const INTERRUPTED: AppError = {
  code: 'interrupted',
  message:
    'Innkeeper stopped while this was being sent, so it may or may not have reached the guest. ' +
    'Check on the channel, then mark it as sent or send it again.',
  retryable: false,
  outcomeUnknown: true,
};

/** A kind this build has no sender for (an item written by another version). */
export const noSender = (kind: string): AppError => ({
  code: 'unknown_kind',
  message: `This version of Innkeeper cannot send items of kind “${kind}”.`,
  retryable: false,
});

/**
 * An item that belongs to another provider than the one in use (a reply written on the demo, or to one of the
 * demo's guests, then the owner moved to production): it is not sent anywhere; the owner discards it, or switches
 * back and sends it again.
 */
export const OTHER_PROVIDER = 'other_provider';
export const otherProvider = (queuedFor: string, current: string): AppError => {
  const name = (p: string) =>
    p === 'demo' ? 'the built-in demo provider' : (ENVIRONMENT_LABELS[p as Environment] ?? p);
  return {
    code: OTHER_PROVIDER,
    message: `This belongs to ${name(queuedFor)}, so it was not sent to ${name(current)}. Discard it, or switch back to ${name(queuedFor)} and send it again.`,
    retryable: false,
  };
};

export const DEFAULT_BACKOFF = { baseMs: 2_000, capMs: 5 * 60_000 };

/**
 * Capped exponential backoff with full jitter: uniform in [0, min(cap, base · 2^failures)). Full jitter spreads
 * the retries of many items (and many installations) instead of having them return in lockstep.
 */
export function backoffDelay(
  failures: number,
  random: () => number,
  { baseMs, capMs }: { baseMs: number; capMs: number } = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(failures, 30)));
  return Math.floor(random() * ceiling);
}
