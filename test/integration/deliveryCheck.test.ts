import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryCheck } from '../../src/shared/deliveryCheck';
import type { IntakeSettingsInput } from '../../src/shared/intake';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { createFakeTunnelProvider } from '../support/fakeTunnel';

// The setup guide's check of Su's deliveries, on a real core: the intake's and the mailbox's own status, a real call
// from the core to the public address over loopback (a tunnel stand-in here), and the demo's test delivery.
let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});
const { call } = contractClient(() => ctx!.core.dispatcher);
const outcomes = (check: DeliveryCheck) => Object.fromEntries(check.steps.map((s) => [s.step, s.outcome]));
const step = (check: DeliveryCheck, name: string) => check.steps.find((s) => s.step === name)!;
const receiving = (more: Partial<IntakeSettingsInput> = {}): IntakeSettingsInput => ({
  port: 40000,
  username: 'su-partner',
  password: 'check-test-password-4821',
  ...more,
});
/** A real account (the sandbox) as the provider in use: the demo stops, and with it its test delivery. */
const useSandbox = () =>
  call('connection.save', {
    environment: 'sandbox',
    mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI',
    tokenBaseUrl: 'https://token.suissu.com',
    domain: 'myguesthouse.com',
  });

/** A core on a real account whose listener is reachable through a tunnel (a loopback forwarder here). */
async function sandboxBehindTunnel() {
  ctx = await startTestCore({ tunnelProvider: createFakeTunnelProvider().provider });
  await useSandbox();
  return call(
    'intake.save',
    receiving({ tunnel: { enabled: true, authtoken: '2abcdefghijklmnopqrstuvwxyz_0123456789', domain: '' } }),
  );
}

describe('checking that Su’s deliveries reach Innkeeper', () => {
  it('on the demo, the listener runs and a test delivery arrives in the inbox', async () => {
    ctx = await startTestCore();
    const check = await call('deliveryCheck.run');
    expect(check).toMatchObject({ via: 'listener', ok: true });
    expect(outcomes(check)).toEqual({
      listener: 'passed',
      credentials: 'skipped',
      address: 'skipped',
      delivery: 'passed',
    });
    expect(step(check, 'delivery').text).toMatch(/^Test delivery: /);
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(1);
  });

  it('with a real account and a tunnel, the core reaches its own listener through the public address', async () => {
    const saved = await sandboxBehindTunnel();
    expect(saved.registerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/push$/);
    const check = await call('deliveryCheck.run');
    expect(outcomes(check)).toEqual({
      listener: 'passed',
      credentials: 'passed',
      address: 'passed',
      reach: 'passed',
      delivery: 'skipped',
    });
    expect(check.ok).toBe(true);
    expect(step(check, 'reach').text).toContain(`Innkeeper called ${saved.registerUrl}`);
    // The provider offers no test delivery: the check says so instead of pretending.
    expect(step(check, 'delivery').text).toContain('no way to ask for a test delivery');
    // The call went through the tunnel without credentials: nothing was stored.
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(0);
  });

  it('while the listener refuses failed logins (someone tried wrong passwords), the reach step says to wait', async () => {
    const saved = await sandboxBehindTunnel();
    // Wrong passwords from the internet, through the tunnel, until the listener refuses that caller for the minute.
    const wrong = `Basic ${Buffer.from('su-partner:not-the-password-at-all').toString('base64')}`;
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i += 1) {
      const answer = await fetch(saved.registerUrl!, { method: 'POST', headers: { Authorization: wrong }, body: '' });
      status = answer.status;
      await answer.body?.cancel();
    }
    expect(status).toBe(429);
    const check = await call('deliveryCheck.run');
    expect(step(check, 'reach')).toMatchObject({ outcome: 'failed' });
    expect(step(check, 'reach').text).toContain('refusing logins for a minute after many wrong passwords');
  });

  it('an address where nothing answers fails the reach step and says what to fix', async () => {
    ctx = await startTestCore();
    await useSandbox();
    // A port nothing listens on (one just freed).
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const address = `https://127.0.0.1:${port}/push`;
    await call('intake.save', receiving({ publicUrl: address }));
    const check = await call('deliveryCheck.run');
    expect(check.ok).toBe(false);
    expect(step(check, 'reach')).toMatchObject({ outcome: 'failed' });
    expect(step(check, 'reach').text).toBe(
      `Innkeeper called ${address} from this computer, as Su will, but nothing answers there.`,
    );
    expect(step(check, 'reach').fix).toContain('check that your proxy forwards this address to port');
  });

  it('a real account without a password for Su or a public address fails those steps, naming the settings', async () => {
    ctx = await startTestCore();
    await useSandbox();
    const check = await call('deliveryCheck.run');
    expect(check.ok).toBe(false);
    expect(step(check, 'credentials')).toMatchObject({ outcome: 'failed' });
    expect(step(check, 'credentials').fix).toContain('Password for Su, under Receiving messages and reviews');
    expect(step(check, 'address')).toMatchObject({ outcome: 'failed' });
    expect(step(check, 'address').fix).toContain('How Su reaches your computer');
  });

  it('through the demo’s mailbox, the mailbox answers at its address and the test delivery is collected', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    await eventually(
      () => call('mailbox.status'),
      (s) => s.paired && s.connected,
    );
    const check = await call('deliveryCheck.run');
    expect(check).toMatchObject({ via: 'mailbox', ok: true });
    expect(outcomes(check)).toEqual({ mailbox: 'passed', credentials: 'passed', reach: 'passed', delivery: 'passed' });
    expect(step(check, 'reach').text).toContain('your mailbox answered there');
    expect((await call('inbox.threads', { limit: 10 })).total).toBe(1);
  }, 30_000);
});
