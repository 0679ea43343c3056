import type { DatabaseSync } from 'node:sqlite';
import { formatMinor } from '../../shared/money';
import type { PaymentLinkEntry, PaymentPartner, PaymentStatus, TypedLink } from '../../shared/payments';
import type { AppError } from '../../shared/result';
import { redactJson, secretsOfDatabase } from '../gateway/secretLeaks';

// The payments tables as rows, and the rows as the contract's entries. Every query is per provider: a sandbox
// account's links are not the demo's.

export interface PartnerRow {
  provider: string;
  hotel_id: string;
  partner_id: string;
  name: string;
  email: string;
  contact_name: string;
  contact_number: string;
  status: string;
  currency: string;
  origin: 'created' | 'entered';
  created_at: number;
  updated_at: number;
}

export interface LinkRow {
  id: number;
  provider: string;
  kind: 'card' | 'widget';
  hotel_id: string;
  partner_id: string | null;
  amount_minor: number | null;
  /** The currency's minor digits when the amount was stored (read back with those, whatever the table says later). */
  minor_digits: number | null;
  currency: string | null;
  order_id: string | null;
  booking_id: string | null;
  is_button: number | null;
  customer_email: string | null;
  contact_number: string | null;
  return_url: string | null;
  for_whom: string | null;
  purpose: string | null;
  thread_id: number | null;
  url: string | null;
  transaction_id: string | null;
  transaction_source: 'host' | 'owner' | null;
  status: PaymentStatus;
  host_status: string | null;
  gateway_txn_id: string | null;
  paid_amount: string | null;
  paid_currency: string | null;
  created_at: number;
  requested_at: number | null;
  settled_at: number | null;
  last_checked_at: number | null;
  next_check_at: number | null;
  check_attempts: number;
  check_error: string | null;
  typed: string | null;
  error: string | null;
  outcome_unknown: number;
}

const json = <T>(text: string | null): T | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};

export const toPartner = (r: PartnerRow): PaymentPartner => ({
  hotelId: r.hotel_id,
  partnerId: r.partner_id,
  name: r.name,
  email: r.email,
  contactName: r.contact_name,
  contactNumber: r.contact_number,
  status: r.status === 'active' || r.status === 'inactive' ? r.status : '',
  currency: r.currency,
  origin: r.origin,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toLink = (r: LinkRow): PaymentLinkEntry => ({
  id: r.id,
  kind: r.kind,
  hotelId: r.hotel_id,
  partnerId: r.partner_id,
  amount:
    r.amount_minor !== null && r.currency ? formatMinor(r.amount_minor, r.currency, r.minor_digits ?? undefined) : null,
  amountMinor: r.amount_minor,
  currency: r.currency,
  orderId: r.order_id,
  bookingId: r.booking_id,
  isButton: r.is_button === null ? null : r.is_button === 1,
  customerEmail: r.customer_email,
  contactNumber: r.contact_number,
  returnUrl: r.return_url,
  forWhom: r.for_whom,
  purpose: r.purpose,
  threadId: r.thread_id,
  url: r.url,
  transactionId: r.transaction_id,
  transactionSource: r.transaction_source,
  status: r.status,
  hostStatus: r.host_status,
  gatewayTransactionId: r.gateway_txn_id,
  paidAmount: r.paid_amount,
  paidCurrency: r.paid_currency,
  createdAt: r.created_at,
  requestedAt: r.requested_at,
  settledAt: r.settled_at,
  lastCheckedAt: r.last_checked_at,
  nextCheckAt: r.next_check_at,
  checkError: json<AppError>(r.check_error),
  typed: json<TypedLink>(r.typed),
  error: json<AppError>(r.error),
  outcomeUnknown: r.outcome_unknown === 1,
});

/** The link columns a service writes (everything but the id, provider and creation time). */
export type LinkColumns = Partial<Omit<LinkRow, 'id' | 'provider' | 'created_at'>>;

/** The link columns a service may write; any other key is refused (column names are put in the SQL text). */
const WRITABLE = new Set<string>([
  'kind',
  'hotel_id',
  'partner_id',
  'amount_minor',
  'minor_digits',
  'currency',
  'order_id',
  'booking_id',
  'is_button',
  'customer_email',
  'contact_number',
  'return_url',
  'for_whom',
  'purpose',
  'thread_id',
  'url',
  'transaction_id',
  'transaction_source',
  'status',
  'host_status',
  'gateway_txn_id',
  'paid_amount',
  'paid_currency',
  'requested_at',
  'settled_at',
  'last_checked_at',
  'next_check_at',
  'check_attempts',
  'check_error',
  'typed',
  'error',
  'outcome_unknown',
]);
function columnNames(columns: object): string[] {
  const names = Object.keys(columns).filter((n) => (columns as Record<string, unknown>)[n] !== undefined);
  const unknown = names.find((n) => !WRITABLE.has(n));
  if (unknown) throw new Error(`payment_links has no writable column ${unknown}`);
  return names;
}
const pick = (columns: object, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, (columns as Record<string, unknown>)[n]])) as Record<string, never>;
/** SECURITY: the host's refusals are stored without the saved secrets, whatever the service let through. */
const ERROR_COLUMNS = new Set(['error', 'check_error']);
const cleaned = (db: DatabaseSync, values: Record<string, never>) =>
  Object.fromEntries(
    Object.entries(values).map(([n, v]) => [
      n,
      ERROR_COLUMNS.has(n) && typeof v === 'string' ? redactJson(v, secretsOfDatabase(db)) : v,
    ]),
  ) as Record<string, never>;

/** SQL for the payments tables, on one connection. */
export function paymentsStore(db: DatabaseSync) {
  /** Told when a link's next check was written (the poller times its next round again). */
  const scheduleWritten = new Set<() => void>();
  const written = (columns: LinkColumns) => {
    if ('next_check_at' in columns) for (const listener of scheduleWritten) listener();
  };
  return {
    /** `listener` is called whenever a link's next check is written. */
    onScheduleWritten(listener: () => void): void {
      scheduleWritten.add(listener);
    },
    /** When the provider's next link is due to be asked (epoch ms), or null when none is followed. */
    nextDueAt: (provider: string) =>
      (
        db
          .prepare(
            'SELECT min(next_check_at) AS at FROM payment_links WHERE provider = ? AND next_check_at IS NOT NULL',
          )
          .get(provider) as { at: number | null }
      ).at,
    partners: (provider: string) =>
      db
        .prepare('SELECT * FROM payment_partners WHERE provider = ? ORDER BY hotel_id')
        .all(provider) as unknown as PartnerRow[],
    partner: (provider: string, hotelId: string) =>
      db.prepare('SELECT * FROM payment_partners WHERE provider = ? AND hotel_id = ?').get(provider, hotelId) as
        PartnerRow | undefined,
    putPartner(row: PartnerRow): void {
      db.prepare(
        `INSERT INTO payment_partners (provider, hotel_id, partner_id, name, email, contact_name, contact_number,
           status, currency, origin, created_at, updated_at)
         VALUES (:provider, :hotel_id, :partner_id, :name, :email, :contact_name, :contact_number, :status, :currency,
           :origin, :created_at, :updated_at)
         ON CONFLICT (provider, hotel_id) DO UPDATE SET partner_id = excluded.partner_id, name = excluded.name,
           email = excluded.email, contact_name = excluded.contact_name, contact_number = excluded.contact_number,
           status = excluded.status, currency = excluded.currency, origin = excluded.origin,
           updated_at = excluded.updated_at,
           created_at = CASE WHEN payment_partners.partner_id = excluded.partner_id
             THEN payment_partners.created_at ELSE excluded.created_at END`,
      ).run({ ...row });
    },
    forgetPartner: (provider: string, hotelId: string) =>
      Number(
        db.prepare('DELETE FROM payment_partners WHERE provider = ? AND hotel_id = ?').run(provider, hotelId).changes,
      ) > 0,
    links: (provider: string, threadId?: number) =>
      (threadId === undefined
        ? db.prepare('SELECT * FROM payment_links WHERE provider = ? ORDER BY id DESC').all(provider)
        : db
            .prepare('SELECT * FROM payment_links WHERE provider = ? AND thread_id = ? ORDER BY id DESC')
            .all(provider, threadId)) as unknown as LinkRow[],
    link: (provider: string, id: number) =>
      db.prepare('SELECT * FROM payment_links WHERE provider = ? AND id = ?').get(provider, id) as LinkRow | undefined,
    insertLink(provider: string, createdAt: number, columns: LinkColumns & Pick<LinkRow, 'kind' | 'hotel_id'>): number {
      const names = columnNames(columns);
      const result = db
        .prepare(
          `INSERT INTO payment_links (provider, created_at, status, ${names.join(', ')})
           VALUES (:provider, :created_at, 'draft', ${names.map((n) => `:${n}`).join(', ')})`,
        )
        .run({ ...cleaned(db, pick(columns, names)), provider, created_at: createdAt });
      written(columns);
      return Number(result.lastInsertRowid);
    },
    /**
     * Writes columns of one of the provider's links; with `transactionId`, only while the link still has that
     * transaction (an answer about an id the owner has since replaced is not filed). Answers whether it wrote.
     */
    updateLink(provider: string, id: number, columns: LinkColumns, transactionId?: string): boolean {
      const names = columnNames(columns);
      if (!names.length) return false;
      const guard = transactionId === undefined ? '' : ' AND transaction_id = :guard_transaction';
      const result = db
        .prepare(
          `UPDATE payment_links SET ${names.map((n) => `${n} = :${n}`).join(', ')}
           WHERE id = :guard_id AND provider = :guard_provider${guard}`,
        )
        .run({
          ...cleaned(db, pick(columns, names)),
          guard_id: id,
          guard_provider: provider,
          ...(transactionId === undefined ? {} : { guard_transaction: transactionId }),
        });
      const wrote = Number(result.changes) > 0;
      if (wrote) written(columns);
      return wrote;
    },
    deleteDraft: (provider: string, id: number) =>
      Number(
        db.prepare(`DELETE FROM payment_links WHERE provider = ? AND id = ? AND status = 'draft'`).run(provider, id)
          .changes,
      ) > 0,
    /** A created link (or a draft that may have reached the host) of the partner with this order id. */
    orderIdTaken: (provider: string, partnerId: string, orderId: string, except: number) =>
      db
        .prepare(
          `SELECT id, created_at, amount_minor, currency FROM payment_links
           WHERE provider = ? AND partner_id = ? AND order_id = ? AND id != ?
             AND (status != 'draft' OR outcome_unknown = 1) LIMIT 1`,
        )
        .get(provider, partnerId, orderId, except) as
        { id: number; created_at: number; amount_minor: number | null; currency: string | null } | undefined,
    orderIdUsed: (provider: string, orderId: string) =>
      db.prepare('SELECT 1 FROM payment_links WHERE provider = ? AND order_id = ? LIMIT 1').get(provider, orderId) !==
      undefined,
    /** The provider answers at `to` now: its links made at one of the `from` origins point there (same path). */
    moveLinks(provider: string, from: string[], to: string): number {
      const move = db.prepare(
        `UPDATE payment_links SET url = :to || substr(url, length(:from) + 1)
         WHERE provider = :provider AND substr(url, 1, length(:from) + 1) = :from || '/'`,
      );
      return from.reduce((n, origin) => n + Number(move.run({ provider, from: origin, to }).changes), 0);
    },
    /** Links whose status is due to be asked, soonest first. */
    due: (provider: string, at: number, limit: number) =>
      db
        .prepare(
          `SELECT * FROM payment_links WHERE provider = ? AND next_check_at IS NOT NULL AND next_check_at <= ?
           ORDER BY next_check_at LIMIT ?`,
        )
        .all(provider, at, limit) as unknown as LinkRow[],
  };
}
