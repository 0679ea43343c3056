import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, daysOf, localToday, weekdayIndex } from '../../src/shared/dates';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);

const HOTEL = 'IK-DEMO-001';
const BAR = { level: 'rate', roomId: 'DBL', rateId: 'BAR' } as const;
const FRI = 4;
const SAT = 5;

/** The next summer season, June to September, within the 500 days Su takes rules for. */
function season() {
  const today = localToday();
  const year = Number(today.slice(0, 4)) + (today >= `${today.slice(0, 4)}-06-01` ? 1 : 0);
  return { from: `${year}-06-01`, to: `${year}-09-30` };
}
const weekend = (day: string) => [FRI, SAT].includes(weekdayIndex(day));

const rateDays = async (channel: string, from: string, to: string) =>
  (
    await createEmulatorControl(ctx.emulator()).calendar({
      hotelid: HOTEL,
      roomid: 'DBL',
      rateid: 'BAR',
      channel,
      from,
      to,
    })
  ).days;
const applied = (id: number) =>
  eventually(
    () => call('rates.history', { hotelId: HOTEL }),
    (h) => h.find((p) => p.id === id)?.appliedAt != null,
  );

beforeEach(async () => {
  ctx = await startTestCore();
});
afterEach(() => ctx.stop());

describe('rates: one rule on chosen weekdays across a season', () => {
  it('is refused without a weekday, or on dates that hold none of them, naming the field', async () => {
    const { from } = season();
    // A Monday to Thursday, with Friday chosen.
    const monday = daysOf(from, addDays(from, 6)).find((d) => weekdayIndex(d) === 0)!;
    const edit = {
      target: BAR,
      from: monday,
      to: addDays(monday, 3),
      channels: ['19'],
      rule: { type: 'Fixed', value: 99 },
    };
    expect(await dispatch('rates.saveDraft', { hotelId: HOTEL, edits: [{ ...edit, weekdays: [] }] })).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        field: 'edits.0.weekdays',
        message: expect.stringContaining('Choose at least one day of the week.'),
      },
    });
    expect(
      await dispatch('rates.saveDraft', { hotelId: HOTEL, edits: [{ ...edit, weekdays: [FRI, SAT] }] }),
    ).toMatchObject({
      ok: false,
      error: {
        field: 'edits.0.weekdays',
        message: expect.stringContaining(
          `From ${monday} to ${addDays(monday, 3)} there is no Friday or Saturday: choose other days or dates.`,
        ),
      },
    });
    // Past Su's 500 days, as any rule.
    expect(
      await dispatch('rates.saveDraft', {
        hotelId: HOTEL,
        edits: [{ ...edit, to: addDays(localToday(), 501), weekdays: [FRI] }],
      }),
    ).toMatchObject({ ok: false, error: { field: 'edits.0.to' } });
  });

  it('sends exactly the Fridays and Saturdays from June to September, which Su then holds; history and revert follow', async () => {
    const { from, to } = season();
    const weekends = daysOf(from, to).filter(weekend);
    const saved = await call('rates.saveDraft', {
      hotelId: HOTEL,
      name: 'Summer weekends',
      edits: [
        { target: BAR, from, to, weekdays: [SAT, FRI], channels: ['19', '244'], rule: { type: 'Increase', value: 25 } },
      ],
    });
    // Kept in the draft as chosen (in weekday order).
    expect(saved.edits[0]).toMatchObject({ from, to, weekdays: [FRI, SAT] });

    const preview = await call('rates.preview', { hotelId: HOTEL });
    expect(preview.days.map((d) => d.day)).toEqual(weekends);
    // Su's request has no day-of-week field: each weekend is its own range, Friday to Saturday.
    const ranges = (preview.request as { ratecontrol: { date: { from: string; to: string }[] }[] }).ratecontrol[0]!
      .date;
    const sent = ranges.flatMap((r) => daysOf(r.from, r.to));
    expect(sent).toEqual(weekends);
    expect(ranges.every((r) => weekend(r.from) && weekend(r.to))).toBe(true);
    expect(preview.summary).toMatchObject({ changedDays: weekends.length, channelChanges: weekends.length * 2 });

    const { pushId } = await call('rates.push', { hotelId: HOTEL, confirmed: true, fingerprint: preview.fingerprint });
    await applied(pushId);
    for (const channel of ['19', '244']) {
      const days = await rateDays(channel, from, to);
      expect(days.filter((d) => d.rateRule).map((d) => d.date)).toEqual(weekends);
      // The demo's base: 145 on Fridays and Saturdays, so 170.
      expect(new Set(days.filter((d) => weekend(d.date)).map((d) => d.rate))).toEqual(new Set([170]));
    }
    expect((await rateDays('9', from, to)).some((d) => d.rateRule)).toBe(false);

    const [record] = await call('rates.history', { hotelId: HOTEL });
    expect(record!.days.map((d) => d.day)).toEqual(weekends);
    const revertPreview = await call('rates.revertPreview', { pushId });
    expect(revertPreview.days.map((d) => d.day)).toEqual(weekends);
    const revert = await call('rates.revert', { pushId, confirmed: true, fingerprint: revertPreview.fingerprint });
    await applied(revert.pushId);
    expect((await rateDays('19', from, to)).some((d) => d.rateRule)).toBe(false);
  });
});
