import { DETAIL_VALUE_WORDS } from '@shared/property';
import { FACILITY_ENUMS, FACILITY_KNOWN_VALUES } from '@shared/su/facilities';
import type { DetailKind } from './facilityEdit';

/**
 * One value of a detail object: free text, one of a complete list (`enum`), or one or several codes of a list the
 * contract gives only in part (`code`, `codes`: the known ones offered, any upper-case code accepted).
 */
export interface DetailFieldSpec {
  /** The key in the detail object; `wifi_info.network_name` for a nested one. */
  key: string;
  label: string;
  kind: 'text' | 'enum' | 'code' | 'codes';
  values?: readonly string[];
  required?: boolean;
  help?: string;
}

/** A detail object's values, each labelled by the owner's words for it (the same the preview's changes use). */
const withWords = (kind: DetailKind, specs: Omit<DetailFieldSpec, 'label'>[]): DetailFieldSpec[] =>
  specs.map((spec) => ({ ...spec, label: DETAIL_VALUE_WORDS[kind]![spec.key]! }));

/** The detail objects edited as a list of values (schedules and closures have their own rows). */
export const DETAIL_FIELDS: Partial<Record<DetailKind, DetailFieldSpec[]>> = {
  parking_details: withWords('parking_details', [
    { key: 'name', kind: 'text', help: 'Such as “Garage”.' },
    {
      key: 'parking_location',
      kind: 'enum',
      values: FACILITY_ENUMS.parking_location,
    },
    {
      key: 'parking_access',
      kind: 'code',
      values: FACILITY_KNOWN_VALUES.parking_access,
      help: 'Choose, or type another kind Booking.com uses.',
    },
    {
      key: 'parking_reservation',
      kind: 'enum',
      values: FACILITY_ENUMS.parking_reservation,
    },
  ]),
  payment_details: withWords('payment_details', [
    {
      key: 'charge_mode',
      kind: 'enum',
      values: FACILITY_ENUMS.charge_mode,
    },
  ]),
  on_site_details: withWords('on_site_details', [
    {
      key: 'onsite_type',
      kind: 'enum',
      values: FACILITY_ENUMS.onsite_type,
      required: true,
    },
  ]),
  surcharge_details: withWords('surcharge_details', [
    {
      key: 'surcharge_type',
      kind: 'text',
      required: true,
      help: 'How it is charged, in Booking.com’s words.',
    },
  ]),
  restaurant_details: withWords('restaurant_details', [
    { key: 'name', kind: 'text', required: true },
    {
      key: 'meal_types_list',
      kind: 'codes',
      values: FACILITY_KNOWN_VALUES.meal_types,
      help: 'Choose one or more.',
    },
    {
      key: 'cuisines_list',
      kind: 'codes',
      values: FACILITY_KNOWN_VALUES.cuisines,
      help: 'Choose one or more.',
    },
  ]),
  swimming_pool_details: withWords('swimming_pool_details', [
    { key: 'name', kind: 'text', required: true },
    {
      key: 'swimming_pool_type',
      kind: 'enum',
      values: FACILITY_ENUMS.swimming_pool_type,
      required: true,
    },
  ]),
  internet_details: withWords('internet_details', [
    {
      key: 'area',
      kind: 'enum',
      values: FACILITY_ENUMS.internet_area,
      required: true,
    },
    {
      key: 'type',
      kind: 'enum',
      values: FACILITY_ENUMS.internet_type,
      required: true,
    },
    {
      key: 'wifi_info.network_name',
      kind: 'text',
      help: 'Sent together with the speeds.',
    },
    {
      key: 'wifi_info.speed_download',
      kind: 'text',
      help: 'Such as 100 Mbps.',
    },
    {
      key: 'wifi_info.speed_upload',
      kind: 'text',
      help: 'Such as 20 Mbps.',
    },
  ]),
};

/** A value typed into a code field, as a code: upper case, words joined by "_". */
export const asCode = (text: string) =>
  text
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/** A value of a detail object by its key (`wifi_info.network_name`). */
export function valueAt(detail: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), detail);
}

/**
 * A detail object with one value set (blank text or no choice removes it, unless `keepBlank`: a required text stays,
 * empty, for the schema to name). Wi-Fi info is sent whole:
 * typing any of its values adds all three, and emptying all three removes it.
 */
export function setValueAt(
  detail: Record<string, unknown>,
  key: string,
  value: unknown,
  keepBlank = false,
): Record<string, unknown> {
  const blank = value === undefined || value === null || (typeof value === 'string' && value === '');
  const [head, tail] = key.split('.') as [string, string | undefined];
  const next = { ...detail };
  if (!tail) {
    // A required text stays in the object (empty), so the schema names it; an optional value goes.
    if (blank && !keepBlank) delete next[head];
    else next[head] = blank ? '' : value;
    return next;
  }
  const inner: Record<string, string> = {
    network_name: '',
    speed_download: '',
    speed_upload: '',
    ...((detail[head] as Record<string, string> | undefined) ?? {}),
    [tail]: blank ? '' : String(value),
  };
  if (Object.values(inner).every((v) => v === '')) delete next[head];
  else next[head] = inner;
  return next;
}
