import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORIZATION_REQUIRED } from '../../src/emulator/authRoutes';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';

/** Each endpoint's auth scheme, body parsing failures, unknown paths and the request log. */
describe('emulator auth schemes and envelopes', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness();
  });
  afterEach(() => h.close());

  const BEARER_ENDPOINTS = [
    'bdc/property/update',
    'messagingAB',
    'review/reply',
    'OTA_ReplyReview',
    'imageCreate',
    'imageAssociation',
    'imageRetrieve',
    'invratecontrol',
  ];

  it('every Bearer endpoint refuses a missing, unknown or non-Bearer token with 401 and code 497', async () => {
    for (const path of BEARER_ENDPOINTS) {
      for (const authorization of ['', 'Bearer sandbox_not-issued', h.emulator.state.options.facilityApiKey]) {
        const answer = await h.main(path, { hotelid: 'IK-DEMO-001' }, { authorization });
        expect(answer, `${path} with "${authorization}"`).toMatchObject({ status: 401, body: AUTHORIZATION_REQUIRED });
      }
    }
  });

  it('an expired token is refused; a fresh one works', async () => {
    expect((await h.main('imageRetrieve', { hotelid: 'IK-DEMO-001' })).status).toBe(200);
    await h.control.advanceClock(3601);
    expect(await h.main('imageRetrieve', { hotelid: 'IK-DEMO-001' })).toMatchObject({
      status: 401,
      body: AUTHORIZATION_REQUIRED,
    });
  });

  it('the facility set takes app-id plus the raw API key, nothing else', async () => {
    const body = { hotel_id: 'IK-DEMO-001', channel_hotel_id: '7741203', facilities: [] };
    expect((await h.facilities(body)).status).toBe(200);
    const token = await h.bearer();
    const wrong: Record<string, string>[] = [
      { 'app-id': 'other-app' },
      { authorization: 'wrong-key' },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of wrong) {
      expect(await h.facilities(body, headers), JSON.stringify(headers)).toMatchObject({
        status: 401,
        body: AUTHORIZATION_REQUIRED,
      });
    }
  });

  it('notifications take HTTP Basic with the notification user and password', async () => {
    const wrong = await h.notifications({ hotelid: 'IK-DEMO-001' }, { user: 'demo', password: 'nope' });
    expect(wrong).toMatchObject({ status: 401, body: AUTHORIZATION_REQUIRED });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const bearer = await h.main('notificationAB', { hotelid: 'IK-DEMO-001' });
    expect(bearer.status).toBe(401);
    expect((await h.notifications({ hotelid: 'IK-DEMO-001' })).status).toBe(200);
  });

  it('the payment-token host takes x-api-name and x-api-key and answers in its own envelope', async () => {
    const body = { partner_id: 'IK-PARTNER-01', transaction_id: 'TXN0' };
    expect(await h.payment('transactionstatus', body, { 'x-api-key': 'nope' })).toMatchObject({
      status: 401,
      body: { Status: 'Fail', ErrorMessages: ['x-api-key : invalid or missing'] },
    });
    expect(await h.payment('transactionstatus', body, { 'x-api-name': 'OTHER', 'x-api-key': '' })).toMatchObject({
      status: 401,
      body: { ErrorMessages: ['x-api-name : invalid or missing', 'x-api-key : invalid or missing'] },
    });
    // The partner endpoint writes its result key in lower case, as the provider documents it.
    expect(await h.payment('partner', {}, { 'x-api-key': 'nope' })).toMatchObject({
      status: 401,
      body: { status: 'Fail', ErrorMessages: ['x-api-key : invalid or missing'] },
    });
    expect(await h.payment('paycard', 'partner_id=1', { 'content-type': 'text/plain' })).toMatchObject({
      status: 400,
      body: { Status: 'Fail', ErrorMessages: ['Content-Type : must be application/json'] },
    });
  });

  it('credentials are checked before the body is read', async () => {
    expect(await h.main('invratecontrol', '{broken', { authorization: '' })).toMatchObject({ status: 401 });
    expect(await h.payment('paycard', '{broken', { 'x-api-key': '' })).toMatchObject({ status: 401 });
  });

  it("a body that is not JSON is a 400 in each endpoint's failure envelope", async () => {
    const main = await h.main<{ Message: string }>('imageCreate', '{"hotelid": ');
    expect(main).toMatchObject({ status: 400, body: { Status: 'Fail', Errors: [] } });
    expect(main.body.Message).toMatch(/^body: not valid JSON/);
    const facility = await h.facilities('{,}');
    expect(facility).toMatchObject({
      status: 400,
      body: { Status: 'Fail', Errors: [], Message: expect.stringMatching(/not valid JSON/) },
    });
    const messaging = await h.main('messagingAB', 'nope');
    expect(messaging).toMatchObject({
      status: 400,
      body: { status: 'Fail', response: expect.stringMatching(/not valid JSON/) },
    });
    const payment = await h.payment<{ ErrorMessages: string[] }>('paycard', '{"amount":');
    expect(payment).toMatchObject({ status: 400, body: { Status: 'Fail' } });
    expect(payment.body.ErrorMessages[0]).toMatch(/^body : not valid JSON/);
  });

  it("an unknown path is a 404 in the host's envelope", async () => {
    const main = await h.main('nosuchthing', {});
    expect(main).toMatchObject({
      status: 404,
      body: { Status: 'Fail', Message: expect.stringMatching(/no endpoint POST/) },
    });
    const token = await h.send(`${h.emulator.tokenUrl}/service/api/refund`, 'POST', {}, {});
    expect(token).toMatchObject({
      status: 404,
      body: { Status: 'Fail', ErrorMessages: [expect.stringMatching(/^path : /)] },
    });
  });

  it('pmsproperty lists the active properties only', async () => {
    const answer = await h.send<{ Data: { hotelid: string }[] }>(`${h.emulator.mainUrl}/jservice/pmsproperty`, 'GET', {
      authorization: `Bearer ${await h.bearer()}`,
    });
    expect(answer.body.Data.map((p) => p.hotelid)).toEqual(['IK-DEMO-001', 'IK-DEMO-002']);
  });

  it('the request log keeps method, path, body and answer, with every secret masked', async () => {
    await h.main('imageRetrieve', { hotelid: 'IK-DEMO-001' });
    await h.facilities({ hotel_id: 'NOPE', channel_hotel_id: '1', facilities: [] });
    await h.notifications({ hotelid: 'IK-DEMO-001' });
    await h.payment('transactionstatus', { partner_id: 'IK-PARTNER-01', transaction_id: 'X' });
    await h.control.state();
    const log = await h.control.requests();
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /SUAPI/jservice/auth/generate-access-token 200',
      'POST /SUAPI/jservice/imageRetrieve 200',
      'POST /SUAPI/jservice/bdc/facilities/set 400',
      'POST /SUAPI/jservice/notificationAB 200',
      'POST /token/service/api/transactionstatus 400',
    ]);
    const [token, images, facility, notifications, payment] = log;
    expect(token!.headers!['client-secret']).toBe('***');
    expect(token!.headers!['client-id']).toBeTruthy();
    expect(token!.response).toMatchObject({ Data: { token: 'sandbox_***' } });
    expect(images!.headers!.authorization).toBe('Bearer ***');
    expect(images!.body).toEqual({ hotelid: 'IK-DEMO-001' });
    expect(facility!.headers).toMatchObject({ 'app-id': 'demo-app', authorization: '***' });
    expect(facility!.response).toMatchObject({ Status: 'Fail', Errors: [{ Code: '400' }] });
    expect(notifications!.headers!.authorization).toBe('Basic ***');
    expect(payment!.headers).toMatchObject({ 'x-api-name': 'DEMOAPP', 'x-api-key': '***' });
    const text = JSON.stringify(log);
    for (const secret of ['demo-client-secret', 'demo-api-key', 'demo-payment-key', await h.bearer()]) {
      expect(text).not.toContain(secret);
    }
    await h.control.clearRequests();
    expect(await h.control.requests()).toEqual([]);
  });

  it('a body that does not parse is still logged as the text that was sent', async () => {
    await h.main('imageCreate', '{"hotelid": ');
    const log = await h.control.requests();
    expect(log.at(-1)).toMatchObject({ body: '{"hotelid": ', status: 400 });
  });
});
