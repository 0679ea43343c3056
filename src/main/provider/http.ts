import axios, { type AxiosInstance, isAxiosError, isCancel } from 'axios';
import { ErrorCode, type AppError } from '../../shared/result';
import type { RawResponse } from './envelope';

/**
 * The limits of every call to the provider. The deadline is for the whole call: connecting, the headers and the
 * last byte of the body (axios's own `timeout` only notices silence, so a provider that sends one byte every few
 * seconds would hold a call for ever). Provider answers are small; a runaway body is refused, not read.
 */
export const PROVIDER_LIMITS = {
  deadlineMs: 30_000,
  /**
   * A token request's own deadline: shorter than a call's, so the calls waiting for the token hear why it failed
   * (and can be tried again later) before their own deadline.
   */
  tokenDeadlineMs: 20_000,
  maxAnswerBytes: 10 * 1024 * 1024,
} as const;

export interface HostLimits {
  /** The whole call, connect to last byte (default {@link PROVIDER_LIMITS}). */
  deadlineMs?: number;
  /** The largest answer body read (default {@link PROVIDER_LIMITS}). */
  maxAnswerBytes?: number;
}

/** Each host client's limits, for the calls that build their own deadline from it (see `request.ts`). */
const limitsOf = new WeakMap<AxiosInstance, Required<HostLimits>>();
/** The deadline each abort signal of ours stands for, to say it in the error. */
const deadlineOfSignal = new WeakMap<AbortSignal, number>();

/** An abort signal that fires `ms` from now, known to {@link send}'s errors as a deadline. */
export function deadlineSignal(ms: number): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  deadlineOfSignal.set(signal, ms);
  return signal;
}

/** The limits of a host client made by {@link createHostClient}. */
export function hostLimits(http: AxiosInstance): Required<HostLimits> {
  return (
    limitsOf.get(http) ?? { deadlineMs: PROVIDER_LIMITS.deadlineMs, maxAnswerBytes: PROVIDER_LIMITS.maxAnswerBytes }
  );
}

/**
 * An axios instance for one provider host. Bodies come back as text and every status resolves, so the
 * envelope parser (not axios) decides what an answer means, and a body that is not JSON never throws. Every
 * request on it ends by its deadline (`limits` as a number is the deadline in ms), whoever sends it.
 */
export function createHostClient(baseURL: string, limits: number | HostLimits = {}): AxiosInstance {
  const given = typeof limits === 'number' ? { deadlineMs: limits } : limits;
  const own: Required<HostLimits> = {
    deadlineMs: given.deadlineMs ?? PROVIDER_LIMITS.deadlineMs,
    maxAnswerBytes: given.maxAnswerBytes ?? PROVIDER_LIMITS.maxAnswerBytes,
  };
  const http = axios.create({
    baseURL,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    maxRedirects: 0,
    maxContentLength: own.maxAnswerBytes,
    headers: { Accept: 'application/json' },
  });
  http.interceptors.request.use((config) => {
    // The host's deadline starts with the request; a signal the caller gave (the call's own deadline, which began
    // before, e.g. while a token was fetched) still counts too.
    const deadline = deadlineSignal(own.deadlineMs);
    const given = config.signal as AbortSignal | undefined;
    const signal = given ? AbortSignal.any([given, deadline]) : deadline;
    deadlineOfSignal.set(signal, (given && deadlineOfSignal.get(given)) ?? own.deadlineMs);
    config.signal = signal;
    return config;
  });
  limitsOf.set(http, own);
  return http;
}

/** Runs a request and returns status + body text, or a network error as an {@link AppError}. */
export async function send(
  request: () => Promise<{ status: number; data: unknown }>,
  where: { what: string; field?: string; baseUrl: string },
): Promise<{ ok: true; raw: RawResponse } | { ok: false; error: AppError }> {
  try {
    const response = await request();
    const body = typeof response.data === 'string' ? response.data : JSON.stringify(response.data ?? '');
    return { ok: true, raw: { status: response.status, body } };
  } catch (error) {
    return { ok: false, error: networkError(error, where) };
  }
}

/** Connection failures that happen before a request can reach the provider: safe to send again. */
const NOT_DELIVERED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The error of a call that ran out of time: it may have reached the provider, and trying later may work. */
export function deadlineError(where: { what: string; field?: string; baseUrl: string }, ms: number): AppError {
  return {
    code: ErrorCode.Timeout,
    message: `${where.what} failed: the provider did not finish answering within ${seconds(ms)}${where.baseUrl ? ` (${where.baseUrl})` : ''}.`,
    ...(where.field ? { field: where.field } : {}),
    retryable: true,
    outcomeUnknown: true,
  };
}

function networkError(error: unknown, where: { what: string; field?: string; baseUrl: string }): AppError {
  if (isCancel(error) || (isAxiosError(error) && error.code === 'ERR_CANCELED')) {
    const signal = isAxiosError(error) ? (error.config?.signal as AbortSignal | undefined) : undefined;
    const reason: unknown = signal?.reason;
    if (signal && reason instanceof Error && reason.name === 'TimeoutError') {
      return deadlineError(where, deadlineOfSignal.get(signal) ?? PROVIDER_LIMITS.deadlineMs);
    }
  }
  if (isAxiosError(error) && /^maxContentLength size of (\d+) exceeded/.test(error.message)) {
    const cap = Number(/(\d+)/.exec(error.message)![1]);
    return {
      code: ErrorCode.Provider,
      message: `${where.what} failed: the provider’s answer was larger than ${megabytes(cap)}, so Innkeeper did not read it (${where.baseUrl}).`,
      ...(where.field ? { field: where.field } : {}),
      retryable: false,
      // The request did reach the provider, which answered something.
      outcomeUnknown: true,
    };
  }
  const code = isAxiosError(error) ? error.code : undefined;
  const cause = isAxiosError(error) ? (error.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  const errno = cause ?? code ?? '';
  const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || errno === 'ETIMEDOUT';
  const reason = timedOut
    ? 'the provider did not answer in time'
    : errno === 'ENOTFOUND' || errno === 'EAI_AGAIN'
      ? 'the provider’s address could not be found (check the base URL and your internet connection)'
      : errno === 'ECONNREFUSED'
        ? 'nothing is answering at that address'
        : 'the connection was cut before the provider answered';
  return {
    code: timedOut ? ErrorCode.Timeout : ErrorCode.Network,
    message: `${where.what} failed: ${reason} (${where.baseUrl}).`,
    ...(where.field ? { field: where.field } : {}),
    retryable: true,
    // SECURITY: only a refused or unresolvable connection proves nothing was sent.
    ...(NOT_DELIVERED.has(errno) ? {} : { outcomeUnknown: true }),
  };
}
