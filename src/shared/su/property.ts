import { z } from 'zod';
import { currencySchema, hotelIdSchema, idSchema, textSchema } from './common';

/** Check-in and check-out times are an enumeration of half hours, HH:00 or HH:30. */
const time = z
  .string({ message: 'Choose a time (HH:MM), such as 15:00.' })
  .trim()
  .regex(/^([01]\d|2[0-3]):(00|30)$/, 'A time on the hour or half hour, HH:MM, such as 15:00 or 15:30.');
/** Booking.com refuses a property name with CJK ideographs (Chinese, Japanese kanji, Korean hanja). */
export const CJK_IDEOGRAPH = /\p{Script=Han}/u;
const languageTag = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'A language tag such as en or en-GB.');

/** Update a property record on the hotel channel. */
export const propertyUpdateSchema = z
  .object({
    hotel_id: hotelIdSchema(),
    legal_entity_id: idSchema('The legal entity id'),
    position: z
      .object({
        latitude: z
          .number({ message: 'Latitude is required.' })
          .min(-90, 'Latitude −90 to 90.')
          .max(90, 'Latitude −90 to 90.'),
        longitude: z
          .number({ message: 'Longitude is required.' })
          .min(-180, 'Longitude −180 to 180.')
          .max(180, 'Longitude −180 to 180.'),
      })
      .strict(),
    check_in: z.object({ from: time, until: time.optional() }).strict(),
    check_out: z.object({ from: time.optional(), until: time }).strict(),
    property_name: textSchema('The property name', 200).refine(
      (name) => !CJK_IDEOGRAPH.test(name),
      'Booking.com does not accept Chinese, Japanese or Korean ideographs in the property name; put the local name in the translation.',
    ),
    property_category: z.number({ message: 'The property category is a number.' }).int('A whole number.'),
    primary_language: languageTag.optional(),
    languages_spoken: z.array(languageTag).optional(),
    room_count: z
      .number({ message: 'The number of rooms is a number, and required.' })
      .int('A whole number.')
      .min(1, 'At least 1.'),
    floor_count: z
      .number({ message: 'The number of floors is a number.' })
      .int('A whole number.')
      .min(0, 'Not negative.')
      .optional(),
    stars: z
      .string()
      .trim()
      .regex(/^([0-4](\.5)?|5)$/, 'Stars 0 to 5, in halves.')
      .optional(),
    target: z.enum(['test', 'production'], {
      message: 'The target: test (a test property) or production (ready for guests).',
    }),
    provider_property_id: idSchema('Your property id').optional(),
    currency_code: currencySchema.optional(),
    physical_address: z
      .object({
        city_name: textSchema('The city', 200),
        country_code: z
          .string()
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{2}$/, 'A two-letter country code such as GB.'),
        postal_code: z.string().trim().max(20).optional(),
        address_line: textSchema('The address', 500),
        display_address: z.boolean().optional(),
      })
      .strict(),
    translations: z
      .object({
        city_name: textSchema('The translated city', 200),
        address_line: textSchema('The translated address', 500),
        language_code: languageTag,
        property_name: textSchema('The translated property name', 200),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PropertyUpdate = z.input<typeof propertyUpdateSchema>;
