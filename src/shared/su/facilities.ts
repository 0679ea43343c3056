import { z } from 'zod';
import { codeAsWords, hotelIdSchema, idSchema, textSchema, tooLong } from './common';

/** Enumerations the contract lists completely. */
export const FACILITY_ENUMS = {
  parking_location: ['NEARBY', 'ON_SITE', 'UNKNOWN_LOCATION'],
  parking_reservation: ['NOT_NEEDED', 'REQUIRED'],
  charge_mode: ['FREE', 'PAID'],
  day_of_week: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
  onsite_type: ['ON_SITE', 'OFFSITE'],
  swimming_pool_type: ['INDOOR', 'OUTDOOR', 'INDOOR_AND_OUTDOOR', 'SPECIFIED_AREAS'],
  internet_area: ['ENTIRE_PROPERTY', 'ROOM_ONLY'],
  internet_type: ['WIFI', 'LAN'],
} as const;

/** Values the contract lists only in part ("others: not shown"): known ones for pickers, any code accepted. */
export const FACILITY_KNOWN_VALUES = {
  parking_access: ['ONLY_GUESTS', 'GENERAL_PUBLIC'],
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

/** The owner's words for the codes above (the code itself goes only into the exact request). */
const CODE_WORDS: Record<string, string> = {
  NEARBY: 'Nearby',
  ON_SITE: 'On site',
  UNKNOWN_LOCATION: 'Location not known',
  ONLY_GUESTS: 'Guests only',
  GENERAL_PUBLIC: 'Anyone (public parking)',
  NOT_NEEDED: 'Not needed',
  REQUIRED: 'Required',
  FREE: 'Free',
  PAID: 'Paid',
  OFFSITE: 'Off site',
  INDOOR: 'Indoor',
  OUTDOOR: 'Outdoor',
  INDOOR_AND_OUTDOOR: 'Indoor and outdoor',
  SPECIFIED_AREAS: 'In some areas only',
  ENTIRE_PROPERTY: 'Entire property',
  ROOM_ONLY: 'In the rooms only',
  WIFI: 'Wi-Fi',
  LAN: 'Network cable',
  GLUTEN_FREE: 'Gluten-free',
  DAIRY_FREE: 'Dairy-free',
};

/** A code in words: its known words, else its letters as a phrase (PER_STAY → "Per stay"). */
export function codeWords(code: string): string {
  return CODE_WORDS[code] ?? codeAsWords(code);
}

/** "Nearby, On site or Location not known". */
const wordsOf = (values: readonly string[]) => {
  const words = values.map(codeWords);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
};

const enumOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { message: `${label}: choose ${wordsOf(values)}.` });

/** A value from a list the contract does not give in full: an upper-case code; the provider has the last word. */
const openCode = (label: string, known: readonly string[]) =>
  z
    .string()
    .trim()
    .regex(
      /^[A-Z][A-Z0-9_]*$/,
      `${label}: choose from the list (such as ${wordsOf(known.slice(0, 2))}), or type another of Booking.com’s codes in capitals.`,
    );

/** A time of day as {hours, minutes}; anything typed that is not a time is said to be one. */
const clock = z
  .object(
    {
      hours: z.number().int().min(0, 'Hours 0–23.').max(23, 'Hours 0–23.'),
      minutes: z.number().int().min(0, 'Minutes 0–59.').max(59, 'Minutes 0–59.'),
    },
    { error: 'A time such as 09:00 or 17:30 (hours:minutes).' },
  )
  .strict();
const epoch = z
  .object(
    { epoch_seconds: z.number().int().nonnegative('A day from 1970 on.') },
    { error: 'Choose the first and the last day it is closed.' },
  )
  .strict();

const instanceSchema = z
  .object({
    instance_id: z.union([z.string().trim().min(1), z.number().int()]).optional(),
    parking_details: z
      .object({
        name: z.string().trim().max(200, tooLong('The parking name', 200)).optional(),
        parking_location: enumOf(FACILITY_ENUMS.parking_location, 'Where the parking is').optional(),
        parking_access: openCode('Who may park', FACILITY_KNOWN_VALUES.parking_access).optional(),
        parking_reservation: enumOf(FACILITY_ENUMS.parking_reservation, 'Reservation').optional(),
      })
      .strict()
      .optional(),
    payment_details: z
      .object({ charge_mode: enumOf(FACILITY_ENUMS.charge_mode, 'Charge').optional() })
      .strict()
      .optional(),
    temporarily_closed_details: z
      .object({
        closed: z
          .array(
            z
              .object({ start_date: epoch, end_date: epoch })
              .strict()
              .refine(
                (c) => c.start_date.epoch_seconds <= c.end_date.epoch_seconds,
                'The closure must end after it starts.',
              ),
          )
          .min(1, 'Add at least one closed period.'),
      })
      .strict()
      .optional(),
    surcharge_details: z
      .object({ surcharge_type: textSchema('The surcharge', 100) })
      .strict()
      .optional(),
    schedule_details: z
      .object({
        schedule: z.array(
          z.object({ from: clock, to: clock, day_of_week: enumOf(FACILITY_ENUMS.day_of_week, 'Day') }).strict(),
        ),
      })
      .strict()
      .optional(),
    on_site_details: z
      .object({ onsite_type: enumOf(FACILITY_ENUMS.onsite_type, 'On site or off site') })
      .strict()
      .optional(),
    restaurant_details: z
      .object({
        name: textSchema('The restaurant name', 200),
        meal_types_list: z.array(openCode('Meal type', FACILITY_KNOWN_VALUES.meal_types)),
        cuisines_list: z.array(openCode('Cuisine', FACILITY_KNOWN_VALUES.cuisines)),
      })
      .strict()
      .optional(),
    swimming_pool_details: z
      .object({
        name: textSchema('The pool name', 200),
        swimming_pool_type: enumOf(FACILITY_ENUMS.swimming_pool_type, 'Pool type'),
      })
      .strict()
      .optional(),
    internet_details: z
      .object({
        area: enumOf(FACILITY_ENUMS.internet_area, 'Where the internet is'),
        type: enumOf(FACILITY_ENUMS.internet_type, 'Connection'),
        wifi_info: z
          .object({
            network_name: z.string().trim().max(100, tooLong('The Wi-Fi name', 100)),
            speed_download: z.string().trim().max(20, tooLong('The download speed', 20)),
            speed_upload: z.string().trim().max(20, tooLong('The upload speed', 20)),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Create or update facilities of a property, or of one room when `channel_room_id` is given. */
export const facilitySetSchema = z
  .object({
    hotel_id: hotelIdSchema(),
    channel_hotel_id: idSchema('The channel hotel id'),
    channel_room_id: idSchema('The channel room id').optional(),
    facilities: z
      .array(
        z
          .object({
            facility_id: z.union([idSchema('The facility id', 20), z.number().int().positive()]).transform(String),
            is_available: z.boolean({ message: 'Say whether the facility is available.' }),
            instances: z.array(instanceSchema).optional(),
          })
          .strict(),
      )
      .min(1, 'Add at least one facility.'),
  })
  .strict();
export type FacilitySet = z.input<typeof facilitySetSchema>;
