import type { AxiosInstance } from 'axios';
import type { z } from 'zod';
import { AppFailure, ErrorCode, type AppError } from '../../shared/result';
import { validationError } from '../../shared/validation';
import { redactDeep, redactFailure } from '../gateway/secretLeaks';
import { parseBody, providerError, type RawResponse } from './envelope';
import { deadlineError, deadlineSignal, hostLimits, send } from './http';
import type { TokenManager } from './tokenManager';

/** Credentials beyond the token, resolved from the active connection profile. Never leave the core. */
export interface ProviderCredentials {
  facilityAppId: string;
  facilityApiKey: string | null;
  notificationUser: string;
  notificationPassword: string | null;
  paymentApiName: string;
  paymentApiKey: string | null;
  /** The profile's client secret: never sent on these calls, but removed from every provider text all the same. */
  clientSecret?: string | null;
}

/** Every secret of the profile in use: none of them may be kept or shown from what the provider says. */
export const credentialSecrets = (c: ProviderCredentials): (string | null | undefined)[] => [
  c.facilityApiKey,
  c.notificationPassword,
  c.paymentApiKey,
  c.clientSecret,
];

/** What every endpoint call needs: one axios instance per host, the token manager and the other keys. */
export interface ProviderContext {
  main: AxiosInstance;
  token: AxiosInstance;
  tokens: TokenManager;
  credentials: ProviderCredentials;
}

/** The provider's four auth schemes: Bearer token, facility app id + API key, HTTP Basic, payment-host headers. */
export type AuthScheme = 'bearer' | 'facility' | 'basic' | 'payment';

export interface Endpoint<S extends z.ZodType, R> {
  /** What the owner was doing, for messages: "Sending the reply". */
  what: string;
  host: 'main' | 'token';
  path: string;
  auth: AuthScheme;
  schema: S;
  /** The body on the wire (default: the validated input as it is). */
  toWire?: (input: z.output<S>) => unknown;
  /** The result when the answer means success, otherwise null (the answer then becomes an error). */
  parse: (body: unknown, raw: RawResponse) => R | null;
  /** Maps a provider complaint to the input field it is about. */
  fieldFor?: (problem: { code: string | null; text: string; field?: string }) => string | undefined;
}

const missing = (field: string, what: string): AppFailure =>
  new AppFailure({
    code: ErrorCode.NotConfigured,
    message: `${what} needs the ${field === 'facilityApiKey' ? 'facility API key' : field === 'paymentApiKey' ? 'payment API key' : 'notification password'}: enter it on the Connection screen.`,
    field,
    retryable: false,
  });

/**
 * The token for a Bearer call, waited for no longer than the call's deadline (callers waiting for one token request
 * share it, and its own deadline is shorter). Nothing of the call has left yet, so a failure here is never an
 * unknown outcome: the call can simply be tried again later.
 */
async function tokenWithin(ctx: ProviderContext, signal: AbortSignal): Promise<string> {
  const where = { what: 'Getting an access token', baseUrl: ctx.main.defaults.baseURL ?? '' };
  try {
    return await untilAborted(ctx.tokens.getToken(), signal, () =>
      deadlineError(where, hostLimits(ctx.main).deadlineMs),
    );
  } catch (error) {
    if (!(error instanceof AppFailure) || !error.error.outcomeUnknown) throw error;
    const { outcomeUnknown: _unknown, ...notSent } = error.error;
    throw new AppFailure(notSent);
  }
}

/** `promise`, or a failure with `onAbort()` once `signal` fires first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => AppError): Promise<T> {
  if (signal.aborted) return Promise.reject(new AppFailure(onAbort()));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new AppFailure(onAbort()));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

async function authHeaders(
  ctx: ProviderContext,
  scheme: AuthScheme,
  what: string,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const c = ctx.credentials;
  switch (scheme) {
    case 'bearer':
      return { Authorization: `Bearer ${await tokenWithin(ctx, signal)}` };
    case 'facility':
      if (!c.facilityApiKey) throw missing('facilityApiKey', what);
      return { 'app-id': c.facilityAppId, Authorization: c.facilityApiKey };
    case 'basic':
      if (!c.notificationPassword) throw missing('notificationPassword', what);
      return {
        Authorization: `Basic ${Buffer.from(`${c.notificationUser}:${c.notificationPassword}`).toString('base64')}`,
      };
    case 'payment':
      if (!c.paymentApiKey) throw missing('paymentApiKey', what);
      return { 'x-api-name': c.paymentApiName, 'x-api-key': c.paymentApiKey };
  }
}

/** Finds a field path such as `facilities[0].instances[0].parking_details.parking_location` in a provider text. */
export function pathInText(text: string): string | undefined {
  const match = /\b([A-Za-z][A-Za-z_]*(?:\[\d+\])?(?:\.[A-Za-z][A-Za-z_]*(?:\[\d+\])?)+|[a-z]+_[a-z_]+)\b/.exec(text);
  return match?.[1]?.replace(/\[(\d+)\]/g, '.$1');
}

/**
 * A field mapper: the field the provider named ("field : reason", or a path in the text) wins; otherwise the
 * first keyword rule that matches the text.
 */
export function fieldByKeywords(rules: [RegExp, string][]) {
  return (p: { code: string | null; text: string; field?: string }): string | undefined => {
    const named = p.field ?? namedField(p.text);
    if (named) return named;
    return rules.find(([pattern]) => pattern.test(p.text))?.[1];
  };
}

/** A field named at the start of a provider text ("threadid is required", "locationid: …"). */
function namedField(text: string): string | undefined {
  return pathInText(text) ?? /^\s*([a-z][a-z_]*)\s*(?::|is required|is missing)/.exec(text)?.[1];
}

/**
 * Validates, sends once, and normalizes the answer. SECURITY: nothing is sent when the input is invalid; a call that
 * changes state is never retried here (the outbox decides), except after a 401 on a Bearer call, which the provider
 * refused before doing anything: then the token is renewed once and the call repeated.
 */
export async function callEndpoint<S extends z.ZodType, R>(
  ctx: ProviderContext,
  endpoint: Endpoint<S, R>,
  input: z.input<S>,
): Promise<R> {
  // SECURITY: a provider may echo what it was sent (a key, a Basic header, the token) in its complaint or its
  // answer (a per-account message); neither leaves here with any secret of the profile or credential this call sent.
  const sent: string[] = [];
  const secrets = () => [...credentialSecrets(ctx.credentials), ...sent];
  try {
    return redactDeep(await callOnce(ctx, endpoint, input, sent), secrets());
  } catch (error) {
    throw redactFailure(error, secrets());
  }
}

async function callOnce<S extends z.ZodType, R>(
  ctx: ProviderContext,
  endpoint: Endpoint<S, R>,
  input: z.input<S>,
  sent: string[],
): Promise<R> {
  const parsed = endpoint.schema.safeParse(input);
  if (!parsed.success) throw new AppFailure(validationError(parsed.error));
  const body = (endpoint.toWire ?? ((v: unknown) => v))(parsed.data);
  const http = endpoint.host === 'main' ? ctx.main : ctx.token;
  // One deadline for the whole call: the token it may wait for, the request, and the one repeat after a 401.
  const signal = deadlineSignal(hostLimits(http).deadlineMs);
  const where = { what: endpoint.what, baseUrl: http.defaults.baseURL ?? '' };

  const attempt = async (): Promise<{ raw: RawResponse; token?: string }> => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      ...(await authHeaders(ctx, endpoint.auth, endpoint.what, signal)),
    };
    for (const name of ['Authorization', 'x-api-key']) {
      const value = headers[name];
      if (value) sent.push(value, value.replace(/^(Bearer|Basic) /, ''));
    }
    if (signal.aborted) {
      // The time ran out before this request left (a slow token, a repeat after a 401): nothing of it was sent.
      const { outcomeUnknown: _unknown, ...notSent } = deadlineError(where, hostLimits(http).deadlineMs);
      throw new AppFailure(notSent);
    }
    const answer = await send(() => http.post(endpoint.path, body, { headers, signal }), where);
    if (!answer.ok) throw new AppFailure(answer.error);
    return { raw: answer.raw, token: headers.Authorization?.replace(/^Bearer /, '') };
  };

  const first = await attempt();
  let raw = first.raw;
  if (raw.status === 401 && endpoint.auth === 'bearer' && first.token) {
    ctx.tokens.invalidate(first.token);
    raw = (await attempt()).raw;
  }
  const value = raw.status >= 200 && raw.status < 300 ? endpoint.parse(parseBody(raw.body), raw) : null;
  if (value !== null) return value;
  const fieldFor = endpoint.fieldFor ?? ((p) => p.field ?? pathInText(p.text));
  const error: AppError = providerError(raw, endpoint.what, fieldFor);
  if (raw.status === 401 && !error.field) {
    error.field = {
      bearer: 'clientSecret',
      facility: 'facilityApiKey',
      basic: 'notificationPassword',
      payment: 'paymentApiKey',
    }[endpoint.auth];
  }
  throw new AppFailure(error);
}

/** Reads a key in any of the spellings the provider uses (`Data`/`data`, `Message`/`message`). */
export function pick(body: unknown, ...keys: string[]): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  for (const k of keys) if (k in body) return (body as Record<string, unknown>)[k];
  return undefined;
}
