import { z } from 'zod';
import { isKnownCurrency, parseAmount } from './money';
import { phoneSchema } from './phone';
import type { AppError } from './result';
import { emailSchema, hotelIdSchema, httpsUrlSchema, idSchema, textSchema } from './su/common';
import { defineSlice } from './contractSlice';

// Payments on Su's payment-token host (endpoints 14–17): a partner account per property, card payment links and
// widget links, and a ledger of every link with its status, followed in the background until it is final. Form
// fields carry the host's own names (partner_id, amount, order_id, …) so that its "field : reason" complaints land
// next to the field they are about.

/** A gateway account on the payment host, kept by the app (the host cannot list them). */
export interface PaymentPartner {
  /** The property the account belongs to (one account per property). */
  hotelId: string;
  partnerId: string;
  /** Empty for an account entered by its id, where the app was not told. */
  name: string;
  email: string;
  contactName: string;
  /** E.164, as sent ("+4520123456"). */
  contactNumber: string;
  status: 'active' | 'inactive' | '';
  currency: string;
  /** Created from Innkeeper (endpoint 14), or created elsewhere and entered by its partner id. */
  origin: 'created' | 'entered';
  createdAt: number;
  updatedAt: number;
}

/**
 * Where a link is: a draft (not yet created: typed, refused, or the host could not be reached), requested (the
 * host made the link; not paid yet), paid, failed, or unknown (the host does not recognise its transaction, or
 * answers a status the app does not know).
 */
export type PaymentStatus = 'draft' | 'requested' | 'paid' | 'failed' | 'unknown';

export type PaymentKind = 'card' | 'widget';

/** What an owner typed in a link form, field by field, as typed. */
export type TypedLink = Record<string, string | boolean>;

/** One row of the ledger. */
export interface PaymentLinkEntry {
  id: number;
  kind: PaymentKind;
  hotelId: string;
  partnerId: string | null;
  /** The canonical decimal text with the currency's minor units ("45.50"), and the same in whole minor units. */
  amount: string | null;
  amountMinor: number | null;
  currency: string | null;
  orderId: string | null;
  bookingId: string | null;
  /** Widget links: a button rather than a page. */
  isButton: boolean | null;
  customerEmail: string | null;
  contactNumber: string | null;
  returnUrl: string | null;
  /** For whom, and what for, in the owner's words ("Anna Berg", "Deposit"). */
  forWhom: string | null;
  purpose: string | null;
  /** The conversation the link was made from, or null. */
  threadId: number | null;
  /** The page the guest pays on, once the host made it. */
  url: string | null;
  transactionId: string | null;
  /** Who gave the transaction id: the host with the link, or the owner by hand. */
  transactionSource: 'host' | 'owner' | null;
  status: PaymentStatus;
  /** The host's own word for the status, as last answered ("Pending", "Success"). */
  hostStatus: string | null;
  /** The gateway's payment id, once paid. */
  gatewayTransactionId: string | null;
  /** What the host says was paid, as it said it. */
  paidAmount: string | null;
  paidCurrency: string | null;
  createdAt: number;
  /** When the host made the link, when it was seen paid (or failed). */
  requestedAt: number | null;
  settledAt: number | null;
  lastCheckedAt: number | null;
  /** When the app asks the host again (null: it does not, by itself). */
  nextCheckAt: number | null;
  /** Why the last status check failed, or null. */
  checkError: AppError | null;
  /** Drafts: what was typed, and why creating it did not work (refused, or the host could not be reached). */
  typed: TypedLink | null;
  error: AppError | null;
  /** True when a create request may have reached the host without an answer: it may exist there already. */
  outcomeUnknown: boolean;
}

/** A property the Payments screen offers (those set up under Rates). */
export interface PaymentProperty {
  hotelId: string;
  name: string;
}

export interface PaymentsView {
  partners: PaymentPartner[];
  /** Newest first. */
  links: PaymentLinkEntry[];
  properties: PaymentProperty[];
  /** Whether the payment host's API name and key are entered; when not, what to do. */
  host: { ready: boolean; message: string | null };
}

const hotel = hotelIdSchema(64);
/** An optional field: empty text is "not given". */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const currencyCodeSchema = z
  .string({ message: 'Choose a currency.' })
  .trim()
  .toUpperCase()
  .refine(isKnownCurrency, 'Choose a currency from the list (an ISO 4217 code such as EUR).');

/** Creating (or updating) the property's partner account on the host (endpoint 14): every field required. */
export const partnerInputSchema = z
  .object({
    hotelId: hotel,
    partner_id: idSchema('The partner id'),
    partner_name: textSchema('The account name', 200),
    email_address: emailSchema(),
    contact_name: textSchema('The contact name', 200),
    contact_number: phoneSchema('The contact number'),
    status: z.enum(['active', 'inactive'], { message: 'Choose Active or Inactive.' }),
    currency_code: currencyCodeSchema,
  })
  .strict();
export type PartnerInput = z.input<typeof partnerInputSchema>;

/** An account created elsewhere, entered by its partner id. */
export const partnerEntrySchema = z
  .object({
    hotelId: hotel,
    partner_id: idSchema('The partner id'),
    currency_code: currencyCodeSchema,
    partner_name: optional(textSchema('The account name', 200)),
  })
  .strict();
export type PartnerEntry = z.input<typeof partnerEntrySchema>;

const linkContext = {
  /** The draft this creates (it becomes the ledger row), if any. */
  draftId: z.number().int().positive().optional(),
  hotelId: hotel,
  forWhom: optional(textSchema('For whom', 100)),
  threadId: z.number().int().positive().optional(),
};

/** A card payment link (endpoint 16). The amount is checked against the currency's minor units, never rounded. */
export const cardLinkInputSchema = z
  .object({
    ...linkContext,
    amount: z.string({ message: 'Enter an amount.' }).max(40),
    currency_code: currencyCodeSchema,
    order_id: idSchema('The order id', 100),
    customer_email: optional(emailSchema(50)),
    contact_number: optional(phoneSchema('The phone number')),
    return_url: optional(httpsUrlSchema),
    purpose: optional(textSchema('What it is for', 100)),
    booking_id: optional(idSchema('The booking id', 100)),
  })
  .strict()
  .transform((value, ctx) => {
    const amount = parseAmount(value.amount, value.currency_code);
    if (!amount.ok) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: amount.message });
      return z.NEVER;
    }
    // `amountTyped` is what the owner wrote, for a draft to keep as typed.
    return { ...value, amount: amount.text, amountMinor: amount.minor, amountTyped: value.amount };
  });
export type CardLinkInput = z.input<typeof cardLinkInputSchema>;

/** A widget payment link for a booking (endpoint 17): a button or a page. */
export const widgetLinkInputSchema = z
  .object({
    ...linkContext,
    booking_id: idSchema('The booking id', 100),
    is_button: z.boolean({ message: 'Choose a button or a page.' }),
  })
  .strict();
export type WidgetLinkInput = z.input<typeof widgetLinkInputSchema>;

/** A link form kept as typed, whatever it holds (nothing an owner typed is lost). */
export const paymentDraftSchema = z
  .object({
    id: z.number().int().positive().optional(),
    kind: z.enum(['card', 'widget']),
    hotelId: z.string().max(64),
    threadId: z.number().int().positive().optional(),
    typed: z
      .record(z.string().max(40), z.union([z.string().max(4000), z.boolean()]))
      .refine((t) => Object.keys(t).length <= 20, 'A draft holds at most 20 fields.'),
  })
  .strict();
export type PaymentDraft = z.input<typeof paymentDraftSchema>;

const id = z.number().int().positive();

export const paymentsMethods = {
  /** Partner accounts, the ledger (only a conversation's links when `threadId` is given), the properties. */
  'payments.list': z.object({ threadId: id.optional() }).strict(),
  'payments.savePartner': partnerInputSchema,
  'payments.enterPartner': partnerEntrySchema,
  /** Forgets the property's account in the app (the host keeps it); links made with it stay in the ledger. */
  'payments.forgetPartner': z.object({ hotelId: hotel }).strict(),
  /** An order id not used in the ledger yet. */
  'payments.proposeOrderId': z.object({ hotelId: hotel }).strict(),
  'payments.saveDraft': paymentDraftSchema,
  'payments.deleteDraft': z.object({ id }).strict(),
  'payments.createLink': cardLinkInputSchema,
  'payments.createWidget': widgetLinkInputSchema,
  /** The owner gives the transaction id (the host's docs do not say where it comes from); checked at once. */
  'payments.setTransaction': z.object({ id, transactionId: idSchema('The transaction id', 100) }).strict(),
  'payments.checkNow': z.object({ id }).strict(),
  /** The link's QR code, made here: a PNG data URL. */
  'payments.qr': z.object({ id }).strict(),
} as const;

/** Creating a link answers the ledger row and, when it did not work, why (the row is then a draft). */
export interface PaymentCreation {
  link: PaymentLinkEntry;
  error: AppError | null;
}

export interface PaymentsResults {
  'payments.list': PaymentsView;
  'payments.savePartner': PaymentPartner;
  'payments.enterPartner': PaymentPartner;
  'payments.forgetPartner': { forgotten: boolean };
  'payments.proposeOrderId': { orderId: string };
  'payments.saveDraft': PaymentLinkEntry;
  'payments.deleteDraft': { deleted: boolean };
  'payments.createLink': PaymentCreation;
  'payments.createWidget': PaymentCreation;
  'payments.setTransaction': PaymentLinkEntry;
  'payments.checkNow': PaymentLinkEntry;
  'payments.qr': { url: string; dataUrl: string };
}

export interface PaymentsEvents {
  /** Something in the ledger or the accounts changed; `paid` holds the links that have just been seen paid. */
  'payments.changed': { paid: PaymentLinkEntry[] };
}

/** The channel's own rule for a payment link in a reply, said before the owner sends it. */
export function linkRuleFor(channel: string, hasBooking: boolean): string | null {
  if (channel === '19')
    return 'Booking.com delivers links only when their address is whitelisted in your extranet (Messaging settings); otherwise it removes the link.';
  if (channel === '244')
    return hasBooking
      ? 'Airbnb delivers links to booked guests, but asks that payments go through Airbnb: a request to pay elsewhere can breach its terms.'
      : 'Airbnb removes links, phone numbers and e-mail addresses from messages to guests who have not booked yet: this link will not reach the guest.';
  return null;
}

/** The payments slice of the contract (listed in contract.ts). */
export const paymentsContract = defineSlice<PaymentsResults, PaymentsEvents>()(paymentsMethods, ['payments.changed']);
