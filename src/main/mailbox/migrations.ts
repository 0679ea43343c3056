import type { Migration } from '../db/migrations';

/**
 * The mailbox's one row: which mailbox and device this computer collects as, and how far it has filed. The position
 * is written in the same transaction as the deliveries it covers (so a crash never loses or files one twice).
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
];
