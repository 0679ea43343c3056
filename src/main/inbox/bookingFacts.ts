import type { DatabaseSync } from 'node:sqlite';
import type { z } from 'zod';
import type { AddedFacts, bookingFactsSchema } from '../../shared/inbox';
import { AppFailure, ErrorCode } from '../../shared/result';
import { addedFacts } from './inboxQueries';

const NONE: AddedFacts = { guestName: null, checkIn: null, checkOut: null, guests: null };

/**
 * What the owner adds to a booking that its channel did not send (a guest's name, the stay, the party), kept on
 * the thread: only the fields given change, a null removes one. SQLite's triggers put the name into search
 * (bookingFactsMigration.ts). The channel's own values are never overwritten; where it sent one, it is shown.
 */
export function createBookingFacts(db: DatabaseSync) {
  return {
    save(input: z.output<typeof bookingFactsSchema>): void {
      const row = db.prepare('SELECT added_facts, booking FROM threads WHERE id = ?').get(input.threadId) as
        { added_facts: string | null; booking: string | null } | undefined;
      if (!row)
        throw new AppFailure({ code: 'not_found', message: 'This conversation no longer exists.', retryable: false });
      const next: AddedFacts = { ...(addedFacts(row.added_facts) ?? NONE) };
      for (const key of ['guestName', 'checkIn', 'checkOut', 'guests'] as const) {
        const value = input[key];
        if (value !== undefined) (next as Record<typeof key, unknown>)[key] = value;
      }
      // The stay as it will be shown: the channel's dates where it sent them, else the owner's.
      const channel = row.booking ? (JSON.parse(row.booking) as { checkIn?: string; checkOut?: string }) : {};
      const arrival = channel.checkIn || next.checkIn;
      const departure = channel.checkOut || next.checkOut;
      if (arrival && departure && departure <= arrival) {
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: 'The departure date must be after the arrival date.',
          field: input.checkOut !== undefined || input.checkIn === undefined ? 'checkOut' : 'checkIn',
          retryable: false,
        });
      }
      const kept = Object.values(next).some((v) => v !== null) ? JSON.stringify(next) : null;
      db.prepare('UPDATE threads SET added_facts = ? WHERE id = ?').run(kept, input.threadId);
    },
  };
}
export type BookingFacts = ReturnType<typeof createBookingFacts>;
