import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { createEmulatorControl } from '../../src/emulator/controlClient';

/** Endpoint 3, facility set: success, stored facilities and instances, and every failure form. */
describe('facility set', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness();
  });
  afterEach(() => h.close());

  const parking = (details: Record<string, unknown> = {}) => ({
    facility_id: '2',
    is_available: true,
    instances: [
      {
        parking_details: { name: 'Harbour car park', parking_location: 'NEARBY', ...details },
        payment_details: { charge_mode: 'PAID' },
      },
    ],
  });
  const body = (facilities: unknown[], extra: Record<string, unknown> = {}) => ({
    hotel_id: 'IK-DEMO-001',
    channel_hotel_id: '7741203',
    facilities,
    ...extra,
  });
  const content = async () => {
    const response = await createEmulatorControl(h.emulator).raw(`/content?hotelid=IK-DEMO-001`);
    return (await response.json()) as {
      facilities: {
        property: { facility_id: string; is_available: boolean; instances: Record<string, unknown>[] }[];
        rooms: Record<string, unknown[]>;
      };
    };
  };

  it('creates property facilities, giving each instance without an id a new one', async () => {
    const answer = await h.facilities<{ Ruid: string }>(body([parking(), { facility_id: 91, is_available: false }]));
    expect(answer).toMatchObject({
      status: 200,
      body: { Status: 'Success', Data: [], Message: 'Property facility set successfully' },
    });
    expect(answer.body.Ruid).toMatch(/^[\w-]{10,}$/);
    const held = (await content()).facilities.property;
    expect(held).toHaveLength(2);
    expect(held[0]).toMatchObject({
      facility_id: '2',
      is_available: true,
      instances: [{ instance_id: expect.stringMatching(/^\d+$/), parking_details: { name: 'Harbour car park' } }],
    });
    expect(held[1]).toEqual({ facility_id: '91', is_available: false, instances: [] });
  });

  it('an instance with instance_id updates that instance; one without is added', async () => {
    await h.facilities(body([parking()]));
    const id = (await content()).facilities.property[0]!.instances[0]!.instance_id;
    const update = {
      facility_id: '2',
      is_available: true,
      instances: [
        { instance_id: Number(id), parking_details: { parking_location: 'ON_SITE' } },
        { parking_details: { name: 'Second lot' } },
      ],
    };
    expect((await h.facilities(body([update]))).status).toBe(200);
    const instances = (await content()).facilities.property[0]!.instances;
    expect(instances).toHaveLength(2);
    expect(instances[0]).toMatchObject({
      instance_id: id,
      parking_details: { parking_location: 'ON_SITE' },
      payment_details: { charge_mode: 'PAID' },
    });
    expect(instances[1]).toMatchObject({
      instance_id: expect.not.stringMatching(`^${id}$`),
      parking_details: { name: 'Second lot' },
    });
  });

  it('an instance_id the property does not have is refused and nothing changes', async () => {
    const answer = await h.facilities(
      body([{ facility_id: '2', is_available: true, instances: [{ instance_id: '999', parking_details: {} }] }]),
    );
    expect(answer).toMatchObject({
      status: 400,
      body: {
        Status: 'Fail',
        Errors: [],
        Message: 'facilities[0].instances[0].instance_id: no instance 999 of facility 2 on this property',
      },
    });
    expect((await content()).facilities.property).toEqual([]);
  });

  it('room-level facilities name the room by its channel room id and are kept per room', async () => {
    const wifi = {
      facility_id: '47',
      is_available: true,
      instances: [
        {
          internet_details: {
            area: 'ROOM_ONLY',
            type: 'WIFI',
            wifi_info: { network_name: 'Harbour', speed_download: '100', speed_upload: '20' },
          },
        },
      ],
    };
    const answer = await h.facilities(body([wifi], { channel_room_id: '774120302' }));
    expect(answer.body).toMatchObject({ Status: 'Success', Message: 'Room facility set successfully' });
    const held = await content();
    expect(held.facilities.property).toEqual([]);
    expect(held.facilities.rooms.TWN).toHaveLength(1);
    expect(held.facilities.rooms.DBL).toEqual([]);
  });

  it('every detail object of the contract is accepted', async () => {
    const detailed = [
      {
        facility_id: '3',
        is_available: true,
        instances: [
          {
            restaurant_details: {
              name: 'Quay',
              meal_types_list: ['HALAL', 'VEGAN'],
              cuisines_list: ['LOCAL', 'FRENCH'],
            },
            schedule_details: {
              schedule: [{ from: { hours: 7, minutes: 0 }, to: { hours: 10, minutes: 30 }, day_of_week: 'MONDAY' }],
            },
            temporarily_closed_details: {
              closed: [{ start_date: { epoch_seconds: 1767225600 }, end_date: { epoch_seconds: 1767830400 } }],
            },
          },
        ],
      },
      {
        facility_id: '433',
        is_available: true,
        instances: [
          {
            swimming_pool_details: { name: 'Roof pool', swimming_pool_type: 'OUTDOOR' },
            on_site_details: { onsite_type: 'ON_SITE' },
            surcharge_details: { surcharge_type: 'per_stay' },
          },
        ],
      },
    ];
    expect((await h.facilities(body(detailed))).body).toMatchObject({ Status: 'Success' });
  });

  it.each([
    [
      'a bad parking_location',
      [parking({ parking_location: 'BASEMENT' })],
      'facilities[0].instances[0].parking_details.parking_location: "BASEMENT" is not one of the accepted values: [NEARBY, ON_SITE, UNKNOWN_LOCATION]',
    ],
    [
      'a bad day_of_week',
      [
        {
          facility_id: '7',
          is_available: true,
          instances: [
            {
              schedule_details: {
                schedule: [{ from: { hours: 7, minutes: 0 }, to: { hours: 9, minutes: 0 }, day_of_week: 'MON' }],
              },
            },
          ],
        },
      ],
      'facilities[0].instances[0].schedule_details.schedule[0].day_of_week: "MON" is not one of the accepted values: [MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY]',
    ],
    [
      'a bad cuisine',
      [
        {
          facility_id: '3',
          is_available: true,
          instances: [{ restaurant_details: { cuisines_list: ['LOCAL', 'MARTIAN'] } }],
        },
      ],
      /cuisines_list\[1\]: "MARTIAN" is not one of the accepted values: \[AUSTRALIAN, GERMAN/,
    ],
    [
      'an hour out of range',
      [
        {
          facility_id: '7',
          is_available: true,
          instances: [
            {
              schedule_details: {
                schedule: [{ from: { hours: 25, minutes: 0 }, to: { hours: 9, minutes: 0 }, day_of_week: 'MONDAY' }],
              },
            },
          ],
        },
      ],
      /schedule\[0\]\.from\.hours: must be at most 23/,
    ],
    [
      'parking without parking_details',
      [{ facility_id: '2', is_available: true, instances: [{ payment_details: { charge_mode: 'FREE' } }] }],
      /parking_details: is required for a parking facility/,
    ],
    [
      "another type's details",
      [{ facility_id: '2', is_available: true, instances: [{ parking_details: {}, restaurant_details: {} }] }],
      /restaurant_details: not accepted for facility 2/,
    ],
    [
      'an unknown detail object',
      [{ facility_id: '99', is_available: true, instances: [{ sauna_details: {} }] }],
      /sauna_details: unknown field/,
    ],
    ['a missing is_available', [{ facility_id: '2' }], 'facilities[0].is_available: is required'],
    [
      'a string is_available',
      [{ facility_id: '2', is_available: 'yes' }],
      'facilities[0].is_available: must be true or false',
    ],
  ])('%s is a deserialization failure naming the path', async (_name, facilities, message) => {
    const answer = await h.facilities<{ Message: string }>(body(facilities));
    expect(answer).toMatchObject({ status: 400, body: { Status: 'Fail', Errors: [] } });
    expect(answer.body.Message).toMatch(message);
  });

  it('an unknown hotel is code 400; a channel hotel or room id that is not the channel-19 mapping is 573', async () => {
    expect((await h.facilities(body([], { hotel_id: 'NOPE' }))).body).toMatchObject({
      Status: 'Fail',
      Errors: [{ Code: '400', ShortText: 'hotel_id: invalid hotel code (NOPE)' }],
    });
    // 48213377 is the property's channel-244 listing: the facility API is Booking.com's.
    expect((await h.facilities(body([], { channel_hotel_id: '48213377' }))).body).toMatchObject({
      Errors: [{ Code: '573', ShortText: 'channel-mapping not found for this property!' }],
    });
    expect((await h.facilities(body([], { channel_room_id: '123' }))).body).toMatchObject({
      Errors: [{ Code: '573' }],
    });
  });
});
