import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentLinkEntry } from '@shared/payments';
import { fail, ok } from '@shared/result';
import {
  cardInput,
  emptyForm,
  fromEntry,
  linkErrors,
  minorRule,
  toTyped,
  typedSomething,
} from '@renderer/features/payments/linkForm';
import { usePaymentsStore } from '@renderer/features/payments/paymentsStore';
import { linkMoney, linkTitle, nextCheckWords, replySentence } from '@renderer/features/payments/paymentWords';
import { paidWords, paymentRoute } from '@renderer/features/payments/usePaymentAlerts';
import { installFakeApi, settle } from './fakeApi';
import { paymentLink, paymentsView } from './paymentFixtures';

beforeEach(() => setActivePinia(createPinia()));

describe('the payments store', () => {
  it('reads the accounts and the ledger, counts each filter, and shows the newest answer only', async () => {
    const core = installFakeApi();
    const payments = usePaymentsStore();
    const first = payments.load();
    const second = payments.load();
    const [older, newer] = core.pending('payments.list');
    const links = [
      paymentLink({ id: 3, status: 'draft' }),
      paymentLink({ id: 2, status: 'paid' }),
      paymentLink({ id: 1 }),
    ];
    newer!.answer(ok(paymentsView({ links })));
    older!.answer(ok(paymentsView({ links: [] })));
    await Promise.all([first, second]);
    expect(payments.links.map((l) => l.id)).toEqual([3, 2, 1]);
    expect(payments.counts).toEqual({ all: 3, open: 1, paid: 1, trouble: 0, drafts: 1 });
    payments.filter = 'drafts';
    expect(payments.shown.map((l) => l.id)).toEqual([3]);
    expect(payments.payable.map((l) => l.id)).toEqual([1]);
    expect(payments.partnerFor('H1')?.partnerId).toBe('P-1');
    expect(payments.partnerFor('H2')).toBeNull();
  });

  it('follows payments.changed: the ledger and the open conversation are read again, paid links go to the alerts', async () => {
    let view = paymentsView({ links: [paymentLink({ threadId: 7 })] });
    const core = installFakeApi({ 'payments.list': () => ok(view) });
    const payments = usePaymentsStore();
    payments.listen();
    await payments.load();
    await payments.loadThread(7);
    expect(payments.threadLinks.map((l) => l.status)).toEqual(['requested']);

    const heard: PaymentLinkEntry[] = [];
    payments.onPaid((link) => heard.push(link));
    const paid = paymentLink({ threadId: 7, status: 'paid', hostStatus: 'Success' });
    view = paymentsView({ links: [paid] });
    core.emit('payments.changed', { paid: [paid] });
    await settle();
    expect(heard.map((l) => l.id)).toEqual([1]);
    expect(payments.links[0]!.status).toBe('paid');
    expect(payments.threadLinks[0]!.status).toBe('paid');
  });

  it('a conversation left behind does not get the links of the one before', async () => {
    const core = installFakeApi();
    const payments = usePaymentsStore();
    const first = payments.loadThread(7);
    const second = payments.loadThread(8);
    const [seven, eight] = core.pending('payments.list');
    eight!.answer(ok(paymentsView({ links: [paymentLink({ id: 8, threadId: 8 })] })));
    seven!.answer(ok(paymentsView({ links: [paymentLink({ id: 7, threadId: 7 })] })));
    await Promise.all([first, second]);
    expect(payments.threadLinks.map((l) => l.id)).toEqual([8]);
  });

  it('a creation the host refused puts its draft row in the ledger at once, with the reason', async () => {
    const draft = paymentLink({ id: 9, status: 'draft', url: null, transactionId: null });
    const error = { code: '400', message: 'order_id : duplicate', fields: { order_id: 'duplicate' } };
    const core = installFakeApi({ 'payments.createLink': () => ok({ link: draft, error }) });
    const payments = usePaymentsStore();
    const loading = payments.load();
    core.pending('payments.list')[0]!.answer(ok(paymentsView()));
    await loading;
    const answer = await payments.createLink(cardInput({ ...emptyForm({ hotelId: 'H1' }), amount: '45.50' }));
    expect(answer).toEqual({ link: draft, error });
    // On screen before the ledger is read again (which the store asks for at once).
    expect(payments.links.map((l) => l.id)).toEqual([9]);
    expect(core.pending('payments.list')).toHaveLength(1);
  });

  it('reads the ledger again each time a dialog opens, showing what it has meanwhile', async () => {
    const core = installFakeApi();
    const payments = usePaymentsStore();
    const first = payments.ensureLoaded();
    core.pending('payments.list')[0]!.answer(ok(paymentsView({ partners: [] })));
    await first;
    expect(payments.partnerFor('H1')).toBeNull();

    // An account set up since (elsewhere): the next opening does not wait for it, and then has it.
    await payments.ensureLoaded();
    expect(payments.view?.partners).toEqual([]);
    const again = core.pending('payments.list');
    expect(again).toHaveLength(1);
    again[0]!.answer(ok(paymentsView()));
    await settle();
    expect(payments.partnerFor('H1')?.partnerId).toBe('P-1');
  });

  it('keeps a partner account form left unsaved per property, until it is dropped', () => {
    installFakeApi();
    const payments = usePaymentsStore();
    const form = {
      partner_id: 'H2-PAY',
      partner_name: 'Loft',
      email_address: 'loft@',
      contact_name: '',
      contact_number: '',
      status: 'active' as const,
      currency_code: '',
    };
    payments.keepPartnerForm('H2', { mode: 'create', form });
    form.email_address = 'changed later';
    expect(payments.partnerForms.H2?.form.email_address).toBe('loft@');
    expect(payments.partnerForms.H1).toBeUndefined();
    payments.keepPartnerForm('H2', null);
    expect(payments.partnerForms).toEqual({});
  });

  it('answers the core’s refusal of a partner account as is, with its fields', async () => {
    const refusal = { code: '400', message: 'email', fields: { email_address: 'already registered' } };
    installFakeApi({ 'payments.savePartner': () => fail(refusal), 'payments.list': () => ok(paymentsView()) });
    const payments = usePaymentsStore();
    const error = await payments.savePartner({
      hotelId: 'H1',
      partner_id: 'P-2',
      partner_name: 'x',
      email_address: 'a@b.cd',
      contact_name: 'x',
      contact_number: '+4520123456',
      status: 'active',
      currency_code: 'EUR',
    });
    expect(error).toEqual(refusal);
  });
});

describe('the link form', () => {
  it('sends the amount as the text typed, never through a float, and leaves out empty optional fields', () => {
    const form = {
      ...emptyForm({ hotelId: 'H1', threadId: 4 }),
      amount: ' 0.30 ',
      currency_code: 'EUR',
      order_id: 'O-1',
    };
    const input = cardInput(form, { threadId: 4 });
    expect(input).toEqual({ hotelId: 'H1', threadId: 4, amount: '0.30', currency_code: 'EUR', order_id: 'O-1' });
    expect(typeof input.amount).toBe('string');
    // What a trip through a number would change: trailing zeros, a decimal comma, digits past a float's precision.
    const sent = (amount: string) => cardInput({ ...form, amount }).amount;
    expect(sent('1.10')).toBe('1.10');
    expect(sent('45,5')).toBe('45,5');
    expect(sent('90071992547409.93')).toBe('90071992547409.93');
  });

  it('checks the amount against the currency’s minor units as it is typed, and says the rule', () => {
    const form = (amount: string, currency_code: string) => ({
      ...emptyForm({ hotelId: 'H1' }),
      amount,
      currency_code,
      order_id: 'O-1',
    });
    expect(linkErrors('card', form('45.505', 'EUR')).amount).toContain('EUR has 2 decimals');
    expect(linkErrors('card', form('4500.5', 'JPY')).amount).toContain('JPY has no decimals');
    expect(linkErrors('card', form('45,50', 'EUR')).amount).toBeUndefined();
    expect(linkErrors('card', form('45.505', '')).amount).toBeUndefined();
    expect(linkErrors('card', form('', 'EUR')).amount).toBe('Enter an amount.');
    expect(minorRule('EUR')).toBe('EUR has 2 decimals, such as 45.50.');
    expect(minorRule('JPY')).toBe('JPY has no decimals: a whole amount, such as 4500.');
    expect(minorRule('KWD')).toBe('KWD has 3 decimals, such as 45.500.');
    expect(minorRule('')).toBeNull();
  });

  it('checks the optional fields only when given: e-mail of at most 50, an international phone, an https address', () => {
    const base = { ...emptyForm({ hotelId: 'H1' }), amount: '10', currency_code: 'EUR', order_id: 'O-1' };
    expect(linkErrors('card', base)).toEqual({});
    const errors = linkErrors('card', {
      ...base,
      customer_email: `${'a'.repeat(45)}@example.com`,
      contact_number: '20 12 34 56',
      return_url: 'http://example.com',
    });
    expect(Object.keys(errors).sort()).toEqual(['contact_number', 'customer_email', 'return_url']);
    expect(errors.customer_email).toContain('50');
    expect(linkErrors('widget', { ...base, booking_id: '' })).toHaveProperty('booking_id');
  });

  it('keeps a draft as typed and opens it again as typed', () => {
    const form = { ...emptyForm({ hotelId: 'H1' }), amount: '45.5', currency_code: 'EUR', purpose: 'Deposit' };
    const typed = toTyped(form);
    expect(typed.amount).toBe('45.5');
    const draft = paymentLink({ status: 'draft', amount: null, amountMinor: null, typed });
    expect(fromEntry(draft)).toMatchObject({ amount: '45.5', currency_code: 'EUR', purpose: 'Deposit' });
  });

  it('keeps and counts what was typed in either kind’s fields, whichever kind is chosen when it is kept', () => {
    const start = emptyForm({ hotelId: 'H1', bookingId: 'B1' });
    // Typed as a card link, then the owner chose a widget link: the amount and the e-mail are still theirs.
    const typedAsCard = { ...start, amount: '45.5', customer_email: 'anna@example.com' };
    expect(typedSomething(typedAsCard, start)).toBe(true);
    expect(toTyped(typedAsCard)).toMatchObject({
      amount: '45.5',
      customer_email: 'anna@example.com',
      booking_id: 'B1',
    });
    // And the other way round: a button chosen for a widget link.
    expect(typedSomething({ ...start, is_button: true }, start)).toBe(true);
    expect(toTyped({ ...start, is_button: true })).toMatchObject({ is_button: true, booking_id: 'B1' });
    const widgetDraft = paymentLink({ kind: 'widget', status: 'draft', typed: toTyped(typedAsCard) });
    expect(fromEntry(widgetDraft)).toMatchObject({ amount: '45.5', customer_email: 'anna@example.com' });
    expect(typedSomething({ ...start, amount: '  ' }, start)).toBe(false);
  });
});

describe('payment words', () => {
  it('are read in the locale the renderer tests pin (not the machine’s)', () => {
    expect(new Intl.NumberFormat().resolvedOptions().locale).toBe('en-GB');
  });

  it('writes money from whole minor units, and a draft’s amount from what was typed', () => {
    expect(linkMoney(paymentLink())).toBe('€45.50');
    expect(linkMoney(paymentLink({ amountMinor: 123456789012345, currency: 'EUR' }))).toBe('€1,234,567,890,123.45');
    const draft = paymentLink({
      amount: null,
      amountMinor: null,
      currency: null,
      typed: { amount: '19.9', currency_code: 'EUR' },
    });
    expect(linkMoney(draft)).toBe('€19.90');
    expect(linkMoney(paymentLink({ amount: null, amountMinor: null, currency: null, typed: { amount: 'abc' } }))).toBe(
      'abc',
    );
  });

  it('says what a link is, when it is checked next, and what goes into the reply', () => {
    expect(linkTitle(paymentLink())).toBe('Deposit · €45.50');
    expect(linkTitle(paymentLink({ kind: 'widget', bookingId: '4711' }))).toBe('Card details for booking 4711');
    const now = new Date(2025, 0, 1, 12).getTime();
    expect(nextCheckWords(paymentLink({ nextCheckAt: now + 60_000 }), now)).toMatch(/^Next check /);
    expect(nextCheckWords(paymentLink({ transactionId: null }), now)).toBe('Not checked: no transaction id');
    expect(replySentence(paymentLink())).toBe(
      'You can pay the deposit of €45.50 securely here: https://pay.example/get-cc?userId=u1',
    );
    expect(replySentence(paymentLink({ purpose: 'VIP upgrade' }))).toContain('the VIP upgrade of €45.50');
    expect(replySentence(paymentLink({ purpose: null }))).toBe(
      'You can pay €45.50 securely here: https://pay.example/get-cc?userId=u1',
    );
  });

  it('names a paid link for the alert, which opens it in the ledger', () => {
    expect(paidWords(paymentLink({ status: 'paid' }))).toEqual({
      title: 'Paid · Deposit · €45.50',
      body: 'Anna · order IK-250101-AAAA',
    });
    expect(paymentRoute(12)).toBe('/payments/12');
  });
});
