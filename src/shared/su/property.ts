import { z } from 'zod';
import { currencySchema, hotelIdSchema, idSchema, textSchema, tooLong } from './common';

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

/**
 * A number field: blank says it is required (`blank`), anything typed that is not a number says so and what to
 * type (`notNumber`), instead of one message for both.
 */
const numberOf = (blank: string, notNumber: string) =>
  z.number({
    error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? blank : notNumber),
  });

/** Update a property record on the hotel channel. */
export const propertyUpdateSchema = z
  .object({
    hotel_id: hotelIdSchema(),
    legal_entity_id: idSchema('The legal entity id'),
    position: z
      .object({
        latitude: numberOf(
          'Latitude is required: decimal degrees from −90 to 90, such as 55.6797.',
          'Latitude is not a number: write decimal degrees from −90 to 90, such as 55.6797.',
        )
          .min(-90, 'Latitude is from −90 to 90 (decimal degrees).')
          .max(90, 'Latitude is from −90 to 90 (decimal degrees).'),
        longitude: numberOf(
          'Longitude is required: decimal degrees from −180 to 180, such as 12.5936.',
          'Longitude is not a number: write decimal degrees from −180 to 180, such as 12.5936.',
        )
          .min(-180, 'Longitude is from −180 to 180 (decimal degrees).')
          .max(180, 'Longitude is from −180 to 180 (decimal degrees).'),
      })
      .strict(),
    check_in: z.object({ from: time, until: time.optional() }).strict(),
    check_out: z.object({ from: time.optional(), until: time }).strict(),
    property_name: textSchema('The property name', 200).refine(
      (name) => !CJK_IDEOGRAPH.test(name),
      'Booking.com does not accept Chinese, Japanese or Korean ideographs in the property name; put the local name in the translation.',
    ),
    property_category: numberOf(
      'Choose the kind of property.',
      'Choose the kind of property from the list, or type its number (a whole number, such as 20 for a hotel).',
    )
      .int('The kind of property is a whole number, such as 20 for a hotel.')
      .min(1, 'The kind of property is a whole number, such as 20 for a hotel.'),
    primary_language: languageTag.optional(),
    languages_spoken: z.array(languageTag).optional(),
    room_count: numberOf(
      'The number of rooms is required: the units you sell, such as 8.',
      'The number of rooms is not a number: write a whole number, such as 8.',
    )
      .int('The number of rooms is a whole number, such as 8.')
      .min(1, 'At least 1 room.'),
    floor_count: numberOf(
      'The number of floors is a whole number, such as 3.',
      'The number of floors is not a number: write a whole number, such as 3.',
    )
      .int('The number of floors is a whole number, such as 3.')
      .min(0, 'The number of floors cannot be negative.')
      .optional(),
    stars: z
      .string()
      .trim()
      .regex(/^([0-4](\.5)?|5)$/, 'Stars 0 to 5, in halves.')
      .optional(),
    target: z.enum(['test', 'production'], {
      message: 'Choose whether this is a test property or ready for guests.',
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
        postal_code: z.string().trim().max(20, tooLong('The postal code', 20)).optional(),
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
