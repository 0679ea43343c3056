import { describe, expect, it } from 'vitest';
import {
  fillTemplate,
  placeholderProblem,
  savedReplySchema,
  unfilledPlaceholders,
} from '../../src/shared/savedReplies';
import { composerWarnings } from '../../src/shared/inbox';

describe('saved replies', () => {
  it('fill the thread’s values and leave unknown ones visible', () => {
    const body = 'Hi {{guest_first_name}}, see you on {{ check_in }} at {{listing_name}}. Leaving {{check_out}}?';
    expect(
      fillTemplate(body, {
        guest_first_name: 'Chris',
        check_in: '2026-12-01',
        listing_name: 'Harbour View',
        check_out: null,
      }),
    ).toBe('Hi Chris, see you on 2026-12-01 at Harbour View. Leaving {{check_out}}?');
  });

  it('refuse variables that do not exist, naming the allowed ones', () => {
    const result = savedReplySchema.safeParse({ title: 'Welcome', body: 'Hi {{first_name}}' });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toContain('{{guest_first_name}}');
  });
});

describe('warnings before sending', () => {
  it('Booking.com: links', () => {
    expect(
      composerWarnings({ channel: '19', hasBooking: true }, 'See https://harbourview.example/parking'),
    ).toHaveLength(1);
    expect(composerWarnings({ channel: '19', hasBooking: true }, 'See you soon')).toEqual([]);
  });

  it('Airbnb without a booking: links, e-mail addresses and phone numbers; with a booking: nothing', () => {
    const text = 'Call +45 20 12 34 56 or write to maria@harbourview.example';
    expect(composerWarnings({ channel: '244', hasBooking: false }, text)).toEqual([
      'Airbnb removes e-mail addresses and phone numbers from messages to guests who have not booked yet.',
    ]);
    expect(composerWarnings({ channel: '244', hasBooking: true }, text)).toEqual([]);
    expect(composerWarnings({ channel: '9', hasBooking: false }, text)).toEqual([]);
  });
});

describe('placeholders left in a text', () => {
  it('finds any {{…}}, odd forms too, and names it', () => {
    expect(unfilledPlaceholders('Hi {{a}b}}, {{ {{x}} }} and {{\nname }}')).toEqual(['{{a}b}}', '{{{{x}}', '{{name}}']);
    expect(unfilledPlaceholders('Hi {single} }} {{')).toEqual([]);
    expect(placeholderProblem('Hi {{a}b}}')).toContain('{{a}b}}');
    expect(unfilledPlaceholders(`{{${'x'.repeat(100)}}}`)[0]!.length).toBeLessThanOrEqual(40);
  });
});
