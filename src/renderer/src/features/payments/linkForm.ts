import { isKnownCurrency, minorDigits, parseAmount } from '@shared/money';
import {
  cardLinkInputSchema,
  widgetLinkInputSchema,
  type CardLinkInput,
  type PaymentKind,
  type PaymentLinkEntry,
  type TypedLink,
  type WidgetLinkInput,
} from '@shared/payments';
import { validationError } from '@shared/validation';

/**
 * The link form as the owner types it: every field a string (the amount too: it is never read as a float), under
 * the host's own field names so that its complaints land next to the field they are about.
 */
export interface LinkForm {
  hotelId: string;
  amount: string;
  currency_code: string;
  order_id: string;
  forWhom: string;
  purpose: string;
  customer_email: string;
  contact_number: string;
  return_url: string;
  booking_id: string;
  is_button: boolean;
}

/** Where the dialog was opened: a conversation gives the property, the booking and the guest. */
export interface LinkContext {
  hotelId?: string | null;
  threadId?: number | null;
  bookingId?: string | null;
  forWhom?: string | null;
  /** The conversation's channel and whether the guest booked (for the channel's rule about links). */
  channel?: string | null;
  hasBooking?: boolean;
}

export const PURPOSES = ['Deposit', 'Extra night', 'Damage fee', 'Balance'] as const;

export function emptyForm(context: LinkContext = {}): LinkForm {
  return {
    hotelId: context.hotelId ?? '',
    amount: '',
    currency_code: '',
    order_id: '',
    forWhom: context.forWhom ?? '',
    purpose: '',
    customer_email: '',
    contact_number: '',
    return_url: '',
    booking_id: context.bookingId ?? '',
    is_button: false,
  };
}

/** Every text field of both kinds: what the owner typed in one kind is kept when they switch to the other. */
export const TEXT_FIELDS = [
  'amount',
  'currency_code',
  'order_id',
  'forWhom',
  'purpose',
  'customer_email',
  'contact_number',
  'return_url',
  'booking_id',
] as const;

/**
 * What a draft keeps: every field of both kinds, as typed (a card link's amount typed before the owner chose a
 * widget link stays in the draft, and comes back when they choose a card link again).
 */
export function toTyped(form: LinkForm): TypedLink {
  return { ...Object.fromEntries(TEXT_FIELDS.map((key) => [key, form[key]])), is_button: form.is_button };
}

/** A ledger row back into the form: what was typed for a draft, else what the row holds. */
export function fromEntry(link: PaymentLinkEntry): LinkForm {
  const typed = link.typed ?? {};
  const text = (key: string, fallback: string | null) => {
    const value = typed[key];
    return typeof value === 'string' ? value : (fallback ?? '');
  };
  return {
    hotelId: link.hotelId,
    amount: text('amount', link.amount),
    currency_code: text('currency_code', link.currency),
    order_id: text('order_id', link.orderId),
    forWhom: text('forWhom', link.forWhom),
    purpose: text('purpose', link.purpose),
    customer_email: text('customer_email', link.customerEmail),
    contact_number: text('contact_number', link.contactNumber),
    return_url: text('return_url', link.returnUrl),
    booking_id: text('booking_id', link.bookingId),
    is_button: typeof typed.is_button === 'boolean' ? typed.is_button : (link.isButton ?? false),
  };
}

/** Optional fields the owner left empty are not sent. */
const given = <K extends string>(form: Record<K, string>, keys: readonly K[]) =>
  Object.fromEntries(keys.filter((k) => form[k].trim() !== '').map((k) => [k, form[k].trim()])) as Partial<
    Record<K, string>
  >;

interface Extra {
  threadId?: number | null;
  draftId?: number | null;
}
const context = (form: LinkForm, extra: Extra) => ({
  hotelId: form.hotelId,
  ...(extra.threadId ? { threadId: extra.threadId } : {}),
  ...(extra.draftId ? { draftId: extra.draftId } : {}),
  ...given(form, ['forWhom']),
});

/** The card link request: the amount goes as the text typed (the core reads it into minor units, as here). */
export function cardInput(form: LinkForm, extra: Extra = {}): CardLinkInput {
  return {
    ...context(form, extra),
    amount: form.amount.trim(),
    currency_code: form.currency_code,
    order_id: form.order_id.trim(),
    ...given(form, ['purpose', 'customer_email', 'contact_number', 'return_url', 'booking_id']),
  };
}

export function widgetInput(form: LinkForm, extra: Extra = {}): WidgetLinkInput {
  return { ...context(form, extra), booking_id: form.booking_id.trim(), is_button: form.is_button };
}

/** Field → message, from the same schemas the core checks with; the amount against the currency's minor units. */
export function linkErrors(kind: PaymentKind, form: LinkForm, extra: Extra = {}): Record<string, string> {
  const parsed =
    kind === 'card'
      ? cardLinkInputSchema.safeParse(cardInput(form, extra))
      : widgetLinkInputSchema.safeParse(widgetInput(form, extra));
  const fields = parsed.success ? {} : (validationError(parsed.error).fields ?? {});
  // The schema reads the amount only once every other field passed: the owner hears about it while typing.
  if (kind === 'card' && !fields.amount) {
    const known = isKnownCurrency(form.currency_code);
    const amount = parseAmount(form.amount, known ? form.currency_code : 'EUR');
    // Until a currency is chosen, its number of decimals is not held against the amount.
    if (!amount.ok && (known || !amount.message.startsWith('EUR'))) fields.amount = amount.message;
  }
  return fields;
}

/** "EUR has 2 decimals, such as 45.50"; "JPY has no decimals, such as 4500". */
export function minorRule(currency: string): string | null {
  if (!isKnownCurrency(currency)) return null;
  const digits = minorDigits(currency);
  if (digits === 0) return `${currency} has no decimals: a whole amount, such as 4500.`;
  const example = `45.${'5'.padEnd(digits, '0')}`;
  return `${currency} has ${digits} decimal${digits === 1 ? '' : 's'}, such as ${example}.`;
}

/** Whether the owner typed anything beyond what the dialog filled in itself, in either kind's fields. */
export function typedSomething(form: LinkForm, start: LinkForm): boolean {
  return TEXT_FIELDS.some((k) => form[k].trim() !== start[k].trim()) || form.is_button !== start.is_button;
}
