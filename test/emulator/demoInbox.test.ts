import { describe, expect, it } from 'vitest';
import { sampleInbox, spokenDay } from '../../src/emulator/demoInbox';
import { DEFAULT_EMULATOR_OPTIONS } from '../../src/emulator/options';
import { createEmulatorState } from '../../src/emulator/state';

// Issue 26, item 7: the demo's guests say what their booking cards show.
describe('the demo’s sample inbox', () => {
  it('Anna’s enquiry asks for the days and the party its card shows', () => {
    // Every day of the week as "today", so every check-in weekday the sample can give is met.
    for (let day = 0; day < 7; day++) {
      const state = createEmulatorState(DEFAULT_EMULATOR_OPTIONS);
      state.clockOffsetMs = day * 86_400_000;
      const enquiry = sampleInbox(state).find((p) => p.body.bookingflag === 'T')!;
      const asked = enquiry.body.booking_details as Record<string, unknown>;
      const message = String(enquiry.body.message);
      expect(message).toContain(
        `from ${spokenDay(String(asked.checkin_date))} to ${spokenDay(String(asked.checkout_date))}`,
      );
      expect(message).toContain('two adults and a baby');
      expect(asked).toMatchObject({ number_of_adults: 2, number_of_children: 0, number_of_infants: 1 });
    }
  });

  it('writes a day as a guest would, never shifted by a time zone', () => {
    expect(spokenDay('2026-12-05')).toBe('Saturday 5 December');
    expect(spokenDay('2027-01-01')).toBe('Friday 1 January');
  });
});
