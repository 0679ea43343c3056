import { afterEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../src/shared/result';
import { imageAssociateSchema, imageCreateSchema } from '../../src/shared/su/images';
import { invRateControlSchema } from '../../src/shared/su/inventory';
import { messageReplySchema, reviewReplySchema } from '../../src/shared/su/messaging';
import { classifyDelivery, messageDeliverySchema, reviewDeliverySchema } from '../../src/shared/su/deliveries';
import { fixtureText } from '../support/fixtures';
import { startFixtureProvider, TOKEN_ANSWER } from '../support/fixtureProvider';

const json = (name: string) => JSON.parse(fixtureText(name)) as Record<string, unknown>;
let provider: Awaited<ReturnType<typeof startFixtureProvider>> | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppFailure) return error.error;
    throw error;
  }
  throw new Error('expected a failure');
}

const reply = {
  hotelid: 'new1',
  channelcode: '244',
  message: 'Hello',
  threadid: '802166080',
  guestid: '190242146',
  listingid: '38740678',
} as const;

describe('the client reads the provider’s recorded answers', () => {
  it('a message reply: success text, and the failure fixture as an error on the property id', async () => {
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/messagingAB': [200, 'reply-response-success.json'],
    });
    expect(await provider.client.messages.reply(reply)).toEqual({ response: 'Successfully posted' });
    await provider.close();
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/messagingAB': [200, 'reply-response-fail.json'],
    });
    const error = await failure(provider.client.messages.reply(reply));
    expect(error).toMatchObject({ field: 'hotelid', httpStatus: 200, retryable: false });
    expect(error.message).toContain('No property found for given property id');
  });

  it('a review reply: success, and codes 558 / 573 / 947 with Errors as one object, each on its field', async () => {
    const input = json('review-reply-request.json');
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/review/reply': [200, 'review-reply-success.json'],
    });
    expect(await provider.client.reviews.reply(input as never)).toEqual({
      message: 'Review replied successfully',
      ruid: null,
      warnings: [],
    });
    for (const [code, field] of [
      ['558', 'hotel_id'],
      ['573', 'channel_property_id'],
      ['947', 'hotel_id'],
    ] as const) {
      await provider.close();
      provider = await startFixtureProvider({
        ...TOKEN_ANSWER,
        '/jservice/review/reply': [400, `review-reply-error-${code}.json`],
      });
      expect(await failure(provider.client.reviews.reply(input as never))).toMatchObject({
        code,
        providerCode: code,
        field,
        httpStatus: 400,
      });
    }
  });

  it('image create results keep the request order and carry either the own id or the numeric id', async () => {
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/imageCreate': [200, 'image-create-response.json'],
    });
    const created = await provider.client.images.create(json('image-create-request.json') as never);
    expect(created).toEqual([
      {
        sourceUrl: 'https://images.example.com/p103/roadblue.jpg',
        providerUrl: 'https://cdn.example.com/su/11006.jpg',
        imageId: null,
        ownImageId: '2222',
      },
      {
        sourceUrl: 'https://images.example.com/p103/bsky.jpg',
        providerUrl: 'https://cdn.example.com/su/11007.jpg',
        imageId: 11007,
        ownImageId: null,
      },
    ]);
    expect(provider.calls()[0]!.body).toEqual(json('image-create-request.json'));
  });

  it('image retrieve and association answers', async () => {
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/imageRetrieve': [200, 'image-retrieve-response.json'],
      '/jservice/imageAssociation': [200, 'image-associate-response.json'],
    });
    const images = await provider.client.images.list({ hotelid: 'P103' });
    expect(images.map((i) => [i.imageId, i.ownImageId, i.associated])).toEqual([
      [10977, null, false],
      [11005, '1111', true],
    ]);
    expect(await provider.client.images.associate(json('image-associate-room-request.json') as never)).toEqual({
      associated: 2,
    });
  });

  it('sends the Bearer token on jservice calls', async () => {
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/imageRetrieve': [200, 'image-retrieve-response.json'],
    });
    await provider.client.images.list({ hotelid: 'P103' });
    expect(provider.calls()[0]!.headers.authorization).toBe('Bearer sandbox_eyJpdiI6InVTL013bmlpc3VM');
  });

  it('the older token envelope (success/data, a live_ token) works for production and is refused for sandbox', async () => {
    const answers: Record<string, [number, string]> = {
      '/jservice/auth/generate-access-token': [200, 'token-response-production-older.json'],
      '/jservice/imageRetrieve': [200, 'image-retrieve-response.json'],
    };
    provider = await startFixtureProvider(answers, 'production');
    expect(await provider.client.images.list({ hotelid: 'P103' })).toHaveLength(2);
    expect(provider.calls()[0]!.headers.authorization).toBe('Bearer live_eyJpdiI6IlI1NGR6dndiRTNp');
    await provider.close();
    provider = await startFixtureProvider(answers, 'sandbox');
    expect(await failure(provider.client.images.list({ hotelid: 'P103' }))).toMatchObject({
      code: 'wrong_environment',
    });
    expect(provider.calls()).toHaveLength(0);
  });

  it('a 401 on a Bearer call renews the token once and repeats the call', async () => {
    provider = await startFixtureProvider({
      ...TOKEN_ANSWER,
      '/jservice/imageRetrieve': [401, 'auth-failure-401.json'],
    });
    const error = await failure(provider.client.images.list({ hotelid: 'P103' }));
    expect(error).toMatchObject({ code: 'unauthorized', providerCode: '497', field: 'clientSecret' });
    const tokenCalls = provider.received.filter((r) => r.path.endsWith('generate-access-token'));
    expect(tokenCalls).toHaveLength(2);
    expect(provider.calls()).toHaveLength(2);
  });
});

describe('the provider’s request and push payloads parse with the shared schemas', () => {
  it('request fixtures are valid requests', () => {
    expect(imageCreateSchema.safeParse(json('image-create-request.json')).success).toBe(true);
    expect(imageAssociateSchema.safeParse(json('image-associate-room-request.json')).success).toBe(true);
    expect(reviewReplySchema.safeParse(json('review-reply-request.json')).success).toBe(true);
    const { channelid, ...rest } = json('reply-request-244.json');
    expect(messageReplySchema.safeParse({ ...rest, channelcode: channelid }).success).toBe(true);
    for (const [name, asOf] of [
      ['invratecontrol-request.json', '2021-09-01'],
      ['invratecontrol-closed-request.json', '2022-09-13'],
      ['invratecontrol-remove-request.json', '2022-09-09'],
    ] as const) {
      // Their dates are in the past now: check them as of the day before they were sent.
      const result = invRateControlSchema(asOf).safeParse(json(name));
      expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });

  it('push fixtures are classified and parsed, numeric ids becoming strings', () => {
    const message = json('push-message-244.json');
    expect(classifyDelivery(message)).toBe('message');
    const parsed = messageDeliverySchema.parse(message);
    expect(parsed.user_details?.users.map((u) => [u.id, u.first_name])).toEqual([
      ['22533556', 'Joseph'],
      ['311357532', 'Chris'],
    ]);
    expect(parsed.booking_details?.nights).toBe(4);
    const review = json('push-review-19.json');
    expect(classifyDelivery(review)).toBe('review');
    expect(reviewDeliverySchema.parse(review)).toMatchObject({
      channel_review_id: '19_HJDHDH',
      is_eligible_to_respond: true,
    });
    expect(reviewDeliverySchema.parse({ ...review, is_eligible_to_respond: 'N' }).is_eligible_to_respond).toBe(false);
  });
});
