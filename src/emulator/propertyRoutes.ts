import type { FastifyInstance } from 'fastify';
import { failEnvelope } from './authRoutes';
import { bearerAuth } from './credentials';
import type { EmulatorState } from './state';
import { array, boolean, body as readBody, Invalid, join, number, object, oneOf, string, type Json } from './validate';

/** The provider's check-in/out times are an enumeration of half hours (HH:MM). */
const TIMES = Array.from(
  { length: 48 },
  (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
);
const TARGETS = ['test', 'production'] as const;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,4})?$/i;

const time = (parent: Json, key: string, path: string, required: boolean) => {
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(join(path, key), 'is required (HH:MM, in half hours from 00:00 to 23:30)');
    return;
  }
  if (typeof value !== 'string' || !TIMES.includes(value)) {
    throw new Invalid(
      join(path, key),
      `${JSON.stringify(value)} is not an accepted time: HH:00 or HH:30, 00:00 to 23:30`,
    );
  }
};

/** Reads a property-update body; throws {@link Invalid} at the first problem. */
function readPropertyUpdate(raw: unknown): { hotelId: string; legalEntityId: string; record: Json } {
  const b = readBody(raw);
  const hotelId = string(b, 'hotel_id', '', { required: true });
  const legalEntityId = string(b, 'legal_entity_id', '', { required: true, numbers: true });
  const position = object(b, 'position', '', true);
  number(position, 'latitude', 'position', { required: true, min: -90, max: 90 });
  number(position, 'longitude', 'position', { required: true, min: -180, max: 180 });
  const checkIn = object(b, 'check_in', '', true);
  time(checkIn, 'from', 'check_in', true);
  time(checkIn, 'until', 'check_in', false);
  const checkOut = object(b, 'check_out', '');
  if (checkOut) {
    time(checkOut, 'from', 'check_out', false);
    time(checkOut, 'until', 'check_out', checkOut.from !== undefined);
  }
  const name = string(b, 'property_name', '', { required: true });
  // Booking.com's rule: no CJK ideographs in the name; a translation carries the local name.
  if (/\p{Script=Han}/u.test(name))
    throw new Invalid('property_name', 'must not contain CJK ideographs (Chinese, Japanese or Korean characters)');
  number(b, 'property_category', '', { required: true, integer: true, min: 1 });
  string(b, 'primary_language', '', { pattern: LANGUAGE, expected: 'a language tag such as en-gb' });
  array(b, 'languages_spoken', '')?.forEach((tag, i) => {
    if (typeof tag !== 'string' || !LANGUAGE.test(tag)) {
      throw new Invalid(join('languages_spoken', i), 'must be a language tag such as en-gb');
    }
  });
  number(b, 'room_count', '', { required: true, integer: true, min: 1 });
  number(b, 'floor_count', '', { integer: true, min: 0 });
  string(b, 'stars', '', { numbers: true });
  oneOf(b, 'target', '', TARGETS, true);
  string(b, 'provider_property_id', '');
  string(b, 'currency_code', '', { pattern: /^[A-Z]{3}$/, expected: 'an ISO 4217 code such as EUR' });
  const address = object(b, 'physical_address', '', true);
  string(address, 'city_name', 'physical_address', { required: true });
  string(address, 'country_code', 'physical_address', {
    required: true,
    pattern: /^[A-Z]{2}$/,
    expected: 'an ISO 3166-1 alpha-2 code such as DK',
  });
  string(address, 'postal_code', 'physical_address', { numbers: true });
  string(address, 'address_line', 'physical_address', { required: true });
  boolean(address, 'display_address', 'physical_address');
  const translations = object(b, 'translations', '');
  if (translations) {
    for (const key of ['city_name', 'address_line', 'property_name'])
      string(translations, key, 'translations', { required: true });
    string(translations, 'language_code', 'translations', {
      required: true,
      pattern: LANGUAGE,
      expected: 'a language tag such as de or fr-ca',
    });
  }
  return { hotelId, legalEntityId, record: b };
}

/** Endpoint 4, property update: validates, checks the legal entity's contract, keeps the record. */
export function registerPropertyRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/jservice/bdc/property/update', { onRequest: bearerAuth(state) }, async (request, reply) => {
    let input: ReturnType<typeof readPropertyUpdate>;
    try {
      input = readPropertyUpdate(request.body);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      return reply.code(400).send({ Status: 'Fail', Errors: [], Message: error.message });
    }
    const property = state.property(input.hotelId);
    if (!property) {
      return reply
        .code(400)
        .send(failEnvelope('400', `hotel_id: invalid hotel code (${input.hotelId})`, 'No property found for hotel_id'));
    }
    if (input.legalEntityId !== property.legalEntityId) {
      return reply.code(400).send({
        Status: 'Fail',
        Errors: [],
        Message: `The legal entity ${input.legalEntityId} does not have a valid contract for this property`,
      });
    }
    state.propertyRecords.set(property.hotelid, input.record);
    return reply.send({
      Status: 'Success',
      // The channel's own id of the property (Booking.com answers with its property id).
      Data: { property_id: property.channels['19'] ?? property.hotelid },
      Message: 'Property updated successfully',
    });
  });
}
