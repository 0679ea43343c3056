import {
  partnerSchema,
  paymentLinkSchema,
  transactionStatusSchema,
  widgetLinkSchema,
  type Partner,
  type PaymentLink,
  type TransactionStatusRequest,
  type WidgetLink,
} from '../../../shared/su/payments';
import { isObject, isSuccess } from '../envelope';
import { callEndpoint, pick, type ProviderContext } from '../request';

/** A transaction as the payment host reports it. */
export interface Transaction {
  gatewayTransactionId: string;
  amount: string;
  currency: string;
  status: string;
  /** True when the payment went through (`status` is Success). */
  completed: boolean;
}

const url = (body: unknown): string | null => {
  const u = pick(body, 'URL', 'url');
  return typeof u === 'string' && u ? u : null;
};

/** A link answer: `URL`, and the transaction id where the provider gives one (not documented; the emulator does). */
function linkAnswer(body: unknown): { url: string; transactionId: string | null } | null {
  const link = isSuccess(body) ? url(body) : null;
  if (!link) return null;
  const id = pick(body, 'transaction_id', 'TransactionId', 'transactionId');
  return { url: link, transactionId: id == null || id === '' ? null : String(id) };
}

/** Endpoint 14: create a partner account (e-mail unique per partner). */
export function createPartner(ctx: ProviderContext, input: Partner): Promise<{ created: true }> {
  return callEndpoint(
    ctx,
    {
      what: 'Creating the partner account',
      host: 'token',
      path: '/service/api/partner',
      auth: 'payment',
      schema: partnerSchema,
      parse: (body) => (isSuccess(body) ? { created: true as const } : null),
    },
    input,
  );
}

/**
 * Endpoint 16: a card payment link. The contract shows only `URL`; a transaction id is returned where the
 * provider gives one (the emulator does), to ask for the status later.
 */
export function createPaymentLink(
  ctx: ProviderContext,
  input: PaymentLink,
): Promise<{ url: string; transactionId: string | null }> {
  return callEndpoint(
    ctx,
    {
      what: 'Creating the payment link',
      host: 'token',
      path: '/service/api/paycard',
      auth: 'payment',
      schema: paymentLinkSchema,
      parse: linkAnswer,
    },
    input,
  );
}

/** Endpoint 17: a widget payment link (with a transaction id where the provider gives one). */
export function createWidgetLink(
  ctx: ProviderContext,
  input: WidgetLink,
): Promise<{ url: string; transactionId: string | null }> {
  return callEndpoint(
    ctx,
    {
      what: 'Creating the payment widget link',
      host: 'token',
      path: '/service/api/generateLink',
      auth: 'payment',
      schema: widgetLinkSchema,
      parse: linkAnswer,
    },
    input,
  );
}

/** Endpoint 15: a transaction's status. */
export function transactionStatus(ctx: ProviderContext, input: TransactionStatusRequest): Promise<Transaction> {
  return callEndpoint(
    ctx,
    {
      what: 'Checking the payment',
      host: 'token',
      path: '/service/api/transactionstatus',
      auth: 'payment',
      schema: transactionStatusSchema,
      parse: (body) => {
        const details = isSuccess(body) ? pick(body, 'transaction_details') : null;
        if (!isObject(details)) return null;
        const status = String(details.status ?? '');
        return {
          gatewayTransactionId: String(details.pg_transection_id ?? ''),
          amount: String(details.amount ?? ''),
          currency: String(details.currency ?? ''),
          status,
          completed: status.toLowerCase() === 'success',
        };
      },
    },
    input,
  );
}
