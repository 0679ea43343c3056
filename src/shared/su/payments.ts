import { z } from 'zod';
import { currencySchema, emailSchema, httpsUrlSchema, idSchema, internationalPhoneSchema, textSchema } from './common';

/** Create a partner account on the payment host (endpoint 14); every field required. */
export const partnerSchema = z
  .object({
    partner_id: idSchema('The partner id'),
    partner_name: textSchema('The partner name', 200),
    email_address: emailSchema(),
    contact_number: internationalPhoneSchema,
    contact_name: textSchema('The contact name', 200),
    status: textSchema('The property status', 50),
    currency_code: currencySchema,
  })
  .strict();
export type Partner = z.input<typeof partnerSchema>;

/**
 * The amount of a payment link: a decimal string with at most four decimals (KWD has three, CLF four);
 * the app checks the currency's own number before this.
 */
const paymentAmountSchema = z
  .string({ message: 'An amount is required.' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,4})?$/, 'Write the amount as digits with a decimal point, such as 120.50.')
  .refine((v) => /[1-9]/.test(v), 'The amount must be more than 0.');

/** A card payment link (endpoint 16). `customer_email` at most 50 characters, phone in international form. */
export const paymentLinkSchema = z
  .object({
    partner_id: idSchema('The partner id'),
    amount: paymentAmountSchema,
    currency_code: currencySchema,
    order_id: idSchema('The order id', 100),
    customer_email: emailSchema(50).optional(),
    contact_number: internationalPhoneSchema.optional(),
    return_url: httpsUrlSchema.optional(),
  })
  .strict();
export type PaymentLink = z.input<typeof paymentLinkSchema>;

/** A widget payment link (endpoint 17). */
export const widgetLinkSchema = z
  .object({
    partner_id: idSchema('The partner id'),
    booking_id: idSchema('The booking id', 100),
    is_button: z.boolean({ message: 'Say whether the widget is a button (true or false).' }),
  })
  .strict();
export type WidgetLink = z.input<typeof widgetLinkSchema>;

/** Ask for a transaction's status (endpoint 15). */
export const transactionStatusSchema = z
  .object({ partner_id: idSchema('The partner id'), transaction_id: idSchema('The transaction id', 100) })
  .strict();
export type TransactionStatusRequest = z.input<typeof transactionStatusSchema>;
