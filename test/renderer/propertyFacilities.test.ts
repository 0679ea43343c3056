import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FacilitiesView, FacilityEntry, PropertyPreview } from '@shared/property';
import { ok } from '@shared/result';
import { asCode, setValueAt, valueAt } from '@renderer/features/property/facilities/detailSpecs';
import { problemsByDraftPath, useFacilitiesStore } from '@renderer/features/property/facilities/facilitiesStore';
import {
  clockText,
  dateToEpoch,
  detailKinds,
  edit,
  emptyDetail,
  epochToDate,
  liveProblems,
  parseClock,
  problemsUnder,
} from '@renderer/features/property/facilities/facilityEdit';
import { installFakeApi, settle } from './fakeApi';

const parking = (over: Partial<FacilityEntry> = {}): FacilityEntry => ({
  facilityId: '2',
  isAvailable: true,
  instances: [{ key: 'k1', instanceId: null, details: { parking_details: { name: 'Garage' } } }],
  ...over,
});

const view = (over: Partial<FacilitiesView> = {}): FacilitiesView => ({
  hotelId: 'H1',
  roomId: null,
  channelIds: { channelHotelId: '1234567', rooms: {} },
  record: [],
  confirmedAt: null,
  draft: [],
  hasDraft: false,
  pending: null,
  ...over,
});

describe('editing a facilities draft', () => {
  it('adds a facility once, and instances each with a key of their own and no id yet', () => {
    let draft = edit.addFacility([], '2');
    expect(edit.addFacility(draft, '2')).toBe(draft);
    draft = edit.addInstance(edit.addInstance(draft, 0), 0);
    const [a, b] = draft[0]!.instances;
    expect(a!.key).not.toBe(b!.key);
    expect(a!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).toMatchObject({ instanceId: null, details: {} });
  });

  it('changes one instance and leaves the draft it came from as it was', () => {
    const before = [parking()];
    const after = edit.setInstanceId(before, 0, 0, '  ');
    expect(after[0]!.instances[0]!.instanceId).toBeNull();
    const withId = edit.setInstanceId(before, 0, 0, '9876');
    expect(withId[0]!.instances[0]!.instanceId).toBe('9876');
    const paid = edit.setDetail(withId, 0, 0, 'payment_details', { charge_mode: 'PAID' });
    expect(paid[0]!.instances[0]!.details).toEqual({
      parking_details: { name: 'Garage' },
      payment_details: { charge_mode: 'PAID' },
    });
    expect(edit.setDetail(paid, 0, 0, 'parking_details', undefined)[0]!.instances[0]!.details).toEqual({
      payment_details: { charge_mode: 'PAID' },
    });
    expect(before[0]!.instances[0]).toEqual(parking().instances[0]);
  });

  it('offers exactly the detail objects a facility takes, and every one for an unknown id', () => {
    expect(detailKinds('2')).toEqual(['parking_details', 'payment_details', 'schedule_details']);
    expect(detailKinds('99999')).toHaveLength(9);
    expect(emptyDetail('restaurant_details')).toEqual({ name: '', meal_types_list: [], cuisines_list: [] });
  });

  it('sends a picked day as its UTC midnight, and shows it as that day again', () => {
    const picked = new Date(2026, 6, 14); // 14 July, local midnight
    expect(dateToEpoch(picked)).toEqual({ epoch_seconds: Date.UTC(2026, 6, 14) / 1000 });
    const shown = epochToDate({ epoch_seconds: Date.UTC(2026, 6, 14) / 1000 })!;
    expect([shown.getFullYear(), shown.getMonth(), shown.getDate()]).toEqual([2026, 6, 14]);
    expect(epochToDate(undefined)).toBeNull();
  });

  it('sends a time as {hours, minutes}, and keeps a time that is not one as typed', () => {
    expect(parseClock('7:30')).toEqual({ hours: 7, minutes: 30 });
    expect(parseClock('7.30')).toBe('7.30');
    expect(clockText({ hours: 7, minutes: 5 })).toBe('07:05');
    expect(clockText('7.30')).toBe('7.30');
  });

  it('sets a detail’s values in the request’s shape: Wi-Fi info whole, codes upper case', () => {
    let internet = setValueAt({ area: 'ENTIRE_PROPERTY' }, 'wifi_info.network_name', 'Harbour');
    expect(internet.wifi_info).toEqual({ network_name: 'Harbour', speed_download: '', speed_upload: '' });
    expect(valueAt(internet, 'wifi_info.network_name')).toBe('Harbour');
    internet = setValueAt(internet, 'wifi_info.network_name', '');
    expect(internet).toEqual({ area: 'ENTIRE_PROPERTY' });
    expect(setValueAt({ name: 'Garage' }, 'name', '')).toEqual({});
    expect(setValueAt({ name: 'Bistro' }, 'name', '', true)).toEqual({ name: '' });
    expect(asCode(' general public ')).toBe('GENERAL_PUBLIC');
  });

  it('finds each problem as the owner types, by its place in the draft', () => {
    const draft = [
      parking(),
      {
        facilityId: '433',
        isAvailable: true,
        instances: [{ key: 'p', instanceId: null, details: { swimming_pool_details: { name: '' } } }],
      },
    ];
    const problems = liveProblems(draft);
    expect(Object.keys(problems).sort()).toEqual([
      '1.instances.0.details.swimming_pool_details.name',
      '1.instances.0.details.swimming_pool_details.swimming_pool_type',
    ]);
    expect(problemsUnder(problems, '1.instances.0.details.swimming_pool_details.')).toHaveProperty('name');
  });

  it('places a refusal named by the request’s path on the draft’s facility', () => {
    const draft = [parking({ facilityId: '47' }), parking()];
    const request = { facilities: [{ facility_id: '2' }] };
    expect(
      problemsByDraftPath(
        {
          code: 'provider',
          message: 'bad',
          fields: {
            'facilities.0.instances.0.parking_details.name': 'Too long',
            '1.instances.0.instanceId': 'Enter it',
          },
        },
        request,
        draft,
      ),
    ).toEqual({ '1.instances.0.parking_details.name': 'Too long', '1.instances.0.instanceId': 'Enter it' });
  });
});

describe('the facilities store', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('asks for the Booking.com ids first: the property’s, and for a room that room’s', async () => {
    installFakeApi({
      'property.facilities': (args: { roomId: string | null }) =>
        ok(view({ roomId: args.roomId, channelIds: { channelHotelId: '1234567', rooms: {} } })),
      'property.saveChannelIds': () => ok({ channelHotelId: '1234567', rooms: { DBL: '55' } }),
    });
    const facilities = useFacilitiesStore();
    await facilities.open('H1', null);
    expect(facilities.missingIds).toBe(false);
    await facilities.open('H1', 'DBL');
    expect(facilities.missingIds).toBe(true);
    expect(await facilities.saveChannelIds('1234567', { DBL: '55' })).toBeNull();
    expect(facilities.missingIds).toBe(false);
  });

  it('saves the draft as typed and sends with the owner’s confirmation of the instances it creates', async () => {
    const creating: PropertyPreview = {
      request: {
        hotel_id: 'H1',
        channel_hotel_id: '1234567',
        facilities: [{ facility_id: '2', is_available: true, instances: [{ parking_details: { name: 'Garage' } }] }],
      },
      changes: [{ path: 'facilities.0.is_available', label: 'Parking', before: null, after: 'available' }],
      problems: {},
      creates: [{ facilityId: '2', key: 'k1', what: 'a new Parking instance (“Garage”)' }],
      fingerprint: 'f'.repeat(64),
    };
    const core = installFakeApi({
      'property.facilities': () => ok(view()),
      'property.saveFacilitiesDraft': (args: { draft: FacilityEntry[] }) =>
        ok(view({ draft: args.draft, hasDraft: true })),
      'property.preview': () => ok(creating),
    });
    const facilities = useFacilitiesStore();
    await facilities.open('H1', null);
    facilities.update(edit.addFacility(facilities.draft, '2'));
    facilities.update(edit.addInstance(facilities.draft, 0));
    expect(facilities.changed).toBe(true);
    await facilities.flush();
    await facilities.refreshPreview();
    expect(facilities.preview?.creates).toHaveLength(1);

    const sending = facilities.send(true);
    await settle();
    expect(core.pending('property.send')[0]?.args).toEqual({
      section: 'facilities',
      hotelId: 'H1',
      roomId: null,
      fingerprint: 'f'.repeat(64),
      confirmed: true,
    });
    core.pending('property.send')[0]!.answer(ok({ pushId: 3 }));
    expect(await sending).toBeNull();
  });

  it('shows the preview’s instance-trap problem at that instance’s id field', async () => {
    const recorded = [
      {
        facilityId: '2',
        isAvailable: true,
        instances: [{ key: 'k1', instanceId: null, details: { parking_details: { name: 'Garage' } }, createdAt: 5 }],
      },
    ];
    installFakeApi({
      'property.facilities': () => ok(view({ record: recorded, draft: [parking()] })),
      'property.saveFacilitiesDraft': (args: { draft: FacilityEntry[] }) =>
        ok(view({ record: recorded, draft: args.draft })),
      'property.preview': () =>
        ok({
          request: null,
          changes: [],
          problems: { '0.instances.0.instanceId': 'Enter its id from the Booking.com extranet to change it.' },
          creates: [],
          fingerprint: null,
        }),
    });
    const facilities = useFacilitiesStore();
    await facilities.open('H1', null);
    expect(facilities.changed).toBe(false);
    facilities.update(edit.setDetail(facilities.draft, 0, 0, 'parking_details', { name: 'Big garage' }));
    await facilities.refreshPreview();
    expect(problemsUnder(facilities.problems, '0.instances.0.')).toEqual({
      instanceId: 'Enter its id from the Booking.com extranet to change it.',
    });
  });
});
