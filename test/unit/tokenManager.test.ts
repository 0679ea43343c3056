import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIdFromDomain } from '../../src/shared/clientId';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { AppFailure } from '../../src/shared/result';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { issueToken, validateToken } from '../../src/main/provider/auth';
import { createHostClient } from '../../src/main/provider/http';
import { createTokenManager } from '../../src/main/provider/tokenManager';
import { createEmulatorControl } from '../../src/emulator/controlClient';

const credentials = {
  clientId: clientIdFromDomain(DEMO_CREDENTIALS.domain),
  clientSecret: DEMO_CREDENTIALS.clientSecret,
};

async function failure(promise: Promise<unknown>): Promise<AppFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('token manager against the emulator over loopback HTTP', () => {
  let emulator: RunningEmulator;
  const tokenRequests = () => emulator.state.requests.filter((r) => r.path.endsWith('/generate-access-token')).length;

  beforeEach(async () => {
    emulator = await startEmulator();
  });
  afterEach(async () => {
    await emulator.close();
  });

  function manager(environment: 'sandbox' | 'production' = 'sandbox', now = () => Date.now()) {
    const http = createHostClient(emulator.mainUrl);
    return createTokenManager({ environment, now, issue: () => issueToken(http, credentials) });
  }

  it('issues a token once and reuses it for later calls', async () => {
    const m = manager();
    const first = await m.getToken();
    const second = await m.getToken();
    expect(first).toMatch(/^sandbox_/);
    expect(second).toBe(first);
    expect(tokenRequests()).toBe(1);
    expect(m.expiresAt()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('ten calls needing a token at once cause one token request', async () => {
    const m = manager();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => m.getToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokenRequests()).toBe(1);
  });

  it('refreshes shortly before expiry with a single request', async () => {
    let offset = 0;
    const m = manager('sandbox', () => Date.now() + offset);
    const first = await m.getToken();
    offset = (3600 - 60) * 1000; // one minute left: inside the refresh margin
    const refreshed = await Promise.all(Array.from({ length: 5 }, () => m.getToken()));
    expect(new Set(refreshed).size).toBe(1);
    expect(refreshed[0]).not.toBe(first);
    expect(tokenRequests()).toBe(2);
  });

  it('issues a new token after the provider refused the cached one', async () => {
    const m = manager();
    const first = await m.getToken();
    m.invalidate(first);
    expect(await m.getToken()).not.toBe(first);
    expect(tokenRequests()).toBe(2);
  });

  it('refuses a live_ token for the sandbox and never caches it', async () => {
    await emulator.close();
    emulator = await startEmulator({ environment: 'production' });
    const m = manager('sandbox');
    const error = await failure(m.getToken());
    expect(error.error.code).toBe('wrong_environment');
    expect(error.error.field).toBe('mainBaseUrl');
    expect(m.expiresAt()).toBeNull();
  });

  it('refuses a sandbox_ token for production', async () => {
    const error = await failure(manager('production').getToken());
    expect(error.error.code).toBe('wrong_environment');
    expect(error.error.message).toContain('sandbox');
  });

  it('a wrong client secret is an error on the client secret field', async () => {
    const http = createHostClient(emulator.mainUrl);
    const error = await failure(issueToken(http, { ...credentials, clientSecret: 'wrong' }));
    expect(error.error).toMatchObject({ field: 'clientSecret', httpStatus: 401, retryable: false });
  });

  it('an unknown domain is an error on the domain field', async () => {
    const http = createHostClient(emulator.mainUrl);
    const error = await failure(issueToken(http, { ...credentials, clientId: clientIdFromDomain('other.example') }));
    expect(error.error).toMatchObject({ field: 'domain', httpStatus: 401 });
  });

  it('pmsproperty accepts a fresh token and answers 401 / code 497 once it expired', async () => {
    const http = createHostClient(emulator.mainUrl);
    const { token } = await issueToken(http, credentials);
    expect(await validateToken(http, token)).toEqual({ propertyCount: 2 });
    await createEmulatorControl(emulator).raw(`/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 3601 }),
    });
    const error = await failure(validateToken(http, token));
    expect(error.error).toMatchObject({ code: 'unauthorized', providerCode: '497', httpStatus: 401 });
    expect(error.error.message).toContain('Authorization Required');
  });

  it('nothing listening at the base URL is a retryable error on the base URL field', async () => {
    const url = emulator.mainUrl;
    await emulator.close();
    const error = await failure(issueToken(createHostClient(url), credentials));
    expect(error.error).toMatchObject({ code: 'network', field: 'mainBaseUrl', retryable: true });
    emulator = await startEmulator();
  });

  it('the emulator allows at most 30 tokens per hour per client', async () => {
    await emulator.close();
    emulator = await startEmulator({ tokensPerHour: 3 });
    const http = createHostClient(emulator.mainUrl);
    for (let i = 0; i < 3; i++) await issueToken(http, credentials);
    const error = await failure(issueToken(http, credentials));
    expect(error.error).toMatchObject({ httpStatus: 429, retryable: true });
  });
});

describe('network failures say whether the request may have arrived', () => {
  it('a refused connection is not delivered; a server that accepts and never answers is an unknown outcome', async () => {
    const refused = await failure(issueToken(createHostClient('http://127.0.0.1:9'), credentials));
    expect(refused.error).toMatchObject({ code: 'network', retryable: true });
    expect(refused.error.outcomeUnknown).toBeUndefined();

    const silent = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const hung = await failure(issueToken(createHostClient(`http://127.0.0.1:${port}`, 300), credentials));
    expect(hung.error).toMatchObject({ code: 'timeout', outcomeUnknown: true, retryable: true });

    const cut = createServer((socket) => socket.on('data', () => socket.destroy()));
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    const cutPort = (cut.address() as { port: number }).port;
    const dropped = await failure(issueToken(createHostClient(`http://127.0.0.1:${cutPort}`), credentials));
    expect(dropped.error).toMatchObject({ code: 'network', outcomeUnknown: true });
    silent.close();
    cut.close();
  });
});

describe('a token request that never ends holds nobody', () => {
  it('the callers waiting are told by the deadline, and the next caller asks again', async () => {
    let asked = 0;
    const stuck = createTokenManager({
      environment: 'sandbox',
      deadlineMs: 300,
      issue: () => {
        asked += 1;
        return asked === 1
          ? new Promise(() => undefined)
          : Promise.resolve({ token: 'sandbox_fresh', tokenType: 'Bearer', expiresInSeconds: 3600 });
      },
    });
    const waiting = await Promise.all([failure(stuck.getToken()), failure(stuck.getToken())]);
    for (const w of waiting) {
      expect(w.error).toMatchObject({ code: 'timeout', retryable: true, field: 'mainBaseUrl' });
      expect(w.error.message).toBe(
        'Getting an access token failed: the provider did not finish answering within 0.3 s.',
      );
    }
    // Both shared the one request; the next caller does not wait on the stuck one.
    expect(asked).toBe(1);
    expect(await stuck.getToken()).toBe('sandbox_fresh');
    expect(asked).toBe(2);
  });
});
