// Money as owners type it and as the payment host takes it: decimal strings with exactly the currency's number of
// minor units, kept as whole minor units (integers). Never a binary float: "45.50" is 4550 cents, computed from
// the digits, and nothing is ever rounded: an amount with more decimals than the currency has is refused.

/**
 * ISO 4217 minor units where they are not 2. A fixed table, not `Intl`: ICU gives some currencies the digits of
 * their cash (HUF, IDR 0) where ISO 4217 — what payment gateways use — has 2, and the core and the renderer must
 * never disagree, whatever ICU each one ships.
 */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    [
      'BIF',
      'CLP',
      'DJF',
      'GNF',
      'ISK',
      'JPY',
      'KMF',
      'KRW',
      'PYG',
      'RWF',
      'UGX',
      'UYI',
      'VND',
      'VUV',
      'XAF',
      'XOF',
      'XPF',
    ].map((c) => [c, 0]),
  ),
  ...Object.fromEntries(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** Digits after the decimal point in the currency (EUR 2, JPY 0, KWD 3), by ISO 4217. */
export function minorDigits(currency: string): number {
  return MINOR_UNITS[currency.toUpperCase()] ?? 2;
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

/**
 * Whole minor units back to the decimal text the host takes: 4550 EUR → "45.50", 4500 JPY → "4500". `digits`
 * overrides the table (a stored amount is read with the digits it was stored with).
 */
export function formatMinor(minor: number, currency: string, digits = minorDigits(currency)): string {
  const raw = String(Math.trunc(Math.abs(minor))).padStart(digits + 1, '0');
  return digits === 0 ? raw : `${raw.slice(0, -digits)}.${raw.slice(-digits)}`;
}

/**
 * For people: "€45.50", "¥4,500". The canonical decimal text is formatted as a string (Intl reads it as an exact
 * decimal), so no float ever carries the amount.
 */
export function displayMoney(minor: number, currency: string, locale?: string, digits = minorDigits(currency)): string {
  const text = formatMinor(minor, currency, digits);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(text as unknown as number);
  } catch {
    return `${text} ${currency}`;
  }
}
