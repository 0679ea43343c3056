import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/emulator/calendar';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { createEmulatorControl } from '../../src/emulator/controlClient';

/** The emulator's own control API (not part of Su): seeded ids, calendar queries, clock, partner endpoint. */
describe('emulator control API', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startEmulatorHarness();
  });
  afterAll(() => h.close());

  const get = async (path: string) => {
    const response = await createEmulatorControl(h.emulator).raw(`${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('GET /state lists the seeded ids: properties, channel ids, rooms, rate plans, 244 accounts, partners', async () => {
    const state = await h.control.state();
    expect(state.hotelid).toBe('IK-DEMO-001');
    expect(state.properties.map((p) => [p.hotelid, p.active])).toEqual([
      ['IK-DEMO-001', true],
      ['IK-DEMO-002', true],
      ['IK-DEMO-003', false],
    ]);
    const main = state.properties[0]!;
    expect(Object.keys(main.channels).sort()).toEqual(['19', '244', '9']);
    expect(main.rooms.map((r) => r.roomid)).toEqual(['DBL', 'TWN', 'FAM']);
    expect(main.rooms[0]!.ratePlans.map((p) => p.rateid)).toEqual(['BAR', 'NRF']);
    expect(main.channel244Accounts).toEqual(['80412233', '80412290']);
    expect(state.partners.map((p) => [p.partner_id, p.status])).toEqual([
      ['IK-PARTNER-01', 'Active'],
      ['IK-PARTNER-02', 'Active'],
      ['IK-PARTNER-09', 'Inactive'],
    ]);
    const ids = state.properties.flatMap((p) => [
      p.hotelid,
      ...Object.values(p.channels),
      ...p.rooms.map((r) => r.roomid),
    ]);
    expect(ids.every((id) => id.length <= 20)).toBe(true);
    expect(state.partnerEndpoint).toBeNull();
  });

  it('GET /calendar gives the base data every day: weekend rates on Friday and Saturday, no rules', async () => {
    const from = '2030-01-04'; // a Friday
    const rows = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      channel: '244',
      from,
      to: addDays(from, 3),
    });
    expect(rows).toMatchObject({ hotelid: 'IK-DEMO-001', roomid: 'DBL', rateid: 'BAR', channel: '244' });
    expect(rows.days).toEqual([
      { date: '2030-01-04', inventory: 4, rate: 145, closed: false, inventoryRule: null, rateRule: null },
      { date: '2030-01-05', inventory: 4, rate: 145, closed: false, inventoryRule: null, rateRule: null },
      { date: '2030-01-06', inventory: 4, rate: 120, closed: false, inventoryRule: null, rateRule: null },
      { date: '2030-01-07', inventory: 4, rate: 120, closed: false, inventoryRule: null, rateRule: null },
    ]);
  });

  it.each([
    ['hotelid=NOPE&roomid=DBL&channel=19&from=2030-01-01&to=2030-01-02', /hotelid/],
    ['hotelid=IK-DEMO-001&roomid=LOFT&channel=19&from=2030-01-01&to=2030-01-02', /roomid/],
    ['hotelid=IK-DEMO-001&roomid=FAM&rateid=NRF&channel=19&from=2030-01-01&to=2030-01-02', /rateid/],
    ['hotelid=IK-DEMO-001&roomid=DBL&channel=airbnb&from=2030-01-01&to=2030-01-02', /channel/],
    ['hotelid=IK-DEMO-001&roomid=DBL&channel=19&from=2030-1-1&to=2030-01-02', /from and to/],
    ['hotelid=IK-DEMO-001&roomid=DBL&channel=19&from=2030-01-02&to=2030-01-01', /1 to 731 days/],
  ])('GET /calendar?%s is refused', async (query, error) => {
    const answer = await get(`/calendar?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(error);
  });

  it('POST /partner checks the URL and credentials, and /state shows the endpoint without the password', async () => {
    await expect(h.control.setPartner({ url: 'not a url', username: 'a', password: 'b' })).rejects.toThrow(/url/);
    await h.control.setPartner({ url: 'http://127.0.0.1:9/push', username: 'u', password: 'secret-pw' });
    const state = await h.control.state();
    expect(state.partnerEndpoint).toEqual({ url: 'http://127.0.0.1:9/push', username: 'u' });
    expect(JSON.stringify(state)).not.toContain('secret-pw');
  });

  it('the partner endpoint can also be given at start', async () => {
    const other = await startEmulatorHarness({
      partnerUrl: 'http://127.0.0.1:9/in',
      partnerUsername: 'x',
      partnerPassword: 'y',
    });
    expect((await other.control.state()).partnerEndpoint).toEqual({ url: 'http://127.0.0.1:9/in', username: 'x' });
    await other.close();
  });

  it('health and clock still answer, and control calls stay out of the request log', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { ok: true } });
    // Compare with the emulator's own "today" (not this test's clock), so the check holds across midnight.
    const todayBefore = (await h.control.state()).today;
    const before = Date.now();
    const { now } = await h.control.advanceClock(86_400);
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect((await h.control.state()).today).toBe(addDays(todayBefore, 1));
    await h.control.advanceClock(-86_400);
    expect((await h.control.requests()).filter((r) => r.path.startsWith('/_emulator'))).toEqual([]);
  });

  it('completing an unknown transaction is a 404', async () => {
    await expect(h.control.completeTransaction('TXN-NOPE')).rejects.toThrow(/no transaction/);
  });
});
