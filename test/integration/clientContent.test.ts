import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureOf, startClientOnEmulator } from '../support/clientOnEmulator';
import { createEmulatorControl } from '../../src/emulator/controlClient';

// The real client against the emulator over loopback: property, facilities, images and notifications.
let ctx: Awaited<ReturnType<typeof startClientOnEmulator>>;
beforeEach(async () => {
  ctx = await startClientOnEmulator();
});
afterEach(() => ctx.close());

const HOTEL = 'IK-DEMO-001';
const BDC_HOTEL = '7741203';

describe('token validation', () => {
  it('pmsproperty accepts the client’s token', async () => {
    expect(await ctx.client.auth.validate()).toEqual({ propertyCount: 2 });
  });
});

describe('facilities (app id + API key)', () => {
  it('creates an instance, then updates it by its instance id', async () => {
    const parking = (name: string, instance_id?: string) => ({
      hotel_id: HOTEL,
      channel_hotel_id: BDC_HOTEL,
      facilities: [
        {
          facility_id: '2',
          is_available: true,
          instances: [
            {
              ...(instance_id ? { instance_id } : {}),
              parking_details: { name, parking_location: 'ON_SITE' as const, parking_access: 'ONLY_GUESTS' },
            },
          ],
        },
      ],
    });
    expect(await ctx.client.property.setFacilities(parking('Yard'))).toMatchObject({ message: expect.any(String) });
    const content = async () => {
      const response = await createEmulatorControl(ctx.emulator).raw(`/content?hotelid=${HOTEL}`);
      return JSON.stringify(await response.json());
    };
    const instanceId = /"instance_id":"?([\w-]+)"?/.exec(await content())?.[1];
    expect(instanceId).toBeTruthy();
    await ctx.client.property.setFacilities(parking('Back yard', instanceId));
    const after = await content();
    expect(after).toContain('Back yard');
    expect(after).not.toContain('"Yard"');
    const [call] = await ctx.requestsTo('/bdc/facilities/set');
    expect(call!.headers).toMatchObject({ 'app-id': 'demo-app' });
    expect(call!.headers!.authorization).not.toContain('demo-api-key'); // masked in the log
  });

  it('a value the provider does not accept comes back on its field path with the accepted values', async () => {
    const error = await failureOf(
      ctx.client.property.setFacilities({
        hotel_id: HOTEL,
        channel_hotel_id: BDC_HOTEL,
        facilities: [
          { facility_id: '2', is_available: true, instances: [{ parking_details: { parking_access: 'VALET_ONLY' } }] },
        ],
      }),
    );
    expect(error.field).toBe('facilities.0.instances.0.parking_details.parking_access');
    expect(error.message).toMatch(/ONLY_GUESTS/);
    expect(error.retryable).toBe(false);
  });

  it('an unknown property is code 400 on hotel_id, an unmapped channel hotel 573 on channel_hotel_id', async () => {
    const body = (hotel_id: string, channel_hotel_id: string) => ({
      hotel_id,
      channel_hotel_id,
      facilities: [{ facility_id: '47', is_available: true }],
    });
    expect(await failureOf(ctx.client.property.setFacilities(body('NOPE', BDC_HOTEL)))).toMatchObject({
      providerCode: '400',
      field: 'hotel_id',
    });
    expect(await failureOf(ctx.client.property.setFacilities(body(HOTEL, '999')))).toMatchObject({
      providerCode: '573',
      field: 'channel_hotel_id',
    });
  });

  it('a wrong facility API key is an error on that key', async () => {
    await ctx.close();
    ctx = await startClientOnEmulator({ facilityApiKey: 'wrong-key' });
    const error = await failureOf(
      ctx.client.property.setFacilities({
        hotel_id: HOTEL,
        channel_hotel_id: BDC_HOTEL,
        facilities: [{ facility_id: '47', is_available: true }],
      }),
    );
    expect(error).toMatchObject({ code: 'unauthorized', httpStatus: 401, field: 'facilityApiKey' });
  });
});

describe('property update', () => {
  const property = {
    hotel_id: HOTEL,
    legal_entity_id: 'LE-40021',
    position: { latitude: 55.68, longitude: 12.59 },
    check_in: { from: '15:00', until: '22:00' },
    check_out: { until: '11:00' },
    property_name: 'Harbour View Guesthouse',
    property_category: 204,
    room_count: 3,
    target: 'test' as const,
    physical_address: { city_name: 'Copenhagen', country_code: 'DK', address_line: 'Nyhavn 1' },
  };

  it('updates the record, or names the legal entity when it has no valid contract', async () => {
    const ok = await ctx.client.property.update({ ...property, hotel_id: HOTEL });
    expect(ok.propertyId).toBe(BDC_HOTEL);
    const error = await failureOf(ctx.client.property.update({ ...property, legal_entity_id: 'LE-00000' }));
    expect(error.field).toBe('legal_entity_id');
  });
});

describe('images', () => {
  it('creates in input order, associates with a room, and lists with is_associate', async () => {
    const created = await ctx.client.images.create({
      hotelid: HOTEL,
      proppmsid: 'PMS-1',
      images: [
        { url: 'https://images.example.com/a.jpg', name: 'Front', pms_imageid: 'own-1' },
        { url: 'https://images.example.com/b.jpg', name: 'Garden' },
      ],
    });
    expect(created.map((c) => [c.ownImageId, typeof c.imageId])).toEqual([
      ['own-1', 'object'],
      [null, 'number'],
    ]);
    await ctx.client.images.associate({ hotelid: HOTEL, roomid: 'DBL', images: [{ pms_imageid: 'own-1' }] });
    const listed = await ctx.client.images.list({ hotelid: HOTEL });
    const front = listed.find((i) => i.ownImageId === 'own-1')!;
    const garden = listed.find((i) => i.name === 'Garden')!;
    expect([front.associated, garden.associated]).toEqual([true, false]);
    expect(garden.imageId).toBe(created[1]!.imageId);
  });
});

describe('notifications (HTTP Basic)', () => {
  it('lists each Airbnb account with its notifications', async () => {
    const accounts = await ctx.client.notifications.fetch({ hotelid: HOTEL });
    expect(accounts.map((a) => [a.accountId, a.ok, a.notifications.length])).toEqual([
      ['80412233', true, 2],
      ['80412290', true, 0],
    ]);
    expect(accounts[0]!.notifications[0]).toMatchObject({ id: 'ntf-1001', title: 'Add more photos to your listing' });
  });

  it('an unknown property and a wrong password are errors on their fields', async () => {
    expect(await failureOf(ctx.client.notifications.fetch({ hotelid: 'NOPE' }))).toMatchObject({ field: 'hotelid' });
    await ctx.close();
    ctx = await startClientOnEmulator({ notificationPassword: 'nope' });
    expect(await failureOf(ctx.client.notifications.fetch({ hotelid: HOTEL }))).toMatchObject({
      httpStatus: 401,
      field: 'notificationPassword',
    });
  });
});
