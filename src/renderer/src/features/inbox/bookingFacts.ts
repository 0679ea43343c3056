import type { AddedFacts, BookingFactsInput, ThreadDetail } from '@shared/inbox';
import type { AppError } from '@shared/result';

/** A fact of the booking the owner can add, as its field is labelled and typed. */
export type FactKey = keyof AddedFacts;

export const FACT_FIELDS: Record<FactKey, { label: string; type: 'text' | 'date' | 'number' }> = {
  guestName: { label: 'Guest’s first name', type: 'text' },
  checkIn: { label: 'Arrival', type: 'date' },
  checkOut: { label: 'Departure', type: 'date' },
  guests: { label: 'Guests', type: 'number' },
};

/**
 * What the owner may add to this conversation's booking: what its channel did not send (Booking.com and Expedia
 * send none of it; Airbnb sends it all once booked). The channel's word is never overwritten.
 */
export function missingFacts(t: Pick<ThreadDetail, 'guest' | 'booking'>): FactKey[] {
  const keys: FactKey[] = [];
  if (!t.guest?.firstName) keys.push('guestName');
  if (!t.booking?.checkIn) keys.push('checkIn');
  if (!t.booking?.checkOut) keys.push('checkOut');
  if (t.booking?.guests == null) keys.push('guests');
  return keys;
}

/** The fields' texts as typed (a date field holds YYYY-MM-DD; cleared, a field holds ''). */
export type FactTexts = Partial<Record<FactKey, string>>;

/** The texts of what is kept, for a form that edits it. */
export function factTexts(added: AddedFacts | null, keys: readonly FactKey[]): FactTexts {
  return Object.fromEntries(keys.map((k) => [k, added?.[k] == null ? '' : String(added[k])]));
}

/**
 * The call's facts from the fields' texts (an emptied field removes its fact), or the field errors of what cannot be
 * sent as typed (guests that are not a whole number).
 */
export function factsFromTexts(
  texts: FactTexts,
): { ok: true; facts: Omit<BookingFactsInput, 'threadId'> } | { ok: false; errors: Partial<Record<FactKey, string>> } {
  const facts: Omit<BookingFactsInput, 'threadId'> = {};
  if (texts.guestName !== undefined) facts.guestName = texts.guestName.trim() || null;
  if (texts.checkIn !== undefined) facts.checkIn = texts.checkIn.trim() || null;
  if (texts.checkOut !== undefined) facts.checkOut = texts.checkOut.trim() || null;
  if (texts.guests !== undefined) {
    const guests = texts.guests.trim();
    if (guests && !/^\d+$/.test(guests)) return { ok: false, errors: { guests: 'Guests must be a whole number.' } };
    facts.guests = guests ? Number(guests) : null;
  }
  return { ok: true, facts };
}

/** The core's refusal as errors per fact (its fields are the facts' names); the rest as one message. */
export function factErrors(error: AppError): { fields: Partial<Record<FactKey, string>>; other: string | null } {
  const fields: Partial<Record<FactKey, string>> = {};
  const all = error.fields ?? (error.field ? { [error.field]: error.message } : {});
  for (const [field, message] of Object.entries(all)) if (field in FACT_FIELDS) fields[field as FactKey] = message;
  return { fields, other: Object.keys(fields).length ? null : error.message };
}

/** What the owner typed in a booking's form and did not save, per thread, for this session (nothing typed is lost). */
export const unsavedFacts = new Map<number, FactTexts>();
