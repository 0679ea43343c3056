import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../src/shared/dates';
import { failureOf, startClientOnEmulator } from '../support/clientOnEmulator';

// The real client against the emulator over loopback: replies, review replies, rules and payments.
let ctx: Awaited<ReturnType<typeof startClientOnEmulator>>;
beforeEach(async () => {
  ctx = await startClientOnEmulator();
});
afterEach(() => ctx.close());

const HOTEL = 'IK-DEMO-001';

describe('message replies', () => {
  it('sends each channel its own line breaks and fields, in a shape the emulator accepts', async () => {
    const text = 'Hi Anna,\nsee you Friday.';
    await ctx.client.messages.reply({
      hotelid: HOTEL,
      channelcode: '244',
      message: text,
      threadid: 'T1',
      guestid: 'G1',
      listingid: '48213377',
    });
    await ctx.client.messages.reply({ hotelid: HOTEL, channelcode: '19', message: text, bookingid: 'B19' });
    await ctx.client.messages.reply({ hotelid: HOTEL, channelcode: '9', message: text, bookingid: 'B9' });
    const bodies = (await ctx.requestsTo('/messagingAB')).map((r) => r.body as Record<string, string>);
    expect(bodies.map((b) => [b.channelcode, b.channelid, b.message])).toEqual([
      ['244', '244', 'Hi Anna,\\nsee you Friday.'],
      ['19', '19', 'Hi Anna,\\\\nsee you Friday.'],
      ['9', '9', 'Hi Anna,\\\\nsee you Friday.'],
    ]);
    expect(bodies[0]).toMatchObject({ threadid: 'T1', guestid: 'G1', listingid: '48213377' });
    expect(bodies[1]).toMatchObject({ bookingid: 'B19' });
  });

  it('an unknown property is the messaging failure (status/response) on hotelid', async () => {
    const error = await failureOf(
      ctx.client.messages.reply({ hotelid: 'NOPE', channelcode: '19', message: 'Hi', bookingid: 'B1' }),
    );
    expect(error).toMatchObject({ field: 'hotelid', retryable: false });
    expect(error.message).toMatch(/No property found/);
  });
});

describe('review replies', () => {
  const reply = {
    hotel_id: HOTEL,
    channel_id: '19' as const,
    channel_property_id: '7741203',
    channel_review_id: '19_R1',
    review_reply: 'Thank you!',
  };

  it('answers a Booking.com review, and refuses with 558, 573 and 947 on the right fields', async () => {
    expect(await ctx.client.reviews.reply(reply)).toMatchObject({ message: expect.any(String) });
    expect(await failureOf(ctx.client.reviews.reply({ ...reply, hotel_id: 'NOPE' }))).toMatchObject({
      providerCode: '558',
      field: 'hotel_id',
    });
    expect(await failureOf(ctx.client.reviews.reply({ ...reply, channel_property_id: '1' }))).toMatchObject({
      providerCode: '573',
      field: 'channel_property_id',
    });
    expect(
      await failureOf(ctx.client.reviews.reply({ ...reply, hotel_id: 'IK-DEMO-003', channel_property_id: '8810554' })),
    ).toMatchObject({
      providerCode: '947',
      field: 'hotel_id',
    });
  });

  it('answers a legacy Airbnb review', async () => {
    expect(
      await ctx.client.reviews.replyLegacy({
        hotelid: HOTEL,
        reviewid: 'R-244-1',
        replytext: 'Thanks for staying!',
        listingid: '48213377',
      }),
    ).toEqual({ accepted: true });
    const [call] = await ctx.requestsTo('/OTA_ReplyReview');
    expect(call!.body).toMatchObject({ channelid: '244', reviewid: 'R-244-1' });
  });
});

describe('inventory and rate rules', () => {
  const day = addDays(localToday(), 10);

  it('the calendar shows what the client sent: a rate modifier on one channel, a closed date on another', async () => {
    await ctx.client.rates.send({
      hotelid: HOTEL,
      inventorycontrol: [
        {
          roomid: 'DBL',
          date: [{ from: day, to: day, OTARule: [{ OTACode: [244], rule: { type: 'Decrease', value: 9 } }] }],
        },
      ],
      ratecontrol: [
        {
          roomid: 'DBL',
          rateid: 'BAR',
          date: [
            {
              from: day,
              to: day,
              OTARule: [
                { OTACode: [19], rule: { type: 'Multiply', value: 0.9 } },
                { OTACode: [9], rule: { closed: true } },
              ],
            },
          ],
        },
      ],
    });
    const cal = async (channel: string) =>
      (await ctx.control.calendar({ hotelid: HOTEL, roomid: 'DBL', rateid: 'BAR', channel, from: day, to: day })).days;
    const [airbnb] = await cal('244');
    const [booking] = await cal('19');
    const [expedia] = await cal('9');
    expect(airbnb!.inventory).toBe(0); // 4 rooms − 9, floored at 0
    expect(expedia!.closed).toBe(true);
    expect(booking!.rate).toBeCloseTo((airbnb!.rate ?? 0) * 0.9, 2);
    const [call] = await ctx.requestsTo('/invratecontrol');
    expect(JSON.stringify(call!.body)).toContain('"value":"0.9"');
  });

  it('a refused request is not sent at all; nothing reaches the request log', async () => {
    await failureOf(
      ctx.client.rates.send({
        hotelid: HOTEL,
        ratecontrol: [
          { roomid: 'DBL', rateid: 'BAR', date: [{ from: addDays(localToday(), -2), to: day, OTARule: [] }] },
        ],
      }),
    );
    expect(await ctx.control.requests()).toEqual([]);
  });

  it('an unknown room is the provider’s refusal with its reason', async () => {
    const error = await failureOf(
      ctx.client.rates.send({
        hotelid: HOTEL,
        inventorycontrol: [{ roomid: 'NOPE', date: [{ from: day, to: day, OTARule: [] }] }],
      }),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toMatch(/NOPE/);
  });
});

describe('payments (x-api-name + x-api-key)', () => {
  it('creates a partner, a payment link whose transaction completes, and a widget link', async () => {
    await ctx.client.payments.createPartner({
      partner_id: 'IK-NEW-01',
      partner_name: 'Sea Cottage',
      email_address: 'sea@cottage.example',
      contact_number: '+45 20 12 34 56',
      contact_name: 'Maria Jensen',
      status: 'Active',
      currency_code: 'eur',
    });
    const link = await ctx.client.payments.createPaymentLink({
      partner_id: 'IK-NEW-01',
      amount: '240.00',
      currency_code: 'EUR',
      order_id: 'ORD-1',
      customer_email: 'guest@example.com',
    });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/token\//);
    expect(link.transactionId).toBeTruthy();
    const pending = await ctx.client.payments.transactionStatus({
      partner_id: 'IK-NEW-01',
      transaction_id: link.transactionId!,
    });
    expect(pending).toMatchObject({ amount: '240.00', currency: 'EUR', completed: false });
    await ctx.control.completeTransaction(link.transactionId!);
    expect(
      await ctx.client.payments.transactionStatus({ partner_id: 'IK-NEW-01', transaction_id: link.transactionId! }),
    ).toMatchObject({ status: 'Success', completed: true });
    const widget = await ctx.client.payments.createWidgetLink({
      partner_id: 'IK-NEW-01',
      booking_id: 'BK-1',
      is_button: true,
    });
    expect(widget.url).toMatch(/get-cc\?userId=[0-9a-f]+&is_button=Y$/);
  });

  it('maps "field : reason" refusals back to the field', async () => {
    const duplicate = await failureOf(
      ctx.client.payments.createPartner({
        partner_id: 'IK-NEW-02',
        partner_name: 'Copy',
        email_address: 'payments@harbourview.example',
        contact_number: '+4520123456',
        contact_name: 'X',
        status: 'Active',
        currency_code: 'EUR',
      }),
    );
    expect(duplicate.field).toBe('email_address');
    const inactive = await failureOf(
      ctx.client.payments.createPaymentLink({
        partner_id: 'IK-PARTNER-09',
        amount: '10',
        currency_code: 'EUR',
        order_id: 'O-9',
      }),
    );
    expect(inactive.field).toBe('partner_id');
  });

  it('a wrong payment API key is an error on that key', async () => {
    await ctx.close();
    ctx = await startClientOnEmulator({ paymentApiKey: 'wrong' });
    const error = await failureOf(
      ctx.client.payments.createWidgetLink({ partner_id: 'IK-PARTNER-01', booking_id: 'B', is_button: false }),
    );
    expect(error).toMatchObject({ httpStatus: 401, field: expect.stringMatching(/paymentApiKey|x-api-key/) });
  });
});
