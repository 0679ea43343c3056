import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeSettingsInput } from '../../src/shared/intake';
import { SECRET_REMOVED } from '../../src/main/gateway/secretLeaks';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { createFakeTunnelProvider } from '../support/fakeTunnel';
import { fixtureText } from '../support/fixtures';

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});
const { call } = contractClient(() => ctx!.core.dispatcher);
const settings = (tunnel: NonNullable<IntakeSettingsInput['tunnel']>) => ({
  port: 40000,
  username: 'su-partner',
  password: 'tunnel-test-password-123',
  tunnel,
});
const TOKEN = '2abcdefghijklmnopqrstuvwxyz_0123456789';

describe('the tunnel (ngrok in the app; a loopback forwarder here)', () => {
  it('opens after the listener, and pushes through it are authenticated and stored', async () => {
    const fake = createFakeTunnelProvider();
    ctx = await startTestCore({ tunnelProvider: fake.provider });
    const status = await call('intake.save', settings({ enabled: true, authtoken: TOKEN, domain: 'my-inn.ngrok.app' }));
    expect(status.tunnel).toMatchObject({
      enabled: true,
      state: 'up',
      authtokenSet: true,
      domain: 'my-inn.ngrok.app',
      error: null,
    });
    expect(status.registerUrl).toBe(`${status.tunnel.url}/push`);
    expect(fake.opened.at(-1)).toEqual({
      forwardTo: status.localUrl!.replace('/push', ''),
      authtoken: TOKEN,
      domain: 'my-inn.ngrok.app',
    });
    expect(JSON.stringify(status)).not.toContain(TOKEN);

    const auth = `Basic ${Buffer.from('su-partner:tunnel-test-password-123').toString('base64')}`;
    const through = await fetch(status.registerUrl!, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: fixtureText('push-message-244.json'),
    });
    expect(through.status).toBe(200);
    const unauthenticated = await fetch(status.registerUrl!, { method: 'POST', body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect((await call('inbox.threads')).total).toBe(1);
  });

  it('a tunnel that cannot open is a visible failure; the listener keeps running', async () => {
    ctx = await startTestCore({
      tunnelProvider: createFakeTunnelProvider({ refuseWith: 'authentication failed: invalid authtoken' }).provider,
    });
    const status = await call('intake.save', settings({ enabled: true, authtoken: TOKEN }));
    expect(status.listening).toBe(true);
    expect(status.tunnel).toMatchObject({ state: 'failed', url: null });
    expect(status.tunnel.error).toMatch(/invalid authtoken/);
    expect(status.registerUrl).toBeNull();
  });

  it('a dropped connection is recorded as tunnel downtime and shown as reconnecting until it is back', async () => {
    const fake = createFakeTunnelProvider();
    ctx = await startTestCore({ tunnelProvider: fake.provider });
    await call('intake.save', settings({ enabled: true, authtoken: TOKEN }));
    fake.drop();
    expect((await call('intake.status')).tunnel.state).toBe('reconnecting');
    fake.restore();
    const status = await call('intake.status');
    expect(status.tunnel.state).toBe('up');
    expect(status.downtime.filter((d) => d.component === 'tunnel')).toHaveLength(1);
  });

  it('turning it off closes it, and an authtoken is required to turn it on', async () => {
    const fake = createFakeTunnelProvider();
    ctx = await startTestCore({ tunnelProvider: fake.provider });
    const none = await ctx.core.dispatcher.dispatch('intake.save', settings({ enabled: true }));
    expect(none).toMatchObject({ ok: false, error: { field: 'tunnel.authtoken' } });
    expect(fake.opened).toHaveLength(0);
    await call('intake.save', settings({ enabled: true, authtoken: TOKEN }));
    const off = await call('intake.save', settings({ enabled: false }));
    expect(off.tunnel).toMatchObject({ enabled: false, state: 'off', authtokenSet: true });
    const bad = await ctx.core.dispatcher.dispatch(
      'intake.save',
      settings({ enabled: true, authtoken: 'short', domain: 'https://x' }),
    );
    expect(bad).toMatchObject({
      ok: false,
      error: { fields: { 'tunnel.authtoken': expect.any(String), 'tunnel.domain': expect.any(String) } },
    });
  });
});

describe('ngrok errors never carry a secret out', () => {
  const PASSWORD = settings({ enabled: true }).password;
  // What an SDK or a proxy in between could quote: the token as typed, URL-encoded, in base64 (in a Basic header,
  // also URL-safe), and the push password typed in the same save inside a Basic header.
  const ECHOED = [
    TOKEN,
    encodeURIComponent(TOKEN),
    Buffer.from(`ngrok:${TOKEN}`).toString('base64'),
    Buffer.from(`ngrok:${TOKEN}`).toString('base64url'),
    Buffer.from(TOKEN).toString('base64'),
    Buffer.from(`su-partner:${PASSWORD}`).toString('base64'),
  ];
  const leaks = (text: string) => ECHOED.filter((form) => text.includes(form));

  it('an error quoting the authtoken and the push password in any form is shown without them, everywhere', async () => {
    ctx = await startTestCore({
      tunnelProvider: createFakeTunnelProvider({
        refuseWith: `ERR_NGROK_105: The authtoken you specified is invalid. Your authtoken: ${ECHOED.join(' | ')}`,
      }).provider,
    });
    const events: unknown[] = [];
    ctx.core.events.on('intake.changed', (status) => events.push(status));
    const status = await call('intake.save', settings({ enabled: true, authtoken: TOKEN }));
    expect(status.tunnel.state).toBe('failed');
    // The rest of what ngrok said is kept, with a mark where each secret was.
    expect(status.tunnel.error).toContain('ERR_NGROK_105: The authtoken you specified is invalid. Your authtoken: ');
    expect(status.tunnel.error!.split(SECRET_REMOVED)).toHaveLength(ECHOED.length + 1);
    expect(leaks(JSON.stringify(status))).toEqual([]);
    expect(events).not.toHaveLength(0);
    expect(leaks(JSON.stringify(events))).toEqual([]);
    // Kept as the tunnel's state: the next status is just as clean.
    const later = await call('intake.status');
    expect(later.tunnel.error).toBe(status.tunnel.error);
    expect(leaks(JSON.stringify(later))).toEqual([]);
  });
});
