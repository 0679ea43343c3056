import type { AxiosInstance } from 'axios';
import { AppFailure, ErrorCode } from '../../shared/result';
import { envelopeProblems, isObject, isSuccess, parseBody, providerError, resultFlag } from './envelope';
import { redactFailure } from '../gateway/secretLeaks';
import { send } from './http';

/** A token as the provider issued it. */
export interface IssuedToken {
  token: string;
  tokenType: string;
  expiresInSeconds: number;
}

/** Which Connection-form field a token-issue complaint is about. */
function authField(p: { text: string; field?: string }): string | undefined {
  if (/secret/i.test(p.text)) return 'clientSecret';
  if (/client[\s_-]?id|domain/i.test(p.text)) return 'domain';
  return p.field;
}

/**
 * Endpoint 1: issues a token with `client-id` (base64 of the domain) and `client-secret`. Accepts both
 * envelopes the provider uses (`{success, data, message}` and `{Status, Data, Message}`).
 */
export async function issueToken(
  http: AxiosInstance,
  credentials: { clientId: string; clientSecret: string },
  /** Other secrets of the profile, removed from the provider's text as well as the client secret it was sent. */
  alsoSecret: readonly (string | null | undefined)[] = [],
): Promise<IssuedToken> {
  try {
    return await requestToken(http, credentials);
  } catch (error) {
    // SECURITY: a refusal that echoes the client secret (typed and not saved, when testing a connection) or
    // another key never leaves here with it.
    throw redactFailure(error, [credentials.clientSecret, ...alsoSecret]);
  }
}

async function requestToken(
  http: AxiosInstance,
  credentials: { clientId: string; clientSecret: string },
): Promise<IssuedToken> {
  const what = 'Getting an access token';
  const sent = await send(
    () =>
      http.get('/jservice/auth/generate-access-token', {
        headers: { 'client-id': credentials.clientId, 'client-secret': credentials.clientSecret },
      }),
    { what, field: 'mainBaseUrl', baseUrl: http.defaults.baseURL ?? '' },
  );
  if (!sent.ok) throw new AppFailure(sent.error);
  const { raw } = sent;
  const body = parseBody(raw.body);
  const data = isObject(body) ? (body.Data ?? body.data) : undefined;
  if (raw.status !== 200 || !isSuccess(body) || !isObject(data)) {
    const error = providerError(raw, what, authField);
    // Plain words next to the field, with the provider's own text kept for support.
    const plain: Record<string, string> = {
      clientSecret: 'Su did not accept this client secret. Copy it again from the partner console',
      domain: 'Su does not know this domain. Use the domain you registered in the partner console',
    };
    for (const [field, text] of Object.entries(error.fields ?? {})) {
      if (plain[field]) error.fields![field] = `${plain[field]} (Su said: “${text}”).`;
    }
    if (raw.status === 401 && !error.field) {
      error.field = 'clientSecret';
      error.message = `${what} failed: the provider did not accept the domain and client secret (HTTP 401).`;
    }
    if (raw.status === 404) {
      error.field = 'mainBaseUrl';
      error.message = `${what} failed: there is no Su API at this base URL (HTTP 404).`;
    }
    throw new AppFailure(error);
  }
  const token = typeof data.token === 'string' ? data.token : '';
  const expiresInSeconds = Number(data.expire_in);
  if (!token || !Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new AppFailure({
      code: ErrorCode.Provider,
      message: `${what} failed: the provider's answer has no usable token or expiry.`,
      httpStatus: raw.status,
      retryable: false,
    });
  }
  return { token, tokenType: String(data.token_type ?? 'Bearer'), expiresInSeconds };
}

/**
 * Endpoint 2 (pmsproperty): proves a token works. Returns how many properties the provider listed, when its
 * answer lists them (the contract does not show this body, so anything else still counts as valid on 200).
 */
export async function validateToken(
  http: AxiosInstance,
  token: string,
  alsoSecret: readonly (string | null | undefined)[] = [],
): Promise<{ propertyCount: number | null }> {
  try {
    return await checkToken(http, token);
  } catch (error) {
    throw redactFailure(error, [token, ...alsoSecret]);
  }
}

async function checkToken(http: AxiosInstance, token: string): Promise<{ propertyCount: number | null }> {
  const what = 'Checking the access token';
  const sent = await send(() => http.get('/jservice/pmsproperty', { headers: { Authorization: `Bearer ${token}` } }), {
    what,
    field: 'mainBaseUrl',
    baseUrl: http.defaults.baseURL ?? '',
  });
  if (!sent.ok) throw new AppFailure(sent.error);
  const { raw } = sent;
  const body = parseBody(raw.body);
  // Any answer that says it failed is a failure, even on HTTP 200 and even without a reason.
  const flag = resultFlag(body);
  if (
    raw.status !== 200 ||
    (flag !== null && !isSuccess(body)) ||
    (flag === null && envelopeProblems(body).length > 0)
  ) {
    throw new AppFailure(providerError(raw, what));
  }
  const data = isObject(body) ? (body.Data ?? body.data) : undefined;
  return { propertyCount: Array.isArray(data) ? data.length : null };
}
