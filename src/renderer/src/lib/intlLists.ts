/**
 * Value lists of the forms (property details, payments), from the browser's own `Intl` data (never a hand-written
 * list): countries, currencies and languages with their English names, and the half-hour times Booking.com takes.
 */

export interface Choice {
  value: string;
  label: string;
}

/** Codes `Intl` names as regions that are not countries a property can be in. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

const letters = (from: string, to: string) =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) =>
    String.fromCharCode(from.charCodeAt(0) + i),
  );
/** Every two-letter code from `aa` (or `AA`) to `zz`. */
const twoLetterCodes = (upper: boolean) => {
  const abc = upper ? letters('A', 'Z') : letters('a', 'z');
  return abc.flatMap((a) => abc.map((b) => a + b));
};
const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label, 'en');

let countries: Choice[] | null = null;
/** Every country `Intl` has an English name for, by name. */
export function countryChoices(): Choice[] {
  if (countries) return countries;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  countries = twoLetterCodes(true)
    .filter((code) => !NOT_COUNTRIES.has(code))
    .map((code) => ({ value: code, label: names.of(code) ?? '' }))
    .filter((c) => c.label !== '')
    .sort(byLabel);
  return countries;
}

let currencies: Choice[] | null = null;
/** Every currency the browser supports, by code, with its name. */
export function currencyChoices(): Choice[] {
  if (currencies) return currencies;
  const names = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
  currencies = Intl.supportedValuesOf('currency').map((code) => ({
    value: code,
    label: `${code} · ${names.of(code) ?? code}`,
  }));
  return currencies;
}

let languages: Choice[] | null = null;
/** Every two-letter language `Intl` has an English name for, by name. */
export function languageChoices(): Choice[] {
  if (languages) return languages;
  const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  languages = twoLetterCodes(false)
    .map((code) => ({ value: code, label: names.of(code) ?? '' }))
    .filter((c) => c.label !== '')
    .sort(byLabel);
  return languages;
}

/** A language tag's English name ("en-GB" → "British English"), or null when `Intl` does not know it. */
export function languageName(tag: string): string | null {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(tag) ?? null;
  } catch {
    return null; // not a well-formed tag
  }
}

/** The same shape the property update schema checks: `en`, `en-GB`, `zh-Hant-TW`. */
const TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * The languages matching what the owner typed (by code or name), best first; a typed tag that is not in the list
 * (such as en-GB) is offered first, so any tag can be entered.
 */
export function searchLanguages(query: string, exclude: readonly string[] = []): string[] {
  const q = query.trim();
  const lower = q.toLowerCase();
  const list = languageChoices().filter((c) => !exclude.includes(c.value));
  if (!q) return list.map((c) => c.value);
  const starts = list.filter((c) => c.value === lower || c.label.toLowerCase().startsWith(lower));
  const contains = list.filter((c) => !starts.includes(c) && c.label.toLowerCase().includes(lower));
  const found = [...starts, ...contains].map((c) => c.value);
  // A region or script keeps its case (en-GB, zh-Hant); the language part is lower case.
  const typed = q.replace(/^[A-Za-z]{2,3}/, (m) => m.toLowerCase());
  if (TAG.test(typed) && !found.includes(typed) && !exclude.includes(typed)) found.unshift(typed);
  return found;
}

/** 00:00, 00:30 … 23:30. */
export const HALF_HOURS: readonly string[] = Array.from(
  { length: 48 },
  (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
);

/** A choice list that also holds `current` when it is not among the known values (a record Su holds, a typed code). */
export function withCurrent(choices: Choice[], current: string, unknown = (v: string) => `${v} (not in the list)`) {
  if (!current || choices.some((c) => c.value === current)) return choices;
  return [{ value: current, label: unknown(current) }, ...choices];
}
