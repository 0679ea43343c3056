import type { DetailsForm, FacilityEntry } from '../../shared/property';
import type { Settings } from '../config/settings';
import type { ContractCaller } from '../gateway/dispatcher';

const DONE_KEY = 'property.demoContentDone';

/** What the demo enters for one of its properties: the Booking.com ids, the record, and facilities. */
export interface DemoPropertyContent {
  hotelId: string;
  channelHotelId: string;
  /** The owner's room id → its Booking.com room id. */
  rooms: Record<string, string>;
  form: DetailsForm;
  facilities: FacilityEntry[];
  /** Facilities of one room, by the owner's room id. */
  roomFacilities: Record<string, FacilityEntry[]>;
}

const wifi = (key: string, network: string): FacilityEntry => ({
  facilityId: '47',
  isAvailable: true,
  instances: [
    {
      key,
      instanceId: null,
      details: {
        internet_details: {
          area: 'ENTIRE_PROPERTY',
          type: 'WIFI',
          wifi_info: { network_name: network, speed_download: '100', speed_upload: '20' },
        },
      },
    },
  ],
});

/** The demo's own content, as an owner of the demo's properties would have entered it. */
export function demoPropertyContent(
  properties: {
    hotelid: string;
    name: string;
    legalEntityId: string;
    currency: string;
    channels: Record<string, string>;
    rooms: { roomid: string; channelRoomIds: Record<string, string> }[];
  }[],
): DemoPropertyContent[] {
  const place: Record<string, { line: string; postal: string; lat: string; lon: string; floors: string }> = {
    'IK-DEMO-001': { line: 'Nyhavn 31', postal: '1051', lat: '55.6797', lon: '12.5907', floors: '3' },
    'IK-DEMO-002': { line: 'Læderstræde 12', postal: '1201', lat: '55.6780', lon: '12.5775', floors: '1' },
  };
  return properties.flatMap((p) => {
    const at = place[p.hotelid];
    const channelHotelId = p.channels['19'];
    if (!at || !channelHotelId) return [];
    const rooms = Object.fromEntries(
      p.rooms.flatMap((r) => (r.channelRoomIds['19'] ? [[r.roomid, r.channelRoomIds['19']]] : [])),
    );
    const guesthouse = p.hotelid === 'IK-DEMO-001';
    const form: DetailsForm = {
      legal_entity_id: p.legalEntityId,
      property_name: p.name,
      property_category: guesthouse ? '20' : '3',
      'physical_address.address_line': at.line,
      'physical_address.city_name': 'Copenhagen',
      'physical_address.postal_code': at.postal,
      'physical_address.country_code': 'DK',
      'physical_address.display_address': true,
      'position.latitude': at.lat,
      'position.longitude': at.lon,
      'check_in.from': '15:00',
      'check_in.until': guesthouse ? '22:00' : '20:00',
      'check_out.from': '07:00',
      'check_out.until': '11:00',
      primary_language: 'da',
      languages_spoken: ['da', 'en', 'de'],
      room_count: String(p.rooms.length),
      floor_count: at.floors,
      stars: guesthouse ? '3' : '',
      currency_code: p.currency,
      target: 'production',
      provider_property_id: p.hotelid,
      'translations.language_code': 'da',
      'translations.property_name': guesthouse ? 'Havneudsigt Gæstehus' : 'Gamle By Loft',
      'translations.city_name': 'København',
      'translations.address_line': at.line,
    };
    const facilities: FacilityEntry[] = guesthouse
      ? [
          {
            facilityId: '2',
            isAvailable: true,
            instances: [
              {
                key: `${p.hotelid}-parking`,
                instanceId: null,
                details: {
                  parking_details: {
                    name: 'Courtyard parking',
                    parking_location: 'ON_SITE',
                    parking_access: 'ONLY_GUESTS',
                    parking_reservation: 'REQUIRED',
                  },
                  payment_details: { charge_mode: 'PAID' },
                },
              },
            ],
          },
          wifi(`${p.hotelid}-wifi`, 'HarbourView-Guest'),
          { facilityId: '91', isAvailable: true, instances: [] },
        ]
      : [wifi(`${p.hotelid}-wifi`, 'OldTownLoft'), { facilityId: '22', isAvailable: true, instances: [] }];
    const firstRoom = p.rooms.find((r) => rooms[r.roomid]);
    return [
      {
        hotelId: p.hotelid,
        channelHotelId,
        rooms,
        form,
        facilities,
        roomFacilities: firstRoom
          ? { [firstRoom.roomid]: [wifi(`${p.hotelid}-${firstRoom.roomid}-wifi`, `${p.name.split(' ')[0]}-Room`)] }
          : {},
      },
    ];
  });
}

/**
 * The demo's property records and facilities. Su cannot be asked for them, so on the demo the app learns them the
 * only way it can: the demo sends them once, through the contract as an owner would (draft, preview, send through
 * the outbox), when the demo becomes the active provider. History then shows that first push with Su's answer.
 */
export function createDemoProperty(call: ContractCaller, settings: Settings, content: () => DemoPropertyContent[]) {
  return {
    async enter(): Promise<void> {
      if (settings.get(DONE_KEY)) return;
      const known = new Set((await call('rates.properties', {})).map((p) => p.hotelId));
      for (const c of content()) {
        if (!known.has(c.hotelId)) continue;
        // A property the owner already worked on keeps what they did.
        if ((await call('property.history', { hotelId: c.hotelId })).length) continue;
        await call('property.saveChannelIds', { hotelId: c.hotelId, channelHotelId: c.channelHotelId, rooms: c.rooms });
        await call('property.saveDetailsDraft', { hotelId: c.hotelId, form: c.form });
        await sendDraft({ section: 'details', hotelId: c.hotelId });
        await call('property.saveFacilitiesDraft', { hotelId: c.hotelId, roomId: null, draft: c.facilities });
        await sendDraft({ section: 'facilities', hotelId: c.hotelId, roomId: null });
        for (const [roomId, list] of Object.entries(c.roomFacilities)) {
          await call('property.saveFacilitiesDraft', { hotelId: c.hotelId, roomId, draft: list });
          await sendDraft({ section: 'facilities', hotelId: c.hotelId, roomId });
        }
      }
      // Only once all went in: a start that failed half way tries again (a property already done is skipped).
      settings.set(DONE_KEY, true);
    },
    /** Records, facilities and notices are kept per provider: the demo's stay with the demo. */
    leave(): void {
      settings.delete(DONE_KEY);
    },
  };

  async function sendDraft(
    scope: { section: 'details'; hotelId: string } | { section: 'facilities'; hotelId: string; roomId: string | null },
  ): Promise<void> {
    const preview = await call('property.preview', scope);
    if (!preview.fingerprint) return;
    await call('property.send', {
      section: scope.section,
      hotelId: scope.hotelId,
      roomId: scope.section === 'facilities' ? scope.roomId : null,
      fingerprint: preview.fingerprint,
      confirmed: true,
    });
  }
}
