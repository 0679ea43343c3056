import { describe, expect, it } from 'vitest';
import { revertEdits, summarize } from '../../src/main/rates/changes';
import { parseTarget } from '../../src/main/rates/pushes';
import { withoutPastDays, type DaySet, type RuleBook } from '../../src/shared/ratesComposer';
import type { RateDayChange } from '../../src/shared/rates';

const T = 'rate:DBL:BAR';
const fixed = (value: number) => ({ type: 'Fixed' as const, value });

describe('a revert', () => {
  const changes: RateDayChange[] = [
    { target: T, day: '2030-01-01', before: {}, after: { '19': fixed(50) } },
    { target: T, day: '2030-01-02', before: { '9': fixed(80) }, after: { '9': fixed(80), '19': fixed(50) } },
    { target: T, day: '2030-01-03', before: { '19': fixed(40) }, after: { '19': fixed(50) } },
  ];

  it('undoes each channel the push changed, only where Su still holds what it set, and never a past day', () => {
    const record: RuleBook = new Map([
      [
        T,
        new Map<string, DaySet>([
          ['2030-01-01', { '19': fixed(50) }],
          ['2030-01-02', { '9': fixed(80), '19': fixed(55) }], // a later push changed 19 again
          ['2030-01-03', { '19': fixed(50) }],
        ]),
      ],
    ]);
    expect(revertEdits(changes, record, '2030-01-01', parseTarget)).toEqual({
      edits: [
        { target: parseTarget(T), from: '2030-01-01', to: '2030-01-01', channels: ['19'], rule: null },
        { target: parseTarget(T), from: '2030-01-03', to: '2030-01-03', channels: ['19'], rule: fixed(40) },
      ],
      keptLater: 1,
      past: 0,
    });
    expect(revertEdits(changes, record, '2030-01-03', parseTarget)).toMatchObject({ past: 2, keptLater: 0 });
  });

  it('counts only channels that changed, and a channel closed where it was open', () => {
    expect(summarize(changes)).toEqual({ changedDays: 3, channelChanges: 3, closes: false });
    expect(
      summarize([
        {
          target: T,
          day: '2030-01-01',
          before: { '244': { closed: true } },
          after: { '244': { closed: true }, '19': { closed: true } },
        },
      ]),
    ).toEqual({ changedDays: 1, channelChanges: 1, closes: true });
  });
});

describe('a push that waited overnight', () => {
  const request = {
    hotelid: 'H',
    inventorycontrol: [{ roomid: 'DBL', date: [{ from: '2030-01-01', to: '2030-01-01', OTARule: [] }] }],
    ratecontrol: [
      {
        roomid: 'DBL',
        rateid: 'BAR',
        date: [
          { from: '2030-01-01', to: '2030-01-03', OTARule: [{ OTACode: [19], rule: { closed: true } }] },
          { from: '2030-01-05', to: '2030-01-05', OTARule: [] },
        ],
      },
    ],
  };

  it('sends only the days still to come', () => {
    expect(withoutPastDays(request, '2030-01-02')).toEqual({
      hotelid: 'H',
      ratecontrol: [
        {
          roomid: 'DBL',
          rateid: 'BAR',
          date: [
            { from: '2030-01-02', to: '2030-01-03', OTARule: [{ OTACode: [19], rule: { closed: true } }] },
            { from: '2030-01-05', to: '2030-01-05', OTARule: [] },
          ],
        },
      ],
    });
    expect(withoutPastDays(request, '2030-01-01')).toEqual(request);
    expect(withoutPastDays(request, '2030-01-06')).toBeNull();
  });
});
