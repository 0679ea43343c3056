import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { fixtureText } from '../support/fixtures';
import { createEmulatorControl } from '../../src/emulator/controlClient';

/**
 * Pushes to a partner endpoint through a tiny partner server in the test: Basic auth, the acknowledgement each kind
 * needs, 3 reposts, then the item is dropped.
 */
describe('pushes to the partner endpoint', () => {
  let h: EmulatorHarness;
  let partner: FastifyInstance;
  let partnerUrl: string;
  /** What the partner answers to each post (set per test); the posts it received. */
  let answer: (n: number) => { status: number; body: unknown } | 'hang';
  let received: { authorization?: string; body: Record<string, unknown> }[];

  beforeEach(async () => {
    received = [];
    answer = () => ({ status: 200, body: { status: 'Success', Status: 'Success' } });
    partner = Fastify();
    partner.post('/su/push', async (request, reply) => {
      received.push({ authorization: request.headers.authorization, body: request.body as Record<string, unknown> });
      const a = answer(received.length);
      if (a === 'hang') return new Promise(() => {});
      return reply.code(a.status).send(a.body);
    });
    await partner.listen({ port: 0, host: '127.0.0.1' });
    partnerUrl = `http://127.0.0.1:${(partner.server.address() as { port: number }).port}/su/push`;
    h = await startEmulatorHarness({ pushRetryIntervalMs: 20, pushTimeoutMs: 300 });
    await h.control.setPartner({ url: partnerUrl, username: 'innkeeper', password: 'push-secret' });
  });
  afterEach(async () => {
    await h.close();
    await partner.close();
  });

  it('a 244 message is acknowledged the first time, sent with Basic auth and the 244 details', async () => {
    const outcome = await h.control.push({ kind: 'message', channel: '244' });
    expect(outcome).toMatchObject({
      kind: 'message',
      channel: '244',
      acknowledged: true,
      dropped: false,
      attempts: [{ status: 200 }],
    });
    expect(outcome.attempts[0]!.error).toBeUndefined();
    expect(received).toHaveLength(1);
    expect(received[0]!.authorization).toBe(`Basic ${Buffer.from('innkeeper:push-secret').toString('base64')}`);
    const body = received[0]!.body;
    // The same fields as the published 244 sample, with the seeded property's ids.
    expect(Object.keys(body).sort()).toEqual(Object.keys(JSON.parse(fixtureText('push-message-244.json'))).sort());
    expect(body).toMatchObject({ channel_id: '244', hotelid: 'IK-DEMO-001', listingid: '48213377', bookingflag: 'B' });
    const details = body as {
      user_details: { roles: { user_ids: unknown[] }[]; users: { id: unknown }[] };
      booking_details: Record<string, unknown>;
    };
    expect(details.user_details.roles[0]!.user_ids.every((id) => typeof id === 'number')).toBe(true);
    expect(details.user_details.users.every((u) => typeof u.id === 'number')).toBe(true);
    for (const key of ['number_of_guests', 'number_of_adults', 'number_of_children', 'number_of_infants', 'nights']) {
      expect(typeof details.booking_details[key], key).toBe('number');
    }
    expect(details.booking_details).toMatchObject({ listing_id: '48213377', non_response_at: null });
    expect(await h.control.pushes()).toEqual([outcome]);
  });

  it('19 and 9 messages name the channel hotel and carry no 244 details', async () => {
    for (const [channel, listing] of [
      ['19', '7741203'],
      ['9', '55120934'],
    ]) {
      const outcome = await h.control.push({ kind: 'message', channel });
      expect(outcome.acknowledged).toBe(true);
      expect(outcome.body).toMatchObject({
        channel_id: channel,
        listingid: listing,
        guestid: expect.stringMatching(/^\d+$/),
      });
      expect(outcome.body).not.toHaveProperty('user_details');
    }
  });

  it('a current review has the published shape and unique ids on every push', async () => {
    const first = await h.control.push({ kind: 'review', channel: '19' });
    const second = await h.control.push({ kind: 'review', channel: '19' });
    // The published sample's fields plus channel_booking_id, which the contract's field list has and the sample lacks.
    const sampleKeys = Object.keys(JSON.parse(fixtureText('push-review-19.json')));
    expect(Object.keys(first.body).sort()).toEqual([...sampleKeys, 'channel_booking_id'].sort());
    expect(first.body).toMatchObject({
      hotel_id: 'IK-DEMO-001',
      channel_property_id: '7741203',
      channel_review_id: expect.stringMatching(/^19_/),
      is_eligible_to_respond: true,
    });
    expect(first.body.channel_review_id).not.toBe(second.body.channel_review_id);
    const messages = [await h.control.push({ kind: 'message' }), await h.control.push({ kind: 'message' })];
    expect(messages[0]!.body.messageid).not.toBe(messages[1]!.body.messageid);
  });

  it('a legacy review goes to the same address with a review object', async () => {
    const outcome = await h.control.push({ kind: 'legacy-review', channel: '244' });
    expect(outcome.acknowledged).toBe(true);
    expect(outcome.body).toMatchObject({
      channel_id: '244',
      hotelcode: 'IK-DEMO-001',
      review: {
        action: 'review_published',
        reviewid: expect.any(String),
        reviewer_role: 'guest',
        hidden: false,
        submitted: true,
        ratings: expect.any(Array),
      },
    });
  });

  it('field overrides replace the generated values, nested objects merged', async () => {
    const outcome = await h.control.push({
      kind: 'message',
      channel: '244',
      hotelid: 'IK-DEMO-002',
      message: 'Hi!',
      messageid: 'M-1',
      booking_details: { nights: 9 },
    });
    expect(outcome.body).toMatchObject({
      hotelid: 'IK-DEMO-002',
      listingid: '51890412',
      message: 'Hi!',
      messageid: 'M-1',
      booking_details: { nights: 9, number_of_infants: 0 },
    });
  });

  it('a wrong acknowledgement is reposted 3 times, then the item is dropped', async () => {
    // Current reviews must be answered {Status: Success}; the lower-case key alone is not that.
    answer = () => ({ status: 200, body: { status: 'Success' } });
    const outcome = await h.control.push({ kind: 'review', channel: '9' });
    expect(outcome).toMatchObject({ acknowledged: false, dropped: true });
    expect(outcome.attempts).toHaveLength(4);
    expect(outcome.attempts[0]!.error).toBe('HTTP 200 without the acknowledgement {"Status":"Success"}');
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('a message answered with the capitalised key only is not acknowledged either', async () => {
    answer = () => ({ status: 200, body: { Status: 'Success' } });
    expect(await h.control.push({ kind: 'message', channel: '19' })).toMatchObject({
      acknowledged: false,
      dropped: true,
    });
    expect(received).toHaveLength(4);
  });

  it('errors and a body that is not an acknowledgement count as failed attempts until one succeeds', async () => {
    answer = (n) =>
      n === 1
        ? { status: 500, body: { status: 'Success' } }
        : n === 2
          ? { status: 200, body: 'OK' }
          : { status: 200, body: { status: 'Success' } };
    const outcome = await h.control.push({ kind: 'legacy-review' });
    expect(outcome).toMatchObject({ acknowledged: true, dropped: false });
    expect(outcome.attempts.map((a) => a.status)).toEqual([500, 200, 200]);
    expect(outcome.attempts[0]!.error).toBe('HTTP 500');
  });

  it('a partner that does not answer in time is reposted, then dropped', async () => {
    answer = () => 'hang';
    const outcome = await h.control.push({ kind: 'message' });
    expect(outcome).toMatchObject({ acknowledged: false, dropped: true });
    expect(outcome.attempts.map((a) => a.error)).toEqual(Array(4).fill('no answer within 300 ms'));
  });

  it('a partner that is down is tried 4 times, then the item is dropped', async () => {
    await partner.close();
    const outcome = await h.control.push({ kind: 'message', channel: '244' });
    expect(outcome).toMatchObject({ acknowledged: false, dropped: true });
    expect(outcome.attempts).toHaveLength(4);
    expect(outcome.attempts[0]!.error).toMatch(/^network error: ECONNREFUSED/);
  });

  it('refuses kinds on channels that do not carry them, unknown kinds and properties, and a missing partner', async () => {
    const post = (body: unknown) =>
      createEmulatorControl(h.emulator).raw(`/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const body of [
      { kind: 'review', channel: '244' },
      { kind: 'legacy-review', channel: '19' },
      { kind: 'message', channel: '150' },
      { kind: 'booking' },
      { kind: 'message', hotelid: 'NOPE' },
    ]) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
    expect(received).toHaveLength(0);
    h.emulator.state.partnerEndpoint = null;
    expect((await post({ kind: 'message' })).status).toBe(409);
  });

  it('review replies follow the pushed review: eligibility, one reply on channel 19, guest reviews only', async () => {
    const reply = (channel_review_id: string) =>
      h.main('review/reply', {
        hotel_id: 'IK-DEMO-001',
        channel_id: '19',
        channel_property_id: '7741203',
        channel_review_id,
        review_reply: 'Thank you!',
      });
    const closed = await h.control.push({ kind: 'review', channel: '19', is_eligible_to_respond: 'N' });
    expect((await reply(String(closed.body.channel_review_id))).body).toMatchObject({
      Status: 'Fail',
      Errors: { ShortText: expect.stringMatching(/not eligible/) },
    });
    const open = await h.control.push({ kind: 'review', channel: '19' });
    expect((await reply(String(open.body.channel_review_id))).body).toMatchObject({ Status: 'Success' });
    expect((await reply(String(open.body.channel_review_id))).body).toMatchObject({
      Status: 'Fail',
      Errors: { ShortText: expect.stringMatching(/already has a reply/) },
    });
    const hostReview = await h.control.push({ kind: 'legacy-review', review: { reviewer_role: 'host' } });
    const legacy = await h.main('OTA_ReplyReview', {
      hotelid: 'IK-DEMO-001',
      reviewid: (hostReview.body.review as { reviewid: string }).reviewid,
      replytext: 'Thanks',
    });
    expect(legacy.body).toEqual({ status: 'Fail', response: 'Only reviews initiated by the guest can be answered' });
  });
});
