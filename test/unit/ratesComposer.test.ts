import { describe, expect, it } from 'vitest';
import { applyRanges, type RuleCalendar } from '../../src/emulator/calendar';
import {
  applyToBook,
  composeRequest,
  targetKey,
  type DaySet,
  type RuleBook,
  type RuleEdit,
  type Target,
} from '../../src/shared/ratesComposer';
import { daysOf } from '../../src/shared/dates';
import { dropPastDays } from '../../src/shared/rates';
import { addDays } from '../../src/shared/dates';

const D0 = '2027-03-01';
const day = (n: number) => addDays(D0, n);
const BAR: Target = { level: 'rate', roomId: 'DBL', rateId: 'BAR' };
const INV: Target = { level: 'inventory', roomId: 'DBL' };
const bookOf = (entries: [Target, number, number, DaySet][]): RuleBook => {
  const book = new Map<string, Map<string, DaySet>>();
  for (const [target, from, to, set] of entries) {
    const days = book.get(targetKey(target)) ?? new Map<string, DaySet>();
    for (const d of daysOf(day(from), day(to))) days.set(d, set);
    book.set(targetKey(target), days);
  }
  return book;
};
const edit = (target: Target, from: number, to: number, channels: string[], rule: RuleEdit['rule']): RuleEdit => ({
  target,
  from: day(from),
  to: day(to),
  channels,
  rule,
});

describe('composing an overwrite-safe request', () => {
  it('a change on one channel carries the other channels’ rules for the touched days, and nothing else', () => {
    const book = bookOf([[BAR, 0, 9, { '19': { type: 'Fixed', value: 100 }, '9': { type: 'Fixed', value: 110 } }]]);
    const request = composeRequest('H1', book, [edit(BAR, 2, 3, ['244'], { type: 'Increase', value: 10 })]);
    expect(request).toEqual({
      hotelid: 'H1',
      ratecontrol: [
        {
          roomid: 'DBL',
          rateid: 'BAR',
          date: [
            {
              from: day(2),
              to: day(3),
              OTARule: [
                { OTACode: [19], rule: { type: 'Fixed', value: '100' } },
                { OTACode: [9], rule: { type: 'Fixed', value: '110' } },
                { OTACode: [244], rule: { type: 'Increase', value: '10' } },
              ],
            },
          ],
        },
      ],
    });
  });

  it('removing a channel’s rule keeps the others; removing the last one sends an empty OTARule', () => {
    const book = bookOf([[INV, 0, 1, { '19': { type: 'Fixed', value: 2 }, '9': { type: 'Decrease', value: 1 } }]]);
    const request = composeRequest('H1', book, [edit(INV, 0, 0, ['19'], null), edit(INV, 1, 1, ['19', '9'], null)]);
    expect(request.inventorycontrol![0]!.date).toEqual([
      { from: day(0), to: day(0), OTARule: [{ OTACode: [9], rule: { type: 'Decrease', value: '1' } }] },
      { from: day(1), to: day(1), OTARule: [] },
    ]);
  });

  it('overlapping edits: the later one wins where they overlap', () => {
    const request = composeRequest('H1', new Map(), [
      edit(BAR, 0, 4, ['19'], { type: 'Fixed', value: 90 }),
      edit(BAR, 3, 6, ['19'], { type: 'Fixed', value: 80 }),
    ]);
    expect(request.ratecontrol![0]!.date.map((r) => [r.from, r.to, r.OTARule[0]!.rule.value])).toEqual([
      [day(0), day(2), '90'],
      [day(3), day(6), '80'],
    ]);
  });

  it('merges consecutive identical days into one range and identical channels into one OTARule', () => {
    const request = composeRequest('H1', new Map(), [
      edit(BAR, 0, 29, ['19', '9', '189'], { type: 'Multiply', value: 0.9, closed: true }),
    ]);
    expect(request.ratecontrol![0]!.date).toEqual([
      {
        from: day(0),
        to: day(29),
        OTARule: [{ OTACode: [9, 19, 189], rule: { type: 'Multiply', value: '0.9', closed: true } }],
      },
    ]);
  });

  it('identical sets on days that are not consecutive stay separate ranges', () => {
    const request = composeRequest('H1', new Map(), [
      edit(BAR, 0, 1, ['19'], { closed: true }),
      edit(BAR, 3, 4, ['19'], { closed: true }),
    ]);
    expect(request.ratecontrol![0]!.date.map((r) => [r.from, r.to])).toEqual([
      [day(0), day(1)],
      [day(3), day(4)],
    ]);
  });

  it('an edit on chosen weekdays touches only those days; one whose dates hold none of them sends nothing', () => {
    // D0 (2027-03-01) is a Monday: Friday and Saturday are days 4-5, 11-12.
    const weekends = { ...edit(BAR, 0, 13, ['19'], { type: 'Increase', value: 25 }), weekdays: [4, 5] };
    const request = composeRequest('H1', new Map(), [weekends]);
    expect(request.ratecontrol![0]!.date.map((r) => [r.from, r.to])).toEqual([
      [day(4), day(5)],
      [day(11), day(12)],
    ]);
    const none = { ...edit(BAR, 0, 3, ['19'], { closed: true }), weekdays: [6] };
    expect(composeRequest('H1', new Map(), [none])).toEqual({ hotelid: 'H1' });
  });

  it('a draft left past a weekday edit’s last matching day drops it; other edits keep their remaining days', () => {
    const fridays = { ...edit(BAR, 0, 9, ['19'], { closed: true }), weekdays: [4] };
    const every = edit(BAR, 0, 9, ['19'], { closed: true });
    // From day 5 (Saturday) to day 9 (Wednesday) there is no Friday left.
    expect(dropPastDays([fridays, every], day(5))).toEqual([{ ...every, from: day(5) }]);
    expect(dropPastDays([fridays], day(4))).toEqual([{ ...fridays, from: day(4) }]);
  });

  it('inventory and rates of several rooms go in one request, each with only its touched days', () => {
    const request = composeRequest('H1', new Map(), [
      edit({ level: 'inventory', roomId: 'TWN' }, 5, 5, ['244'], { type: 'Fixed', value: 0 }),
      edit(BAR, 1, 1, ['9'], { closed: true }),
    ]);
    expect(request.inventorycontrol).toEqual([
      {
        roomid: 'TWN',
        date: [{ from: day(5), to: day(5), OTARule: [{ OTACode: [244], rule: { type: 'Fixed', value: '0' } }] }],
      },
    ]);
    expect(request.ratecontrol).toHaveLength(1);
  });
});

/** A small deterministic PRNG, so the year of random edits is the same on every run. */
function prng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('a year of mixed edits', () => {
  it('sent to the provider’s overwrite semantics gives exactly the intended rules, with the fewest ranges', () => {
    const random = prng(42);
    const channels = ['244', '19', '9', '189'];
    const rules: RuleEdit['rule'][] = [
      { type: 'Fixed', value: 120 },
      { type: 'Increase', value: 15 },
      { type: 'Decrease', value: 10 },
      { type: 'Multiply', value: 0.9 },
      { closed: true },
      { type: 'Multiply', value: 1.1, closed: true },
      null,
    ];
    const start = bookOf([[BAR, 0, 364, { '19': { type: 'Fixed', value: 100 } }]]);
    const edits: RuleEdit[] = Array.from({ length: 300 }, () => {
      const from = Math.floor(random() * 365);
      const to = Math.min(364, from + Math.floor(random() * 20));
      const pick = channels.filter(() => random() < 0.5);
      return edit(BAR, from, to, pick.length ? pick : ['19'], rules[Math.floor(random() * rules.length)]!);
    });
    const request = composeRequest('H1', start, edits);
    const ranges = request.ratecontrol![0]!.date;

    // What the provider holds afterwards: the start, overwritten by the request (the emulator's semantics).
    const held: RuleCalendar = new Map(
      [...start.get(targetKey(BAR))!].map(([d, set]) => [
        d,
        new Map(Object.entries(set).map(([c, r]) => [c, { ...r }])),
      ]),
    );
    applyRanges(
      held,
      ranges.map((r) => ({
        from: r.from,
        to: r.to,
        rules: r.OTARule.map((o) => ({
          channels: o.OTACode.map(String),
          rule: {
            ...(o.rule.type ? { type: o.rule.type, value: Number(o.rule.value) } : {}),
            ...(o.rule.closed ? { closed: true } : {}),
          },
        })),
      })),
    );
    const intended = applyToBook(start, edits).get(targetKey(BAR))!;
    for (const d of daysOf(day(0), day(364))) {
      const got = Object.fromEntries([...(held.get(d) ?? new Map())].map(([c, r]) => [c, r]));
      expect(got, d).toEqual(intended.get(d) ?? {});
    }

    // Fewest ranges possible: one per run of consecutive touched days with identical sets.
    const touched = [...new Set(edits.flatMap((e) => daysOf(e.from, e.to)))].sort();
    let minimum = 0;
    let previous: string | null = null;
    let previousSet = '';
    for (const d of touched) {
      const set = JSON.stringify(Object.entries(intended.get(d) ?? {}).sort());
      if (previous === null || addDays(previous, 1) !== d || set !== previousSet) minimum++;
      previous = d;
      previousSet = set;
    }
    expect(ranges.length).toBe(minimum);
    // Nothing outside the touched days.
    expect(ranges.every((r) => daysOf(r.from, r.to).every((d) => touched.includes(d)))).toBe(true);
  });
});
