/**
 * The emulator's seeded world: what a partner account at the provider would already hold before the first call.
 * Ids stay within 20 characters (the provider's hotelid limit). Everything here is deterministic so tests and the
 * demo can rely on it; `GET /_emulator/state` lists it.
 */

/** A rate plan of a room. Base rates are the PMS data the provider holds; weekends (Fri, Sat) use weekendRate. */
export interface RatePlan {
  rateid: string;
  name: string;
  baseRate: number;
  weekendRate: number;
}

export interface Room {
  roomid: string;
  name: string;
  /** Units held for sale every day before any rule. */
  baseInventory: number;
  /** Room ids on the channels (channel code → id); the facility set names rooms by the channel-19 one. */
  channelRoomIds: Record<string, string>;
  ratePlans: RatePlan[];
}

/** One channel notification, as notificationAB lists it. */
export interface ChannelNotification {
  notification_id: string;
  notification_type: string;
  title: string;
  subtitle: string;
  cta_url: string;
}

/** A host account on channel 244 connected to a property (notifications are listed per account). */
export interface Channel244Account {
  accountId: string;
  /** When set, notificationAB answers this account's element with status Fail and this message. */
  failure: string | null;
  notifications: ChannelNotification[];
}

export interface EmulatedProperty {
  hotelid: string;
  name: string;
  /** Inactive properties are left out of pmsproperty and refused by review reply (code 947). */
  active: boolean;
  /** The legal entity with a valid contract; property update refuses any other. */
  legalEntityId: string;
  currency: string;
  hostName: string;
  /** Channel code → the property's hotel id on that channel (the listing id on 244). */
  channels: Record<string, string>;
  rooms: Room[];
  channel244Accounts: Channel244Account[];
}

/** A partner account on the payment-token host. */
export interface PaymentPartner {
  partner_id: string;
  partner_name: string;
  email_address: string;
  contact_number: string;
  contact_name: string;
  status: string;
  currency_code: string;
}

const plan = (rateid: string, name: string, baseRate: number, weekendRate: number): RatePlan => ({
  rateid,
  name,
  baseRate,
  weekendRate,
});

const airbnb = (path: string) => `https://www.airbnb.com/${path}`;

export function seedProperties(): EmulatedProperty[] {
  return [
    {
      hotelid: 'IK-DEMO-001',
      name: 'Harbour View Guesthouse',
      active: true,
      legalEntityId: 'LE-40021',
      currency: 'EUR',
      hostName: 'Maria Jensen',
      channels: { '244': '48213377', '19': '7741203', '9': '55120934' },
      rooms: [
        {
          roomid: 'DBL',
          name: 'Double Room',
          baseInventory: 4,
          channelRoomIds: { '19': '774120301', '9': '201456781' },
          ratePlans: [plan('BAR', 'Best available rate', 120, 145), plan('NRF', 'Non-refundable', 105, 126)],
        },
        {
          roomid: 'TWN',
          name: 'Twin Room',
          baseInventory: 3,
          channelRoomIds: { '19': '774120302', '9': '201456782' },
          ratePlans: [plan('BAR', 'Best available rate', 110, 132), plan('NRF', 'Non-refundable', 96, 115)],
        },
        {
          roomid: 'FAM',
          name: 'Family Suite',
          baseInventory: 2,
          channelRoomIds: { '19': '774120303', '9': '201456783' },
          ratePlans: [plan('BAR', 'Best available rate', 180, 215)],
        },
      ],
      channel244Accounts: [
        {
          accountId: '80412233',
          failure: null,
          notifications: [
            {
              notification_id: 'ntf-1001',
              notification_type: 'LISTING_QUALITY',
              title: 'Add more photos to your listing',
              subtitle: 'Listings with at least 7 photos get more bookings.',
              cta_url: airbnb('hosting/listings/48213377/photos'),
            },
            {
              notification_id: 'ntf-1002',
              notification_type: 'PAYOUT',
              title: 'Confirm your payout method',
              subtitle: 'Payouts are on hold until your payout details are verified.',
              cta_url: airbnb('users/payout_methods'),
            },
          ],
        },
        { accountId: '80412290', failure: null, notifications: [] },
      ],
    },
    {
      hotelid: 'IK-DEMO-002',
      name: 'Old Town Loft',
      active: true,
      legalEntityId: 'LE-40021',
      currency: 'EUR',
      hostName: 'Maria Jensen',
      channels: { '244': '51890412', '19': '8802417', '9': '60233815' },
      rooms: [
        {
          roomid: 'LOFT',
          name: 'Loft Apartment',
          baseInventory: 1,
          channelRoomIds: { '19': '880241701', '9': '203310001' },
          ratePlans: [plan('BAR', 'Best available rate', 95, 115), plan('WEEK', 'Weekly stay', 80, 80)],
        },
      ],
      channel244Accounts: [
        {
          accountId: '80577410',
          failure: null,
          notifications: [
            {
              notification_id: 'ntf-2001',
              notification_type: 'CALENDAR',
              title: 'Your calendar is closed next month',
              subtitle: 'Open dates so guests can book the Old Town Loft.',
              cta_url: airbnb('multicalendar/51890412'),
            },
          ],
        },
      ],
    },
    {
      // Inactive on purpose: review replies for it fail with code 947 (property is inactive). Not listed by
      // pmsproperty.
      hotelid: 'IK-DEMO-003',
      name: 'Mill Cottage',
      active: false,
      legalEntityId: 'LE-40021',
      currency: 'EUR',
      hostName: 'Maria Jensen',
      channels: { '244': '52004417', '19': '8810554', '9': '60240091' },
      rooms: [
        {
          roomid: 'COT',
          name: 'Cottage',
          baseInventory: 1,
          channelRoomIds: { '19': '881055401', '9': '203400001' },
          ratePlans: [plan('BAR', 'Best available rate', 140, 160)],
        },
      ],
      channel244Accounts: [{ accountId: '80577411', failure: null, notifications: [] }],
    },
  ];
}

export function seedPartners(): PaymentPartner[] {
  const partner = (id: string, name: string, email: string, status: string): PaymentPartner => ({
    partner_id: id,
    partner_name: name,
    email_address: email,
    contact_number: '+4520123456',
    contact_name: 'Maria Jensen',
    status,
    currency_code: 'EUR',
  });
  return [
    partner('IK-PARTNER-01', 'Harbour View Guesthouse', 'payments@harbourview.example', 'Active'),
    partner('IK-PARTNER-02', 'Old Town Loft', 'loft@oldtown.example', 'Active'),
    // Inactive on purpose: payment requests for it fail with "partner_id : inactive".
    partner('IK-PARTNER-09', 'Mill Cottage', 'mill@cottage.example', 'Inactive'),
  ];
}
