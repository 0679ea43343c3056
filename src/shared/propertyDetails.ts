import { z } from 'zod';
import type { AppError } from './result';
import { tooLong } from './su/common';
import { propertyUpdateSchema, type PropertyUpdate } from './su/property';
import { validationError } from './validation';

// The property's details as the owner types them, and the property-update request they become.

// ── Details ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The details form as the owner typed it: every value a string (numbers too, so nothing typed is lost, even
 * "12a"), keyed by the request's own field path, so an error Su or the schema reports for `physical_address.city_name`
 * lands next to that field.
 */
export interface DetailsForm {
  legal_entity_id: string;
  property_name: string;
  property_category: string;
  'physical_address.address_line': string;
  'physical_address.city_name': string;
  'physical_address.postal_code': string;
  'physical_address.country_code': string;
  'physical_address.display_address': boolean;
  'position.latitude': string;
  'position.longitude': string;
  'check_in.from': string;
  'check_in.until': string;
  'check_out.from': string;
  'check_out.until': string;
  primary_language: string;
  languages_spoken: string[];
  room_count: string;
  floor_count: string;
  stars: string;
  currency_code: string;
  /** 'test' (a test property) or 'production' (ready for guests). */
  target: string;
  provider_property_id: string;
  'translations.language_code': string;
  'translations.property_name': string;
  'translations.city_name': string;
  'translations.address_line': string;
}

export type DetailsField = keyof DetailsForm;

/** An empty form (a property Su never confirmed a record for). */
export function emptyDetailsForm(): DetailsForm {
  return {
    legal_entity_id: '',
    property_name: '',
    property_category: '',
    'physical_address.address_line': '',
    'physical_address.city_name': '',
    'physical_address.postal_code': '',
    'physical_address.country_code': '',
    'physical_address.display_address': true,
    'position.latitude': '',
    'position.longitude': '',
    'check_in.from': '',
    'check_in.until': '',
    'check_out.from': '',
    'check_out.until': '',
    primary_language: '',
    languages_spoken: [],
    room_count: '',
    floor_count: '',
    stars: '',
    currency_code: '',
    target: 'production',
    provider_property_id: '',
    'translations.language_code': '',
    'translations.property_name': '',
    'translations.city_name': '',
    'translations.address_line': '',
  };
}

/** The owner's words for each field, for the diff and for messages. */
export const DETAILS_LABELS: Record<DetailsField, string> = {
  legal_entity_id: 'Legal entity',
  property_name: 'Property name',
  property_category: 'Property category',
  'physical_address.address_line': 'Address',
  'physical_address.city_name': 'City',
  'physical_address.postal_code': 'Postal code',
  'physical_address.country_code': 'Country',
  'physical_address.display_address': 'Show the address to guests',
  'position.latitude': 'Latitude',
  'position.longitude': 'Longitude',
  'check_in.from': 'Check-in from',
  'check_in.until': 'Check-in until',
  'check_out.from': 'Check-out from',
  'check_out.until': 'Check-out until',
  primary_language: 'Primary language',
  languages_spoken: 'Languages spoken',
  room_count: 'Rooms',
  floor_count: 'Floors',
  stars: 'Stars',
  currency_code: 'Currency',
  target: 'Test or ready for guests',
  provider_property_id: 'Your property id',
  'translations.language_code': 'Translation language',
  'translations.property_name': 'Translated name',
  'translations.city_name': 'Translated city',
  'translations.address_line': 'Translated address',
};

const blank = (v: string | undefined) => v === undefined || v.trim() === '';
/** A number typed as text; a value that is not a number stays text so the schema says so by its field. */
/** A decimal comma is read as a point (55,6797) only where a fraction makes sense; "1,000" rooms is not 1. */
const num = (v: string, decimalComma = false): number | string | undefined => {
  if (blank(v)) return undefined;
  const t = v.trim();
  const n = Number(decimalComma && /^-?\d+,\d+$/.test(t) ? t.replace(',', '.') : t);
  return Number.isFinite(n) ? n : v;
};
const opt = (v: string) => (blank(v) ? undefined : v.trim());
const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The property-update request a form stands for (before validation). The translation is sent when any part is typed. */
export function detailsCandidate(hotelId: string, f: DetailsForm): Record<string, unknown> {
  const translated = [
    f['translations.language_code'],
    f['translations.property_name'],
    f['translations.city_name'],
    f['translations.address_line'],
  ].some((v) => !blank(v));
  return dropUndefined({
    hotel_id: hotelId,
    legal_entity_id: f.legal_entity_id.trim(),
    position: {
      latitude: num(f['position.latitude'], true) ?? null,
      longitude: num(f['position.longitude'], true) ?? null,
    },
    check_in: dropUndefined({ from: f['check_in.from'], until: opt(f['check_in.until']) }),
    check_out: dropUndefined({ from: opt(f['check_out.from']), until: f['check_out.until'] }),
    property_name: f.property_name.trim(),
    property_category: num(f.property_category) ?? null,
    primary_language: opt(f.primary_language),
    languages_spoken: f.languages_spoken.length ? f.languages_spoken : undefined,
    room_count: num(f.room_count) ?? null,
    floor_count: num(f.floor_count),
    stars: opt(f.stars),
    target: f.target,
    provider_property_id: opt(f.provider_property_id),
    currency_code: opt(f.currency_code),
    physical_address: dropUndefined({
      city_name: f['physical_address.city_name'].trim(),
      country_code: f['physical_address.country_code'].trim(),
      postal_code: opt(f['physical_address.postal_code']),
      address_line: f['physical_address.address_line'].trim(),
      display_address: f['physical_address.display_address'],
    }),
    translations: translated
      ? {
          city_name: f['translations.city_name'],
          address_line: f['translations.address_line'],
          language_code: f['translations.language_code'],
          property_name: f['translations.property_name'],
        }
      : undefined,
  });
}

/** The exact request a form becomes, or every problem by its field — the same schema the provider client checks. */
export function detailsRequest(
  hotelId: string,
  form: DetailsForm,
): { ok: true; request: PropertyUpdate } | { ok: false; error: AppError } {
  const parsed = propertyUpdateSchema.safeParse(detailsCandidate(hotelId, form));
  if (parsed.success) return { ok: true, request: parsed.data };
  const error = validationError(parsed.error);
  // `position` as a whole, `check_in` as a whole: point at the field the owner can type in.
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(error.fields ?? {})) fields[fieldOfPath(path)] = message;
  const [field, message] = Object.entries(fields)[0]!;
  return {
    ok: false,
    error: { ...error, field, message: `${DETAILS_LABELS[field as DetailsField] ?? field}: ${message}`, fields },
  };
}

/** The form field a request path belongs to (`languages_spoken.2` → `languages_spoken`). */
export function fieldOfPath(path: string): string {
  const clean = path.replace(/\[(\d+)\]/g, '.$1');
  const known = Object.keys(DETAILS_LABELS).filter((f) => clean === f || clean.startsWith(`${f}.`));
  if (known.length) return known.sort((a, b) => b.length - a.length)[0]!;
  if (clean === 'position') return 'position.latitude';
  if (clean === 'check_in') return 'check_in.from';
  if (clean === 'check_out') return 'check_out.until';
  if (clean === 'physical_address') return 'physical_address.address_line';
  if (clean.startsWith('translations')) return 'translations.language_code';
  return clean;
}

/** The form a request (a record Su confirmed, or one sent earlier) stands for. */
export function detailsFormOf(record: PropertyUpdate): DetailsForm {
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return {
    legal_entity_id: s(record.legal_entity_id),
    property_name: s(record.property_name),
    property_category: s(record.property_category),
    'physical_address.address_line': s(record.physical_address.address_line),
    'physical_address.city_name': s(record.physical_address.city_name),
    'physical_address.postal_code': s(record.physical_address.postal_code),
    'physical_address.country_code': s(record.physical_address.country_code),
    'physical_address.display_address': record.physical_address.display_address ?? false,
    'position.latitude': s(record.position.latitude),
    'position.longitude': s(record.position.longitude),
    'check_in.from': s(record.check_in.from),
    'check_in.until': s(record.check_in.until),
    'check_out.from': s(record.check_out.from),
    'check_out.until': s(record.check_out.until),
    primary_language: s(record.primary_language),
    languages_spoken: [...(record.languages_spoken ?? [])],
    room_count: s(record.room_count),
    floor_count: s(record.floor_count),
    stars: s(record.stars),
    currency_code: s(record.currency_code),
    target: s(record.target),
    provider_property_id: s(record.provider_property_id),
    'translations.language_code': s(record.translations?.language_code),
    'translations.property_name': s(record.translations?.property_name),
    'translations.city_name': s(record.translations?.city_name),
    'translations.address_line': s(record.translations?.address_line),
  };
}

/** A form as stored: whatever was typed, each field a string (lists of strings, one boolean). */
export const detailsFormSchema = z
  .object(
    Object.fromEntries(
      Object.keys(emptyDetailsForm()).map((key) => [
        key,
        key === 'languages_spoken'
          ? z.array(z.string().max(40)).max(100).default([])
          : key === 'physical_address.display_address'
            ? z.boolean().default(true)
            : z.string().max(10000, tooLong('This field', 10000)).default(''),
      ]),
    ) as unknown as { [K in DetailsField]: z.ZodType<DetailsForm[K], DetailsForm[K] | undefined> },
  )
  .strict();
