import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { fixtureText } from '../support/fixtures';

const fixture = (name: string) => JSON.parse(fixtureText(name)) as Record<string, unknown>;

/** Endpoints 6 (message reply), 7 (review reply) and 8 (legacy review reply). */
describe('message reply (messagingAB)', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startEmulatorHarness();
  });
  afterAll(() => h.close());

  // The published 244 sample, pointed at the seeded property and its channel-244 listing.
  const reply244 = { ...fixture('reply-request-244.json'), hotelid: 'IK-DEMO-001', listingid: '48213377' };
  const reply19 = {
    hotelid: 'IK-DEMO-001',
    channelcode: '19',
    message: 'See you soon!\\\\nMaria',
    bookingid: '4012345678',
  };

  it('posts a 244 reply (the sample spells the channel channelid) with the published success body', async () => {
    expect(await h.main('messagingAB', reply244)).toEqual(
      expect.objectContaining({ status: 200, body: fixture('reply-response-success.json') }),
    );
  });

  it('posts 19 and 9 replies with a booking id; Expedia answers also carry a tracking id', async () => {
    expect((await h.main('messagingAB', reply19)).body).toEqual({ status: 'Success', response: 'Successfully posted' });
    const expedia = await h.main('messagingAB', {
      ...reply19,
      channelcode: 9,
      hotelcode: 'IK-DEMO-002',
      hotelid: undefined,
    });
    expect(expedia.body).toMatchObject({ status: 'Success', ota_tracking_id: expect.any(String) });
  });

  it('an unknown property id fails with the published failure body', async () => {
    const answer = await h.main('messagingAB', { ...reply244, hotelid: 'new1' });
    expect(answer).toMatchObject({ status: 400, body: fixture('reply-response-fail.json') });
  });

  it.each([
    ['threadid', '244'],
    ['guestid', '244'],
    ['listingid', '244'],
    ['message', '244'],
    ['bookingid', '19'],
    ['bookingid', '9'],
  ])('a missing %s on channel %s fails as "no property found", naming the element', async (field, channel) => {
    const base = channel === '244' ? reply244 : { ...reply19, channelcode: channel };
    const answer = await h.main('messagingAB', { ...base, [field]: undefined });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        status: 'Fail',
        response: `No property found for given property id: ${field} is required for channel ${channel}`,
      },
    });
  });

  it("a 244 listing id that is not the property's, or an unknown channel, fails", async () => {
    expect((await h.main('messagingAB', { ...reply244, listingid: '1' })).body).toEqual({
      status: 'Fail',
      response: 'No property found for given listing id 1',
    });
    expect((await h.main('messagingAB', { ...reply19, channelcode: '77' })).body).toEqual({
      status: 'Fail',
      response: 'channelcode: must be one of 19, 244, 9',
    });
  });
});

describe('review reply (channels 19 and 9)', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startEmulatorHarness();
  });
  afterAll(() => h.close());

  const request = { ...fixture('review-reply-request.json'), hotel_id: 'IK-DEMO-001', channel_property_id: '7741203' };

  it('answers a valid reply with the published success body', async () => {
    expect(await h.main('review/reply', request)).toMatchObject({
      status: 200,
      body: fixture('review-reply-success.json'),
    });
    const expedia = await h.main('review/reply', {
      ...request,
      channel_id: '9',
      channel_property_id: '55120934',
      channel_review_id: '9_abc',
    });
    expect(expedia.body).toMatchObject({ Status: 'Success' });
  });

  it('an unknown hotel is 558 with Errors as a single object', async () => {
    const answer = await h.main('review/reply', { ...request, hotel_id: 'MEE1' });
    expect(answer).toMatchObject({ status: 400, body: fixture('review-reply-error-558.json') });
  });

  it('an inactive property is 947', async () => {
    const answer = await h.main('review/reply', {
      ...request,
      hotel_id: 'IK-DEMO-003',
      channel_property_id: '8810554',
    });
    expect(answer.body).toEqual(fixture('review-reply-error-947.json'));
  });

  it('a channel property id that is not the mapping for that channel is 573', async () => {
    expect((await h.main('review/reply', { ...request, channel_property_id: '12837615' })).body).toEqual(
      fixture('review-reply-error-573.json'),
    );
    // The channel-19 id under channel 9 is not a mapping either.
    expect((await h.main('review/reply', { ...request, channel_id: '9' })).body).toMatchObject({
      Errors: { Code: '573' },
    });
  });

  it('missing fields and channel 244 are refused with a single error object', async () => {
    expect((await h.main('review/reply', { ...request, review_reply: '' })).body).toEqual({
      Errors: { Code: '400', ShortText: 'review_reply: is required' },
      Status: 'Fail',
    });
    const legacy = await h.main('review/reply', { ...request, channel_id: '244', channel_property_id: '48213377' });
    expect(legacy.body).toMatchObject({
      Status: 'Fail',
      Errors: { ShortText: expect.stringMatching(/channels 19 and 9 only/) },
    });
  });
});

describe('legacy review reply (OTA_ReplyReview, channel 244)', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startEmulatorHarness();
  });
  afterAll(() => h.close());

  const request = {
    hotelid: 'IK-DEMO-001',
    channelid: '244',
    replytext: 'Thank you, Chris!',
    listingid: '48213377',
    locationid: '80412233',
    reviewid: '712345678901',
  };

  it('answers a valid reply with status Success', async () => {
    expect(await h.main('OTA_ReplyReview', request)).toMatchObject({ status: 200, body: { status: 'Success' } });
    expect(
      (await h.main('OTA_ReplyReview', { ...request, channelid: 244, listingid: undefined, locationid: undefined }))
        .body,
    ).toEqual({ status: 'Success' });
  });

  it.each([
    ['an unknown property', { hotelid: 'NOPE' }, 'No property found for given property id'],
    ['another channel', { channelid: '19' }, 'channelid: the legacy review API is for channel 244'],
    ['a missing review id', { reviewid: undefined }, 'reviewid is required'],
    ['a missing reply text', { replytext: '' }, 'replytext is required'],
    ['a listing id of another property', { listingid: '51890412' }, 'No property found for given listing id 51890412'],
    [
      'a host account not connected to the property',
      { locationid: '80577410' },
      'locationid: 80577410 is not a host account connected to this property',
    ],
  ])('%s fails with status Fail and a response', async (_name, change, response) => {
    expect(await h.main('OTA_ReplyReview', { ...request, ...change })).toMatchObject({
      status: 400,
      body: { status: 'Fail', response },
    });
  });
});
