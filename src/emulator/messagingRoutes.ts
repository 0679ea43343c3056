import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { bearerAuth } from './credentials';
import type { EmulatorState } from './state';
import { isObject, own, type Json } from './validate';

/** Required reply elements per channel. */
const REQUIRED_BY_CHANNEL: Record<string, string[]> = {
  '244': ['threadid', 'guestid', 'listingid'],
  '19': ['bookingid'],
  '9': ['bookingid'],
};

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** Messaging and legacy review failures: lower-case status and the reason in `response`. */
const fail = (reply: FastifyReply, response: string) => reply.code(400).send({ status: 'Fail', response });

/** Current review reply failures: `Errors` is a single object, not an array. */
const reviewFail = (reply: FastifyReply, code: string, shortText: string) =>
  reply.code(400).send({ Errors: { Code: code, ShortText: shortText }, Status: 'Fail' });

const NO_PROPERTY = 'No property found for given property id';

/** Endpoints 6 (message reply), 7 (review reply, channels 19 and 9) and 8 (legacy review reply, channel 244). */
export function registerMessagingRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/jservice/messagingAB', { onRequest: bearerAuth(state) }, async (request, reply) => {
    if (!isObject(request.body)) return fail(reply, 'the request body must be a JSON object');
    const b = request.body;
    // The field list says hotelid/channelcode, the sample sends channelid; both spellings are accepted.
    const property = state.property(text(b.hotelid) ?? text(b.hotelcode));
    if (!property) return fail(reply, NO_PROPERTY);
    const channel = text(b.channelcode) ?? text(b.channelid);
    const required = own(REQUIRED_BY_CHANNEL, channel);
    if (!channel || !required) return fail(reply, 'channelcode: must be one of 19, 244, 9');
    if (!own(property.channels, channel)) return fail(reply, `${NO_PROPERTY} on channel ${channel}`);
    // The provider answers a missing element as "no property found" too; the emulator names the element.
    for (const field of ['message', ...required]) {
      if (!text(b[field])) return fail(reply, `${NO_PROPERTY}: ${field} is required for channel ${channel}`);
    }
    if (channel === '244' && text(b.listingid) !== property.channels['244']) {
      return fail(reply, `No property found for given listing id ${text(b.listingid)}`);
    }
    // Expedia answers carry a tracking id, as the real provider's do.
    const tracking = channel === '9' ? { ota_tracking_id: randomBytes(8).toString('hex') } : {};
    return reply.send({ status: 'Success', response: 'Successfully posted', ...tracking });
  });

  app.post('/jservice/review/reply', { onRequest: bearerAuth(state) }, async (request, reply) => {
    if (!isObject(request.body)) return reviewFail(reply, '400', 'the request body must be a JSON object');
    const b: Json = request.body;
    for (const field of ['hotel_id', 'channel_id', 'channel_property_id', 'channel_review_id', 'review_reply']) {
      if (!text(b[field])) return reviewFail(reply, '400', `${field}: is required`);
    }
    const hotelId = text(b.hotel_id)!;
    const channel = text(b.channel_id)!;
    const property = state.property(hotelId);
    if (!property) return reviewFail(reply, '558', `hotel_id: Invalid HotelCode (${hotelId})`);
    if (!property.active) return reviewFail(reply, '947', 'Property is inactive');
    if (channel !== '19' && channel !== '9') {
      return reviewFail(reply, '400', 'channel_id: reviews can be replied to here on channels 19 and 9 only');
    }
    if (own(property.channels, channel) !== text(b.channel_property_id)) {
      return reviewFail(reply, '573', 'channel-mapping not found for this property!');
    }
    const reviewId = text(b.channel_review_id)!;
    // Only reviews the emulator pushed are known; others are accepted as the provider cannot be asked about them.
    const review = state.reviews.get(reviewId);
    if (review && !review.eligible) {
      return reviewFail(reply, '400', `channel_review_id: review ${reviewId} is not eligible for a reply`);
    }
    // Booking.com takes one reply per review (provider notes); for Expedia Su's documentation says nothing of a
    // second reply, so the emulator takes it, as Su may: refusing it is the app's own rule (inbox/replyRules.ts).
    if (review && channel === '19' && review.replies.length > 0) {
      return reviewFail(
        reply,
        '400',
        `channel_review_id: review ${reviewId} already has a reply (one reply per review)`,
      );
    }
    review?.replies.push(text(b.review_reply)!);
    return reply.send({
      Status: 'Success',
      Warnings: [],
      Errors: [],
      Message: 'Review replied successfully',
      Ruid: '',
    });
  });

  app.post('/jservice/OTA_ReplyReview', { onRequest: bearerAuth(state) }, async (request, reply) => {
    if (!isObject(request.body)) return fail(reply, 'the request body must be a JSON object');
    const b = request.body;
    const property = state.property(text(b.hotelid));
    if (!property) return fail(reply, NO_PROPERTY);
    const channel = text(b.channelid);
    if (channel !== undefined && channel !== '244')
      return fail(reply, 'channelid: the legacy review API is for channel 244');
    if (!property.channels['244']) return fail(reply, `${NO_PROPERTY} on channel 244`);
    // The field list marks everything optional, but a reply needs a review and a text to mean anything.
    for (const field of ['reviewid', 'replytext']) if (!text(b[field])) return fail(reply, `${field} is required`);
    if (b.listingid !== undefined && text(b.listingid) !== property.channels['244']) {
      return fail(reply, `No property found for given listing id ${text(b.listingid)}`);
    }
    const location = text(b.locationid);
    if (location !== undefined && !property.channel244Accounts.some((a) => a.accountId === location)) {
      return fail(reply, `locationid: ${location} is not a host account connected to this property`);
    }
    const review = state.reviews.get(`legacy:${text(b.reviewid)}`);
    if (review && !review.fromGuest) return fail(reply, 'Only reviews initiated by the guest can be answered');
    if (review && !review.hasBooking) return fail(reply, 'Only reviews of guests with a booking can be answered');
    // Nothing is said of a second reply to one Airbnb review: taken, as for Expedia (the app refuses it itself).
    review?.replies.push(text(b.replytext)!);
    return reply.send({ status: 'Success' });
  });
}
