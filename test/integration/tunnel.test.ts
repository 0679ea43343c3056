import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTunnelService } from '../../src/main/intake/tunnelService';
import { openAppDatabase } from '../../src/main/schema';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';
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

describe('a tunnel that does not open in time', () => {
  const dir = tempDir();
  const database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  afterAll(() => {
    database.close();
    dir.remove();
  });
  const service = (fake: ReturnType<typeof createFakeTunnelProvider>) =>
    createTunnelService({ database, provider: fake.provider, now: Date.now, openDeadlineMs: 300 });
  const options = { forwardTo: 'http://127.0.0.1:1', authtoken: TOKEN };

  it('has failed at the deadline, saying so; the listener no longer believes X-Forwarded-For', async () => {
    const tunnels = service(createFakeTunnelProvider({ openAfterMs: Infinity }));
    const opening = tunnels.open(options);
    expect(tunnels.status().state).toBe('starting');
    expect(tunnels.forwarding()).toBe(true);
    await opening;
    expect(tunnels.status()).toEqual({
      enabled: true,
      state: 'failed',
      url: null,
      error: 'ngrok did not answer within 0.3 seconds: check this computer’s internet connection, then save again.',
    });
    expect(tunnels.forwarding()).toBe(false);
  });

  it('one that opens after the deadline is closed at once and never shown as up', async () => {
    const fake = createFakeTunnelProvider({ openAfterMs: 700 });
    const tunnels = service(fake);
    await tunnels.open(options);
    expect(tunnels.status().state).toBe('failed');
    await eventually(
      async () => fake.closes(),
      (n) => n === 1,
    );
    expect(tunnels.status().state).toBe('failed');
  });

  it('turned off while it opens: off it stays, and the tunnel is closed when it arrives', async () => {
    const fake = createFakeTunnelProvider({ openAfterMs: 150 });
    const tunnels = service(fake);
    const opening = tunnels.open(options);
    await tunnels.close();
    expect(tunnels.status()).toMatchObject({ enabled: false, state: 'off' });
    await opening;
    await eventually(
      async () => fake.closes(),
      (n) => n === 1,
    );
    expect(tunnels.status()).toMatchObject({ enabled: false, state: 'off' });
    expect(tunnels.forwarding()).toBe(false);
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
