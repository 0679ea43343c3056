import { formatDateTime } from '@renderer/lib/format';

/** How the inbox writes times, dates, people and categories (in the owner's locale). */

const MINUTE = 60_000;
const DAY = 86_400_000;

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const dayMonthYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const fullDay = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const startOfDay = (ms: number) => new Date(ms).setHours(0, 0, 0, 0);

/** A list time as mail clients write it: "Just now", "5 min", "14:05", "Yesterday", "Mon", "12 Mar", "12 Mar 2024". */
export function relativeTime(ms: number | null, now: number): string {
  if (ms === null) return '';
  const ago = now - ms;
  if (ago < MINUTE) return 'Just now';
  if (ago < 60 * MINUTE) return `${Math.floor(ago / MINUTE)} min`;
  const days = Math.round((startOfDay(now) - startOfDay(ms)) / DAY);
  if (days <= 0) return time.format(ms);
  if (days === 1) return 'Yesterday';
  if (days < 7) return weekday.format(ms);
  return new Date(ms).getFullYear() === new Date(now).getFullYear() ? dayMonth.format(ms) : dayMonthYear.format(ms);
}

/** "14:05" for a message sent today, otherwise with its date. */
export function messageTime(ms: number, now: number): string {
  return startOfDay(ms) === startOfDay(now) ? time.format(ms) : formatDateTime(ms);
}

/** A calendar date from the channel ("2021-07-07") as "Wed, 7 Jul 2021"; anything else as it came. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(ms) ? value : fullDay.format(ms);
}

/** A timestamp from the channel ("2025-03-01T10:00:00Z") in local time; anything unreadable as it came. */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '—';
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : formatDateTime(ms);
}

let languages: Intl.DisplayNames | null = null;
/** "en-GB" → "British English"; the code itself when the browser does not know it. */
export function languageName(locale: string | null | undefined): string | null {
  if (!locale) return null;
  try {
    languages ??= new Intl.DisplayNames(undefined, { type: 'language' });
    return languages.of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** "value_for_money" → "Value for money". */
export function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "2 adults, 1 child, 1 infant" from the counts the channel sent (zeros left out). */
export function partyLine(b: { adults: number | null; children: number | null; infants: number | null }): string {
  const part = (n: number | null, one: string, many: string) => (n ? `${n} ${n === 1 ? one : many}` : null);
  return [
    part(b.adults, 'adult', 'adults'),
    part(b.children, 'child', 'children'),
    part(b.infants, 'infant', 'infants'),
  ]
    .filter(Boolean)
    .join(', ');
}

const shortDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** The stay as a short range ("Jul 7 – 11"), or '' when the channel sent no dates. */
export function stayRange(checkIn: string | null, checkOut: string | null): string {
  const from = checkIn ? Date.parse(`${checkIn}T00:00:00Z`) : NaN;
  const to = checkOut ? Date.parse(`${checkOut}T00:00:00Z`) : NaN;
  if (Number.isNaN(from)) return '';
  return Number.isNaN(to) || to < from ? shortDay.format(from) : shortDay.formatRange(from, to);
}

/** The nights between two calendar dates (YYYY-MM-DD); null unless both are known and in order. */
export function nightsBetween(checkIn: string | null, checkOut: string | null): number | null {
  if (!checkIn || !checkOut) return null;
  const nights = Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / DAY);
  return Number.isFinite(nights) && nights > 0 ? nights : null;
}

/**
 * A day without a time (a date-only review date, as local midnight) the way the list writes days: "Today",
 * "Yesterday", "Mon", "12 Mar", "12 Mar 2024" — never a clock time such as "12:00".
 */
export function relativeDay(ms: number, now: number): string {
  const days = Math.round((startOfDay(now) - startOfDay(ms)) / DAY);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7) return weekday.format(ms);
  return new Date(ms).getFullYear() === new Date(now).getFullYear() ? dayMonth.format(ms) : dayMonthYear.format(ms);
}

/**
 * An Airbnb payout as the channel sent it: the amount, and honestly which currency: Airbnb pays out in the host's
 * payout currency (set in their Airbnb account, not known here), which need not be the property's, so no currency
 * sign is put to it.
 */
export function payoutText(amount: string | null, short = false): string {
  if (amount === null || amount.trim() === '') return '—';
  const n = Number(amount);
  const shown = Number.isFinite(n)
    ? new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)
    : amount.trim();
  // Folded into one line (the small-laptop booking summary), the label says what it is instead.
  return short ? `payout ${shown}` : `${shown} (in your Airbnb payout currency)`;
}
