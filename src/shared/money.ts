// Money as owners type it and as the payment host takes it: decimal strings with exactly the currency's number of
// minor units, kept as whole minor units (integers). Never a binary float: "45.50" is 4550 cents, computed from
// the digits, and nothing is ever rounded: an amount with more decimals than the currency has is refused.

/** Digits after the decimal point in the currency (EUR 2, JPY 0, KWD 3), from `Intl`; 2 when unknown. */
export function minorDigits(currency: string): number {
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    return typeof digits === 'number' ? digits : 2;
  } catch {
    return 2;
  }
}

/** Every ISO 4217 code `Intl` knows (what the currency pickers offer and the schemas accept). */
export function isKnownCurrency(code: string): boolean {
  try {
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return /^[A-Z]{3}$/.test(code);
  }
}

export type ParsedAmount = { ok: true; minor: number; text: string } | { ok: false; message: string };

/**
 * Reads an amount typed by an owner: digits, at most one decimal separator ("." or ","), no sign, no thousands
 * separators, at most 12 whole digits. Answers the whole minor units and the canonical text ("45.5" EUR → 4550,
 * "45.50").
 */
export function parseAmount(typed: string, currency: string): ParsedAmount {
  const digits = minorDigits(currency);
  const text = typed.trim().replace(/\s/g, '');
  if (!text) return { ok: false, message: 'Enter an amount.' };
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text);
  if (!match) return { ok: false, message: 'Write the amount as digits with a decimal point, such as 45.50.' };
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) {
    return {
      ok: false,
      message:
        digits === 0
          ? `${currency} has no decimals: write a whole amount.`
          : `${currency} has ${digits} decimal${digits === 1 ? '' : 's'}: nothing is rounded, so write at most ${digits}.`,
    };
  }
  const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`);
  if (minor <= 0) return { ok: false, message: 'The amount must be more than 0.' };
  return { ok: true, minor, text: formatMinor(minor, currency) };
}

/** Whole minor units back to the decimal text the host takes: 4550 EUR → "45.50", 4500 JPY → "4500". */
export function formatMinor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const raw = String(Math.trunc(Math.abs(minor))).padStart(digits + 1, '0');
  return digits === 0 ? raw : `${raw.slice(0, -digits)}.${raw.slice(-digits)}`;
}

/**
 * For people: "€45.50", "¥4,500". The canonical decimal text is formatted as a string (Intl reads it as an exact
 * decimal), so no float ever carries the amount.
 */
export function displayMoney(minor: number, currency: string, locale?: string): string {
  const text = formatMinor(minor, currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(text as unknown as number);
  } catch {
    return `${text} ${currency}`;
  }
}
