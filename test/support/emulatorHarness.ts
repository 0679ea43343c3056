import { clientIdFromDomain } from '../../src/shared/clientId';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator } from '../../src/emulator/emulator';
import type { EmulatorOptions } from '../../src/emulator/options';

/** An HTTP answer as tests look at it: status and the parsed body (text when it is not JSON). */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

type HeaderMap = Record<string, string>;

/**
 * A running emulator plus raw, correctly authenticated calls to each of its hosts, for tests at any layer that
 * need to speak to it the way the provider's documentation does (and to break the rules on purpose).
 * A request body given as a string is sent as is (for invalid JSON); anything else is sent as JSON.
 */
export async function startEmulatorHarness(options: Partial<EmulatorOptions> = {}) {
  const emulator = await startEmulator(options);
  const o = emulator.state.options;
  let token: string | undefined;

  async function send<T = unknown>(
    url: string,
    method: string,
    headers: HeaderMap,
    body?: unknown,
  ): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as HeaderMap)['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { ...init, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Left as text: some answers (payment page, broken bodies) are not JSON.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  async function bearer(): Promise<string> {
    if (token) return token;
    const answer = await send<{ Data: { token: string } }>(
      `${emulator.mainUrl}/jservice/auth/generate-access-token`,
      'GET',
      {
        'client-id': clientIdFromDomain(o.domain),
        'client-secret': o.clientSecret,
      },
    );
    token = answer.body.Data.token;
    return token;
  }

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  return {
    emulator,
    control: createEmulatorControl(emulator),
    send,
    bearer,
    /** A jservice call with a Bearer token (headers replace the defaults, e.g. a wrong Authorization). */
    main: async <T = unknown>(path: string, body?: unknown, headers: HeaderMap = {}) =>
      send<T>(
        `${emulator.mainUrl}/jservice/${path}`,
        'POST',
        { authorization: `Bearer ${await bearer()}`, ...headers },
        body,
      ),
    /** The facility set with `app-id` and the API key. */
    facilities: <T = unknown>(body: unknown, headers: HeaderMap = {}) =>
      send<T>(
        `${emulator.mainUrl}/jservice/bdc/facilities/set`,
        'POST',
        { 'app-id': o.facilityAppId, authorization: o.facilityApiKey, ...headers },
        body,
      ),
    /** notificationAB with HTTP Basic. */
    notifications: <T = unknown>(
      body: unknown,
      credentials = { user: o.notificationUser, password: o.notificationPassword },
    ) =>
      send<T>(
        `${emulator.mainUrl}/jservice/notificationAB`,
        'POST',
        { authorization: basic(credentials.user, credentials.password) },
        body,
      ),
    /** The payment-token host with `x-api-name` and `x-api-key`. */
    payment: <T = unknown>(endpoint: string, body: unknown, headers: HeaderMap = {}) =>
      send<T>(
        `${emulator.tokenUrl}/service/api/${endpoint}`,
        'POST',
        { 'x-api-name': o.paymentApiName, 'x-api-key': o.paymentApiKey, ...headers },
        body,
      ),
    close: () => emulator.close(),
  };
}

export type EmulatorHarness = Awaited<ReturnType<typeof startEmulatorHarness>>;
