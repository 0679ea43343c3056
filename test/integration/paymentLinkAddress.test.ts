import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { contractClient } from '../support/contract';
import { sandboxProfileOn } from '../support/emulatorProfile';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// Only the built-in demo provider, on this computer, may hand out a payment link on plain http (127.0.0.1). A real
// provider (sandbox, production) answering one, here the emulator saved as Su sandbox, gets it refused: nothing is
// kept as a link to pay on. A real core on a real SQLite file, the provider over loopback HTTP.

const HOTEL = 'IK-DEMO-001';
let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
let su: RunningEmulator | null = null;
const { call } = contractClient(() => ctx!.core.dispatcher);

afterEach(async () => {
  await ctx?.stop();
  ctx = null;
  await su?.close();
  su = null;
});

const link = (order_id: string) =>
  call('payments.createLink', { hotelId: HOTEL, currency_code: 'EUR', amount: '45.50', order_id });

describe('a payment link on plain http', () => {
  it('from Su sandbox (here an emulator on 127.0.0.1) is refused and not kept as a link to pay on', async () => {
    su = await startEmulator();
    ctx = await startTestCore();
    await call('connection.save', sandboxProfileOn(su));
    expect((await call('connection.get')).active).toBe('sandbox');
    await call('payments.enterPartner', { hotelId: HOTEL, partner_id: 'IK-PARTNER-01', currency_code: 'EUR' });

    const made = await link('PLAIN-1');
    // The host was asked and answered its http://127.0.0.1 address.
    const asked = (await createEmulatorControl(su).requests()).filter((r) => r.path.endsWith('/service/api/paycard'));
    expect(asked.map((r) => r.status)).toEqual([200]);
    expect(made.error).toMatchObject({ code: 'provider', retryable: false, outcomeUnknown: true });
    expect(made.error?.message).toMatch(/answered an address that is not https \(http:\/\/127\.0\.0\.1:\d+\//);
    expect(made.link).toMatchObject({ status: 'draft', url: null, outcomeUnknown: true });
    const rows = ctx.core.db.db.prepare('SELECT status, url FROM payment_links').all();
    expect(rows).toEqual([{ status: 'draft', url: null }]);
    // The same refusal for a widget link.
    const widget = await call('payments.createWidget', { hotelId: HOTEL, booking_id: 'BK-1', is_button: false });
    expect(widget.error?.message).toMatch(/not https/);
    expect(widget.link.url).toBeNull();
  });

  it('from the built-in demo provider is handed out', async () => {
    ctx = await startTestCore();
    expect((await call('connection.get')).active).toBe('demo');
    await eventually(
      () => call('payments.list', {}),
      (v) => v.partners.length === 2,
    );
    const made = await link('DEMO-1');
    expect(made.error).toBeNull();
    expect(made.link).toMatchObject({ status: 'requested' });
    expect(made.link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*get-cc\?userId=/);
  });
});
