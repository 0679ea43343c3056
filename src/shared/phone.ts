import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';

// Phone numbers in international form, checked and formatted by libphonenumber-js (its small metadata set, which
// knows every country's lengths and prefixes).

/** "Denmark" for DK (the code itself where `Intl` has no name). */
function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** "+45 20 12 34 56" for people; null when the text is not a valid international number. */
export function formatPhone(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text.trim());
  return parsed?.isValid() ? parsed.formatInternational() : null;
}

/**
 * A phone number in international form: "+", country code, number; spaces, dashes and brackets allowed as typed.
 * The output is E.164 ("+4520123456"), what the payment host takes.
 */
export const phoneSchema = (label = 'The phone number') =>
  z.string({ message: `${label} is required.` }).transform((value, ctx) => {
    const text = value.trim();
    if (!text) {
      ctx.addIssue({ code: 'custom', message: `${label} is required.` });
      return z.NEVER;
    }
    if (!/^(\+|00)/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'Start with + and the country code, such as +45 20 12 34 56.' });
      return z.NEVER;
    }
    const parsed = parsePhoneNumberFromString(text.replace(/^00/, '+'));
    if (!parsed?.isValid()) {
      ctx.addIssue({
        code: 'custom',
        message: parsed?.country
          ? `This is not a valid number for ${countryName(parsed.country)}: check the digits after +${parsed.countryCallingCode}.`
          : 'This is not a valid international number: check the country code and the digits.',
      });
      return z.NEVER;
    }
    return parsed.number;
  });
