/**
 * Errors cross every boundary (provider client → services → gateway → renderer) as plain data.
 * `field` names the form field the message belongs next to; `retryable` says whether trying again
 * later can succeed without the owner changing anything.
 */
export interface AppError {
  /** A stable machine-readable code, see {@link ErrorCode}. */
  code: ErrorCode | string;
  /** A sentence an owner can act on. Never contains a secret. */
  message: string;
  /** The form field this error belongs to, when there is one. */
  field?: string;
  /** The provider's own error code ("497", "558", "925"…), when it gave one. */
  providerCode?: string;
  /** HTTP status from the provider, when the error came from an HTTP answer. */
  httpStatus?: number;
  /** True when the same request may succeed later (network, timeout, 429, 5xx). */
  retryable?: boolean;
  /**
   * True when the request may have reached the provider but no answer came back (timeout, connection cut):
   * a change may or may not have happened, so it must never be taken as sent nor silently repeated.
   */
  outcomeUnknown?: boolean;
  /** Every field-level problem at once (field path → message), for forms that show them all. */
  fields?: Record<string, string>;
}

/** The outcome of every contract call. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Error codes the app itself produces (provider codes such as "497" pass through as strings). */
export const ErrorCode = {
  Validation: 'validation',
  UnknownMethod: 'unknown_method',
  Forbidden: 'forbidden',
  Unauthorized: 'unauthorized',
  Network: 'network',
  Timeout: 'timeout',
  Provider: 'provider',
  WrongEnvironment: 'wrong_environment',
  NotConfigured: 'not_configured',
  Internal: 'internal',
  /** A reviewed change (rates, property): the draft changed since its preview was drawn. Preview it again. */
  PreviewStale: 'preview_stale',
  /** A reviewed change needs the owner's yes (a large change, closed dates, a new facility instance). */
  ConfirmRequired: 'confirm_required',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Wraps a value as a successful result. */
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** Wraps an error as a failed result. */
export const fail = <T = never>(error: AppError): Result<T> => ({ ok: false, error });

/** An Error that carries an {@link AppError}, for code paths that throw. */
export class AppFailure extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
    this.name = 'AppFailure';
  }
}

/** The message of anything thrown, for a log line or a status text: never a stack or an object dump. */
export function errorText(error: unknown): string {
  if (error instanceof AppFailure) return error.error.message;
  return error instanceof Error ? error.message : String(error);
}
