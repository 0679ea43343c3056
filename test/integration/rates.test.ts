import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateDraft, RatePreview, RatePushRecord } from '../../src/shared/rates';
import { addDays, localToday } from '../../src/shared/schemas/inventory';
import type { Result } from '../../src/shared/result';
import { createEmulatorControl } from '../../src/main/emulator/controlClient';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const dispatch = <T>(method: string, args: unknown = {}) =>
  ctx.core.dispatcher.dispatch(method, args) as Promise<Result<T>>;
const call = async <T>(method: string, args: unknown = {}): Promise<T> => {
  const result = await dispatch<T>(method, args);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value;
};

const HOTEL = 'IK-DEMO-001';
const day = (n: number) => addDays(localToday(), n + 3);
const BAR = { level: 'rate', roomId: 'DBL', rateId: 'BAR' } as const;
const calendar = async (channel: string, from: number, to: number) =>
  (
    await createEmulatorControl(ctx.core.emulator.controlUrl).calendar({
      hotelid: HOTEL,
      roomid: 'DBL',
      rateid: 'BAR',
      channel,
      from: day(from),
      to: day(to),
    })
  ).days;
const applied = (id: number) =>
  eventually(
    () => call<RatePushRecord[]>('rates.history', { hotelId: HOTEL }),
    (h) => h.find((p) => p.id === id)?.appliedAt != null,
  );

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('rates: draft, preview, push, history, revert', () => {
  it('a draft is validated and kept; a bad edit is refused naming its field', async () => {
    const bad = await dispatch('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [
        {
          target: BAR,
          from: addDays(localToday(), -1),
          to: day(0),
          channels: ['19'],
          rule: { type: 'Fixed', value: 90 },
        },
      ],
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'validation', field: 'edits.0.from' } });
    const inventoryMultiply = await dispatch('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [
        {
          target: { level: 'inventory', roomId: 'DBL' },
          from: day(0),
          to: day(0),
          channels: ['19'],
          rule: { type: 'Multiply', value: 0.9 },
        },
      ],
    });
    expect(inventoryMultiply).toMatchObject({ ok: false, error: { field: 'edits.0.rule.type' } });
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      name: 'Spring',
      edits: [{ target: BAR, from: day(0), to: day(2), channels: ['19', '9'], rule: { type: 'Fixed', value: 99 } }],
    });
    expect(await call<RateDraft>('rates.draft', { hotelId: HOTEL })).toMatchObject({
      name: 'Spring',
      edits: [expect.objectContaining({ channels: ['19', '9'] })],
    });
  });

  it('the preview shows the exact request and a per-day diff; the push reaches the provider as previewed', async () => {
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      name: 'Spring',
      edits: [{ target: BAR, from: day(0), to: day(2), channels: ['19', '9'], rule: { type: 'Fixed', value: 99 } }],
    });
    const preview = await call<RatePreview>('rates.preview', { hotelId: HOTEL });
    expect(preview.firstPush).toEqual(['rate:DBL:BAR']);
    expect(preview.days).toHaveLength(3);
    expect(preview.request).toEqual({
      hotelid: HOTEL,
      ratecontrol: [
        {
          roomid: 'DBL',
          rateid: 'BAR',
          date: [{ from: day(0), to: day(2), OTARule: [{ OTACode: [9, 19], rule: { type: 'Fixed', value: '99' } }] }],
        },
      ],
    });
    const { pushId } = await call<{ pushId: number }>('rates.push', { hotelId: HOTEL });
    await applied(pushId);
    for (const channel of ['19', '9']) expect((await calendar(channel, 0, 2)).map((d) => d.rate)).toEqual([99, 99, 99]);
    expect((await calendar('244', 0, 0))[0]!.rateRule).toBeNull();
    expect((await call<RateDraft>('rates.draft', { hotelId: HOTEL })).edits).toEqual([]);
  });

  it('a later change on one channel keeps the other channels’ rules on the same days; revert restores them', async () => {
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(0), to: day(4), channels: ['19'], rule: { type: 'Fixed', value: 99 } }],
    });
    const first = await call<{ pushId: number }>('rates.push', { hotelId: HOTEL });
    await applied(first.pushId);
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(2), to: day(3), channels: ['244'], rule: { type: 'Increase', value: 20 } }],
    });
    const preview = await call<RatePreview>('rates.preview', { hotelId: HOTEL });
    expect(preview.firstPush).toEqual([]);
    const second = await call<{ pushId: number }>('rates.push', { hotelId: HOTEL });
    await applied(second.pushId);
    expect((await calendar('19', 0, 4)).map((d) => d.rate)).toEqual([99, 99, 99, 99, 99]);
    expect((await calendar('244', 2, 3)).map((d) => d.rateRule)).toEqual([
      { type: 'Increase', value: 20 },
      { type: 'Increase', value: 20 },
    ]);

    const history = await call<RatePushRecord[]>('rates.history', { hotelId: HOTEL });
    expect(history.map((h) => h.id)).toEqual([second.pushId, first.pushId]);
    expect(history[0]!.days.map((d) => [d.day, Object.keys(d.before).sort(), Object.keys(d.after).sort()])).toEqual([
      [day(2), ['19'], ['19', '244']],
      [day(3), ['19'], ['19', '244']],
    ]);
    const revert = await call<{ pushId: number }>('rates.revert', { pushId: second.pushId });
    await applied(revert.pushId);
    expect((await calendar('244', 2, 3)).map((d) => d.rateRule)).toEqual([null, null]);
    expect((await calendar('19', 0, 4)).map((d) => d.rate)).toEqual([99, 99, 99, 99, 99]);
  });

  it('closing dates asks for confirmation naming how much changes', async () => {
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(0), to: day(6), channels: ['19', '9', '244'], rule: { closed: true } }],
    });
    const refused = await dispatch('rates.push', { hotelId: HOTEL });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'confirm_required', message: expect.stringMatching(/7 days.*closes dates/) },
    });
    const { pushId } = await call<{ pushId: number }>('rates.push', { hotelId: HOTEL, confirmed: true });
    await applied(pushId);
    expect((await calendar('9', 0, 6)).every((d) => d.closed)).toBe(true);
  });
});

describe('rates of different properties', () => {
  it('two properties with a room of the same name keep separate records', async () => {
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [{ target: BAR, from: day(0), to: day(0), channels: ['19'], rule: { type: 'Fixed', value: 99 } }],
    });
    const { pushId } = await call<{ pushId: number }>('rates.push', { hotelId: HOTEL });
    await applied(pushId);
    // The other property has never been pushed: its preview warns that rules set elsewhere will be replaced.
    await call('rates.saveDraft', {
      hotelId: 'IK-DEMO-002',
      edits: [{ target: BAR, from: day(0), to: day(0), channels: ['244'], rule: { closed: true } }],
    });
    const other = await call<RatePreview>('rates.preview', { hotelId: 'IK-DEMO-002' });
    expect(other.firstPush).toEqual(['rate:DBL:BAR']);
    expect(other.days[0]!.before).toEqual({});
  });
});
