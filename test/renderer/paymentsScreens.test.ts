import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThreadDetail } from '@shared/inbox';
import type { PaymentLinkEntry } from '@shared/payments';
import { fail, ok } from '@shared/result';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import ReplyComposer from '@renderer/features/inbox/replies/ReplyComposer.vue';
import { DRAFT_DELAY_MS } from '@renderer/features/inbox/replies/useDraft';
import { REPLY_TOOLS } from '@renderer/features/inbox/slots';
import PartnerAccounts from '@renderer/features/payments/PartnerAccounts.vue';
import PaymentLedger from '@renderer/features/payments/PaymentLedger.vue';
import PaymentsView from '@renderer/features/payments/PaymentsView.vue';
import { usePaymentsStore } from '@renderer/features/payments/paymentsStore';
import ThreadPayments from '@renderer/features/payments/ThreadPayments.vue';
import TransactionDialog from '@renderer/features/payments/TransactionDialog.vue';
import { loadSections } from './appSections';
import { installFakeApi } from './fakeApi';
import { paymentLink, paymentsView } from './paymentFixtures';
import { $, blankRouter, byText, click, mountIt as mountWith, type } from './paymentsDom';

let pinia: Pinia;
// The reply box's Payment link is the payments feature's section of it.
beforeAll(() => loadSections(REPLY_TOOLS));
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});
afterEach(() => vi.restoreAllMocks());
const mountIt = <C>(component: C, props: Record<string, unknown> = {}, router = blankRouter()) =>
  mountWith(component, pinia, props, router);

const SENTENCE = 'You can pay the deposit of €45.50 securely here: https://pay.example/get-cc?userId=u1';
const qr = () => ok({ url: 'https://pay.example/x', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' });

/** A Booking.com conversation with Anna at Harbour View (H1). */
const thread = (over: Partial<ThreadDetail> = {}): ThreadDetail => ({
  id: 7,
  channel: '19',
  channelName: 'Booking.com',
  guestName: 'Anna',
  guestLabel: 'Anna',
  propertyName: 'H1',
  listingName: null,
  preview: 'Hello',
  lastMessageAt: 1,
  unread: 0,
  needsReply: true,
  checkIn: null,
  checkOut: null,
  done: false,
  hasDraft: false,
  hotelId: 'H1',
  listingId: null,
  bookingId: 'B-77',
  threadRef: null,
  guestId: null,
  bookingFlag: 'B',
  guest: null,
  booking: null,
  messages: [],
  draft: null,
  added: null,
  ...over,
});

describe('Insert into reply on the Payments screen', () => {
  /** The Payments screen with a draft of conversation 7 (and one of no conversation) in the ledger. */
  function paymentsScreen(savedDraft: string | null) {
    const saved: unknown[] = [];
    const links = [
      paymentLink({ id: 5, status: 'draft', url: null, threadId: 7, typed: { amount: '45.50', currency_code: 'EUR' } }),
      paymentLink({ id: 6, status: 'draft', url: null, threadId: null, typed: { amount: '10', currency_code: 'EUR' } }),
    ];
    installFakeApi({
      'payments.list': () => ok(paymentsView({ links })),
      'payments.proposeOrderId': () => ok({ orderId: 'IK-250101-ABCD' }),
      'payments.createLink': (args: { draftId?: number }) =>
        ok({ link: paymentLink({ id: args.draftId, threadId: args.draftId === 5 ? 7 : null }), error: null }),
      'payments.qr': qr,
      'inbox.thread': () => ok(thread({ draft: savedDraft })),
      'inbox.saveDraft': (args: never) => (saved.push(args), ok({ savedAt: 1 })),
    });
    const router = blankRouter();
    return { saved, router, wrapper: mountIt(PaymentsView, {}, router) };
  }
  const openDraft = async (index: number) => {
    document.querySelectorAll<HTMLElement>('[data-testid="ledger-open"]')[index]!.click();
    await flushPromises();
  };

  it('puts the sentence after the conversation’s saved reply, saves it as its draft, and opens the conversation', async () => {
    const { saved, router } = paymentsScreen('Hello Anna,');
    await flushPromises();
    await openDraft(0);
    await click('link-create');
    await click('link-insert');
    expect(saved).toEqual([{ threadId: 7, body: `Hello Anna,\n\n${SENTENCE}` }]);
    expect(useInboxStore().drafts.get(7)).toBe(`Hello Anna,\n\n${SENTENCE}`);
    expect(router.currentRoute.value.path).toBe('/inbox/7');
    expect($('link-dialog')).toBeNull();
  });

  it('what was typed in the conversation this session comes first, and the link of no conversation has no button', async () => {
    const { saved } = paymentsScreen('an older saved draft');
    useInboxStore().drafts.set(7, 'Typed just now ');
    await flushPromises();
    await openDraft(0);
    await click('link-create');
    await click('link-insert');
    expect(saved).toEqual([{ threadId: 7, body: `Typed just now\n\n${SENTENCE}` }]);

    await openDraft(1);
    await click('link-create');
    expect($('link-result')).not.toBeNull();
    expect($('link-insert')).toBeNull();
  });
});

describe('the partner accounts', () => {
  it('keep what was typed for a property when cancelled, bring it back, and drop it on Discard', async () => {
    installFakeApi({ 'payments.list': () => ok(paymentsView()) });
    usePaymentsStore().view = paymentsView();
    mountIt(PartnerAccounts);
    await flushPromises();
    const loft = () => document.querySelector<HTMLElement>('[data-hotel-id="H2"]')!;
    expect($('partner-change')!.getAttribute('aria-label')).toBe('Change the partner account of Harbour View');
    expect($('partner-forget')!.getAttribute('aria-label')).toBe('Forget the partner account of Harbour View…');

    $('partner-set-up', loft())!.click();
    await flushPromises();
    await type('partner-email_address', 'loft@oldtown.example');
    await type('partner-contact_name', 'Maria');
    expect($('partner-kept-note')?.textContent).toContain('Cancel keeps what you typed');
    await click('partner-cancel');
    expect($('partner-kept', loft())?.textContent).toContain('Unsaved changes kept');

    $('partner-set-up', loft())!.click();
    await flushPromises();
    expect($<HTMLInputElement>('partner-email_address')!.value).toBe('loft@oldtown.example');
    expect($<HTMLInputElement>('partner-contact_name')!.value).toBe('Maria');
    expect($('partner-restored')).not.toBeNull();
    await click('partner-discard');
    expect($('partner-kept', loft())).toBeNull();

    $('partner-set-up', loft())!.click();
    await flushPromises();
    expect($<HTMLInputElement>('partner-email_address')!.value).toBe('');
    expect($<HTMLInputElement>('partner-partner_id')!.value).toBe('H2-PAY');
    // Nothing changed: closing keeps nothing.
    await click('partner-cancel');
    expect($('partner-kept', loft())).toBeNull();
  });
});

describe('the ledger’s actions', () => {
  function ledger(links: PaymentLinkEntry[], answers: Parameters<typeof installFakeApi>[0] = {}) {
    installFakeApi({ 'payments.list': () => ok(paymentsView({ links })), ...answers });
    usePaymentsStore().view = paymentsView({ links });
    return mountIt(PaymentLedger, { highlight: null });
  }

  it('a draft that could not be deleted says why, and asks no more', async () => {
    const draft = paymentLink({ id: 2, status: 'draft', url: null });
    ledger([draft], { 'payments.deleteDraft': () => fail({ code: 'busy', message: 'This link is being created.' }) });
    await flushPromises();
    await click('ledger-delete');
    expect($('ledger-note')?.textContent).toContain('Press Delete again');
    await click('ledger-delete');
    expect($('ledger-note')?.querySelector('[role=alert]')?.textContent).toContain('This link is being created.');
    expect($('ledger-note')?.textContent).not.toContain('Press Delete again');
  });

  it('a draft the host may have made says why: no answer, or an answer that could not be used, as it was', async () => {
    const notHttps = {
      code: 'provider',
      message: 'The payment host made the link but answered an address that is not https (http://pay.example/x).',
      outcomeUnknown: true,
    };
    const timedOut = { code: 'timeout', message: 'No answer within 20 s.', outcomeUnknown: true, retryable: true };
    ledger([
      paymentLink({ id: 2, status: 'draft', url: null, outcomeUnknown: true, error: notHttps }),
      paymentLink({ id: 3, status: 'draft', url: null, outcomeUnknown: true, error: timedOut }),
    ]);
    await flushPromises();
    const notes = [...document.querySelectorAll('[data-testid="ledger-note"]')].map((n) => n.textContent ?? '');
    expect(notes.find((n) => n.includes('not https'))).not.toContain('did not answer');
    expect(notes.filter((n) => n.includes('The payment host did not answer'))).toHaveLength(1);
  });

  it('Check now asks the host at once; its failure shows under the row', async () => {
    const checks: unknown[] = [];
    const paid = paymentLink({ status: 'paid', hostStatus: 'Success' });
    let answer = ok(paid);
    let links = [paymentLink()];
    installFakeApi({
      'payments.list': () => ok(paymentsView({ links })),
      'payments.checkNow': (args: never) => (checks.push(args), answer.ok && (links = [paid]), answer),
    });
    usePaymentsStore().view = paymentsView({ links });
    mountIt(PaymentLedger, { highlight: null });
    await flushPromises();
    const checkNow = async () => {
      await click('ledger-more');
      byText('Check now', document, '.p-menu-item-content')!.click();
      await flushPromises();
    };
    await checkNow();
    expect(checks).toEqual([{ id: 1 }]);
    expect($('payment-status')?.textContent).toContain('Paid');

    answer = fail({ code: 'network', message: 'The payment host did not answer.' }) as never;
    await checkNow();
    expect(checks).toHaveLength(2);
    expect($('ledger-note')?.querySelector('[role=alert]')?.textContent).toContain('did not answer');
  });

  it('a clipboard that refuses says where else to copy the link', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    ledger([paymentLink()]);
    await flushPromises();
    await click('ledger-copy');
    expect($('ledger-note')?.textContent).toContain('The clipboard is not available here');
  });
});

describe('the transaction id dialog', () => {
  it('checks what is typed, sends it trimmed, says the host’s refusal, and closes once taken', async () => {
    const sent: unknown[] = [];
    let answer = fail({ code: '404', message: 'The host does not know this transaction.' });
    installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.setTransaction': (args: never) => (sent.push(args), answer),
    });
    const wrapper = mountIt(TransactionDialog, { visible: false, link: paymentLink({ id: 3, transactionId: null }) });
    await wrapper.setProps({ visible: true });
    await flushPromises();
    await click('transaction-save');
    expect($('transaction-id-error')?.textContent).toContain('The transaction id');
    expect(sent).toHaveLength(0);

    await type('transaction-id', '  T-99  ');
    await click('transaction-save');
    expect(sent).toEqual([{ id: 3, transactionId: 'T-99' }]);
    expect($('transaction-id-error')?.textContent).toContain('does not know this transaction');
    expect(wrapper.emitted('update:visible')).toBeUndefined();

    answer = ok(paymentLink({ id: 3, transactionId: 'T-100', transactionSource: 'owner' })) as never;
    await type('transaction-id', 'T-100');
    expect($('transaction-id-error')).toBeNull();
    await click('transaction-save');
    expect(sent[1]).toEqual({ id: 3, transactionId: 'T-100' });
    expect(wrapper.emitted('update:visible')).toEqual([[false]]);
  });
});

describe('a conversation’s payments', () => {
  it('the strip reads its links again on payments.changed', async () => {
    let links = [paymentLink({ threadId: 7 })];
    const asked: unknown[] = [];
    const core = installFakeApi({
      'payments.list': (args: never) => (asked.push(args), ok(paymentsView({ links }))),
    });
    const stop = usePaymentsStore().listen();
    mountIt(ThreadPayments, { threadId: 7 });
    await flushPromises();
    expect($('thread-payment')?.dataset.status).toBe('requested');

    links = [paymentLink({ threadId: 7, status: 'paid', hostStatus: 'Success' })];
    core.emit('payments.changed', { paid: links });
    await flushPromises();
    expect(asked).toEqual([{ threadId: 7 }, { threadId: 7 }]);
    expect($('thread-payment')?.dataset.status).toBe('paid');
    stop();
  });

  it('the reply box puts the link’s sentence where the caret was, and saves it as the reply’s draft', async () => {
    const saved: unknown[] = [];
    installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.proposeOrderId': () => ok({ orderId: 'IK-250101-ABCD' }),
      'payments.createLink': () => ok({ link: paymentLink({ threadId: 7 }), error: null }),
      'payments.qr': qr,
      'savedReplies.list': () => ok([]),
      'inbox.saveDraft': (args: never) => (saved.push(args), ok({ savedAt: 1 })),
    });
    mountIt(ReplyComposer, { thread: thread({ draft: 'Hello Anna,\nSee you on Friday.' }) });
    await flushPromises();
    const box = document.querySelector<HTMLTextAreaElement>('#reply-text')!;
    expect(box.value).toBe('Hello Anna,\nSee you on Friday.');
    // The owner was after "Hello Anna," when they went to make the link.
    box.setSelectionRange(11, 11);
    box.dispatchEvent(new FocusEvent('blur'));

    await click('composer-payment-link');
    await type('link-amount', '45.50');
    await click('link-create');
    await click('link-insert');
    const body = `Hello Anna, ${SENTENCE}\nSee you on Friday.`;
    expect(box.value).toBe(body);
    await new Promise((resolve) => setTimeout(resolve, DRAFT_DELAY_MS + 50));
    await flushPromises();
    expect(saved).toEqual([{ threadId: 7, body }]);
  });

  it('from an Airbnb enquiry the link names the guest and no booking: the enquiry’s id is not one the guest knows', async () => {
    installFakeApi({
      'payments.list': () => ok(paymentsView()),
      'payments.proposeOrderId': () => ok({ orderId: 'IK-250101-ABCD' }),
      'savedReplies.list': () => ok([]),
    });
    const enquiry = thread({ channel: '244', channelName: 'Airbnb', bookingFlag: 'T', bookingId: '1234567890123' });
    mountIt(ReplyComposer, { thread: enquiry });
    await flushPromises();
    await click('composer-payment-link');
    await flushPromises();
    const field = (name: string) => document.querySelector<HTMLInputElement>(`input[data-testid="link-${name}"]`)!;
    expect(field('forWhom').value).toBe('Anna');
    expect(field('booking_id').value).toBe('');
    // Booked, the confirmation code is the booking the guest knows.
    document.body.innerHTML = '';
    mountIt(ReplyComposer, {
      thread: thread({
        channel: '244',
        channelName: 'Airbnb',
        bookingFlag: 'B',
        bookingId: '1234567890123',
        booking: { confirmationCode: 'HMABC123' } as ThreadDetail['booking'],
      }),
    });
    await flushPromises();
    await click('composer-payment-link');
    await flushPromises();
    expect(field('booking_id').value).toBe('HMABC123');
  });
});
