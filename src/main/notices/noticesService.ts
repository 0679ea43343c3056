import { createPoller } from '../lib/poller';
import type { Notice, NoticeAccount, NoticeCheck, NoticesView } from '../../shared/notices';
import { AppFailure, ErrorCode, errorText, type AppError } from '../../shared/result';
import type { Database } from '../db/database';
import { redact, redactJson, secretsOfDatabase } from '../gateway/secretLeaks';
import type { AccountNotifications } from '../provider/endpoints/notifications';

/** How often each property is checked when all goes well, and the longest wait after failures. */
export const NOTICE_TIMING = { everyMs: 5 * 60_000, maxBackoffMs: 60 * 60_000 };

type NoticeRow = {
  id: number;
  hotel_id: string;
  account_id: string;
  notification_id: string;
  type: string;
  title: string;
  subtitle: string;
  cta_url: string;
  first_seen_at: number;
  seen_at: number | null;
};

/** A call to action is offered only as an https address: anything else (javascript:, http:, a path) is not. */
export function safeActionUrl(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' && parsed.hostname !== '' && !parsed.username && !parsed.password
      ? parsed.href
      : null;
  } catch {
    return null;
  }
}

const toNotice = (r: NoticeRow): Notice => ({
  id: r.id,
  hotelId: r.hotel_id,
  accountId: r.account_id,
  notificationId: r.notification_id,
  type: r.type,
  title: r.title,
  subtitle: r.subtitle,
  actionUrl: safeActionUrl(r.cta_url),
  firstSeenAt: r.first_seen_at,
  seenAt: r.seen_at,
});

/**
 * Airbnb's notices for the owner's properties (Su's notificationAB): checked one property at a time, each on its
 * own schedule (every few minutes; later and later after failures), kept locally and deduplicated by Airbnb's
 * notification id, so a notice listed again and again is one row, seen once.
 */
export function createNoticesService(deps: {
  database: Database;
  now: () => number;
  /** Endpoint 12 for one property; throws an AppFailure when the whole call fails. */
  fetch: (hotelId: string) => Promise<AccountNotifications[]>;
  /** The properties with Airbnb among their channels: only those are checked. */
  properties: () => string[];
  /** The provider in use ('demo', 'sandbox', 'production'): notices are kept per provider. */
  provider: () => string;
  /** True while Su is known to be unreachable (the outbox's backoff): the background checks wait. */
  offline?: () => boolean;
  /** Told after every check or change: the notices new since the last check, and the unseen count. */
  onChanged?: (change: { added: Notice[]; unseen: number; firstCheck: boolean }) => void;
  timing?: typeof NOTICE_TIMING;
}) {
  const { database, now, provider } = deps;
  const { db } = database;
  const timing = deps.timing ?? NOTICE_TIMING;
  let inFlight: Promise<void> | null = null;

  const unseen = () =>
    (
      db.prepare('SELECT count(*) AS n FROM notices WHERE provider = ? AND seen_at IS NULL').get(provider()) as {
        n: number;
      }
    ).n;

  function list(hotelId?: string): NoticesView {
    const hotelIds = deps.properties();
    const where = hotelId ? 'WHERE provider = ? AND hotel_id = ?' : 'WHERE provider = ?';
    const params = hotelId ? [provider(), hotelId] : [provider()];
    const notices = (
      db
        .prepare(`SELECT * FROM notices ${where} ORDER BY seen_at IS NOT NULL, first_seen_at DESC, id DESC LIMIT 500`)
        .all(...params) as NoticeRow[]
    ).map(toNotice);
    const accounts = (
      db.prepare(`SELECT * FROM notice_accounts ${where} ORDER BY hotel_id, account_id`).all(...params) as {
        hotel_id: string;
        account_id: string;
        ok: number;
        message: string | null;
        checked_at: number;
      }[]
    ).map((a): NoticeAccount => ({
      hotelId: a.hotel_id,
      accountId: a.account_id,
      ok: a.ok === 1,
      message: a.message,
      checkedAt: a.checked_at,
    }));
    const checks = (
      db.prepare(`SELECT * FROM notice_checks ${where} ORDER BY hotel_id`).all(...params) as {
        hotel_id: string;
        last_ok_at: number | null;
        last_tried_at: number | null;
        error: string | null;
        next_at: number | null;
      }[]
    ).map((c): NoticeCheck => ({
      hotelId: c.hotel_id,
      lastOkAt: c.last_ok_at,
      lastTriedAt: c.last_tried_at,
      error: c.error ? (JSON.parse(c.error) as AppError) : null,
      nextAt: c.next_at,
    }));
    return { notices, accounts, checks, unseen: unseen(), hotelIds };
  }

  /** Stores one successful answer; returns the notices never seen before. */
  function store(of: string, hotelId: string, answer: AccountNotifications[], at: number): Notice[] {
    return database.transaction(() => {
      const added: Notice[] = [];
      const insert = db.prepare(
        `INSERT INTO notices (provider, hotel_id, account_id, notification_id, type, title, subtitle, cta_url, first_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (provider, hotel_id, account_id, notification_id) DO NOTHING RETURNING *`,
      );
      const account = db.prepare(
        `INSERT INTO notice_accounts (provider, hotel_id, account_id, ok, message, checked_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (provider, hotel_id, account_id) DO UPDATE SET ok = excluded.ok, message = excluded.message, checked_at = excluded.checked_at`,
      );
      for (const element of answer) {
        const message = element.ok || element.message === null ? null : redact(element.message, secretsOfDatabase(db));
        account.run(of, hotelId, element.accountId, element.ok ? 1 : 0, message, at);
        for (const n of element.notifications) {
          if (!n.id) continue;
          const row = insert.get(of, hotelId, element.accountId, n.id, n.type, n.title, n.subtitle, n.actionUrl, at) as
            NoticeRow | undefined;
          if (row) added.push(toNotice(row));
        }
      }
      db.prepare(
        `INSERT INTO notice_checks (provider, hotel_id, last_ok_at, last_tried_at, error, failures, next_at)
         VALUES (?, ?, ?, ?, NULL, 0, ?)
         ON CONFLICT (provider, hotel_id) DO UPDATE SET last_ok_at = excluded.last_ok_at, last_tried_at = excluded.last_tried_at,
           error = NULL, failures = 0, next_at = excluded.next_at`,
      ).run(of, hotelId, at, at, at + timing.everyMs);
      return added;
    });
  }

  function recordFailure(of: string, hotelId: string, error: AppError, at: number): void {
    const row = db
      .prepare('SELECT failures FROM notice_checks WHERE provider = ? AND hotel_id = ?')
      .get(of, hotelId) as { failures: number } | undefined;
    const failures = (row?.failures ?? 0) + 1;
    // Later and later: 5, 10, 20, 40 minutes, then hourly (offline, Su down, credentials wrong).
    const wait = Math.min(timing.everyMs * 2 ** (failures - 1), timing.maxBackoffMs);
    db.prepare(
      `INSERT INTO notice_checks (provider, hotel_id, last_ok_at, last_tried_at, error, failures, next_at)
       VALUES (?, ?, NULL, ?, ?, ?, ?)
       ON CONFLICT (provider, hotel_id) DO UPDATE SET last_tried_at = excluded.last_tried_at, error = excluded.error,
         failures = excluded.failures, next_at = excluded.next_at`,
    ).run(of, hotelId, at, redactJson(JSON.stringify(error), secretsOfDatabase(db)), failures, at + wait);
  }

  /** Checks one property now. Never throws: a failure is recorded on the property, and its next check waits. */
  async function checkOne(hotelId: string): Promise<void> {
    // The provider asked: an answer that arrives after the owner switched is still filed under it.
    const of = provider();
    const firstCheck =
      (
        db.prepare('SELECT last_ok_at FROM notice_checks WHERE provider = ? AND hotel_id = ?').get(of, hotelId) as
          { last_ok_at: number | null } | undefined
      )?.last_ok_at == null;
    let added: Notice[];
    try {
      const answer = await deps.fetch(hotelId);
      added = store(of, hotelId, answer, now());
    } catch (error) {
      const appError: AppError =
        error instanceof AppFailure
          ? error.error
          : { code: ErrorCode.Internal, message: `Checking Airbnb notices failed: ${errorText(error)}` };
      recordFailure(of, hotelId, appError, now());
      deps.onChanged?.({ added: [], unseen: unseen(), firstCheck });
      return;
    }
    deps.onChanged?.({ added, unseen: unseen(), firstCheck });
  }

  /** Checks properties one request at a time; a second call while one runs waits for it and then runs. */
  function run(hotelIds: string[]): Promise<void> {
    const previous = inFlight ?? Promise.resolve();
    const next: Promise<void> = previous
      .then(async () => {
        for (const hotelId of hotelIds) await checkOne(hotelId);
      })
      .finally(() => {
        if (inFlight === next) inFlight = null;
      });
    inFlight = next;
    return next;
  }

  return {
    list,
    unseen,
    /** Checks the property (or every checked property) now, whatever its schedule. */
    async checkNow(hotelId?: string): Promise<NoticesView> {
      const checked = deps.properties();
      if (hotelId && !checked.includes(hotelId))
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: 'This property has no Airbnb channel, so it has no Airbnb notices to check.',
          field: 'hotelId',
          retryable: false,
        });
      await run(hotelId ? [hotelId] : checked);
      return list(hotelId);
    },
    /** Checks the properties whose time has come (the poller's tick). Returns how many were checked. */
    async checkDue(): Promise<number> {
      if (inFlight || deps.offline?.()) return 0;
      const at = now();
      const due = deps.properties().filter((hotelId) => {
        const row = db
          .prepare('SELECT next_at FROM notice_checks WHERE provider = ? AND hotel_id = ?')
          .get(provider(), hotelId) as { next_at: number | null } | undefined;
        return !row || row.next_at === null || row.next_at <= at;
      });
      if (due.length) await run(due);
      return due.length;
    },
    markSeen(args: { ids?: number[] | undefined; hotelId?: string | undefined }): { unseen: number } {
      const at = now();
      if (args.ids?.length) {
        const mark = db.prepare('UPDATE notices SET seen_at = ? WHERE id = ? AND provider = ? AND seen_at IS NULL');
        database.transaction(() => args.ids!.forEach((id) => mark.run(at, id, provider())));
      } else if (args.hotelId) {
        db.prepare('UPDATE notices SET seen_at = ? WHERE provider = ? AND hotel_id = ? AND seen_at IS NULL').run(
          at,
          provider(),
          args.hotelId,
        );
      } else {
        db.prepare('UPDATE notices SET seen_at = ? WHERE provider = ? AND seen_at IS NULL').run(at, provider());
      }
      const count = unseen();
      deps.onChanged?.({ added: [], unseen: count, firstCheck: false });
      return { unseen: count };
    },
    /** Marks the notice seen and answers its https call to action; refuses any other kind of address. */
    open(id: number): { url: string } {
      const row = db.prepare('SELECT * FROM notices WHERE id = ? AND provider = ?').get(id, provider()) as
        NoticeRow | undefined;
      if (!row)
        throw new AppFailure({ code: 'not_found', message: 'This notice is no longer there.', retryable: false });
      const url = safeActionUrl(row.cta_url);
      if (!url)
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: 'This notice has no https link to open; look it up in your Airbnb account.',
          retryable: false,
        });
      if (row.seen_at === null) {
        db.prepare('UPDATE notices SET seen_at = ? WHERE id = ?').run(now(), id);
        deps.onChanged?.({ added: [], unseen: unseen(), firstCheck: false });
      }
      return { url };
    },
    /** Waits for a check in flight (shutdown). */
    settle: () => inFlight ?? Promise.resolve(),
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;

/** Checks what is due every `tickMs` while started, one round at a time. */
export const createNoticesPoller = (service: NoticesService, tickMs = 30_000, onError = console.error) =>
  createPoller({ name: 'notices', round: () => service.checkDue(), settle: service.settle, tickMs, onError });
