import { z } from 'zod';

/**
 * A length limit in words, with how far over it a value is, so that what was typed or pasted stays in the field and
 * the owner sees what to cut: "The city: at most 200 characters (this is 245, 45 too many)."
 */
export const tooLong = (label: string, max: number) => ({
  error: (issue: { input?: unknown }) => {
    const length = typeof issue.input === 'string' ? issue.input.length : null;
    return length === null
      ? `${label}: at most ${max} characters.`
      : `${label}: at most ${max} characters (this is ${length}, ${length - max} too many).`;
  },
});

/** A provider id: letters, digits, hyphen, underscore and dot (what the provider's samples call "alphanumeric"). */
export const idSchema = (label = 'This id', max = 64) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, tooLong(label, max))
    .regex(/^[A-Za-z0-9._-]+$/, `${label}: only letters, digits, "-", "_" and "." are allowed.`);

/** The service's property id; at most 20 characters where the provider limits it (images, rates). */
export const hotelIdSchema = (max = 64) => idSchema('The property id', max);

/** A calendar date written YYYY-MM-DD that exists (no 2025-02-30). */
export const dateSchema = z
  .string({ message: 'A date is required (YYYY-MM-DD).' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the date as YYYY-MM-DD.')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'This date does not exist.');

/** An amount as a decimal string: "120", "120.5", "120.50" (no sign, no thousands separators). */
export const amountSchema = z
  .string({ message: 'An amount is required.' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'Write the amount as digits with at most two decimals, such as 120.50.')
  .refine((v) => Number(v) > 0, 'The amount must be more than 0.');

/** ISO 4217 currency code. */
export const currencySchema = z
  .string({ message: 'A currency is required.' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter currency code such as EUR or USD.');

/** An e-mail address. */
export const emailSchema = (max = 254) =>
  z
    .string({ message: 'An e-mail address is required.' })
    .trim()
    .max(max, `At most ${max} characters.`)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, 'Enter a valid e-mail address such as guest@example.com.');

/** A phone number in international form: +, country code, number (E.164, spaces allowed and removed). */
export const internationalPhoneSchema = z
  .string({ message: 'A phone number is required.' })
  .trim()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, 'Write the number in international form, such as +44 20 7946 0958.'));

/** An https URL (the provider fetches it from the internet, or sends a guest to it). */
export const httpsUrlSchema = z
  .string({ message: 'A URL is required.' })
  .trim()
  .max(2000, 'At most 2000 characters.')
  .refine((v) => {
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Enter a full https:// address.');

/** Free text with a length cap; required unless `.optional()`. */
export const textSchema = (label: string, max = 5000) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, tooLong(label, max));

/** An http address on this computer (a provider that runs here, such as the built-in demo). */
export function isLoopbackHttp(url: string | undefined): boolean {
  try {
    const u = new URL(url ?? '');
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** One of Su's upper-case codes read as words, for a code the app has no words for: TRIP_ISSUE → "Trip issue". */
export function codeAsWords(code: string): string {
  const words = code.toLowerCase().replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
