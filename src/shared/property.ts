import { z } from 'zod';
import type { AppError } from './result';
import { hotelIdSchema, idSchema } from './su/common';
import { facilitySetSchema, type FacilitySet } from './su/facilities';
import { propertyUpdateSchema, type PropertyUpdate } from './su/property';
import { validationError } from './validation';

// The Property screen: the property record on Booking.com (Su's property update, endpoint 4) and the facilities of
// the property and its rooms (Su's facility set, endpoint 3). Su cannot be asked for either, so the app keeps what
// Su last confirmed, and every change goes out as a draft → preview → outbox push, with a history and a revert.

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
            : z.string().max(2000, 'At most 2000 characters.').default(''),
      ]),
    ) as unknown as { [K in DetailsField]: z.ZodType<DetailsForm[K], DetailsForm[K] | undefined> },
  )
  .strict();

// ── Facilities ───────────────────────────────────────────────────────────────────────────────────────────────────

/** One instance of a facility (one car park, one restaurant), as the owner edits it. */
export interface FacilityInstance {
  /** The app's own id of this instance, stable across edits (Su knows nothing of it). */
  key: string;
  /** Su's (Booking.com's) id of the instance, once known: read from an answer, or entered from the extranet. */
  instanceId: string | null;
  /** The detail objects, in the request's own shape (`parking_details`, `payment_details`, …). */
  details: Record<string, unknown>;
}

/** One facility of the property or of a room. */
export interface FacilityEntry {
  facilityId: string;
  isAvailable: boolean;
  instances: FacilityInstance[];
}

/** An instance as confirmed by Su: also when the app created it (a push that sent it without an id). */
export interface FacilityInstanceRecord extends FacilityInstance {
  /** When a confirmed push created it at Su (epoch ms), or null when it existed before (entered by its id). */
  createdAt: number | null;
}

export interface FacilityRecordEntry extends FacilityEntry {
  instances: FacilityInstanceRecord[];
}

/** Every detail object the contract knows, for a facility id the app has no list for. */
export const ALL_DETAILS = [
  'parking_details',
  'payment_details',
  'temporarily_closed_details',
  'surcharge_details',
  'schedule_details',
  'on_site_details',
  'restaurant_details',
  'swimming_pool_details',
  'internet_details',
] as const;

const facilityInstanceSchema = z
  .object({
    key: z.string().trim().min(1).max(64),
    // Kept as typed (checked at preview), so a half-typed id survives a restart.
    instanceId: z
      .string()
      .trim()
      .max(40, 'At most 40 characters.')
      .transform((v) => v || null)
      .nullable()
      .default(null),
    // Only the contract's detail objects: nothing else (an `instance_id` among them, say) can reach a request.
    details: z.partialRecord(z.enum(ALL_DETAILS), z.unknown()).default({}),
  })
  .strict();

/** A facilities draft as stored: whatever was typed (details are checked at preview, by the request schema). */
export const facilitiesDraftSchema = z
  .array(
    z
      .object({
        facilityId: z
          .string()
          .trim()
          .regex(/^\d{1,9}$/, 'A facility id is a number, such as 2 for parking.'),
        isAvailable: z.boolean(),
        instances: z.array(facilityInstanceSchema).max(50, 'At most 50 instances of one facility.').default([]),
      })
      .strict(),
  )
  .max(300, 'At most 300 facilities.')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((f, i) => {
      if (seen.has(f.facilityId))
        ctx.addIssue({ code: 'custom', path: [i, 'facilityId'], message: `Facility ${f.facilityId} is listed twice.` });
      seen.add(f.facilityId);
    });
  });

/** Booking.com's public facility ids, with names (provider-notes.md; not complete: any other id may be typed). */
export const KNOWN_FACILITIES: Record<string, { name: string; details: readonly string[] }> = {
  '2': { name: 'Parking', details: ['parking_details', 'payment_details', 'schedule_details'] },
  '3': {
    name: 'Restaurant',
    details: ['restaurant_details', 'schedule_details', 'temporarily_closed_details', 'surcharge_details'],
  },
  '7': { name: 'Bar', details: ['schedule_details', 'temporarily_closed_details', 'on_site_details'] },
  '10': { name: 'Sauna', details: ['temporarily_closed_details', 'surcharge_details', 'on_site_details'] },
  '11': { name: 'Fitness room', details: ['schedule_details', 'surcharge_details'] },
  '22': { name: 'Laundry', details: ['surcharge_details', 'schedule_details'] },
  '47': { name: 'Internet', details: ['internet_details', 'surcharge_details'] },
  '54': { name: 'Spa and wellness centre', details: ['temporarily_closed_details', 'surcharge_details'] },
  '63': { name: 'Hot tub', details: ['temporarily_closed_details', 'surcharge_details'] },
  '91': { name: 'Luggage storage', details: ['surcharge_details'] },
  '253': { name: 'Fitness', details: ['temporarily_closed_details', 'schedule_details', 'on_site_details'] },
  '433': {
    name: 'Swimming pool',
    details: ['swimming_pool_details', 'temporarily_closed_details', 'schedule_details'],
  },
  '9111': { name: 'Breakfast', details: ['schedule_details', 'surcharge_details'] },
  '9114': { name: 'Lunch', details: ['schedule_details', 'surcharge_details'] },
  '9115': { name: 'Dinner', details: ['schedule_details', 'surcharge_details'] },
};

/** A facility's name for people: the known name, or "Facility 123". */
export const facilityName = (facilityId: string) => KNOWN_FACILITIES[facilityId]?.name ?? `Facility ${facilityId}`;

const INSTANCE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** One instance that a push would create anew at Su (sent without `instance_id`). */
export interface FacilityCreate {
  facilityId: string;
  key: string;
  /** In the owner's words: "a new Parking instance (“Garage”)". */
  what: string;
}

/** Where a facilities push goes: the property itself, or one of its rooms (by the owner's room id). */
export interface FacilityScope {
  hotelId: string;
  /** The owner's room id (from Rooms & rate plans), or null for the property. */
  roomId: string | null;
}

/**
 * The facility-set request for what changed between the confirmed record and a draft: changed facilities, each
 * with its instances that Su knows by id and the new ones, and nothing that would create an instance again.
 * Problems are by path in the draft (`3.instances.0.instanceId`).
 */
export function composeFacilities(
  ids: { hotel_id: string; channel_hotel_id: string; channel_room_id?: string | undefined },
  record: FacilityRecordEntry[],
  draft: FacilityEntry[],
): {
  request: FacilitySet | null;
  creates: FacilityCreate[];
  problems: Record<string, string>;
  /** For each facility of the request, where it is in the draft: its index and each instance's index. */
  sources: { facility: number; instances: number[] }[];
} {
  const creates: FacilityCreate[] = [];
  const sources: { facility: number; instances: number[] }[] = [];
  const problems: Record<string, string> = {};
  const facilities: FacilitySet['facilities'] = [];
  draft.forEach((entry, i) => {
    const before = record.find((r) => r.facilityId === entry.facilityId);
    const instances: NonNullable<FacilitySet['facilities'][number]['instances']> = [];
    const from: number[] = [];
    let changed = !before || before.isAvailable !== entry.isAvailable;
    entry.instances.forEach((instance, j) => {
      const was = before?.instances.find((r) => r.key === instance.key);
      const same = was && was.instanceId === instance.instanceId && sameJson(was.details, instance.details);
      if (!same) changed = true;
      if (instance.instanceId && !INSTANCE_ID.test(instance.instanceId)) {
        problems[`${i}.instances.${j}.instanceId`] =
          'The id at Booking.com: letters and digits, as the extranet shows it.';
      } else if (instance.instanceId) {
        instances.push({ ...instance.details, instance_id: instance.instanceId });
        from.push(j);
      } else if (!was) {
        instances.push({ ...instance.details });
        from.push(j);
        creates.push({
          facilityId: entry.facilityId,
          key: instance.key,
          what: instanceWords(entry.facilityId, instance),
        });
      } else if (!same) {
        problems[`${i}.instances.${j}.instanceId`] = was.createdAt
          ? 'Su did not say the id of this instance when it was created, so sending it again would create a second one. Enter its id from the Booking.com extranet to change it.'
          : 'Enter the id of this instance from the Booking.com extranet to change it.';
      }
    });
    if (changed) {
      sources.push({ facility: i, instances: from });
      facilities.push({
        facility_id: entry.facilityId,
        is_available: entry.isAvailable,
        ...(instances.length ? { instances } : {}),
      });
    }
  });
  if (facilities.length === 0) return { request: null, creates, problems, sources };
  return {
    request: {
      hotel_id: ids.hotel_id,
      channel_hotel_id: ids.channel_hotel_id,
      ...(ids.channel_room_id ? { channel_room_id: ids.channel_room_id } : {}),
      facilities,
    },
    creates,
    problems,
    sources,
  };
}

/** The request checked by the client's own schema; problems by their path in the request. */
export function checkFacilityRequest(request: FacilitySet): Record<string, string> {
  const parsed = facilitySetSchema.safeParse(request);
  return parsed.success ? {} : (validationError(parsed.error).fields ?? {});
}

function instanceWords(facilityId: string, instance: FacilityInstance): string {
  const named = Object.values(instance.details).find(
    (d): d is { name: string } =>
      typeof d === 'object' &&
      d !== null &&
      typeof (d as { name?: unknown }).name === 'string' &&
      (d as { name: string }).name.trim() !== '',
  );
  return `a new ${facilityName(facilityId)} instance${named ? ` (“${named.name.trim()}”)` : ''}`;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

// ── Contract ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The Booking.com ids the facility set needs: the property's, and each room's by the owner's room id. */
export interface ChannelIds {
  channelHotelId: string | null;
  rooms: Record<string, string>;
}

/** One changed field between the record Su confirmed and a draft. */
export interface FieldChange {
  /** The request path (`physical_address.city_name`, `facilities.2.instances.0.parking_details.name`). */
  path: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** Which part of the property a draft or push is about. */
export type PropertySection = 'details' | 'facilities';

/** A push of this property's details or facilities, as History lists it. */
export interface PropertyPush {
  id: number;
  section: PropertySection;
  /** The owner's room id for a room's facilities, else null. */
  roomId: string | null;
  createdAt: number;
  /** When Su confirmed it. */
  appliedAt: number | null;
  /** The outbox state: queued, sending, sent, failed, discarded. */
  state: string;
  outboxId: number;
  error: AppError | null;
  /** Su's answer once confirmed: its message, the request tracking id (facilities) and the property id (details). */
  answer: { message: string; ruid: string | null; propertyId: string | null } | null;
  /** The exact request sent. */
  request: unknown;
  changes: FieldChange[];
  /** The push this one reverts, if it came from Revert. */
  reverts: number | null;
  /** True for the newest push Su confirmed of its part (details, or one scope's facilities): what Su holds now. */
  current: boolean;
}

/** The details tab: the record Su confirmed, the draft, and the push still on its way. */
export interface DetailsView {
  hotelId: string;
  /** The last record Su confirmed (null until one was), and when. */
  record: PropertyUpdate | null;
  confirmedAt: number | null;
  /** The draft as typed: the record's form when there is no draft. */
  form: DetailsForm;
  /** True when a draft differs from what Su holds (saved, survives restart). */
  hasDraft: boolean;
  /** A push not yet confirmed and not discarded: the next waits for it. */
  pending: PropertyPush | null;
}

export interface FacilitiesView {
  hotelId: string;
  roomId: string | null;
  channelIds: ChannelIds;
  record: FacilityRecordEntry[];
  confirmedAt: number | null;
  draft: FacilityEntry[];
  hasDraft: boolean;
  pending: PropertyPush | null;
}

/** What Send would send, and what the owner must know first. */
export interface PropertyPreview {
  /** The exact request, or null when nothing changed or something must be fixed first. */
  request: unknown;
  changes: FieldChange[];
  /** Every problem by its field (the draft's path); empty when it can be sent. */
  problems: Record<string, string>;
  /** Facility instances this push would create anew (the owner confirms them). */
  creates: FacilityCreate[];
  /** Equal in the send: what the owner looked at is what goes. */
  fingerprint: string | null;
}

const hotel = hotelIdSchema(64);
const roomId = idSchema('The room id').nullable().default(null);
const scopeArgs = z.discriminatedUnion('section', [
  z.object({ section: z.literal('details'), hotelId: hotel }).strict(),
  z.object({ section: z.literal('facilities'), hotelId: hotel, roomId }).strict(),
]);

export const propertyMethods = {
  'property.details': z.object({ hotelId: hotel }).strict(),
  'property.facilities': z.object({ hotelId: hotel, roomId }).strict(),
  'property.saveDetailsDraft': z.object({ hotelId: hotel, form: detailsFormSchema }).strict(),
  'property.saveFacilitiesDraft': z.object({ hotelId: hotel, roomId, draft: facilitiesDraftSchema }).strict(),
  'property.discardDraft': scopeArgs,
  'property.preview': scopeArgs,
  'property.send': z
    .object({
      section: z.enum(['details', 'facilities']),
      hotelId: hotel,
      roomId,
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'Preview the change first.'),
      /** The owner agreed to the instances this push creates. */
      confirmed: z.boolean().default(false),
    })
    .strict(),
  'property.history': z.object({ hotelId: hotel }).strict(),
  /** Makes an earlier push's record the draft again; the owner previews and sends it as any draft. */
  'property.revert': z
    .object({
      pushId: z.number().int().positive(),
      /** The owner agreed to replace the changes not yet sent (refused with `draft_exists` otherwise). */
      replaceDraft: z.boolean().default(false),
    })
    .strict(),
  'property.saveChannelIds': z
    .object({
      hotelId: hotel,
      channelHotelId: idSchema('The Booking.com property id', 20).nullable(),
      rooms: z.record(z.string().max(64), idSchema('The Booking.com room id', 20)).default({}),
    })
    .strict(),
} as const;

export interface PropertyResults {
  'property.details': DetailsView;
  'property.facilities': FacilitiesView;
  'property.saveDetailsDraft': DetailsView;
  'property.saveFacilitiesDraft': FacilitiesView;
  'property.discardDraft': { discarded: boolean };
  'property.preview': PropertyPreview;
  'property.send': { pushId: number };
  'property.history': PropertyPush[];
  'property.revert': { section: PropertySection; hotelId: string; roomId: string | null };
  'property.saveChannelIds': ChannelIds;
}

export interface PropertyEvents {
  /** A push of this property's details or facilities changed state (queued, sent, failed, discarded). */
  'property.changed': { hotelId: string; section: PropertySection; roomId: string | null };
}

export type { FacilitySet, PropertyUpdate };
