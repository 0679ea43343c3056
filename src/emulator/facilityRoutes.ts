import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { failEnvelope } from './authRoutes';
import { appKeyAuth } from './credentials';
import { readFacilities, type FacilityInput } from './facilityRules';
import type { EmulatorState, StoredFacility } from './state';
import { body as readBody, Invalid, string } from './validate';

/** Booking.com-style request tracking id, returned as `Ruid` on facility-set answers. */
export const newRuid = () => randomBytes(18).toString('base64url');

/** Key of a facility list: the property itself or one of its rooms. */
export const facilityKey = (hotelid: string, roomid: string | null) => `${hotelid}|${roomid ?? ''}`;

/**
 * Endpoint 3, facility set. It wraps Booking.com's facility API, so `channel_hotel_id` and `channel_room_id` must be
 * the property's and room's channel-19 ids; anything else is code 573.
 */
export function registerFacilityRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/jservice/bdc/facilities/set', { onRequest: appKeyAuth(state) }, async (request, reply) => {
    const ruid = newRuid();
    let input: { hotelId: string; channelHotelId: string; channelRoomId?: string; facilities: FacilityInput[] };
    try {
      const body = readBody(request.body);
      input = {
        hotelId: string(body, 'hotel_id', '', { required: true }),
        channelHotelId: string(body, 'channel_hotel_id', '', { required: true, numbers: true }),
        channelRoomId: string(body, 'channel_room_id', '', { numbers: true }),
        facilities: readFacilities(body),
      };
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      // The provider's deserialization failure: empty Errors, the path and accepted values in Message.
      return reply.code(400).send({ Status: 'Fail', Errors: [], Message: error.message, Ruid: ruid });
    }
    const property = state.property(input.hotelId);
    if (!property) {
      return reply
        .code(400)
        .send({ ...failEnvelope('400', `hotel_id: invalid hotel code (${input.hotelId})`), Ruid: ruid });
    }
    if (property.channels['19'] !== input.channelHotelId) {
      return reply
        .code(400)
        .send({ ...failEnvelope('573', 'channel-mapping not found for this property!'), Ruid: ruid });
    }
    let roomid: string | null = null;
    if (input.channelRoomId !== undefined) {
      const room = property.rooms.find((r) => r.channelRoomIds['19'] === input.channelRoomId);
      if (!room) {
        return reply.code(400).send({ ...failEnvelope('573', 'channel-mapping not found for this room!'), Ruid: ruid });
      }
      roomid = room.roomid;
    }
    const key = facilityKey(property.hotelid, roomid);
    const held = state.facilities.get(key) ?? new Map<string, StoredFacility>();
    // Check every instance_id before changing anything: a call is applied whole or not at all.
    for (const facility of input.facilities) {
      for (const instance of facility.instances) {
        if (instance.instance_id === null) continue;
        const known = held.get(facility.facility_id)?.instances.some((i) => i.instance_id === instance.instance_id);
        if (!known) {
          const where = roomid ? `room ${input.channelRoomId}` : 'this property';
          const reason = `no instance ${instance.instance_id} of facility ${facility.facility_id} on ${where}`;
          return reply
            .code(400)
            .send({ Status: 'Fail', Errors: [], Message: `${instance.path}.instance_id: ${reason}`, Ruid: ruid });
        }
      }
    }
    for (const facility of input.facilities) applyFacility(state, held, facility);
    state.facilities.set(key, held);
    return reply.send({
      Status: 'Success',
      Data: [],
      Message: roomid ? 'Room facility set successfully' : 'Property facility set successfully',
      Ruid: ruid,
    });
  });
}

/** An instance with instance_id updates that instance, one without is created with a new id. */
function applyFacility(state: EmulatorState, held: Map<string, StoredFacility>, input: FacilityInput): void {
  const facility = held.get(input.facility_id) ?? {
    facility_id: input.facility_id,
    is_available: false,
    instances: [],
  };
  facility.is_available = input.is_available;
  for (const instance of input.instances) {
    const existing = facility.instances.find((i) => i.instance_id === instance.instance_id);
    if (existing) Object.assign(existing, instance.details);
    else facility.instances.push({ instance_id: String(state.nextId('instance')), ...instance.details });
  }
  held.set(input.facility_id, facility);
}
