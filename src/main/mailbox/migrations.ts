import type { Migration } from '../db/migrations';

/**
 * The mailbox's one row: which mailbox and device this computer collects as, and how far it has filed. The position
 * is written in the same transaction as the deliveries it covers (so a crash never loses or files one twice), and
 * what the last catch-up brought is kept with it.
 */
export const MAILBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 16,
    name: 'mailbox position',
    sql: `
      CREATE TABLE mailbox_position (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        mailbox_id  TEXT    NOT NULL,
        device_id   TEXT    NOT NULL,
        -- The mailbox's number of the last delivery filed here (0: none yet).
        position    INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 17,
    name: 'mailbox while off',
    // What the last catch-up brought ("… arrived while this computer was off"), kept so that a restart still says it;
    // all null until a catch-up brought something, and gone with the row at an unpair.
    sql: `
      ALTER TABLE mailbox_position ADD COLUMN while_off_messages INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN while_off_reviews INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN while_off_quarantined INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN while_off_from INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN while_off_to INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN while_off_collected_at INTEGER;
      -- A catch-up not finished yet (the computer was switched off or the connection failed in the middle): what it
      -- filed so far, saved with each group, so that the summary counts it when it ends. All null when none is.
      ALTER TABLE mailbox_position ADD COLUMN catching_messages INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN catching_reviews INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN catching_quarantined INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN catching_from INTEGER;
      ALTER TABLE mailbox_position ADD COLUMN catching_to INTEGER;
    `,
  },
];
