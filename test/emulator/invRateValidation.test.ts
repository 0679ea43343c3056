import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isoDate } from '../../src/emulator/calendar';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';

/** invratecontrol refusals: HTTP 400, `Status: NotProcessed`, one error; nothing of a refused call is applied. */
describe('invratecontrol validation', () => {
  let h: EmulatorHarness;
  // The table below is built when the file loads; the emulator's clock starts at the wall clock.
  const today = isoDate(Date.now());
  const day = (n: number) => addDays(today, n);
  const range = (
    from: number,
    to: number,
    OTARule: unknown[] = [{ OTACode: [19], rule: { type: 'Fixed', value: '1' } }],
  ) => ({
    from: day(from),
    to: day(to),
    OTARule,
  });
  const inventory = (dates: unknown[], roomid = 'DBL') => ({
    hotelid: 'IK-DEMO-001',
    inventorycontrol: [{ roomid, date: dates }],
  });
  const rates = (rule: unknown, extra: Record<string, unknown> = {}) => ({
    hotelid: 'IK-DEMO-001',
    ratecontrol: [{ roomid: 'DBL', rateid: 'BAR', date: [range(1, 1, [{ OTACode: [19], rule }])], ...extra }],
  });

  beforeAll(async () => {
    h = await startEmulatorHarness();
    expect((await h.control.state()).today).toBe(today);
  });
  afterAll(() => h.close());

  async function refused(body: unknown, shortText: string | RegExp, code = '400') {
    const answer = await h.main<{ Errors: { Code: string; ShortText: string }[] }>('invratecontrol', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ Status: 'NotProcessed', Errors: [{ Code: code }] });
    expect(answer.body.Errors[0]!.ShortText).toMatch(shortText);
  }

  it("a date in the past is refused with code 925 in the provider's exact words", async () => {
    const answer = await h.main('invratecontrol', inventory([range(-1, 2)]));
    expect(answer).toMatchObject({
      status: 400,
      body: { Errors: [{ Code: '925', ShortText: `fromdate has passed (${day(-1)})` }], Status: 'NotProcessed' },
    });
  });

  it('dates may reach 500 days ahead but not further', async () => {
    expect((await h.main('invratecontrol', inventory([range(499, 500)]))).status).toBe(200);
    await refused(inventory([range(499, 501)]), `todate is more than 500 days ahead (${day(501)})`, '925');
  });

  it('today is accepted', async () => {
    expect((await h.main('invratecontrol', inventory([range(0, 0)]))).status).toBe(200);
  });

  it.each([
    ['an unknown room', inventory([range(1, 1)], 'PENTHOUSE'), /inventorycontrol\[0\]\.roomid: no room PENTHOUSE/],
    [
      'an unknown rate plan',
      { ...rates({ type: 'Fixed', value: 1 }), ratecontrol: [{ roomid: 'FAM', rateid: 'NRF', date: [range(1, 1)] }] },
      /rateid: no rate plan NRF for room FAM/,
    ],
    ['an unknown hotel', { ...inventory([range(1, 1)]), hotelid: 'NOPE' }, /hotelid: invalid hotel code \(NOPE\)/],
    [
      'a hotelid over 20 characters',
      { ...inventory([range(1, 1)]), hotelid: 'X'.repeat(21) },
      /hotelid: must be at most 20 characters/,
    ],
    [
      'Multiply in inventorycontrol',
      inventory([range(1, 1, [{ OTACode: [19], rule: { type: 'Multiply', value: '2' } }])]),
      /type: Multiply is for rates only/,
    ],
    [
      'closed in inventorycontrol',
      inventory([range(1, 1, [{ OTACode: [19], rule: { closed: true } }])]),
      /closed: closed is only available in ratecontrol/,
    ],
    ['a type without a value', rates({ type: 'Increase' }), /rule\.value: is required with type Increase/],
    ['a value without a type', rates({ value: '5' }), /rule\.type: is required when a value is given/],
    ['an unknown type', rates({ type: 'Percent', value: '5' }), /must be one of Fixed, Increase, Decrease, Multiply/],
    ['a negative value', rates({ type: 'Fixed', value: '-5' }), /is not a number of zero or more/],
    [
      'a fractional inventory',
      inventory([range(1, 1, [{ OTACode: [19], rule: { type: 'Fixed', value: '1.5' } }])]),
      /inventory is a whole number/,
    ],
    ['an empty rule', rates({}), /needs type and value, or closed/],
    ['a missing rule', { ...rates(undefined) }, /rule: is required/],
    [
      'a non-numeric channel code',
      inventory([range(1, 1, [{ OTACode: ['airbnb'], rule: { type: 'Fixed', value: 1 } }])]),
      /OTACode\[0\]: must be a numeric channel code/,
    ],
    [
      'an empty OTACode',
      inventory([range(1, 1, [{ OTACode: [], rule: { type: 'Fixed', value: 1 } }])]),
      /must list at least one channel code/,
    ],
    [
      'a channel twice in one range',
      inventory([
        range(1, 1, [
          { OTACode: [19], rule: { type: 'Fixed', value: 1 } },
          { OTACode: ['19'], rule: { type: 'Fixed', value: 2 } },
        ]),
      ]),
      /channel 19 appears twice/,
    ],
    ['to before from', inventory([{ from: day(3), to: day(2), OTARule: [] }]), /to: must not be before from/],
    [
      'an impossible date',
      inventory([{ from: '2031-02-30', to: '2031-03-01', OTARule: [] }]),
      /from: must be a date in YYYY-MM-DD form/,
    ],
    ['a missing OTARule', inventory([{ from: day(1), to: day(1) }]), /OTARule: is required/],
    ['no control at all', { hotelid: 'IK-DEMO-001' }, /inventorycontrol or ratecontrol is required/],
    ['a body that is not an object', [1, 2], /the request body must be a JSON object/],
  ])('%s is refused', async (_name, body, text) => {
    await refused(body, text);
  });

  it('nothing of a refused call is applied, even its valid parts', async () => {
    const body = {
      hotelid: 'IK-DEMO-001',
      inventorycontrol: [
        { roomid: 'DBL', date: [range(5, 5, [{ OTACode: [244], rule: { type: 'Fixed', value: '0' } }])] },
      ],
      ratecontrol: [
        { roomid: 'DBL', rateid: 'BAR', date: [range(5, 5, [{ OTACode: [244], rule: { type: 'Bogus' } }])] },
      ],
    };
    expect((await h.main('invratecontrol', body)).status).toBe(400);
    const rows = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      channel: '244',
      from: day(5),
      to: day(5),
    });
    expect(rows.days[0]).toMatchObject({ inventory: 4, inventoryRule: null });
  });

  it('numbers and numeric strings are both accepted for channel codes and values', async () => {
    const body = inventory([range(6, 6, [{ OTACode: ['19', 9], rule: { type: 'Fixed', value: 2 } }])]);
    expect((await h.main('invratecontrol', body)).status).toBe(200);
    const rows = await h.control.calendar({
      hotelid: 'IK-DEMO-001',
      roomid: 'DBL',
      channel: '9',
      from: day(6),
      to: day(6),
    });
    expect(rows.days[0]!.inventory).toBe(2);
  });
});
