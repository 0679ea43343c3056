import { displayMoney, parseAmount } from '@shared/money';
import type { PaymentLinkEntry, PaymentStatus } from '@shared/payments';
import { ErrorCode, type AppError } from '@shared/result';
import { formatDateTime } from '@renderer/lib/format';

/** The ledger's filters: every link, those waiting for the guest, paid, failed or unknown, drafts. */
export type LedgerFilter = 'all' | 'open' | 'paid' | 'trouble' | 'drafts';

export const FILTERS: { value: LedgerFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'paid', label: 'Paid' },
  { value: 'trouble', label: 'Failed or unknown' },
  { value: 'drafts', label: 'Drafts' },
];

export function inFilter(link: Pick<PaymentLinkEntry, 'status'>, filter: LedgerFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'open':
      return link.status === 'requested';
    case 'paid':
      return link.status === 'paid';
    case 'trouble':
      return link.status === 'failed' || link.status === 'unknown';
    case 'drafts':
      return link.status === 'draft';
  }
}

/** Each status in words, with its icon (the chip is never colour alone). */
export const STATUS: Record<PaymentStatus, { label: string; icon: string; meaning: string }> = {
  draft: { label: 'Draft', icon: 'pi pi-pencil', meaning: 'Not created yet: kept as typed.' },
  requested: { label: 'Requested', icon: 'pi pi-clock', meaning: 'The link is made; the guest has not paid yet.' },
  paid: { label: 'Paid', icon: 'pi pi-check-circle', meaning: 'The guest paid.' },
  failed: { label: 'Failed', icon: 'pi pi-times-circle', meaning: 'The payment did not go through.' },
  unknown: {
    label: 'Unknown',
    icon: 'pi pi-question-circle',
    meaning: 'The host does not recognise this transaction, or answered a status Innkeeper does not know.',
  },
};

/**
 * Whether a refusal of a link that may have been made is the host not answering (a timeout, a connection cut), as
 * opposed to an answer Innkeeper could not use (an address that is not https, an answer too large): only the first is
 * said as "did not answer"; the other is said by its own message.
 */
export const hostDidNotAnswer = (error: Pick<AppError, 'code'>) =>
  error.code === ErrorCode.Timeout || error.code === ErrorCode.Network;

/** What a draft's fields hold, as typed (the ledger shows a draft's amount and order id too). */
export function typedText(link: PaymentLinkEntry, key: string): string {
  const value = link.typed?.[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The amount for people, from whole minor units (never a float): "€45.50". A draft shows what was typed, read the
 * same way when it can be, else as typed.
 */
export function linkMoney(link: PaymentLinkEntry): string | null {
  if (link.amountMinor !== null && link.currency) return displayMoney(link.amountMinor, link.currency);
  const typed = typedText(link, 'amount');
  if (!typed) return null;
  const currency = link.currency ?? typedText(link, 'currency_code');
  const parsed = currency ? parseAmount(typed, currency) : null;
  return parsed?.ok ? displayMoney(parsed.minor, currency) : `${typed} ${currency}`.trim();
}

export const linkOrderId = (link: PaymentLinkEntry) => link.orderId ?? (typedText(link, 'order_id') || null);
export const linkBookingId = (link: PaymentLinkEntry) => link.bookingId ?? (typedText(link, 'booking_id') || null);
export const linkForWhom = (link: PaymentLinkEntry) => link.forWhom ?? (typedText(link, 'forWhom') || null);
export const linkPurpose = (link: PaymentLinkEntry) => link.purpose ?? (typedText(link, 'purpose') || null);

/** What a link is, in a few words: "Deposit · €45.50", "Card details for booking 4711". */
export function linkTitle(link: PaymentLinkEntry): string {
  if (link.kind === 'widget') {
    const booking = linkBookingId(link);
    return booking ? `Card details for booking ${booking}` : 'Card details for a booking';
  }
  return [linkPurpose(link), linkMoney(link)].filter(Boolean).join(' · ') || 'Payment link';
}

const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
/** "14:05" today, "7 Jul 2025, 14:05" another day. */
export function when(ms: number, now = Date.now()): string {
  return sameDay(ms, now) ? time.format(ms) : formatDateTime(ms);
}

/**
 * The host's own status word, only when it says more than the status chip: why a link failed ("declined"), or a
 * word Innkeeper does not know. "Success" beside Paid and "Pending" beside Requested say nothing new.
 */
export function hostStatusWords(link: Pick<PaymentLinkEntry, 'status' | 'hostStatus'>): string | null {
  const word = link.hostStatus?.trim();
  if (!word) return null;
  if (link.status === 'unknown') return `The host answered “${word}”, a status Innkeeper does not know`;
  if (link.status === 'failed' && !/^fail(ed|ure)?$/i.test(word)) return `The host says: ${word.toLowerCase()}`;
  return null;
}

/** The payment host's fields in words, as the forms name them (the host writes `email_address : invalid`). */
const HOST_FIELDS: Record<string, string> = {
  partner_id: 'The partner id',
  partner_name: 'The account name',
  email_address: 'The e-mail address',
  contact_name: 'The contact name',
  contact_number: 'The phone number',
  currency_code: 'The currency',
  status: 'The account status',
  amount: 'The amount',
  order_id: 'The order id',
  customer_email: 'The guest’s e-mail',
  return_url: 'The return address',
  booking_id: 'The booking id',
  is_button: 'Button or link',
  transaction_id: 'The transaction id',
};

/** What the host says about a field, as a sentence; the core's own messages are sentences already. */
export function hostFieldText(field: string, reason: string): string {
  const r = reason.trim().replace(/\.$/, '');
  if (!/^[a-z]/.test(r)) return reason;
  const name = HOST_FIELDS[field] ?? `The ${field.replace(/[_.]+/g, ' ').trim()}`;
  if (/^invalid$/.test(r) && (field === 'transaction_id' || field === 'partner_id'))
    return `${name} is not one the payment host knows.`;
  if (r === 'inactive' && field === 'partner_id') return 'The partner account is inactive at the payment host.';
  const invalid = /^invalid\b\s*(.*)$/.exec(r);
  const said = invalid
    ? `is not valid${invalid[1] ? ` ${invalid[1]}` : ''}`
    : r === 'missing'
      ? 'is missing'
      : /^(is|are|must|has|was|should)\b/.test(r)
        ? r
        : `is ${r}`;
  return `${name} ${said}.`;
}

/**
 * A refusal as the owner reads it: the host's field reasons ("transaction_id : invalid") as sentences naming each
 * field — "Checking the payment failed: The transaction id is not one the payment host knows."
 */
export function hostMessage(error: Pick<AppError, 'message' | 'fields'>): string {
  const entries = Object.entries(error.fields ?? {});
  if (!entries.length) return error.message;
  const what = /^(.+? failed): /.exec(error.message)?.[1];
  const lines = entries.map(([field, reason]) => hostFieldText(field.replace(/^secrets\./, ''), reason)).join(' ');
  return what ? `${what}: ${lines}` : lines;
}

/** When the app asks the host again, or why it does not. */
export function nextCheckWords(link: PaymentLinkEntry, now = Date.now()): string | null {
  if (link.status === 'draft') return null;
  if (link.nextCheckAt !== null) return `Next check ${when(link.nextCheckAt, now)}`;
  if (link.status === 'requested' && !link.transactionId) return 'Not checked: no transaction id';
  return null;
}

/** The sentence put into a reply: what it is for, the amount, and the address. */
export function replySentence(link: PaymentLinkEntry): string {
  if (!link.url) return '';
  if (link.kind === 'widget') return `You can leave your card details for the booking securely here: ${link.url}`;
  const money = linkMoney(link);
  const purpose = linkPurpose(link)?.trim();
  // "Deposit" reads "the deposit"; a name the owner wrote in capitals ("VIP") stays as written.
  const word = purpose && /^[A-Z][a-z]/.test(purpose) ? purpose.charAt(0).toLowerCase() + purpose.slice(1) : purpose;
  const what = word ? `the ${word} of ${money}` : money;
  return `You can pay ${what} securely here: ${link.url}`;
}
