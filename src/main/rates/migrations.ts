import type { Migration } from '../db/migrations';

/** The rates' tables: what Su holds as far as Innkeeper pushed it, drafts, pushes, the owner's setups. */
export const RATES_MIGRATIONS: readonly Migration[] = [
  {
    version: 4,
    name: 'rates: last pushed rules, drafts, push history',
    sql: `
      -- What Su holds, as far as Innkeeper pushed it and Su confirmed: property, target (inv:ROOM or rate:ROOM:RATE), day,
      -- and the day's full rule set (channel -> rule). Su offers no way to read rules back, so this is the record.
      CREATE TABLE rate_rules (
        hotel_id  TEXT NOT NULL,
        target    TEXT NOT NULL,
        day       TEXT NOT NULL,
        rules     TEXT NOT NULL,
        PRIMARY KEY (hotel_id, target, day)
      ) WITHOUT ROWID;

      -- One draft per property: the owner's edits, kept as they are made, sendable later.
      CREATE TABLE rate_drafts (
        hotel_id    TEXT PRIMARY KEY,
        name        TEXT NOT NULL DEFAULT '',
        edits       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      -- Every push: its edits, the request sent, the rule sets before it (for the diff and for revert).
      CREATE TABLE rate_pushes (
        id          INTEGER PRIMARY KEY,
        hotel_id    TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        edits       TEXT    NOT NULL,
        request     TEXT    NOT NULL,
        before      TEXT    NOT NULL,
        outbox_id   INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        applied_at  INTEGER,
        reverts     INTEGER REFERENCES rate_pushes (id)
      );
      CREATE INDEX rate_pushes_by_hotel ON rate_pushes (hotel_id, id DESC);
    `,
  },
  {
    version: 5,
    name: 'rates: rooms, rate plans and base figures per property, as the owner entered them',
    sql: `
      -- Su cannot list a property's rooms or rate plans: the owner enters them (ids as at Su, names, base figures).
      CREATE TABLE rate_setups (
        hotel_id    TEXT PRIMARY KEY,
        setup       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'rates: drafts count their revisions; a push names the revision it was made from',
    sql: `
      -- Which draft a push came from, by revision rather than by clock: Su's confirmation clears exactly that draft,
      -- and a draft edited after the push (or a clock that stepped back) cannot be mistaken for it.
      ALTER TABLE rate_drafts ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE rate_pushes ADD COLUMN draft_revision INTEGER;
    `,
  },
  {
    version: 8,
    name: 'rates: the rooms and rate plans Su ever confirmed a push for',
    sql: `
      -- The first-push warning reads this instead of every push in the history.
      CREATE TABLE rate_pushed_targets (
        hotel_id  TEXT NOT NULL,
        target    TEXT NOT NULL,
        PRIMARY KEY (hotel_id, target)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO rate_pushed_targets (hotel_id, target)
        SELECT p.hotel_id,
               CASE json_extract(e.value, '$.target.level')
                 WHEN 'inventory' THEN 'inv:' || json_extract(e.value, '$.target.roomId')
                 ELSE 'rate:' || json_extract(e.value, '$.target.roomId') || ':' || json_extract(e.value, '$.target.rateId')
               END
        FROM rate_pushes p, json_each(p.edits) e
        WHERE p.applied_at IS NOT NULL;
    `,
  },
];
