import {
  array,
  boolean,
  enumValue,
  Invalid,
  isObject,
  join,
  number,
  object,
  oneOf,
  string,
  type Json,
} from './validate';

/**
 * What the facility-set deserializer accepts. Enumerations are the contract's; where the contract says "others:
 * not shown" the lists add the other values known from Booking.com's facility API, and the failure message lists
 * what is accepted, as the real provider's does.
 */
export const FACILITY_ENUMS = {
  parking_location: ['NEARBY', 'ON_SITE', 'UNKNOWN_LOCATION'],
  parking_access: ['ONLY_GUESTS', 'GENERAL_PUBLIC'],
  parking_reservation: ['NOT_NEEDED', 'REQUIRED'],
  charge_mode: ['FREE', 'PAID'],
  day_of_week: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
  onsite_type: ['ON_SITE', 'OFFSITE'],
  swimming_pool_type: ['INDOOR', 'OUTDOOR', 'INDOOR_AND_OUTDOOR', 'SPECIFIED_AREAS'],
  internet_area: ['ENTIRE_PROPERTY', 'ROOM_ONLY'],
  internet_type: ['WIFI', 'LAN'],
  meal_types: ['HALAL', 'VEGETARIAN', 'KOSHER', 'VEGAN', 'GLUTEN_FREE', 'DAIRY_FREE'],
  cuisines: [
    'AUSTRALIAN',
    'GERMAN',
    'RUSSIAN',
    'LOCAL',
    'ASIAN',
    'INTERNATIONAL',
    'ITALIAN',
    'INDIAN',
    'FRENCH',
    'JAPANESE',
    'THAI',
  ],
} as const;

const E = FACILITY_ENUMS;

const enumList = (parent: Json, key: string, path: string, allowed: readonly string[]) =>
  array(parent, key, path)?.forEach((item, i) => enumValue(item, join(join(path, key), i), allowed));

const time = (parent: Json, key: string, path: string) => {
  const t = object(parent, key, path, true);
  number(t, 'hours', join(path, key), { required: true, integer: true, min: 0, max: 23 });
  number(t, 'minutes', join(path, key), { required: true, integer: true, min: 0, max: 59 });
};

const epoch = (parent: Json, key: string, path: string): number => {
  const o = object(parent, key, path, true);
  return number(o, 'epoch_seconds', join(path, key), { required: true, integer: true, min: 0 })!;
};

/** One validator per detail object an instance may carry. */
const DETAIL_VALIDATORS: Record<string, (detail: Json, path: string) => void> = {
  parking_details: (d, p) => {
    string(d, 'name', p);
    oneOf(d, 'parking_location', p, E.parking_location);
    oneOf(d, 'parking_access', p, E.parking_access);
    oneOf(d, 'parking_reservation', p, E.parking_reservation);
  },
  payment_details: (d, p) => void oneOf(d, 'charge_mode', p, E.charge_mode),
  temporarily_closed_details: (d, p) =>
    array(d, 'closed', p, true).forEach((item, i) => {
      const at = join(join(p, 'closed'), i);
      if (!isObject(item)) throw new Invalid(at, 'must be an object');
      const start = epoch(item, 'start_date', at);
      if (epoch(item, 'end_date', at) < start) throw new Invalid(join(at, 'end_date'), 'must not be before start_date');
    }),
  surcharge_details: (d, p) => void string(d, 'surcharge_type', p),
  schedule_details: (d, p) =>
    array(d, 'schedule', p, true).forEach((item, i) => {
      const at = join(join(p, 'schedule'), i);
      if (!isObject(item)) throw new Invalid(at, 'must be an object');
      time(item, 'from', at);
      time(item, 'to', at);
      oneOf(item, 'day_of_week', at, E.day_of_week, true);
    }),
  on_site_details: (d, p) => void oneOf(d, 'onsite_type', p, E.onsite_type, true),
  restaurant_details: (d, p) => {
    string(d, 'name', p);
    enumList(d, 'meal_types_list', p, E.meal_types);
    enumList(d, 'cuisines_list', p, E.cuisines);
  },
  swimming_pool_details: (d, p) => {
    string(d, 'name', p);
    oneOf(d, 'swimming_pool_type', p, E.swimming_pool_type);
  },
  internet_details: (d, p) => {
    oneOf(d, 'area', p, E.internet_area);
    oneOf(d, 'type', p, E.internet_type);
    const wifi = object(d, 'wifi_info', p);
    for (const key of ['network_name', 'speed_download', 'speed_upload'])
      if (wifi) string(wifi, key, join(p, 'wifi_info'));
  },
};

const DETAIL_KEYS = Object.keys(DETAIL_VALIDATORS);

/**
 * Detail objects that belong to one facility type, for the facility ids Booking.com publishes. For ids listed here
 * an instance may not carry another type's objects; other ids accept any detail object.
 */
const KNOWN_FACILITIES = [
  '2',
  '3',
  '7',
  '10',
  '11',
  '22',
  '47',
  '54',
  '63',
  '91',
  '253',
  '433',
  '9111',
  '9114',
  '9115',
];
const TYPE_SPECIFIC: Record<string, string[]> = {
  parking_details: ['2'],
  payment_details: ['2'],
  restaurant_details: ['3'],
  swimming_pool_details: ['433'],
  internet_details: ['47'],
  temporarily_closed_details: ['3', '7', '10', '54', '63', '253', '433'],
};

/** A facility entry as validated: instance ids normalized to strings, details as received. */
export interface FacilityInput {
  facility_id: string;
  is_available: boolean;
  instances: { instance_id: string | null; details: Json; path: string }[];
}

/** Reads `facilities` of a facility-set body; throws {@link Invalid} naming the first offending path. */
export function readFacilities(body: Json): FacilityInput[] {
  return array(body, 'facilities', '', true).map((entry, i) => {
    const path = join('facilities', i);
    if (!isObject(entry)) throw new Invalid(path, 'must be an object');
    for (const key of Object.keys(entry)) {
      if (!['facility_id', 'is_available', 'instances'].includes(key))
        throw new Invalid(join(path, key), 'unknown field');
    }
    const facilityId = string(entry, 'facility_id', path, { required: true, numbers: true });
    const isAvailable = boolean(entry, 'is_available', path, true);
    const instances = (array(entry, 'instances', path) ?? []).map((raw, j) => {
      const at = join(join(path, 'instances'), j);
      if (!isObject(raw)) throw new Invalid(at, 'must be an object');
      const details: Json = {};
      for (const [key, value] of Object.entries(raw)) {
        if (key === 'instance_id') continue;
        const validate = Object.hasOwn(DETAIL_VALIDATORS, key) ? DETAIL_VALIDATORS[key] : undefined;
        if (!validate)
          throw new Invalid(join(at, key), `unknown field; accepted: [instance_id, ${DETAIL_KEYS.join(', ')}]`);
        const owners = Object.hasOwn(TYPE_SPECIFIC, key) ? TYPE_SPECIFIC[key] : undefined;
        if (owners && KNOWN_FACILITIES.includes(facilityId) && !owners.includes(facilityId)) {
          throw new Invalid(join(at, key), `not accepted for facility ${facilityId}`);
        }
        if (!isObject(value)) throw new Invalid(join(at, key), 'must be an object');
        validate(value, join(at, key));
        details[key] = value;
      }
      if (facilityId === '2' && !details.parking_details) {
        throw new Invalid(join(at, 'parking_details'), 'is required for a parking facility');
      }
      return { instance_id: string(raw, 'instance_id', at, { numbers: true }) ?? null, details, path: at };
    });
    return { facility_id: facilityId, is_available: isAvailable, instances };
  });
}
