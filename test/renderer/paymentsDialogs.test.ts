import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentCreation } from '@shared/payments';
import { fail, ok } from '@shared/result';
import LinkDialog from '@renderer/features/payments/LinkDialog.vue';
import PartnerDialog from '@renderer/features/payments/PartnerDialog.vue';
import PaymentLedger from '@renderer/features/payments/PaymentLedger.vue';
import { usePaymentsStore } from '@renderer/features/payments/paymentsStore';
import { installFakeApi } from './fakeApi';
import { paymentLink, paymentsView } from './paymentFixtures';
import { $, byText, click, mountIt as mountWith, type } from './paymentsDom';

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});
const mountIt = <C>(component: C, props: Record<string, unknown> = {}) => mountWith(component, pinia, props);

/** A fake core with one account (H1, EUR) and the calls the link dialog makes, recorded. */
function linkCore(creation?: (args: unknown) => PaymentCreation) {
  const calls: { method: string; args: unknown }[] = [];
  const record =
    <T>(method: string, answer: (args: never) => T) =>
    (args: never) => (calls.push({ method, args }), ok(answer(args)));
  installFakeApi({
    'payments.list': () => ok(paymentsView()),
    'payments.proposeOrderId': record('payments.proposeOrderId', () => ({ orderId: 'IK-250101-ABCD' })),
    'payments.createLink': record('payments.createLink', (args) => creation!(args)),
    'payments.saveDraft': record('payments.saveDraft', () => paymentLink({ id: 20, status: 'draft' })),
    'payments.qr': () => ok({ url: 'https://pay.example/x', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' }),
  });
  return calls;
}
const fromThread = { hotelId: 'H1', threadId: 4, bookingId: 'B-77', forWhom: 'Anna', channel: '19', hasBooking: true };

describe('the link dialog', () => {
  it('fills in the conversation, says the channel’s rule, and sends the amount as typed', async () => {
    const calls = linkCore(() => ({ link: paymentLink({ threadId: 4 }), error: null }));
    const inserted: string[] = [];
    const onInsert = (text: string) => void inserted.push(text);
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread, onInsert });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect($('link-rule')?.textContent).toContain('Booking.com delivers links only');
    expect($<HTMLInputElement>('link-order_id')!.value).toBe('IK-250101-ABCD');
    expect($<HTMLInputElement>('link-forWhom')!.value).toBe('Anna');
    expect($<HTMLInputElement>('link-booking_id')!.value).toBe('B-77');

    await type('link-amount', '45.505');
    expect($('link-amount-error')?.textContent).toContain('EUR has 2 decimals');
    await click('link-create');
    expect(calls.some((c) => c.method === 'payments.createLink')).toBe(false);

    await type('link-amount', '45.50');
    expect($('link-amount-error')).toBeNull();
    await click('link-create');
    const create = calls.find((c) => c.method === 'payments.createLink')!;
    expect(create.args).toEqual({
      hotelId: 'H1',
      threadId: 4,
      forWhom: 'Anna',
      amount: '45.50',
      currency_code: 'EUR',
      order_id: 'IK-250101-ABCD',
      booking_id: 'B-77',
    });

    // The link, its QR code, and Insert into reply with the sentence.
    expect($<HTMLInputElement>('link-url')!.value).toBe('https://pay.example/get-cc?userId=u1');
    expect($<HTMLImageElement>('link-qr')!.alt).toContain('QR code of the payment link: Deposit · €45.50 for Anna');
    // Pressed twice before the dialog is gone: the sentence goes in once.
    $('link-insert')!.click();
    $('link-insert')!.click();
    await flushPromises();
    expect(inserted).toEqual(['You can pay the deposit of €45.50 securely here: https://pay.example/get-cc?userId=u1']);
    expect(wrapper.emitted('update:visible')).toEqual([[false]]);
  });

  it('puts the host’s “field : reason” under each field, keeps the draft it became, and creates that draft next', async () => {
    const refusal = {
      code: '400',
      message: 'The payment host refused the link.',
      fields: { order_id: 'duplicate', contact_number: 'invalid', partner_id: 'inactive' },
    };
    const calls = linkCore(() => ({ link: paymentLink({ id: 9, status: 'draft', url: null }), error: refusal }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await type('link-contact_number', '+45 20 12 34 56');
    await click('link-create');
    // Each said as a sentence that names its field in words (the host wrote `contact_number : invalid`).
    expect($('link-order_id-error')?.textContent).toContain('The order id is duplicate.');
    expect($('link-contact_number-error')?.textContent).toContain('The phone number is not valid.');
    // The account is chosen with the property: its complaint shows there.
    expect($('link-hotelId-error')?.textContent).toContain('The partner account is inactive at the payment host.');
    expect($('link-dialog')).not.toBeNull();

    // Edited, a field's complaint goes; the others stay until theirs are.
    await type('link-order_id', 'IK-OTHER-1');
    expect($('link-order_id-error')).toBeNull();
    expect($('link-contact_number-error')?.textContent).toContain('The phone number is not valid.');
    await click('link-create');
    const creates = calls.filter((c) => c.method === 'payments.createLink');
    expect(creates[1]!.args).toMatchObject({ draftId: 9, order_id: 'IK-OTHER-1', contact_number: '+45 20 12 34 56' });
  });

  it('an unreachable host: what was typed is a draft, and the dialog says it', async () => {
    const offline = { code: 'network', message: 'The payment host did not answer.', retryable: true };
    linkCore(() => ({ link: paymentLink({ id: 9, status: 'draft', url: null }), error: offline }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    expect($('link-problem')?.textContent).toContain('kept as a draft');
  });

  it('a link the host made at an address that is not https: says that, not that the host did not answer', async () => {
    const notHttps = {
      code: 'provider',
      message:
        'The payment host made the link but answered an address that is not https (http://pay.example/get-cc); it is not handed out. Ask the payment host, and use a new order id.',
      retryable: false,
      outcomeUnknown: true,
    };
    linkCore(() => ({
      link: paymentLink({ id: 9, status: 'draft', url: null, outcomeUnknown: true }),
      error: notHttps,
    }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    const note = $('link-problem')!.textContent!;
    expect(note).toContain('answered an address that is not https');
    expect(note).not.toContain('did not answer');
  });

  it('is titled for what it makes: a payment link, or card details for a booking (a widget)', async () => {
    linkCore();
    const title = () => document.querySelector('.p-dialog-title')?.textContent;
    const wrapper = mountIt(LinkDialog, { visible: false, kind: 'widget' });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect(title()).toBe('Card details for a booking');
    await wrapper.setProps({ visible: false });
    await wrapper.setProps({ kind: 'card', visible: true });
    await flushPromises();
    expect(title()).toBe('New payment link');
    await wrapper.setProps({ visible: false });
    await wrapper.setProps({ kind: 'widget', context: fromThread, visible: true });
    await flushPromises();
    expect(title()).toBe('Card details from Anna');
  });

  it('keeps what was typed as a draft when closed, and nothing when nothing was typed', async () => {
    const calls = linkCore();
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await wrapper.setProps({ visible: false });
    await flushPromises();
    expect(calls.filter((c) => c.method === 'payments.saveDraft')).toHaveLength(0);

    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '12.5');
    await type('link-customer_email', 'anna@example.com');
    await wrapper.setProps({ visible: false });
    await flushPromises();
    const saves = calls.filter((c) => c.method === 'payments.saveDraft');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.args).toMatchObject({
      kind: 'card',
      hotelId: 'H1',
      threadId: 4,
      typed: { amount: '12.5', currency_code: 'EUR', order_id: 'IK-250101-ABCD', customer_email: 'anna@example.com' },
    });
  });

  it('the window hidden with the dialog open keeps what was typed, and the link is then made from that draft', async () => {
    const calls = linkCore(() => ({ link: paymentLink({ id: 20 }), error: null }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await flushPromises();
    visibility.mockRestore();
    expect(calls.filter((c) => c.method === 'payments.saveDraft')).toHaveLength(1);
    await click('link-create');
    expect(calls.find((c) => c.method === 'payments.createLink')!.args).toMatchObject({ draftId: 20, amount: '45.50' });
  });

  it('a draft whose request may have reached the host says so, and offers a new order id', async () => {
    linkCore();
    const draft = paymentLink({
      id: 5,
      status: 'draft',
      url: null,
      outcomeUnknown: true,
      error: { code: 'timeout', message: 'No answer.', outcomeUnknown: true },
      typed: { amount: '45.50', currency_code: 'EUR', order_id: 'IK-OLD' },
    });
    const wrapper = mountIt(LinkDialog, { visible: false, draft });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect($('link-problem')?.textContent).toContain('may have made this link already');
    expect($<HTMLInputElement>('link-order_id')!.value).toBe('IK-OLD');
    expect($<HTMLInputElement>('link-amount')!.value).toBe('45.50');
    const button = [...$('link-problem')!.querySelectorAll('button')].find((b) =>
      b.textContent?.includes('new order id'),
    )!;
    button.click();
    await flushPromises();
    expect($<HTMLInputElement>('link-order_id')!.value).toBe('IK-250101-ABCD');
  });
});

describe('the link dialog, as the owner goes back and forth', () => {
  it('a refusal about fields alone is no banner, even once every field it named is edited', async () => {
    const refusal = { code: '400', message: 'order_id : duplicate', fields: { order_id: 'duplicate' } };
    linkCore(() => ({ link: paymentLink({ id: 9, status: 'draft', url: null }), error: refusal }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    expect($('link-order_id-error')?.textContent).toContain('duplicate');
    expect($('link-problem')).toBeNull();
    await type('link-order_id', 'IK-OTHER-1');
    expect($('link-order_id-error')).toBeNull();
    expect($('link-problem')).toBeNull();
  });

  it('a refusal that names no field says its message above the form', async () => {
    const refusal = { code: '400', message: 'The partner account is not active.' };
    linkCore(() => ({ link: paymentLink({ id: 9, status: 'draft', url: null }), error: refusal }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    expect($('link-problem')?.textContent).toContain('The partner account is not active.');
  });

  it('a refusal about a field the form does not show names it in words above the form', async () => {
    const refusal = {
      code: '400',
      message: 'Creating the payment link failed: invalid.',
      fields: { is_button: 'invalid' },
    };
    linkCore(() => ({ link: paymentLink({ id: 9, status: 'draft', url: null }), error: refusal }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    expect($('link-problem')?.textContent).toContain('Button or link is not valid.');
    expect($('link-problem')?.textContent).not.toContain('is_button');
  });

  it('what was typed as a card link is kept when the owner switches to a widget link and closes', async () => {
    const calls = linkCore();
    const wrapper = mountIt(LinkDialog, { visible: false });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '12.5');
    await type('link-customer_email', 'anna@example.com');
    byText('Card details for a booking', $('link-kind')!)!.click();
    await flushPromises();
    expect($('link-amount')).toBeNull();
    await wrapper.setProps({ visible: false });
    await flushPromises();
    const saves = calls.filter((c) => c.method === 'payments.saveDraft');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.args).toMatchObject({
      kind: 'widget',
      typed: { amount: '12.5', customer_email: 'anna@example.com', is_button: false },
    });
  });

  it('closed and opened again before the draft was kept: the new form is not tied to that draft', async () => {
    const creates: unknown[] = [];
    const core = installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.proposeOrderId': () => ok({ orderId: 'IK-250101-ABCD' }),
      'payments.createLink': (args: never) => (creates.push(args), ok({ link: paymentLink({ id: 30 }), error: null })),
      'payments.qr': () => ok({ url: 'https://pay.example/x', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' }),
    });
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '12.5');
    await wrapper.setProps({ visible: false });
    await flushPromises();
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect($<HTMLInputElement>('link-amount')!.value).toBe('');
    // The first form's draft is kept only now.
    core.pending('payments.saveDraft')[0]!.answer(ok(paymentLink({ id: 20, status: 'draft' })));
    await flushPromises();
    await type('link-amount', '99');
    await click('link-create');
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ amount: '99' });
    expect(creates[0]).not.toHaveProperty('draftId');
  });

  it('an order id proposed late never replaces the one the owner typed; New replaces it when asked', async () => {
    const core = installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.saveDraft': () => ok(paymentLink({ id: 20, status: 'draft' })),
    });
    const wrapper = mountIt(LinkDialog, { visible: false });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    // Each opening reads the accounts again.
    expect(core.pending('payments.proposeOrderId')).toHaveLength(1);
    await type('link-order_id', 'MY-ORDER-1');
    core.pending('payments.proposeOrderId')[0]!.answer(ok({ orderId: 'IK-250101-LATE' }));
    await flushPromises();
    expect($<HTMLInputElement>('link-order_id')!.value).toBe('MY-ORDER-1');

    await click('link-new-order');
    core.pending('payments.proposeOrderId')[0]!.answer(ok({ orderId: 'IK-250101-NEW1' }));
    await flushPromises();
    expect($<HTMLInputElement>('link-order_id')!.value).toBe('IK-250101-NEW1');
  });

  it('reads the accounts again each time it opens', async () => {
    let lists = 0;
    installFakeApi({
      'payments.list': () => (lists++, ok(paymentsView())),
      'payments.proposeOrderId': () => ok({ orderId: 'IK-250101-ABCD' }),
    });
    const wrapper = mountIt(LinkDialog, { visible: false });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await wrapper.setProps({ visible: false });
    await flushPromises();
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect(lists).toBe(2);
  });

  it('offers Insert into reply only where a listener puts it in, for a link of a conversation', async () => {
    linkCore(() => ({ link: paymentLink({ threadId: 4 }), error: null }));
    const wrapper = mountIt(LinkDialog, { visible: false, context: fromThread });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await type('link-amount', '45.50');
    await click('link-create');
    expect($('link-result')).not.toBeNull();
    expect($('link-insert')).toBeNull();
  });
});

describe('the partner dialog', () => {
  it('shows each mistake under its field, then the host’s refusal under the e-mail, and closes once taken', async () => {
    let answer = fail({
      code: '400',
      message: 'email_address : already registered for another partner',
      fields: { email_address: 'already registered for another partner' },
    });
    const saved: unknown[] = [];
    installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.savePartner': (args: never) => (saved.push(args), answer),
    });
    const wrapper = mountIt(PartnerDialog, { visible: false, hotelId: 'H2', propertyName: 'Old Town Loft' });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    expect($<HTMLInputElement>('partner-partner_id')!.value).toBe('H2-PAY');
    expect($<HTMLInputElement>('partner-partner_name')!.value).toBe('Old Town Loft');

    await type('partner-email_address', 'loft@');
    await type('partner-contact_name', 'Maria');
    await type('partner-contact_number', '+45 1234');
    await click('partner-save');
    expect(saved).toHaveLength(0);
    expect($('partner-email_address-error')?.textContent).toContain('valid e-mail');
    expect($('partner-contact_number-error')?.textContent).toContain('not a valid number');
    expect($('partner-currency_code-error')?.textContent).toContain('Choose a currency');

    // The number is shown the international way once it is valid and the owner leaves it.
    await type('partner-contact_number', '+4520123456');
    expect($<HTMLInputElement>('partner-contact_number')!.value).toBe('+45 20 12 34 56');
    await type('partner-email_address', 'payments@harbourview.example');
    usePaymentsStore(); // the dialog's store
    // The currency is a Select: set through the form as the owner's pick would.
    const form = (wrapper.vm as unknown as { $: { setupState: { form: Record<string, string> } } }).$.setupState.form;
    form.currency_code = 'DKK';
    await flushPromises();
    await click('partner-save');
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      hotelId: 'H2',
      email_address: 'payments@harbourview.example',
      currency_code: 'DKK',
    });
    // Under the e-mail and naming it in words, never as the host wrote it (`email_address : …`).
    expect($('partner-email_address-error')?.textContent?.trim()).toBe(
      'The e-mail address is already registered for another partner.',
    );
    expect(wrapper.emitted('saved')).toBeUndefined();

    answer = ok({ ...paymentsView().partners[0]!, hotelId: 'H2' }) as never;
    await type('partner-email_address', 'loft@oldtown2.example');
    expect($('partner-email_address-error')).toBeNull();
    await click('partner-save');
    expect(wrapper.emitted('saved')).toHaveLength(1);
    expect(wrapper.emitted('update:visible')).toEqual([[false]]);
  });
});

describe('the ledger', () => {
  it('shows a draft’s reason with Open and Delete, a made link with Copy, and the conversation it belongs to', async () => {
    installFakeApi({ 'payments.list': () => ok(paymentsView()) });
    const payments = usePaymentsStore();
    payments.view = paymentsView({
      links: [
        paymentLink({
          id: 2,
          status: 'draft',
          url: null,
          outcomeUnknown: true,
          error: { code: 'timeout', message: 'No answer.', outcomeUnknown: true },
        }),
        paymentLink({ id: 1, threadId: 7, bookingId: 'B-77', status: 'paid', settledAt: 1_700_000_100_000 }),
      ],
    });
    const wrapper = mountIt(PaymentLedger, { highlight: 1 });
    await flushPromises();
    const rows = wrapper.findAll('[data-testid="ledger-row"]');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.find('[data-testid="ledger-open"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="ledger-note"]').text()).toContain('may have made this link already');
    expect(rows[1]!.find('[data-testid="payment-status"]').text()).toBe('Paid');
    expect(rows[1]!.find('[data-testid="ledger-amount"]').text()).toBe('€45.50');
    expect(rows[1]!.find('[data-testid="ledger-thread"]').attributes('href')).toBe('/inbox/7');
    expect(rows[1]!.classes()).toContain('row--highlighted');
    expect(wrapper.find('[data-testid="ledger-filter"]').text()).toContain('Drafts (1)');

    await rows[0]!.find('[data-testid="ledger-open"]').trigger('click');
    expect(wrapper.emitted('open')?.[0]?.[0]).toMatchObject({ id: 2 });
  });
});
