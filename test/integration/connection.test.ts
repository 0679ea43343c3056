import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { createFileSecrets } from '../../src/main/config/secrets';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { tempDir } from '../support/tempDir';
import { connectionFeature } from '../../src/main/connection/feature';

describe('connection settings and "Test connection"', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  const { dispatch: call } = contractClient(() => ctx.core.dispatcher);
  const demo = { environment: 'demo' as const, domain: DEMO_CREDENTIALS.domain };

  beforeEach(async () => {
    ctx = await startTestCore();
  });
  afterEach(() => ctx.stop());

  it('a new install runs on the demo provider with its credentials prefilled', async () => {
    const state = await call('connection.get', {});
    expect(state).toMatchObject({
      ok: true,
      value: {
        active: 'demo',
        firstRun: true,
        profiles: {
          demo: {
            domain: DEMO_CREDENTIALS.domain,
            mainBaseUrl: ctx.emulator().mainUrl,
            secretsSet: { clientSecret: true },
          },
          sandbox: {
            mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI',
            tokenBaseUrl: 'https://token.suissu.com',
          },
          production: { mainBaseUrl: 'https://connect.su-api.com/SUAPI', secretsSet: { clientSecret: false } },
        },
      },
    });
  });

  it('testing the demo provider issues and validates a token and records the check', async () => {
    const result = await call('connection.test', demo);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      environment: 'demo',
      validated: true,
      propertyCount: 2,
      expiresInSeconds: 3600,
    });
    expect(result.value.tokenExpiresAt - Date.now()).toBeGreaterThan(3590_000);
    // One token, issued when first needed (the demo's property records went out with it at start), and validated.
    const paths = ctx
      .emulator()
      .state.requests.map((r) => r.path)
      .filter((p) => /generate-access-token|pmsproperty/.test(p));
    expect(paths).toEqual(['/SUAPI/jservice/auth/generate-access-token', '/SUAPI/jservice/pmsproperty']);
    expect(ctx.core.db.db.prepare('SELECT environment, ok FROM connection_check').all()).toEqual([
      { environment: 'demo', ok: 1 },
    ]);
  });

  it('the tested token is kept for later calls when the settings are the saved ones', async () => {
    await call('connection.test', demo);
    const state = await call('connection.get', {});
    expect(state.ok && state.value.token?.environment).toBe('demo');
    await ctx.core.use(connectionFeature).connection.tokenManager('demo').getToken();
    const issued = ctx.emulator().state.requests.filter((r) => r.path.endsWith('generate-access-token'));
    expect(issued).toHaveLength(1);
  });

  it('a wrong secret fails on the client secret field and saves nothing', async () => {
    const result = await call('connection.test', { ...demo, secrets: { clientSecret: 'not-the-secret' } });
    expect(result).toMatchObject({ ok: false, error: { field: 'clientSecret', httpStatus: 401 } });
    expect(ctx.core.db.db.prepare('SELECT ok, error_field FROM connection_check').all()).toEqual([
      { ok: 0, error_field: 'clientSecret' },
    ]);
    const again = await call('connection.test', demo);
    expect(again.ok).toBe(true);
  });

  it('a domain the provider does not know fails on the domain field', async () => {
    const result = await call('connection.test', { ...demo, domain: 'someone-else.example' });
    expect(result).toMatchObject({ ok: false, error: { field: 'domain' } });
  });

  it('sandbox without a client secret asks for it before sending anything', async () => {
    const result = await call('connection.test', {
      environment: 'sandbox' as const,
      mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI',
      tokenBaseUrl: 'https://token.suissu.com',
      domain: 'myguesthouse.com',
    });
    expect(result).toMatchObject({ ok: false, error: { field: 'clientSecret', code: 'not_configured' } });
  });

  it('saving keeps secrets in the 0600 secret file, never in settings, and makes the environment active', async () => {
    const saved = await call('connection.save', {
      environment: 'sandbox' as const,
      mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI/',
      tokenBaseUrl: 'https://token.suissu.com',
      domain: 'MyGuestHouse.com',
      facilityAppId: 'app-1',
      secrets: { clientSecret: 'sandbox-secret-123' },
    });
    expect(saved).toMatchObject({
      ok: true,
      value: {
        active: 'sandbox',
        firstRun: false,
        profiles: {
          sandbox: {
            domain: 'myguesthouse.com',
            clientId: 'bXlndWVzdGhvdXNlLmNvbQ==',
            mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI',
            saved: true,
            secretsSet: { clientSecret: true, facilityApiKey: false },
          },
        },
      },
    });
    const settings = readFileSync(join(ctx.dataDir, 'settings.json'), 'utf8');
    expect(settings).not.toContain('sandbox-secret-123');
    const secretFile = join(ctx.dataDir, 'secrets.json');
    expect(readFileSync(secretFile, 'utf8')).toContain('sandbox-secret-123');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  });

  it('saving without retyping a secret keeps the stored one', async () => {
    const base = {
      environment: 'sandbox' as const,
      mainBaseUrl: 'https://a.example/SUAPI',
      tokenBaseUrl: 'https://b.example',
      domain: 'x.example',
    };
    await call('connection.save', { ...base, secrets: { clientSecret: 'first-secret-1' } });
    await call('connection.save', { ...base, domain: 'y.example' });
    const secrets = JSON.parse(readFileSync(join(ctx.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets['sandbox.clientSecret']).toBe('first-secret-1');
  });

  it('INNKEEPER_DEMO forces the demo provider whatever was saved', async () => {
    await ctx.stop();
    ctx = await startTestCore({ forceDemo: true });
    await call('connection.save', {
      environment: 'sandbox' as const,
      mainBaseUrl: 'https://a.example',
      tokenBaseUrl: 'https://b.example',
      domain: 'x.example',
    });
    const state = await call('connection.get', {});
    expect(state).toMatchObject({ ok: true, value: { active: 'demo', demoForced: true } });
  });
});

describe('secrets that cannot be decrypted', () => {
  it('are reported as needing re-entry instead of crashing, and saving a new value clears that', () => {
    const dir = tempDir();
    // A codec standing in for safeStorage whose key changed: everything written before fails to decrypt.
    let key = 'old';
    const codec = {
      kind: 'os-encrypted' as const,
      encode: (plain: string) => `${key}:${plain}`,
      decode: (stored: string) => {
        if (!stored.startsWith(`${key}:`)) throw new Error('decryption failed');
        return stored.slice(key.length + 1);
      },
    };
    createFileSecrets(dir.path, codec).set('sandbox.clientSecret', 'before-key-change');
    key = 'new';
    const store = createFileSecrets(dir.path, codec);
    expect(store.get('sandbox.clientSecret')).toBeNull();
    expect(store.unreadable()).toEqual(['sandbox.clientSecret']);
    expect(store.values()).not.toContain('before-key-change');
    store.set('sandbox.clientSecret', 'after-key-change');
    expect(store.unreadable()).toEqual([]);
    expect(createFileSecrets(dir.path, codec).get('sandbox.clientSecret')).toBe('after-key-change');
    dir.remove();
  });
});

describe('Test connection and the token allowance', () => {
  it('testing the saved settings again reuses the cached token instead of issuing a new one', async () => {
    const ctx = await startTestCore();
    try {
      const call = (args: unknown) => ctx.core.dispatcher.dispatch('connection.test', args);
      const demo = { environment: 'demo' as const, domain: DEMO_CREDENTIALS.domain };
      for (let i = 0; i < 3; i++) expect((await call(demo)).ok).toBe(true);
      const issued = ctx.emulator().state.requests.filter((r) => r.path.endsWith('generate-access-token'));
      expect(issued).toHaveLength(1);
      // A token the provider stopped accepting is replaced once, and the test still succeeds.
      ctx.emulator().state.tokens.clear();
      expect((await call(demo)).ok).toBe(true);
      expect(ctx.emulator().state.requests.filter((r) => r.path.endsWith('generate-access-token'))).toHaveLength(2);
    } finally {
      await ctx.stop();
    }
  });
});
