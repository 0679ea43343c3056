import { TOKEN_PREFIX, type Environment } from '../../shared/environments';
import { AppFailure, ErrorCode } from '../../shared/result';
import type { IssuedToken } from './auth';
import { deadlineError, PROVIDER_LIMITS } from './http';

/** Holds one environment's access token: cached, refreshed ahead of expiry, never fetched twice at once. */
export interface TokenManager {
  readonly environment: Environment;
  /** A valid token, issuing a new one only when none is cached or it is about to expire. */
  getToken(): Promise<string>;
  /** Drops `token` after the provider refused it, so the next `getToken` issues a fresh one (once). */
  invalidate(token: string): void;
  /** The cached token's expiry, or null. */
  expiresAt(): number | null;
}

export interface TokenManagerOptions {
  environment: Environment;
  issue: () => Promise<IssuedToken>;
  now?: () => number;
  /** Refresh this long before expiry, so a call never leaves with a token that dies in flight. */
  refreshMarginMs?: number;
  /** Called with each newly issued token (to persist it: the provider allows only 30 per hour). */
  onIssued?: (token: { token: string; expiresAt: number }) => void;
  /** A previously persisted token to start from. */
  initial?: { token: string; expiresAt: number } | null;
  /**
   * The longest a token request may take, whatever `issue` does (its HTTP request has a shorter deadline of its
   * own): after it, the callers waiting are told and the next caller asks again, so a hung request holds nobody.
   */
  deadlineMs?: number;
}

/**
 * SECURITY: a token is only handed out when its prefix matches the environment (`live_` for production,
 * `sandbox_` otherwise), so a production token never reaches the sandbox and the other way round.
 */
export function assertTokenFitsEnvironment(token: string, environment: Environment): void {
  const expected = TOKEN_PREFIX[environment];
  if (token.startsWith(expected)) return;
  const got = token.startsWith('live_')
    ? 'a production (live_)'
    : token.startsWith('sandbox_')
      ? 'a sandbox'
      : 'an unrecognised';
  throw new AppFailure({
    code: ErrorCode.WrongEnvironment,
    message: `The provider issued ${got} token, but this connection is set to ${environment}. Check that the base URL belongs to ${environment}; the token was not used.`,
    field: 'mainBaseUrl',
    retryable: false,
  });
}

export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 5 * 60_000;
  let cached: { token: string; expiresAt: number; marginMs: number } | null = null;
  if (options.initial && options.initial.token.startsWith(TOKEN_PREFIX[options.environment])) {
    cached = { ...options.initial, marginMs: margin };
  }
  let inflight: Promise<string> | null = null;

  const fresh = () => cached !== null && cached.expiresAt - cached.marginMs > now();

  const deadlineMs = options.deadlineMs ?? PROVIDER_LIMITS.deadlineMs;
  /** `options.issue()`, failing as not answered once the deadline passes. */
  const issueWithin = (): Promise<IssuedToken> =>
    new Promise<IssuedToken>((resolve, reject) => {
      const timer = setTimeout(() => {
        const where = { what: 'Getting an access token', field: 'mainBaseUrl', baseUrl: '' };
        reject(new AppFailure(deadlineError(where, deadlineMs)));
      }, deadlineMs);
      options
        .issue()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });

  const refresh = async (): Promise<string> => {
    const startedAt = now();
    const issued = await issueWithin();
    assertTokenFitsEnvironment(issued.token, options.environment);
    const lifetimeMs = issued.expiresInSeconds * 1000;
    // A short-lived token (a test setting) is still reused for half its life rather than refreshed every call.
    cached = { token: issued.token, expiresAt: startedAt + lifetimeMs, marginMs: Math.min(margin, lifetimeMs / 2) };
    try {
      options.onIssued?.({ token: cached.token, expiresAt: cached.expiresAt });
    } catch {
      // Persisting is an optimisation (fewer of the 30 tokens per hour after a restart); the token still works.
    }
    return issued.token;
  };

  return {
    environment: options.environment,
    getToken() {
      if (fresh()) return Promise.resolve(cached!.token);
      // Single flight: every caller waiting for a token shares one request, so ten calls with an expired token
      // cause one token request.
      inflight ??= refresh().finally(() => {
        inflight = null;
      });
      return inflight;
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
    expiresAt: () => (cached && cached.expiresAt > now() ? cached.expiresAt : null),
  };
}
