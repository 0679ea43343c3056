import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../src/shared/dates';
import { AppFailure } from '../../src/shared/result';
import { startFixtureProvider, TOKEN_ANSWER } from '../support/fixtureProvider';

type Client = Awaited<ReturnType<typeof startFixtureProvider>>['client'];
let provider: Awaited<ReturnType<typeof startFixtureProvider>>;
beforeAll(async () => {
  provider = await startFixtureProvider(TOKEN_ANSWER);
});
afterAll(() => provider.close());

const today = localToday();
const rule = (r: Record<string, unknown>, from = addDays(today, 1), to = from) => ({
  from,
  to,
  OTARule: [{ OTACode: [19], rule: r }],
});
const rates = (r: Record<string, unknown>, from?: string, to?: string) => ({
  hotelid: 'IK-DEMO-001',
  ratecontrol: [{ roomid: 'DBL', rateid: 'BAR', date: [rule(r, from, to)] }],
});
const inventory = (r: Record<string, unknown>) => ({
  hotelid: 'IK-DEMO-001',
  inventorycontrol: [{ roomid: 'DBL', date: [rule(r)] }],
});
const link = { partner_id: 'P1', amount: '120.00', currency_code: 'EUR', order_id: 'O-1' };

/** [what is wrong, the call, the field the error must name, words the message must contain] */
const cases: [string, (c: Client) => Promise<unknown>, string, RegExp][] = [
  [
    'a 244 reply without thread id',
    (c) => c.messages.reply({ hotelid: 'H1', channelcode: '244', message: 'Hi', guestid: 'g', listingid: 'l' }),
    'threadid',
    /Airbnb/,
  ],
  [
    'a Booking.com reply without booking id',
    (c) => c.messages.reply({ hotelid: 'H1', channelcode: '19', message: 'Hi' }),
    'bookingid',
    /Booking\.com/,
  ],
  [
    'a reply on an unknown channel',
    (c) => c.messages.reply({ hotelid: 'H1', channelcode: '77' as never, message: 'Hi', bookingid: 'b' }),
    'channelcode',
    /244/,
  ],
  [
    'an empty reply',
    (c) => c.messages.reply({ hotelid: 'H1', channelcode: '19', message: '   ', bookingid: 'b' }),
    'message',
    /required/,
  ],
  [
    'a current review reply on Airbnb',
    (c) =>
      c.reviews.reply({
        hotel_id: 'H1',
        channel_id: '244' as never,
        channel_property_id: 'p',
        channel_review_id: 'r',
        review_reply: 'x',
      }),
    'channel_id',
    /19/,
  ],
  [
    'a legacy reply without text',
    (c) => c.reviews.replyLegacy({ hotelid: 'H1', reviewid: 'r', replytext: '' }),
    'replytext',
    /required/,
  ],
  ['an image hotel id over 20 characters', (c) => c.images.list({ hotelid: 'H'.repeat(21) }), 'hotelid', /20/],
  [
    'an image URL that is not https',
    (c) => c.images.create({ hotelid: 'H1', proppmsid: 'P', images: [{ url: 'http://x.example/a.jpg', name: 'a' }] }),
    'images.0.url',
    /https/,
  ],
  [
    'an association item with both ids',
    (c) => c.images.associate({ hotelid: 'H1', images: [{ imageid: 1, pms_imageid: 'a' }] }),
    'images.0',
    /either/,
  ],
  [
    'a bad parking location',
    (c) =>
      c.property.setFacilities({
        hotel_id: 'H1',
        channel_hotel_id: 'C1',
        facilities: [
          {
            facility_id: '2',
            is_available: true,
            instances: [{ parking_details: { parking_location: 'GARAGE' as never } }],
          },
        ],
      }),
    'facilities.0.instances.0.parking_details.parking_location',
    /Nearby, On site or Location not known/,
  ],
  [
    'a property without check-out time',
    (c) =>
      c.property.update({
        hotel_id: 'H1',
        legal_entity_id: 'L',
        position: { latitude: 1, longitude: 2 },
        check_in: { from: '15:00' },
        check_out: {} as never,
        property_name: 'x',
        property_category: 1,
        room_count: 1,
        target: 'test',
        physical_address: { city_name: 'a', country_code: 'GB', address_line: 'b' },
      }),
    'check_out.until',
    /HH:MM|required|expected/i,
  ],
  [
    'a customer e-mail over 50 characters',
    (c) => c.payments.createPaymentLink({ ...link, customer_email: `${'a'.repeat(45)}@example.com` }),
    'customer_email',
    /50/,
  ],
  ['an amount with a comma', (c) => c.payments.createPaymentLink({ ...link, amount: '1,200' }), 'amount', /digits/],
  [
    'a contact number not in international form',
    (c) => c.payments.createPaymentLink({ ...link, contact_number: '020 7946 0958' }),
    'contact_number',
    /international/,
  ],
  [
    'a widget link without is_button',
    (c) => c.payments.createWidgetLink({ partner_id: 'P1', booking_id: 'B1' } as never),
    'is_button',
    /button/,
  ],
  [
    'a partner without e-mail',
    (c) =>
      c.payments.createPartner({
        partner_id: 'P',
        partner_name: 'n',
        contact_number: '+442079460958',
        contact_name: 'c',
        status: 'active',
        currency_code: 'EUR',
      } as never),
    'email_address',
    /e-mail/,
  ],
  [
    'Multiply on inventory',
    (c) => c.rates.send(inventory({ type: 'Multiply', value: '0.9' })),
    'inventorycontrol.0.date.0.OTARule.0.rule.type',
    /only possible for rates/,
  ],
  [
    'closed on inventory',
    (c) => c.rates.send(inventory({ closed: true })),
    'inventorycontrol.0.date.0.OTARule.0.rule.closed',
    /only possible for rates/,
  ],
  [
    'a fractional inventory value',
    (c) => c.rates.send(inventory({ type: 'Fixed', value: '2.5' })),
    'inventorycontrol.0.date.0.OTARule.0.rule.value',
    /whole rooms/,
  ],
  [
    'a type without value',
    (c) => c.rates.send(rates({ type: 'Fixed' })),
    'ratecontrol.0.date.0.OTARule.0.rule.value',
    /needs a value/,
  ],
  [
    'a value without type',
    (c) => c.rates.send(rates({ value: '10' })),
    'ratecontrol.0.date.0.OTARule.0.rule.type',
    /needs a rule type/,
  ],
  [
    'a zero Multiply factor',
    (c) => c.rates.send(rates({ type: 'Multiply', value: '0' })),
    'ratecontrol.0.date.0.OTARule.0.rule.value',
    /positive factor/,
  ],
  [
    'a past date',
    (c) => c.rates.send(rates({ type: 'Fixed', value: '90' }, addDays(today, -1), today)),
    'ratecontrol.0.date.0.from',
    /has passed/,
  ],
  [
    'more than 500 days ahead',
    (c) => c.rates.send(rates({ type: 'Fixed', value: '90' }, today, addDays(today, 501))),
    'ratecontrol.0.date.0.to',
    /500 days/,
  ],
  [
    'from after to',
    (c) => c.rates.send(rates({ type: 'Fixed', value: '90' }, addDays(today, 3), addDays(today, 2))),
    'ratecontrol.0.date.0.to',
    /before the start/,
  ],
  [
    'a date that does not exist',
    (c) => c.rates.send(rates({ type: 'Fixed', value: '90' }, '2027-02-30', '2027-02-30')),
    'ratecontrol.0.date.0.from',
    /does not exist/,
  ],
];

describe('the client refuses bad input before sending anything', () => {
  it.each(cases)('%s', async (_name, call, field, words) => {
    const before = provider.received.length;
    let caught: unknown;
    try {
      await call(provider.client);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppFailure);
    const error = (caught as AppFailure).error;
    expect(error.code).toBe('validation');
    expect(error.fields).toHaveProperty([field]);
    expect(error.fields![field]).toMatch(words);
    // Nothing reached the provider: no token request, no call.
    expect(provider.received.length).toBe(before);
  });

  it('a closed-only rate rule and unknown channel codes are accepted as they are', async () => {
    const body = {
      hotelid: 'IK-DEMO-001',
      ratecontrol: [
        {
          roomid: 'DBL',
          rateid: 'BAR',
          date: [
            {
              from: addDays(today, 1),
              to: addDays(today, 1),
              OTARule: [{ OTACode: [189, '150'], rule: { closed: true } }],
            },
          ],
        },
      ],
    };
    await expect(provider.client.rates.send(body as never)).rejects.toBeInstanceOf(AppFailure); // the fixture server has no answer
    const sent = provider.calls().at(-1)!.body as typeof body;
    expect(sent.ratecontrol[0]!.date[0]!.OTARule[0]).toEqual({ OTACode: [189, 150], rule: { closed: true } });
  });
});
