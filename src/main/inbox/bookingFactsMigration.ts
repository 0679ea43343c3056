import type { Migration } from '../db/migrations';
import { nameOf, refreshProperty, threadFactsSql } from './searchMigration';

// Issue 26: what the owner adds to a booking that its channel did not send (Booking.com and Expedia send no guest
// name, no dates, no party with their messages). Kept on the thread (a 19 or 9 thread is one booking), as JSON
// (`added_facts`: guestName, checkIn, checkOut, guests), and found by search: the owner's name for the guest joins
// what the thread is about, so the facts index's triggers are written again with it.

/** Everything the thread row `t` is about, as one text: schema 14's facts and the guest's name the owner added. */
export const threadFactsWithAddedSql = (t: string) =>
  `concat_ws(' ', ${threadFactsSql(t)}, json_extract(${t}.added_facts, '$.guestName'))`;

export const BOOKING_FACTS_MIGRATION: Migration = {
  version: 19,
  name: 'inbox: what the owner adds to a booking (guest name, dates, guests), found by search',
  sql: `
    ALTER TABLE threads ADD COLUMN added_facts TEXT;

    DROP TRIGGER thread_facts_added;
    CREATE TRIGGER thread_facts_added AFTER INSERT ON threads BEGIN
      INSERT INTO thread_facts (rowid, text) VALUES (new.id, ${threadFactsWithAddedSql('new')});
    END;
    DROP TRIGGER thread_facts_changed;
    CREATE TRIGGER thread_facts_changed AFTER UPDATE OF guest, booking_id, booking, hotel_id, added_facts ON threads
    WHEN old.guest IS NOT new.guest OR old.booking_id IS NOT new.booking_id OR old.booking IS NOT new.booking
      OR old.hotel_id IS NOT new.hotel_id OR old.added_facts IS NOT new.added_facts
    BEGIN
      DELETE FROM thread_facts WHERE rowid = old.id;
      INSERT INTO thread_facts (rowid, text) VALUES (new.id, ${threadFactsWithAddedSql('new')});
    END;

    DROP TRIGGER facts_property_added;
    CREATE TRIGGER facts_property_added AFTER INSERT ON rate_setups WHEN ${nameOf('new')} IS NOT NULL BEGIN
      ${refreshProperty('new.hotel_id', threadFactsWithAddedSql)}
    END;
    DROP TRIGGER facts_property_renamed;
    CREATE TRIGGER facts_property_renamed AFTER UPDATE OF setup ON rate_setups
    WHEN old.hotel_id IS new.hotel_id AND ${nameOf('old')} IS NOT ${nameOf('new')}
    BEGIN
      ${refreshProperty('new.hotel_id', threadFactsWithAddedSql)}
    END;
    DROP TRIGGER facts_property_moved;
    CREATE TRIGGER facts_property_moved AFTER UPDATE OF hotel_id ON rate_setups WHEN old.hotel_id IS NOT new.hotel_id
    BEGIN
      ${refreshProperty('old.hotel_id', threadFactsWithAddedSql)}
      ${refreshProperty('new.hotel_id', threadFactsWithAddedSql)}
    END;
    DROP TRIGGER facts_property_removed;
    CREATE TRIGGER facts_property_removed AFTER DELETE ON rate_setups WHEN ${nameOf('old')} IS NOT NULL BEGIN
      ${refreshProperty('old.hotel_id', threadFactsWithAddedSql)}
    END;
  `,
};
