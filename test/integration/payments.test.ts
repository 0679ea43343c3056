import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { ContractEvents } from '../../src/shared/contract';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// Payments through a real core on the demo provider: accounts, links and their status on a real SQLite file, the
// payment host being the demo's emulator over loopback HTTP.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const control = () => createEmulatorControl(ctx!.emulator());
const HARBOUR = 'IK-DEMO-001';
const LOFT = 'IK-DEMO-002';
const sentTo = async (path: string) =>
  (await control().requests()).filter((r) => r.path.endsWith(path)).map((r) => r.body as Record<string, unknown>);

const partner = {
  hotelId: LOFT,
  partner_id: 'IK-LOFT-NEW',
  partner_name: 'Old Town Loft ApS',
  email_address: 'owner@oldtownloft.example',
  contact_name: 'Maria Jensen',
  contact_number: '+45 20 12 34 56',
  status: 'active' as const,
  currency_code: 'eur',
};

beforeEach(async () => {
  ctx = await startTestCore();
  // The demo enters its properties' accounts by partner id as it starts.
  await eventually(
    () => call('payments.list', {}),
    (v) => v.partners.length === 2,
  );
});
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});

describe('partner accounts', () => {
  it('the demo’s accounts are entered by partner id, one per property, and the host is ready', async () => {
    const view = await call('payments.list', {});
    expect(view.partners.map((p) => [p.hotelId, p.partnerId, p.currency, p.origin])).toEqual([
      [HARBOUR, 'IK-PARTNER-01', 'EUR', 'entered'],
      [LOFT, 'IK-PARTNER-02', 'EUR', 'entered'],
    ]);
    expect(view.host).toEqual({ ready: true, message: null });
    expect(view.properties.map((p) => p.hotelId)).toEqual(expect.arrayContaining([HARBOUR, LOFT]));
  });

  it('creates an account with every field checked, and refuses e-mails twice: invalid, then taken', async () => {
    const invalid = await dispatch('payments.savePartner', { ...partner, email_address: 'owner@' });
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) expect(invalid.error.fields?.email_address).toMatch(/valid e-mail/);
    const badPhone = await dispatch('payments.savePartner', { ...partner, contact_number: '+45 12' });
    if (!badPhone.ok)
      expect(badPhone.error.fields?.contact_number).toMatch(
        /not a valid number for Denmark: check the digits after \+45/,
      );
    else throw new Error('a 2-digit Danish number was accepted');
    const noPlus = await dispatch('payments.savePartner', { ...partner, contact_number: '20 12 34 56' });
    if (!noPlus.ok) expect(noPlus.error.fields?.contact_number).toMatch(/Start with \+/);
    else throw new Error('a number without a country code was accepted');
    const currency = await dispatch('payments.savePartner', { ...partner, currency_code: 'EUX' });
    if (!currency.ok) expect(currency.error.fields?.currency_code).toMatch(/currency/);
    else throw new Error('an unknown currency was accepted');
    // Nothing reached the host for any of those.
    expect(await sentTo('/service/api/partner')).toHaveLength(0);

    // Taken by an account the app does not know the e-mail of: the host refuses it, under the e-mail field.
    const takenAtHost = await dispatch('payments.savePartner', {
      ...partner,
      email_address: 'payments@harbourview.example',
    });
    expect(takenAtHost.ok).toBe(false);
    if (!takenAtHost.ok) {
      expect(takenAtHost.error.field).toBe('email_address');
      expect(takenAtHost.error.fields?.email_address).toMatch(/already registered/);
    }

    const saved = await call('payments.savePartner', partner);
    expect(saved).toMatchObject({
      hotelId: LOFT,
      partnerId: 'IK-LOFT-NEW',
      contactNumber: '+4520123456',
      currency: 'EUR',
      origin: 'created',
    });
    expect((await sentTo('/service/api/partner')).at(-1)).toEqual({
      partner_id: 'IK-LOFT-NEW',
      partner_name: 'Old Town Loft ApS',
      email_address: 'owner@oldtownloft.example',
      contact_name: 'Maria Jensen',
      contact_number: '+4520123456',
      status: 'active',
      currency_code: 'EUR',
    });

    // Taken by an account the app keeps: refused here, before the host is asked.
    const before = (await sentTo('/service/api/partner')).length;
    const takenHere = await dispatch('payments.savePartner', {
      ...partner,
      hotelId: HARBOUR,
      partner_id: 'IK-HARBOUR-NEW',
      email_address: 'OWNER@oldtownloft.example',
    });
    expect(takenHere.ok).toBe(false);
    if (!takenHere.ok) expect(takenHere.error.fields?.email_address).toMatch(/already the address of IK-LOFT-NEW/);
    expect(await sentTo('/service/api/partner')).toHaveLength(before);
    // A partner id is one property's account only.
    const sameId = await dispatch('payments.enterPartner', {
      hotelId: HARBOUR,
      partner_id: 'IK-LOFT-NEW',
      currency_code: 'EUR',
    });
    if (!sameId.ok) expect(sameId.error.fields?.partner_id).toMatch(/already the account of/);
    else throw new Error('one partner id was given to two properties');
  });
});

describe('card payment links', () => {
  it('sends the amount with the currency’s minor units, never rounded, and keeps it as whole minor units', async () => {
    const order = (await call('payments.proposeOrderId', { hotelId: HARBOUR })).orderId;
    expect(order).toMatch(/^IK-\d{6}-[A-Z2-9]{4}$/);
    const made = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '45,5',
      currency_code: 'EUR',
      order_id: order,
      forWhom: 'Anna Berg',
      purpose: 'Deposit',
    });
    expect(made.error).toBeNull();
    expect(made.link).toMatchObject({ status: 'requested', amount: '45.50', amountMinor: 4550, currency: 'EUR' });
    expect(made.link.url).toMatch(/\/get-cc\?userId=[0-9a-f]{32}$/);
    expect(made.link.transactionId).toMatch(/^TXN/);
    expect((await sentTo('/service/api/paycard')).at(-1)).toEqual({
      partner_id: 'IK-PARTNER-01',
      amount: '45.50',
      currency_code: 'EUR',
      order_id: order,
    });

    const big = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '1234567.89',
      currency_code: 'EUR',
      order_id: 'BIG-1',
    });
    expect(big.link).toMatchObject({ amount: '1234567.89', amountMinor: 123456789 });
    // 0.1 + 0.2 as floats is 0.30000000000000004; as minor units it is 30.
    const small = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '0.30',
      currency_code: 'EUR',
      order_id: 'SMALL-1',
    });
    expect(small.link).toMatchObject({ amount: '0.30', amountMinor: 30 });
    const yen = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '4500',
      currency_code: 'JPY',
      order_id: 'YEN-1',
    });
    expect(yen.link).toMatchObject({ amount: '4500', amountMinor: 4500 });
    expect((await sentTo('/service/api/paycard')).map((b) => b.amount)).toEqual([
      '45.50',
      '1234567.89',
      '0.30',
      '4500',
    ]);

    for (const [amount, currency, message] of [
      ['45.555', 'EUR', /EUR has 2 decimals: nothing is rounded/],
      ['4500.5', 'JPY', /JPY has no decimals/],
      ['0', 'EUR', /more than 0/],
      ['-5', 'EUR', /digits/],
      ['1e3', 'EUR', /digits/],
    ] as const) {
      const refused = await dispatch('payments.createLink', {
        hotelId: HARBOUR,
        amount,
        currency_code: currency,
        order_id: 'X-1',
      });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.fields?.amount).toMatch(message);
    }
    expect(await sentTo('/service/api/paycard')).toHaveLength(4);
  });

  it('names the field of every mistake, the app’s own checks and the host’s', async () => {
    const base = { hotelId: HARBOUR, amount: '80', currency_code: 'EUR', order_id: 'ORD-1' };
    for (const [patch, field, message] of [
      [{ customer_email: 'a'.repeat(40) + '@example.com' }, 'customer_email', /At most 50/],
      [{ customer_email: 'anna@' }, 'customer_email', /valid e-mail/],
      [{ contact_number: '+1 555' }, 'contact_number', /valid/],
      [{ return_url: 'http://harbourview.example/thanks' }, 'return_url', /https/],
      [{ order_id: 'order #1' }, 'order_id', /only letters, digits/],
      [{ currency_code: 'XYZ1' }, 'currency_code', /currency/],
    ] as const) {
      const refused = await dispatch('payments.createLink', { ...base, ...patch });
      expect(refused.ok, field).toBe(false);
      if (!refused.ok) expect(refused.error.fields?.[field]).toMatch(message);
    }
    expect(await sentTo('/service/api/paycard')).toHaveLength(0);

    // Optional fields, once valid, go as the host takes them (the phone in E.164).
    const full = await call('payments.createLink', {
      ...base,
      customer_email: 'anna@example.com',
      contact_number: '+44 20 7946 0958',
      return_url: 'https://harbourview.example/thanks',
    });
    expect(full.error).toBeNull();
    expect((await sentTo('/service/api/paycard')).at(-1)).toMatchObject({
      customer_email: 'anna@example.com',
      contact_number: '+442079460958',
      return_url: 'https://harbourview.example/thanks',
    });

    // The order id again: the app's ledger knows it, so the host is not asked.
    const again = await call('payments.createLink', base);
    expect(again.link.status).toBe('draft');
    expect(again.error?.fields?.order_id).toMatch(/already used by the link of/);
    expect(await sentTo('/service/api/paycard')).toHaveLength(1);

    // The host's refusals land under their field: an order id used elsewhere, an inactive account.
    const elsewhere = await call('payments.createLink', { ...base, hotelId: LOFT, order_id: 'USED-ELSEWHERE' });
    expect(elsewhere.error).toBeNull();
    await call('payments.forgetPartner', { hotelId: LOFT });
    await call('payments.enterPartner', { hotelId: LOFT, partner_id: 'IK-PARTNER-02', currency_code: 'EUR' });
    await ctx!.core.db.db
      .prepare(`UPDATE payment_links SET order_id = 'OTHER' WHERE order_id = 'USED-ELSEWHERE'`)
      .run();
    const hostRefused = await call('payments.createLink', { ...base, hotelId: LOFT, order_id: 'USED-ELSEWHERE' });
    expect(hostRefused.link.status).toBe('draft');
    expect(hostRefused.error?.fields?.order_id).toMatch(/already used/);

    await call('payments.enterPartner', { hotelId: LOFT, partner_id: 'IK-PARTNER-09', currency_code: 'EUR' });
    const inactive = await call('payments.createLink', { ...base, hotelId: LOFT, order_id: 'ORD-9' });
    expect(inactive.error?.fields?.partner_id).toMatch(/inactive/);
    expect(inactive.link).toMatchObject({ status: 'draft', typed: expect.objectContaining({ order_id: 'ORD-9' }) });

    // A property without an account.
    await call('payments.forgetPartner', { hotelId: LOFT });
    const none = await call('payments.createLink', { ...base, hotelId: LOFT, order_id: 'ORD-10' });
    expect(none.error?.fields?.hotelId).toMatch(/no payment account yet/);
  });

  it('a refused link stays a draft with what was typed, and becomes the link once fixed', async () => {
    await call('payments.enterPartner', { hotelId: LOFT, partner_id: 'IK-PARTNER-09', currency_code: 'EUR' });
    const typed = { hotelId: LOFT, amount: '120', currency_code: 'EUR', order_id: 'ORD-20', forWhom: 'Jonas' };
    const refused = await call('payments.createLink', typed);
    expect(refused.link.status).toBe('draft');
    await call('payments.enterPartner', { hotelId: LOFT, partner_id: 'IK-PARTNER-02', currency_code: 'EUR' });
    const made = await call('payments.createLink', { ...typed, draftId: refused.link.id });
    expect(made.link).toMatchObject({
      id: refused.link.id,
      status: 'requested',
      error: null,
      typed: null,
      forWhom: 'Jonas',
    });
    // A created link is not a draft any more: it cannot be made twice nor deleted as one.
    const twice = await dispatch('payments.createLink', { ...typed, order_id: 'ORD-21', draftId: refused.link.id });
    expect(twice.ok).toBe(false);
    expect(await call('payments.deleteDraft', { id: refused.link.id })).toEqual({ deleted: false });
  });

  it('widget links for a booking, as a button or a page', async () => {
    const button = await call('payments.createWidget', { hotelId: HARBOUR, booking_id: '4012345678', is_button: true });
    expect(button.link).toMatchObject({ kind: 'widget', status: 'requested', isButton: true, bookingId: '4012345678' });
    expect(button.link.url).toMatch(/get-cc\?userId=[0-9a-f]{32}&is_button=Y$/);
    const page = await call('payments.createWidget', { hotelId: HARBOUR, booking_id: '4012345678', is_button: false });
    expect(page.link.url).not.toMatch(/is_button/);
    expect(await sentTo('/service/api/generateLink')).toEqual([
      { partner_id: 'IK-PARTNER-01', booking_id: '4012345678', is_button: true },
      { partner_id: 'IK-PARTNER-01', booking_id: '4012345678', is_button: false },
    ]);
    const missing = await dispatch('payments.createWidget', { hotelId: HARBOUR, booking_id: '', is_button: true });
    if (!missing.ok) expect(missing.error.fields?.booking_id).toMatch(/booking id is required/);
    else throw new Error('a widget link without a booking id was accepted');
  });
});

describe('the ledger', () => {
  it('a payment the guest makes turns Paid: through the demo controls, with the event that notifies', async () => {
    const events: ContractEvents['payments.changed'][] = [];
    ctx!.core.events.on('payments.changed', (e) => events.push(e));
    const made = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '45.50',
      currency_code: 'EUR',
      order_id: 'DEP-1',
      threadId: 7,
    });
    expect(made.link.nextCheckAt).toBeGreaterThan(Date.now());
    const qr = await call('payments.qr', { id: made.link.id });
    expect(qr.url).toBe(made.link.url);
    expect(qr.dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(qr.dataUrl.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const paid = await call('demo.deliver', { kind: 'payment', transactionId: made.link.transactionId! });
    expect(paid).toMatchObject({ acknowledged: true, summary: 'The guest paid 45.50 EUR (order DEP-1).' });
    const [link] = (await call('payments.list', { threadId: 7 })).links;
    expect(link).toMatchObject({
      id: made.link.id,
      status: 'paid',
      hostStatus: 'Success',
      paidAmount: '45.50',
      paidCurrency: 'EUR',
      nextCheckAt: null,
    });
    expect(link!.gatewayTransactionId).toMatch(/^pg_/);
    expect(events.flatMap((e) => e.paid.map((p) => p.id))).toEqual([made.link.id]);
    // Paid is final: asking again changes nothing and notifies nothing.
    await call('payments.checkNow', { id: made.link.id });
    expect(events.flatMap((e) => e.paid)).toHaveLength(1);
    expect((await call('payments.list', { threadId: 8 })).links).toEqual([]);
  });

  it('a transaction id entered by hand: one the host does not know is Unknown, a real one is followed', async () => {
    const made = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '10',
      currency_code: 'EUR',
      order_id: 'HAND-1',
    });
    expect(await call('payments.checkNow', { id: made.link.id })).toMatchObject({ hostStatus: 'Pending' });
    const wrong = await call('payments.setTransaction', { id: made.link.id, transactionId: 'TXN-NOT-THERE' });
    // The host's "Pending" was about the other transaction: not kept beside one it does not know.
    expect(wrong).toMatchObject({ status: 'unknown', transactionSource: 'owner', nextCheckAt: null, hostStatus: null });
    expect(wrong.checkError?.message).toMatch(/transaction_id|invalid/i);
    const right = await call('payments.setTransaction', { id: made.link.id, transactionId: made.link.transactionId! });
    expect(right).toMatchObject({ status: 'requested', hostStatus: 'Pending', checkError: null });
    await control().completeTransaction(made.link.transactionId!, 'declined');
    expect(await call('payments.checkNow', { id: made.link.id })).toMatchObject({
      status: 'failed',
      hostStatus: 'Failed',
      nextCheckAt: null,
    });
  });

  it('keeps the ledger, drafts as typed included, across a restart', async () => {
    const made = await call('payments.createLink', {
      hotelId: HARBOUR,
      amount: '99.90',
      currency_code: 'EUR',
      order_id: 'KEEP-1',
      forWhom: 'Anna',
    });
    const draft = await call('payments.saveDraft', {
      kind: 'card',
      hotelId: LOFT,
      threadId: 3,
      typed: { amount: '12,3', currency_code: 'EUR', order_id: 'half typed #', customer_email: 'anna@' },
    });
    const dataDir = ctx!.dataDir;
    await ctx!.core.close();
    ctx = await startTestCore({ dataDir });
    const { links } = await call('payments.list', {});
    expect(links.map((l) => [l.id, l.status])).toEqual([
      [draft.id, 'draft'],
      [made.link.id, 'requested'],
    ]);
    expect(links[0]!.typed).toEqual({
      amount: '12,3',
      currency_code: 'EUR',
      order_id: 'half typed #',
      customer_email: 'anna@',
    });
    expect(links[0]).toMatchObject({ amount: '12.30', threadId: 3 });
    expect(links[1]).toMatchObject({ amount: '99.90', forWhom: 'Anna', url: made.link.url });
    expect(await call('payments.deleteDraft', { id: draft.id })).toEqual({ deleted: true });
  });
});
