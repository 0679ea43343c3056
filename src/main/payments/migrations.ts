import type { Migration } from '../db/migrations';

/** The payments feature's tables: the partner accounts the app keeps, and the ledger of links, per provider. */
export const PAYMENTS_MIGRATION: Migration = {
  version: 12,
  name: 'payment accounts and links',
  sql: `
    -- One gateway account per property and provider (the host cannot list them: the app keeps them).
    CREATE TABLE payment_partners (
      provider       TEXT    NOT NULL,
      hotel_id       TEXT    NOT NULL,
      partner_id     TEXT    NOT NULL,
      name           TEXT    NOT NULL,
      email          TEXT    NOT NULL,
      contact_name   TEXT    NOT NULL,
      contact_number TEXT    NOT NULL,
      status         TEXT    NOT NULL,
      currency       TEXT    NOT NULL,
      origin         TEXT    NOT NULL CHECK (origin IN ('created', 'entered')),
      created_at     INTEGER NOT NULL,
      updated_at     INTEGER NOT NULL,
      PRIMARY KEY (provider, hotel_id)
    );
    -- Every link: drafts (typed, refused or not reachable), then what the host made and what became of it.
    -- Amounts are whole minor units (integers) beside the currency; never a float.
    CREATE TABLE payment_links (
      id                  INTEGER PRIMARY KEY AUTOINCREMENT,
      provider            TEXT    NOT NULL,
      kind                TEXT    NOT NULL CHECK (kind IN ('card', 'widget')),
      hotel_id            TEXT    NOT NULL,
      partner_id          TEXT,
      amount_minor        INTEGER,
      minor_digits        INTEGER,
      currency            TEXT,
      order_id            TEXT,
      booking_id          TEXT,
      is_button           INTEGER,
      customer_email      TEXT,
      contact_number      TEXT,
      return_url          TEXT,
      for_whom            TEXT,
      purpose             TEXT,
      thread_id           INTEGER,
      url                 TEXT,
      transaction_id      TEXT,
      transaction_source  TEXT,
      status              TEXT    NOT NULL CHECK (status IN ('draft', 'requested', 'paid', 'failed', 'unknown')),
      host_status         TEXT,
      gateway_txn_id      TEXT,
      paid_amount         TEXT,
      paid_currency       TEXT,
      created_at          INTEGER NOT NULL,
      requested_at        INTEGER,
      settled_at          INTEGER,
      last_checked_at     INTEGER,
      next_check_at       INTEGER,
      check_attempts      INTEGER NOT NULL DEFAULT 0,
      check_error         TEXT,
      typed               TEXT,
      error               TEXT,
      outcome_unknown     INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX payment_links_by_provider ON payment_links (provider, id DESC);
    CREATE INDEX payment_links_due ON payment_links (provider, next_check_at) WHERE next_check_at IS NOT NULL;
    -- An order id is used once per account: by a link the host made, or by a request that may have reached it.
    CREATE UNIQUE INDEX payment_links_order_once ON payment_links (provider, partner_id, order_id)
      WHERE status != 'draft' OR outcome_unknown = 1;
    CREATE INDEX payment_links_by_thread ON payment_links (thread_id) WHERE thread_id IS NOT NULL;
  `,
};

export const PAYMENTS_MIGRATIONS: readonly Migration[] = [PAYMENTS_MIGRATION];
