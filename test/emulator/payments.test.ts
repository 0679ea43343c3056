import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';

/** The payment-token host: partners (14), transaction status (15), card payment links (16), widget links (17). */
describe('payment-token host', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness({ paymentCompleteSeconds: 60 });
  });
  afterEach(() => h.close());

  const partner = {
    partner_id: 'IK-PARTNER-10',
    partner_name: 'Dune Cabins',
    email_address: 'owner@dunecabins.example',
    contact_number: '+4531234567',
    contact_name: 'Ole Dune',
    status: 'Active',
    currency_code: 'DKK',
  };
  const link = {
    partner_id: 'IK-PARTNER-01',
    amount: '240.00',
    currency_code: 'EUR',
    order_id: 'ORD-1001',
    customer_email: 'guest@example.com',
    contact_number: '+447700900123',
    return_url: 'https://harbourview.example/thanks',
  };
  type Link = { URL: string; transaction_id: string };
  type Status = {
    transaction_details: { pg_transection_id: string; amount: string; currency: string; status: string };
  };
  const status = (transaction_id: string, partner_id = 'IK-PARTNER-01') =>
    h.payment<Status>('transactionstatus', { partner_id, transaction_id });

  it('creates a partner, and a second partner may not use the same e-mail address', async () => {
    expect(await h.payment('partner', partner)).toMatchObject({
      status: 200,
      body: { status: 'Success', ErrorMessages: [] },
    });
    const twin = { ...partner, partner_id: 'IK-PARTNER-11', email_address: 'OWNER@dunecabins.example' };
    expect(await h.payment('partner', twin)).toMatchObject({
      status: 400,
      body: { status: 'Fail', ErrorMessages: ['email_address : already registered for another partner'] },
    });
    // The same partner posted again is an update and keeps its address.
    expect((await h.payment('partner', { ...partner, contact_name: 'Ole' })).status).toBe(200);
    expect((await h.control.state()).partners.map((p) => p.partner_id)).toContain('IK-PARTNER-10');
  });

  it('lists every problem of a partner request as "field : reason"', async () => {
    const answer = await h.payment('partner', {
      partner_id: 'X',
      email_address: 'not-an-email',
      status: 'Sleeping',
      currency_code: 'euro',
      contact_number: 5,
    });
    expect(answer).toMatchObject({ status: 400 });
    expect((answer.body as { ErrorMessages: string[] }).ErrorMessages).toEqual([
      'partner_name : missing',
      'contact_number : invalid (must be a string)',
      'contact_name : missing',
      'email_address : invalid',
      'status : invalid (Active or Inactive)',
      'currency_code : invalid (an ISO 4217 code such as EUR)',
    ]);
  });

  it('a card payment link returns the payment page URL and a transaction that is pending until paid', async () => {
    const answer = await h.payment<Link>('paycard', link);
    expect(answer).toMatchObject({ status: 200, body: { Status: 'Success', ErrorMessages: [] } });
    expect(answer.body.URL).toMatch(new RegExp(`^${h.emulator.tokenUrl}/get-cc\\?userId=[0-9a-f]{32}$`));
    const id = answer.body.transaction_id;
    expect(await status(id)).toMatchObject({
      status: 200,
      body: {
        Status: 'Success',
        ErrorMessages: [],
        transaction_details: { pg_transection_id: '', amount: '240.00', currency: 'EUR', status: 'Pending' },
      },
    });
    expect(await h.control.completeTransaction(id)).toEqual({ transaction_id: id, status: 'Success' });
    const done = (await status(id)).body.transaction_details;
    expect(done).toMatchObject({ status: 'Success', pg_transection_id: expect.stringMatching(/^pg_/) });
  });

  it('publishes its links at paymentPageBase when given one (https, as Su sandbox and production do)', async () => {
    await h.close();
    h = await startEmulatorHarness({ paymentPageBase: 'https://pay.sandbox.test/' });
    const answer = await h.payment<Link>('paycard', link);
    expect(answer.body.URL).toMatch(/^https:\/\/pay\.sandbox\.test\/token\/get-cc\?userId=[0-9a-f]{32}$/);
    await expect(startEmulatorHarness({ paymentPageBase: 'pay.sandbox.test' })).rejects.toThrow(/paymentPageBase/);
  });

  it('a pending transaction completes by itself after the configured delay', async () => {
    const id = (await h.payment<Link>('paycard', link)).body.transaction_id;
    await h.control.advanceClock(59);
    expect((await status(id)).body.transaction_details.status).toBe('Pending');
    await h.control.advanceClock(2);
    expect((await status(id)).body.transaction_details.status).toBe('Success');
  });

  it('the payment page shows the amount, takes the payment and returns the customer', async () => {
    const { URL: url, transaction_id } = (await h.payment<Link>('paycard', link)).body;
    const page = await h.send<string>(url, 'GET', {});
    expect(page.status).toBe(200);
    expect(page.body).toContain('240.00 EUR');
    const paid = await h.send(url, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, '');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://harbourview.example/thanks');
    expect((await status(transaction_id)).body.transaction_details.status).toBe('Success');
    expect((await h.send(`${h.emulator.tokenUrl}/get-cc?userId=nope`, 'GET', {})).status).toBe(404);
  });

  it.each([
    ['a missing amount', { amount: undefined }, ['amount : missing']],
    ['a malformed amount', { amount: '12,50' }, ['amount : invalid']],
    ['a zero amount', { amount: '0.00' }, ['amount : invalid']],
    ['a numeric amount', { amount: 12.5 }, ['amount : invalid (must be a string)']],
    ['an invalid customer_email', { customer_email: 'guest@' }, ['customer_email : invalid']],
    [
      'a customer_email over 50 characters',
      { customer_email: `${'g'.repeat(39)}@example.com` },
      ['customer_email : too long (at most 50 characters)'],
    ],
    ['a missing partner_id', { partner_id: undefined }, ['partner_id : missing']],
    ['an unknown partner_id', { partner_id: 'IK-PARTNER-77' }, ['partner_id : invalid']],
    ['an inactive partner_id', { partner_id: 'IK-PARTNER-09' }, ['partner_id : inactive']],
    [
      'a local phone number',
      { contact_number: '07700900123' },
      ['contact_number : invalid (international format such as +4520123456)'],
    ],
    [
      'a missing order id and currency',
      { order_id: undefined, currency_code: undefined },
      ['currency_code : missing', 'order_id : missing'],
    ],
    ['a bad return_url', { return_url: 'javascript:alert(1)' }, ['return_url : invalid']],
  ])('a payment link with %s fails', async (_name, change, messages) => {
    expect(await h.payment('paycard', { ...link, ...change })).toMatchObject({
      status: 400,
      body: { Status: 'Fail', ErrorMessages: messages },
    });
  });

  it('an order id is used once per partner', async () => {
    expect((await h.payment('paycard', link)).status).toBe(200);
    expect((await h.payment('paycard', link)).body).toMatchObject({ ErrorMessages: ['order_id : already used'] });
    expect((await h.payment('paycard', { ...link, partner_id: 'IK-PARTNER-02' })).status).toBe(200);
  });

  it('a widget link carries the user id and is_button=Y for a button widget, with its own transaction', async () => {
    const button = await h.payment<Link>('generateLink', {
      partner_id: 'IK-PARTNER-01',
      booking_id: 'BK-77',
      is_button: true,
    });
    expect(button).toMatchObject({ status: 200, body: { Status: 'Success', ErrorMessages: [] } });
    expect(button.body.URL).toMatch(new RegExp(`^${h.emulator.tokenUrl}/get-cc\\?userId=[0-9a-f]{32}&is_button=Y$`));
    const plain = await h.payment<Link>('generateLink', {
      partner_id: 'IK-PARTNER-01',
      booking_id: 'BK-78',
      is_button: false,
    });
    expect(plain.body.URL).not.toContain('is_button');
    expect((await status(button.body.transaction_id)).body.transaction_details).toMatchObject({
      status: 'Pending',
      amount: '0.00',
      currency: 'EUR',
    });
    expect((await h.send<string>(button.body.URL, 'GET', {})).body).toContain('BK-77');
  });

  it('a widget link needs a booking id and a boolean is_button', async () => {
    const answer = await h.payment('generateLink', { partner_id: 'IK-PARTNER-01', is_button: 'Y' });
    expect(answer).toMatchObject({
      status: 400,
      body: { Status: 'Fail', ErrorMessages: ['booking_id : missing', 'is_button : invalid (true or false)'] },
    });
  });

  it("transaction status refuses unknown transactions and other partners' transactions", async () => {
    const id = (await h.payment<Link>('paycard', link)).body.transaction_id;
    expect(await status('TXN000')).toMatchObject({
      status: 400,
      body: { Status: 'Fail', ErrorMessages: ['transaction_id : invalid'] },
    });
    expect((await status(id, 'IK-PARTNER-02')).body).toMatchObject({ ErrorMessages: ['transaction_id : invalid'] });
    expect((await h.payment('transactionstatus', {})).body).toMatchObject({
      ErrorMessages: ['partner_id : missing', 'transaction_id : missing'],
    });
  });
});
