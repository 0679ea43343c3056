import type { Migration } from '../db/migrations';

/** The saved replies' table, with two examples. */
export const SAVED_REPLIES_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: 'saved replies',
    sql: `
      CREATE TABLE saved_replies (
        id          INTEGER PRIMARY KEY,
        title       TEXT    NOT NULL,
        body        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'starter saved replies',
    // Two examples an owner can edit or delete; they show how {{variables}} work.
    sql: `
      INSERT INTO saved_replies (title, body, updated_at) VALUES
        ('Welcome', 'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at {{listing_name}} on {{check_in}}.', 0),
        ('Check-in details', 'Hi {{guest_first_name}}, check-in on {{check_in}} is from 15:00. We will send you the door code on the morning of your arrival.', 0);
    `,
  },
];
