import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paymentAuth } from './credentials';
import type { EmulatorState, PaymentPartner, Transaction } from './state';
import { EMAIL, INTERNATIONAL_PHONE, isHttpUrl, isObject, type Json } from './validate';

/**
 * The payment-token host, endpoints 14–17 (partner, transaction status, card link, widget link). Failures list
 * every problem as "field : reason". Transactions start pending and become `Success` when the customer pays on
 * the emulated payment page, on `POST /_emulator/transactions/complete`, or by themselves after
 * `paymentCompleteSeconds`.
 */

// The host's docs say only "amount (string)"; ISO 4217 currencies have up to four minor digits (KWD 3, CLF 4).
const AMOUNT = /^\d+(\.\d{1,4})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** Collects "field : reason" problems for one request. */
class Problems {
  readonly list: string[] = [];
  constructor(private readonly b: Json) {}
  add(field: string, reason: string) {
    this.list.push(`${field} : ${reason}`);
  }
  /** A required (or optional) string field; a present value of another type is "invalid". */
  text(field: string, required: boolean): string | undefined {
    const value = this.b[field];
    if (value === undefined || value === null || value === '') {
      if (required) this.add(field, 'missing');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(field, 'invalid (must be a string)');
      return undefined;
    }
    return value;
  }
}

export const transactionStatus = (state: EmulatorState, t: Transaction): 'Success' | 'Pending' | 'Failed' =>
  t.failedAt !== null
    ? 'Failed'
    : t.completedAt !== null || state.now() >= t.createdAt + state.options.paymentCompleteSeconds * 1000
      ? 'Success'
      : 'Pending';

export function completeTransaction(state: EmulatorState, t: Transaction): void {
  if (transactionStatus(state, t) === 'Pending') t.completedAt = state.now();
}

/** The card is declined: a pending transaction fails for good. */
export function declineTransaction(state: EmulatorState, t: Transaction): void {
  if (transactionStatus(state, t) === 'Pending') t.failedAt = state.now();
}

/** `{token_base_url}`: where the payment pages are published (`paymentPageBase`), or as the caller reached it. */
const tokenBase = (state: EmulatorState, request: FastifyRequest) =>
  `${state.options.paymentPageBase.replace(/\/+$/, '') || `${request.protocol}://${request.host}`}/token`;

function partnerFor(state: EmulatorState, p: Problems, requireActive: boolean): PaymentPartner | undefined {
  const id = p.text('partner_id', true);
  if (id === undefined) return undefined;
  const partner = state.partners.get(id);
  if (!partner) p.add('partner_id', 'invalid');
  else if (requireActive && partner.status.toLowerCase() !== 'active') p.add('partner_id', 'inactive');
  return partner;
}

export function registerPaymentRoutes(app: FastifyInstance, state: EmulatorState): void {
  const fail = (reply: FastifyReply, key: 'status' | 'Status', list: string[]) =>
    reply.code(400).send({ [key]: 'Fail', ErrorMessages: list });
  const bodyOf = (request: FastifyRequest): Json => (isObject(request.body) ? request.body : {});

  app.post('/service/api/partner', { onRequest: paymentAuth(state, 'status') }, async (request, reply) => {
    const p = new Problems(bodyOf(request));
    const id = p.text('partner_id', true);
    const name = p.text('partner_name', true);
    const contactNumber = p.text('contact_number', true);
    const contactName = p.text('contact_name', true);
    const email = p.text('email_address', true);
    if (email !== undefined && !EMAIL.test(email)) p.add('email_address', 'invalid');
    const status = p.text('status', true);
    if (status !== undefined && !['active', 'inactive'].includes(status.toLowerCase())) {
      p.add('status', 'invalid (Active or Inactive)');
    }
    const currency = p.text('currency_code', true);
    if (currency !== undefined && !CURRENCY.test(currency))
      p.add('currency_code', 'invalid (an ISO 4217 code such as EUR)');
    const taken = [...state.partners.values()].some(
      (other) => other.partner_id !== id && other.email_address.toLowerCase() === email?.toLowerCase(),
    );
    if (taken) p.add('email_address', 'already registered for another partner');
    if (p.list.length) return fail(reply, 'status', p.list);
    // Posting an existing partner_id again updates that partner.
    state.partners.set(id!, {
      partner_id: id!,
      partner_name: name!,
      email_address: email!,
      contact_number: contactNumber!,
      contact_name: contactName!,
      status: status!,
      currency_code: currency!,
    });
    return reply.send({ status: 'Success', ErrorMessages: [] });
  });

  app.post('/service/api/paycard', { onRequest: paymentAuth(state, 'Status') }, async (request, reply) => {
    const b = bodyOf(request);
    const p = new Problems(b);
    const partner = partnerFor(state, p, true);
    const amount = p.text('amount', true);
    if (amount !== undefined && (!AMOUNT.test(amount) || Number(amount) <= 0)) p.add('amount', 'invalid');
    const currency = p.text('currency_code', true);
    if (currency !== undefined && !CURRENCY.test(currency)) p.add('currency_code', 'invalid');
    const orderId = p.text('order_id', true);
    if (orderId !== undefined && partner && state.orderIds.has(`${partner.partner_id}|${orderId}`)) {
      p.add('order_id', 'already used');
    }
    const email = p.text('customer_email', false);
    if (email !== undefined && email.length > 50) p.add('customer_email', 'too long (at most 50 characters)');
    else if (email !== undefined && !EMAIL.test(email)) p.add('customer_email', 'invalid');
    const phone = p.text('contact_number', false);
    if (phone !== undefined && !INTERNATIONAL_PHONE.test(phone)) {
      p.add('contact_number', 'invalid (international format such as +4520123456)');
    }
    const returnUrl = p.text('return_url', false);
    if (returnUrl !== undefined && !isHttpUrl(returnUrl)) p.add('return_url', 'invalid');
    if (p.list.length || !partner) return fail(reply, 'Status', p.list);
    state.orderIds.add(`${partner.partner_id}|${orderId}`);
    const t = newTransaction(state, partner, 'paycard', {
      amount: amount!,
      currency: currency!,
      order_id: orderId!,
      returnUrl: returnUrl ?? null,
    });
    // The provider does not document where the transaction id comes back; the emulator returns it beside URL.
    return reply.send({
      Status: 'Success',
      ErrorMessages: [],
      URL: `${tokenBase(state, request)}/get-cc?userId=${t.userId}`,
      transaction_id: t.transaction_id,
    });
  });

  app.post('/service/api/generateLink', { onRequest: paymentAuth(state, 'Status') }, async (request, reply) => {
    const b = bodyOf(request);
    const p = new Problems(b);
    const partner = partnerFor(state, p, true);
    const bookingId = p.text('booking_id', true);
    if (b.is_button === undefined || b.is_button === null) p.add('is_button', 'missing');
    else if (typeof b.is_button !== 'boolean') p.add('is_button', 'invalid (true or false)');
    if (p.list.length || !partner) return fail(reply, 'Status', p.list);
    const t = newTransaction(state, partner, 'widget', {
      amount: '0.00',
      currency: partner.currency_code,
      booking_id: bookingId!,
    });
    const marker = b.is_button ? '&is_button=Y' : '';
    return reply.send({
      Status: 'Success',
      ErrorMessages: [],
      URL: `${tokenBase(state, request)}/get-cc?userId=${t.userId}${marker}`,
      transaction_id: t.transaction_id,
    });
  });

  app.post('/service/api/transactionstatus', { onRequest: paymentAuth(state, 'Status') }, async (request, reply) => {
    const p = new Problems(bodyOf(request));
    const partner = partnerFor(state, p, false);
    const id = p.text('transaction_id', true);
    const t = id === undefined ? undefined : state.transactions.get(id);
    if (id !== undefined && (!t || (partner && t.partner_id !== partner.partner_id)))
      p.add('transaction_id', 'invalid');
    if (p.list.length || !t) return fail(reply, 'Status', p.list);
    const status = transactionStatus(state, t);
    return reply.send({
      Status: 'Success',
      ErrorMessages: [],
      transaction_details: {
        pg_transection_id: status === 'Success' ? t.pgTransactionId : '',
        amount: t.amount,
        currency: t.currency,
        status,
      },
    });
  });
}

function newTransaction(
  state: EmulatorState,
  partner: PaymentPartner,
  kind: Transaction['kind'],
  fields: { amount: string; currency: string; order_id?: string; booking_id?: string; returnUrl?: string | null },
): Transaction {
  const t: Transaction = {
    transaction_id: `TXN${randomBytes(6).toString('hex').toUpperCase()}`,
    partner_id: partner.partner_id,
    kind,
    userId: randomBytes(16).toString('hex'),
    amount: fields.amount,
    currency: fields.currency,
    order_id: fields.order_id ?? null,
    booking_id: fields.booking_id ?? null,
    returnUrl: fields.returnUrl ?? null,
    createdAt: state.now(),
    completedAt: null,
    failedAt: null,
    pgTransactionId: `pg_${randomBytes(10).toString('hex')}`,
  };
  state.transactions.set(t.transaction_id, t);
  return t;
}
