import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { sandboxProfileOn } from '../support/emulatorProfile';

// The setup guide's checks of the parts of a Su account, each a real call through the core to the demo's emulator
// over loopback HTTP: whether Su accepts the part's credentials, and which field to fix when it does not.
describe('the setup guide checks each part of the account', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  const { call } = contractClient(() => ctx.core.dispatcher);
  const demo = { environment: 'demo' as const, domain: DEMO_CREDENTIALS.domain };
  /** A sandbox profile that points at the demo's emulator, with some secrets changed. */
  const sandboxOnEmulator = (secrets: Record<string, string> = {}) => {
    const profile = sandboxProfileOn(ctx.emulator());
    return { ...profile, secrets: { ...profile.secrets, ...secrets } };
  };
  const requestsTo = (path: string) => ctx.emulator().state.requests.filter((r) => r.path.endsWith(path));

  beforeEach(async () => {
    ctx = await startTestCore();
  });
  afterEach(() => ctx.stop());

  it('the demo’s own credentials pass every part, each checked by Su and nothing changed', async () => {
    const facilitiesBefore = JSON.stringify([...ctx.emulator().state.facilities.entries()]);
    const before = ['/jservice/bdc/facilities/set', '/service/api/transactionstatus', '/jservice/notificationAB'].map(
      (path) => requestsTo(path).length,
    );
    for (const part of ['facility', 'payment', 'notifications'] as const) {
      const result = await call('connection.checkPart', {
        part,
        profile: { ...demo, facilityAppId: 'demo-app', paymentApiName: 'DEMOAPP', notificationUser: 'demo' },
      });
      expect(result, part).toMatchObject({ part, ok: true, field: null });
      expect(result.text).toMatch(/^Su accepted/);
    }
    expect(requestsTo('/jservice/bdc/facilities/set')).toHaveLength(before[0]! + 1);
    expect(requestsTo('/service/api/transactionstatus')).toHaveLength(before[1]! + 1);
    expect(requestsTo('/jservice/notificationAB')).toHaveLength(before[2]! + 1);
    expect(JSON.stringify([...ctx.emulator().state.facilities.entries()])).toBe(facilitiesBefore);
  });

  it('a wrong facility key is refused by Su and names the field to fix', async () => {
    const before = requestsTo('/jservice/bdc/facilities/set').length;
    const result = await call('connection.checkPart', {
      part: 'facility',
      profile: sandboxOnEmulator({ facilityApiKey: 'not-the-facility-key' }),
    });
    expect(result).toMatchObject({ ok: false, field: 'facilityApiKey' });
    expect(result.text).toContain('Su refused the app id and API key');
    expect(result.text).toContain('under Property facilities');
    expect(result.text).not.toContain('not-the-facility-key');
    expect(requestsTo('/jservice/bdc/facilities/set')).toHaveLength(before + 1);
  });

  it('a payment API name the host does not know points at the name, a wrong key at the key', async () => {
    const name = await call('connection.checkPart', {
      part: 'payment',
      profile: { ...sandboxOnEmulator(), paymentApiName: 'SOMEONEELSE' },
    });
    expect(name).toMatchObject({ ok: false, field: 'paymentApiName' });
    expect(name.text).toContain('does not know this API name');
    const key = await call('connection.checkPart', {
      part: 'payment',
      profile: sandboxOnEmulator({ paymentApiKey: 'not-the-payment-key' }),
    });
    expect(key).toMatchObject({ ok: false, field: 'paymentApiKey' });
    const right = await call('connection.checkPart', { part: 'payment', profile: sandboxOnEmulator() });
    expect(right).toMatchObject({ ok: true, field: null });
  });

  it('a wrong notification password is refused and names the password', async () => {
    const result = await call('connection.checkPart', {
      part: 'notifications',
      profile: sandboxOnEmulator({ notificationPassword: 'not-the-notification-password' }),
    });
    expect(result).toMatchObject({ ok: false, field: 'notificationPassword' });
    expect(result.text).toContain('Channel notifications');
  });

  it('a part without its key asks for it and sends nothing', async () => {
    const production = {
      environment: 'production' as const,
      mainBaseUrl: 'https://connect.su-api.com/SUAPI',
      tokenBaseUrl: 'https://token.suissu.com',
      domain: 'myguesthouse.com',
    };
    const result = await call('connection.checkPart', {
      part: 'payment',
      profile: { ...production, paymentApiName: 'MYINN' },
    });
    expect(result).toMatchObject({
      ok: false,
      field: 'paymentApiKey',
      text: 'Enter the API key under Payments first.',
    });
    const noName = await call('connection.checkPart', {
      part: 'facility',
      profile: production,
    });
    expect(noName).toMatchObject({ ok: false, field: 'facilityAppId' });
  });

  it('an address where nothing answers names the base URL to check', async () => {
    const result = await call('connection.checkPart', {
      part: 'payment',
      profile: { ...sandboxOnEmulator(), tokenBaseUrl: 'http://127.0.0.1:9' },
    });
    expect(result).toMatchObject({ ok: false, field: 'tokenBaseUrl' });
    expect(result.text).toContain('Check the Payment host base URL');
  });
});
