import { describe, expect, it } from 'vitest';
import {
  changesInWords,
  detailsChanges,
  draftPathOf,
  facilitiesAfter,
  facilityChanges,
} from '../../src/main/property/records';
import { facilitySender } from '../../src/main/property/senders';
import { AppFailure } from '../../src/shared/result';
import {
  composeFacilities,
  facilitiesDraftSchema,
  type FacilitySet,
  detailsFormOf,
  detailsRequest,
  emptyDetailsForm,
  fieldOfPath,
  type DetailsForm,
  type FacilityRecordEntry,
} from '../../src/shared/property';

const filled = (): DetailsForm => ({
  ...emptyDetailsForm(),
  legal_entity_id: 'LE-1',
  property_name: 'Harbour View',
  property_category: '20',
  'physical_address.address_line': 'Nyhavn 31',
  'physical_address.city_name': 'Copenhagen',
  'physical_address.country_code': 'dk',
  'position.latitude': '55,6797',
  'position.longitude': '12.5907',
  'check_in.from': '15:00',
  'check_out.until': '11:00',
  room_count: '3',
});

describe('the details form and its request', () => {
  it('becomes the exact request: numbers as numbers, codes upper-case, empty optional fields left out', () => {
    const made = detailsRequest('H1', filled());
    expect(made).toEqual({
      ok: true,
      request: {
        hotel_id: 'H1',
        legal_entity_id: 'LE-1',
        position: { latitude: 55.6797, longitude: 12.5907 },
        check_in: { from: '15:00' },
        check_out: { until: '11:00' },
        property_name: 'Harbour View',
        property_category: 20,
        room_count: 3,
        target: 'production',
        physical_address: {
          city_name: 'Copenhagen',
          country_code: 'DK',
          address_line: 'Nyhavn 31',
          display_address: true,
        },
      },
    });
    // And back: the form of a record is what the owner typed (normalized).
    if (made.ok) expect(detailsRequest('H1', detailsFormOf(made.request))).toEqual(made);
  });

  it('names every problem by the field the owner types in', () => {
    const made = detailsRequest('H1', {
      ...filled(),
      'position.latitude': '',
      'check_out.until': '11:15',
      floor_count: 'ground',
      'translations.property_name': 'Havneudsigt',
    });
    expect(made.ok).toBe(false);
    if (made.ok) return;
    expect(Object.keys(made.error.fields!).sort()).toEqual(
      [
        'check_out.until',
        'floor_count',
        'position.latitude',
        'translations.address_line',
        'translations.city_name',
        'translations.language_code',
      ].sort(),
    );
    expect(made.error.fields!['floor_count']).toBe(
      'The number of floors is not a number: write a whole number, such as 3.',
    );
    expect(made.error.message).toMatch(/^[A-Z]/);
  });

  it('maps request paths to form fields', () => {
    expect(fieldOfPath('languages_spoken.2')).toBe('languages_spoken');
    expect(fieldOfPath('physical_address.city_name')).toBe('physical_address.city_name');
    expect(fieldOfPath('position')).toBe('position.latitude');
    expect(fieldOfPath('legal_entity_id')).toBe('legal_entity_id');
  });

  it('lists changes field by field, labelled in the owner’s words', () => {
    const a = detailsRequest('H1', filled());
    const b = detailsRequest('H1', { ...filled(), 'check_in.until': '22:00', languages_spoken: ['da', 'en'] });
    if (!a.ok || !b.ok) throw new Error('valid forms');
    expect(detailsChanges(a.request, b.request)).toEqual([
      { path: 'check_in.until', label: 'Check-in until', before: null, after: '22:00' },
      {
        path: 'languages_spoken',
        label: 'Languages spoken',
        before: null,
        after: 'Danish (da), English (en)',
      },
    ]);
    expect(detailsChanges(null, a.request).length).toBeGreaterThan(10);
  });
});

describe('facilities: what a draft sends', () => {
  const ids = { hotel_id: 'H1', channel_hotel_id: '77' };
  const record: FacilityRecordEntry[] = [
    {
      facilityId: '2',
      isAvailable: true,
      instances: [
        { key: 'known', instanceId: '501', details: { parking_details: { name: 'Yard' } }, createdAt: null },
        { key: 'made', instanceId: null, details: { parking_details: { name: 'Street' } }, createdAt: 1 },
      ],
    },
    { facilityId: '91', isAvailable: true, instances: [] },
  ];
  const draft = () => record.map((f) => ({ ...f, instances: f.instances.map(({ createdAt: _, ...i }) => ({ ...i })) }));

  it('nothing when nothing changed', () => {
    expect(composeFacilities(ids, record, draft())).toMatchObject({ request: null, creates: [], problems: {} });
    expect(facilityChanges(record, draft())).toEqual([]);
  });

  it('a changed facility goes with the instances Su knows by id, never with one created without an id', () => {
    const d = draft();
    d[0]!.instances[0]!.details = { parking_details: { name: 'Back yard' } };
    const out = composeFacilities(ids, record, d);
    expect(out.request).toEqual({
      ...ids,
      facilities: [
        {
          facility_id: '2',
          is_available: true,
          instances: [{ instance_id: '501', parking_details: { name: 'Back yard' } }],
        },
      ],
    });
    expect(out.creates).toEqual([]);
    expect(out.sources).toEqual([{ facility: 0, instances: [0] }]);
    expect(facilityChanges(record, d)).toEqual([
      {
        path: '2.instances.0.parking_details.name',
        label: 'Parking, instance 1 (“Back yard”): Name',
        before: 'Yard',
        after: 'Back yard',
      },
    ]);
  });

  it('a new instance is a create; changing one created without an id is a problem on its id', () => {
    const d = draft();
    d[0]!.instances.push({ key: 'new', instanceId: null, details: { parking_details: { name: 'Garage' } } });
    d[0]!.instances[1]!.details = { parking_details: { name: 'Street (free)' } };
    const out = composeFacilities(ids, record, d);
    expect(out.creates).toEqual([{ facilityId: '2', key: 'new', what: 'a new Parking instance (“Garage”)' }]);
    expect(out.problems).toEqual({ '0.instances.1.instanceId': expect.stringMatching(/would create a second one/) });
    expect(out.request!.facilities[0]!.instances).toEqual([
      { instance_id: '501', parking_details: { name: 'Yard' } },
      { parking_details: { name: 'Garage' } },
    ]);
    expect(out.sources).toEqual([{ facility: 0, instances: [0, 2] }]);
    // The record it leaves: the new instance kept (its creation time set on confirmation), the unsent change not.
    const after = facilitiesAfter(record, d, new Set(['2']));
    expect(after[0]!.instances.map((i) => [i.key, i.details])).toEqual([
      ['known', { parking_details: { name: 'Yard' } }],
      ['made', { parking_details: { name: 'Street' } }],
      ['new', { parking_details: { name: 'Garage' } }],
    ]);
  });

  it('an id typed with other characters than the extranet’s is kept in the draft and refused at preview', () => {
    const d = draft();
    d[0]!.instances[1]!.instanceId = '12 34';
    expect(composeFacilities(ids, record, d).problems).toEqual({
      '0.instances.1.instanceId': expect.stringMatching(/letters and digits/),
    });
  });

  it('a problem Su names by request path lands on the draft’s value', () => {
    const sources = [{ facility: 3, instances: [0, 2] }];
    expect(draftPathOf('facilities[0].instances[1].parking_details.parking_access', sources)).toBe(
      '3.instances.2.details.parking_details.parking_access',
    );
    expect(draftPathOf('facilities.0.instances.0.instance_id', sources)).toBe('3.instances.0.instanceId');
    expect(draftPathOf('facilities.0.is_available', sources)).toBe('3.is_available');
    expect(draftPathOf('channel_hotel_id', sources)).toBeNull();
  });
});

describe('facilities: what the core does not take from a draft', () => {
  const record: FacilityRecordEntry[] = [
    {
      facilityId: '2',
      isAvailable: true,
      instances: [{ key: 'made', instanceId: null, details: { parking_details: { name: 'Street' } }, createdAt: 5 }],
    },
  ];

  it('an instance Su holds stays in the record (and tracked) when a draft leaves it out', () => {
    const draft = [{ facilityId: '2', isAvailable: false, instances: [] }];
    expect(composeFacilities({ hotel_id: 'H', channel_hotel_id: '7' }, record, draft).request!.facilities).toEqual([
      { facility_id: '2', is_available: false },
    ]);
    expect(facilitiesAfter(record, draft, new Set(['2']))[0]!.instances).toEqual(record[0]!.instances);
  });

  it('only the contract’s detail objects, and the real instance id wins', () => {
    const parsed = facilitiesDraftSchema.safeParse([
      { facilityId: '2', isAvailable: true, instances: [{ key: 'k', details: { instance_id: '999' } }] },
    ]);
    expect(parsed.success).toBe(false);
    const sent = composeFacilities(
      { hotel_id: 'H', channel_hotel_id: '7' },
      [],
      [
        {
          facilityId: '2',
          isAvailable: true,
          instances: [{ key: 'k', instanceId: '42', details: { parking_details: {} } }],
        },
      ],
    );
    expect(sent.request!.facilities[0]!.instances).toEqual([{ parking_details: {}, instance_id: '42' }]);
  });
});

describe('the facility sender', () => {
  const creating: FacilitySet = {
    hotel_id: 'H',
    channel_hotel_id: '7',
    facilities: [{ facility_id: '2', is_available: true, instances: [{ parking_details: { name: 'Yard' } }] }],
  };
  const updating: FacilitySet = {
    hotel_id: 'H',
    channel_hotel_id: '7',
    facilities: [{ facility_id: '2', is_available: true, instances: [{ instance_id: '42', parking_details: {} }] }],
  };
  const serverError = new AppFailure({
    code: 'provider',
    message: 'Su answered HTTP 502.',
    httpStatus: 502,
    retryable: true,
  });
  const failing = (error: AppFailure) => facilitySender(() => Promise.reject(error));
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: AppFailure) => e.error,
    );

  it('a server error on a request that creates instances stops for the owner instead of being retried', async () => {
    expect(await errorOf(failing(serverError)(creating))).toMatchObject({
      retryable: false,
      outcomeUnknown: true,
      message: expect.stringMatching(/may have created the new instances/),
    });
  });

  it('the same error on an update, or an offline error, keeps its own meaning', async () => {
    expect(await errorOf(failing(serverError)(updating))).toEqual(serverError.error);
    const offline = new AppFailure({ code: 'network', message: 'Su cannot be reached.', retryable: true });
    expect(await errorOf(failing(offline)(creating))).toEqual(offline.error);
  });
});

describe('in the owner’s words', () => {
  const record: FacilityRecordEntry[] = [{ facilityId: '2', isAvailable: true, instances: [] }];

  it('a new instance’s changes say which facility, which instance and what, with codes as words', () => {
    const draft = [
      {
        facilityId: '2',
        isAvailable: true,
        instances: [
          {
            key: 'new',
            instanceId: null,
            details: {
              parking_details: { name: 'Garage', parking_access: 'ONLY_GUESTS', parking_location: 'NEARBY' },
              payment_details: { charge_mode: 'PAID' },
              schedule_details: {
                schedule: [{ day_of_week: 'MONDAY', from: { hours: 9, minutes: 0 }, to: { hours: 17, minutes: 30 } }],
              },
            },
          },
        ],
      },
    ];
    const changes = facilityChanges(record, draft);
    expect(changes.map(({ label, before, after }) => ({ label, before, after }))).toEqual([
      { label: 'Parking, new instance (“Garage”): Name', before: null, after: 'Garage' },
      { label: 'Parking, new instance (“Garage”): Who may park', before: null, after: 'Guests only' },
      { label: 'Parking, new instance (“Garage”): Where', before: null, after: 'Nearby' },
      { label: 'Parking, new instance (“Garage”): Charge', before: null, after: 'Paid' },
      { label: 'Parking, new instance (“Garage”): Opening hours', before: null, after: 'Monday 09:00–17:30' },
    ]);
    // No "id at Booking.com: not set → removed" for an instance that never had one.
    const text = JSON.stringify(changes.map(({ label, before, after }) => [label, before, after]));
    expect(text).not.toMatch(/[A-Z]{2,}_|instance_id|_details|\binstances\b/);
  });

  it('a closed period reads as days, and an emptied value as removed', () => {
    const was: FacilityRecordEntry[] = [
      {
        facilityId: '3',
        isAvailable: true,
        instances: [
          {
            key: 'k',
            instanceId: '9',
            details: { restaurant_details: { name: 'Havnen', meal_types_list: ['HALAL'], cuisines_list: [] } },
            createdAt: null,
          },
        ],
      },
    ];
    const day = Date.UTC(2026, 11, 1) / 1000;
    const draft = [
      {
        facilityId: '3',
        isAvailable: true,
        instances: [
          {
            key: 'k',
            instanceId: '9',
            details: {
              restaurant_details: { name: 'Havnen', meal_types_list: ['VEGETARIAN', 'GLUTEN_FREE'], cuisines_list: [] },
              temporarily_closed_details: {
                closed: [{ start_date: { epoch_seconds: day }, end_date: { epoch_seconds: day + 4 * 86400 } }],
              },
            },
          },
        ],
      },
    ];
    expect(facilityChanges(was, draft).map(({ label, before, after }) => ({ label, before, after }))).toEqual([
      {
        label: 'Restaurant, instance 1 (“Havnen”): Meal types',
        before: 'Halal',
        after: 'Vegetarian, Gluten-free',
      },
      {
        label: 'Restaurant, instance 1 (“Havnen”): Temporarily closed',
        before: null,
        after: '1 Dec 2026 to 5 Dec 2026',
      },
    ]);
  });

  it('the details’ values read as words: the kind of property, the target, the country', () => {
    const a = detailsRequest('H1', filled());
    const b = detailsRequest('H1', { ...filled(), property_category: '16', target: 'test' });
    if (!a.ok || !b.ok) throw new Error('valid forms');
    expect(detailsChanges(a.request, b.request)).toEqual([
      { path: 'property_category', label: 'Property category', before: 'Hotel (20)', after: 'Guest house (16)' },
      { path: 'target', label: 'Test or ready for guests', before: 'Ready for guests', after: 'Test property' },
    ]);
    expect(detailsChanges(null, a.request)).toContainEqual(
      expect.objectContaining({ path: 'physical_address.country_code', after: 'Denmark (DK)' }),
    );
  });

  it('a number field says whether it is missing or not a number, and a long text how much is too long', () => {
    const made = detailsRequest('H1', {
      ...filled(),
      'position.latitude': 'abc',
      'position.longitude': '',
      room_count: 'three',
      property_category: 'hotel-ish',
      property_name: 'x'.repeat(245),
      'physical_address.city_name': 'y'.repeat(201),
    });
    if (made.ok) throw new Error('not valid');
    expect(made.error.fields).toMatchObject({
      'position.latitude': expect.stringMatching(/^Latitude is not a number: .*−90 to 90/),
      'position.longitude': expect.stringMatching(/^Longitude is required/),
      room_count: expect.stringMatching(/^The number of rooms is not a number/),
      property_category: expect.stringMatching(/^Choose the kind of property from the list/),
      property_name: 'The property name: at most 200 characters (this is 245, 45 too many).',
      'physical_address.city_name': 'The city: at most 200 characters (this is 201, 1 too many).',
    });
  });

  it('a facility value outside the list is refused in words, never by listing codes', () => {
    const problems = composeFacilities({ hotel_id: 'H1', channel_hotel_id: '77' }, record, [
      {
        facilityId: '2',
        isAvailable: true,
        instances: [{ key: 'n', instanceId: 'x'.repeat(41), details: {} }],
      },
    ]).problems;
    expect(problems['0.instances.0.instanceId']).toBe(
      'The id at Booking.com: at most 40 characters (this is 41, 1 too many).',
    );
  });
});

describe('History of pushes recorded by an earlier version', () => {
  it('reads their codes and paths in words, and leaves rows already in words alone', () => {
    const stored = [
      {
        path: '2.instances.0.parking_details.parking_location',
        label: 'Parking · instance 1: parking location',
        before: 'NEARBY',
        after: 'ON_SITE',
      },
      {
        path: '3.instances.0.schedule_details.schedule.0.day_of_week',
        label: 'Restaurant · new instance: schedule details.schedule.0.day of week',
        before: null,
        after: 'MONDAY',
      },
      { path: '2.instances.1.parking_details.name', label: 'Parking, instance 2: Name', before: null, after: 'GARAGE' },
    ];
    expect(changesInWords('facilities', stored)).toEqual([
      { ...stored[0], label: 'Parking, instance 1: Parking: where', before: 'Nearby', after: 'On site' },
      { ...stored[1], label: 'Restaurant, instance 1: Opening hours, row 1', after: 'Monday' },
      stored[2],
    ]);
    expect(
      changesInWords('details', [{ path: 'property_category', label: 'Property category', before: '20', after: '3' }]),
    ).toEqual([
      { path: 'property_category', label: 'Property category', before: 'Hotel (20)', after: 'Apartment (3)' },
    ]);
  });
});
