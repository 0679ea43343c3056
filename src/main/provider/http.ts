import axios, { type AxiosInstance, isAxiosError } from 'axios';
import { ErrorCode, type AppError } from '../../shared/result';
import type { RawResponse } from './envelope';

/**
 * An axios instance for one provider host. Bodies come back as text and every status resolves, so the
 * envelope parser (not axios) decides what an answer means, and a body that is not JSON never throws.
 */
export function createHostClient(baseURL: string, timeoutMs = 20_000): AxiosInstance {
  return axios.create({
    baseURL,
    timeout: timeoutMs,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    maxRedirects: 0,
    // Provider answers are small; a runaway body is an error, not a memory problem.
    maxContentLength: 10 * 1024 * 1024,
    headers: { Accept: 'application/json' },
  });
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

function networkError(error: unknown, where: { what: string; field?: string; baseUrl: string }): AppError {
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
