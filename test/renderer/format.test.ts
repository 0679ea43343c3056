import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatTimestamp,
  humanize,
  languageName,
  messageTime,
  partyLine,
  relativeTime,
  stayRange,
} from '@renderer/features/inbox/format';
import { formatDateTime, plural } from '@renderer/lib/format';
import { formatRemaining } from '@renderer/lib/useNow';

const MIN = 60_000;
// Local times in June, far from daylight-saving changes.
const now = new Date(2025, 5, 18, 15, 30).getTime(); // a Wednesday
const at = (day: number, hour = 9, month = 5, year = 2025) => new Date(year, month, day, hour).getTime();
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

describe('list times', () => {
  it('read like a mail client’s', () => {
    expect(relativeTime(null, now)).toBe('');
    expect(relativeTime(now - 20_000, now)).toBe('Just now');
    expect(relativeTime(now - 5 * MIN, now)).toBe('5 min');
    expect(relativeTime(now - 59 * MIN, now)).toBe('59 min');
    expect(relativeTime(at(18, 8), now)).toBe(time.format(at(18, 8)));
    expect(relativeTime(at(17, 23), now)).toBe('Yesterday');
    expect(relativeTime(at(14), now)).toBe(new Intl.DateTimeFormat(undefined, { weekday: 'short' }).format(at(14)));
    expect(relativeTime(at(2), now)).toBe(
      new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }).format(at(2)),
    );
    expect(relativeTime(at(2, 9, 5, 2024), now)).toBe(
      new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }).format(at(2, 9, 5, 2024)),
    );
  });

  it('give a message sent today its time, and an older one its date too', () => {
    expect(messageTime(at(18, 8), now)).toBe(time.format(at(18, 8)));
    expect(messageTime(at(17, 8), now)).toBe(formatDateTime(at(17, 8)));
    expect(formatDateTime(at(17, 8))).toContain('2025');
  });
});

describe('dates from the channel', () => {
  it('write a calendar date on the day it names, whatever the time zone', () => {
    expect(formatDay('2021-07-07')).toBe(
      new Intl.DateTimeFormat(undefined, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(Date.UTC(2021, 6, 7)),
    );
    expect(formatDay(null)).toBe('—');
    expect(formatDay('')).toBe('—');
    expect(formatDay('next week')).toBe('next week');
  });

  it('write a timestamp in local time, and anything unreadable as it came', () => {
    expect(formatTimestamp('2025-03-01T10:00:00Z')).toBe(formatDateTime(Date.parse('2025-03-01T10:00:00Z')));
    expect(formatTimestamp(undefined)).toBe('—');
    expect(formatTimestamp('soon')).toBe('soon');
  });

  it('write a stay as a short range, or one day, or nothing', () => {
    const short = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    expect(stayRange('2021-07-07', '2021-07-11')).toBe(short.formatRange(Date.UTC(2021, 6, 7), Date.UTC(2021, 6, 11)));
    expect(stayRange('2021-07-07', null)).toBe(short.format(Date.UTC(2021, 6, 7)));
    expect(stayRange('2021-07-07', '2021-07-01')).toBe(short.format(Date.UTC(2021, 6, 7)));
    expect(stayRange(null, '2021-07-11')).toBe('');
  });
});

describe('people and words', () => {
  it('name a language, or give the code back when it is not one', () => {
    expect(languageName('en-GB')).toBe(new Intl.DisplayNames(undefined, { type: 'language' }).of('en-GB'));
    expect(languageName(null)).toBeNull();
    expect(languageName('not a locale!')).toBe('not a locale!');
  });

  it('turn keys into words', () => {
    expect(humanize('value_for_money')).toBe('Value for money');
    expect(humanize('CHECK-IN')).toBe('Check in');
  });

  it('write the party, leaving out zeros', () => {
    expect(partyLine({ adults: 2, children: 1, infants: 0 })).toBe('2 adults, 1 child');
    expect(partyLine({ adults: 1, children: null, infants: 2 })).toBe('1 adult, 2 infants');
    expect(partyLine({ adults: null, children: null, infants: null })).toBe('');
  });

  it('count with the word that fits', () => {
    expect(plural(1, 'night')).toBe('1 night');
    expect(plural(3, 'night')).toBe('3 nights');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
    expect(plural(1200, 'thread')).toBe(`${(1200).toLocaleString()} threads`);
  });

  it('count a token’s time down', () => {
    expect(formatRemaining(0)).toBe('expired');
    expect(formatRemaining(-5)).toBe('expired');
    expect(formatRemaining(12_500)).toBe('12 s');
    expect(formatRemaining(59 * MIN + 12_000)).toBe('59 min 12 s');
    expect(formatRemaining(61 * MIN + 5_000)).toBe('61 min 05 s');
    expect(formatRemaining(3 * 60 * MIN + 5 * MIN)).toBe('3 h 5 min');
  });
});
