import { z } from 'zod';
import { tooLong } from './su/common';
import { facilitySetSchema, type FacilitySet } from './su/facilities';
import { validationError } from './validation';

// The facilities of a property or a room as the owner edits them, and the facility-set request a draft becomes.

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

/** A detail object's name in the request (`parking_details`, …). */
export type DetailKind = (typeof ALL_DETAILS)[number];

/** The owner's words for each detail object. */
export const DETAIL_TITLES: Record<DetailKind, string> = {
  parking_details: 'Parking',
  payment_details: 'Payment',
  temporarily_closed_details: 'Temporarily closed',
  surcharge_details: 'Surcharge',
  schedule_details: 'Opening hours',
  on_site_details: 'On site or off site',
  restaurant_details: 'Restaurant',
  swimming_pool_details: 'Swimming pool',
  internet_details: 'Internet',
};

/** The owner's words for each value of the detail objects edited value by value (`wifi_info.network_name` nested). */
export const DETAIL_VALUE_WORDS: Partial<Record<DetailKind, Record<string, string>>> = {
  parking_details: {
    name: 'Name',
    parking_location: 'Where',
    parking_access: 'Who may park',
    parking_reservation: 'Reservation',
  },
  payment_details: { charge_mode: 'Charge' },
  on_site_details: { onsite_type: 'On site or off site' },
  surcharge_details: { surcharge_type: 'Surcharge' },
  restaurant_details: { name: 'Name', meal_types_list: 'Meal types', cuisines_list: 'Cuisines' },
  swimming_pool_details: { name: 'Name', swimming_pool_type: 'Type' },
  internet_details: {
    area: 'Where',
    type: 'Connection',
    'wifi_info.network_name': 'Wi-Fi name',
    'wifi_info.speed_download': 'Download speed',
    'wifi_info.speed_upload': 'Upload speed',
  },
};

/**
 * A place inside an instance's details in words: `parking_details.parking_access` → "Who may park",
 * `schedule_details.schedule.1.from` → "Opening hours, row 2", `payment_details` → "Payment".
 */
export function detailPlaceWords(path: string): string {
  const [kind, ...rest] = path.split('.');
  const title = DETAIL_TITLES[kind as DetailKind];
  if (!title) return 'a value';
  const key = rest.join('.');
  const row = /^(schedule|closed)\.(\d+)/.exec(key);
  if (row) return `${title}, ${row[1] === 'closed' ? 'period' : 'row'} ${Number(row[2]) + 1}`;
  const words = DETAIL_VALUE_WORDS[kind as DetailKind] ?? {};
  const field = Object.keys(words).find((k) => key === k || key.startsWith(`${k}.`));
  return field ? `${title}: ${words[field]!.toLowerCase()}` : title;
}

const facilityInstanceSchema = z
  .object({
    key: z.string().trim().min(1).max(64),
    // Kept as typed (checked at preview), so a half-typed id survives a restart.
    instanceId: z
      .string()
      .trim()
      .max(200, tooLong('The id at Booking.com', 200))
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

/** Booking.com's public facility ids, with names (not complete: any other id may be typed). */
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

/** What is wrong with an instance's id at Booking.com as typed, or null (none typed, or a good one). */
export function instanceIdProblem(id: string | null): string | null {
  if (!id) return null;
  if (id.length > 40)
    return `The id at Booking.com: at most 40 characters (this is ${id.length}, ${id.length - 40} too many).`;
  return /^[A-Za-z0-9_-]+$/.test(id) ? null : 'The id at Booking.com: letters and digits, as the extranet shows it.';
}

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
      const idProblem = instanceIdProblem(instance.instanceId);
      if (idProblem) {
        problems[`${i}.instances.${j}.instanceId`] = idProblem;
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
