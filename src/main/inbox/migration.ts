import type { Migration } from '../db/migrations';

/** The inbox's triage and per-property lists (issue 13). */
export const INBOX_TRIAGE_MIGRATION: Migration = {
  version: 13,
  name: 'inbox: conversations marked done, lists per property',
  sql: `
    -- The owner marked a conversation done up to this message (its id): it needs no reply until a later guest
    -- message arrives. NULL: never marked done.
    ALTER TABLE threads ADD COLUMN done_through INTEGER;
    -- The property filters of the conversation and review lists.
    CREATE INDEX threads_by_hotel ON threads (hotel_id, last_message_at DESC);
    CREATE INDEX reviews_by_hotel ON reviews (hotel_id, received_at DESC);
  `,
};
