import type { z } from 'zod';
import { classifyDelivery } from '../../shared/su/deliveries';
import type { Database } from '../db/database';
import { errorText } from '../../shared/result';
import { dataFileFault } from '../db/faults';
import { withCachedStatements } from '../db/statements';
import { DELIVERY_SCHEMAS, type DeliveryFiler, type DeliveryFilers, type DeliveryKind } from './deliveryKinds';

export type { DeliveryKind } from './deliveryKinds';

/** What happened to one delivery, and what to answer the provider. */
export interface IngestResult {
  httpStatus: 200 | 400;
  outcome: 'stored' | 'duplicate' | 'quarantined' | 'not-json';
  kind: DeliveryKind | null;
  pushLogId: number;
  /** What the kind's filer answered for a delivery it stored (its feature reads it: the inbox's message or review). */
  filed?: unknown;
  /** Why a delivery was quarantined. */
  reason?: string;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

/** Thrown when a delivery must not be acknowledged because the store cannot take it: answer 5xx, Su reposts. */
export class StoreUnavailable extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`Cannot store deliveries: ${reason}`, options);
    this.name = 'StoreUnavailable';
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The body as it goes into the push log, byte for byte: text when the bytes are valid UTF-8 (SQLite keeps the
 * same bytes, a byte-order mark included), else the raw bytes as a BLOB. And the text JSON is read from: without
 * a leading byte-order mark (JSON.parse refuses one; RFC 8259 lets a reader ignore it).
 */
function readBody(raw: string | Uint8Array): { logged: string | Uint8Array; text: string } {
  let text: string;
  let logged: string | Uint8Array;
  if (typeof raw === 'string') {
    text = raw;
    logged = raw;
  } else {
    try {
      text = strictUtf8.decode(raw);
      logged = text;
    } catch {
      text = lenientUtf8.decode(raw);
      logged = raw;
    }
  }
  return { logged, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** One authenticated delivery waiting to be filed: its body as received, when it arrived, and its source. */
export interface PendingDelivery {
  raw: string | Uint8Array;
  now: number;
  /** 'demo' for a delivery of the built-in demo provider. */
  source: 'demo' | null;
}

/** What became of one delivery of a group: filed (acknowledge it), or failed on its own (answer 5xx, Su reposts). */
export type GroupOutcome = { result: IngestResult } | { error: unknown };

/**
 * Files one authenticated delivery, durably, in ONE transaction on the synchronous=FULL connection: the raw body
 * goes to the push log first, then it is parsed and stored (or quarantined). The caller acknowledges only
 * after this returns; when it throws (the store is damaged, or the write failed), the caller answers 5xx and the
 * provider reposts.
 *
 * A bug while storing never loses the delivery: the store step runs in a savepoint, and when it throws the delivery is
 * quarantined with the reason instead (still acknowledged: a repost would fail the same way, and the provider
 * drops an item after 3 reposts). A failure of the STORE (disk full, I/O error, busy, read-only, damaged) is not a
 * payload problem: nothing is quarantined or acknowledged, the error is thrown as it was, and the store's health
 * says "cannot store deliveries since …" until a write succeeds again.
 */
export function fileDelivery(
  database: Database,
  filers: DeliveryFilers,
  rawBody: string | Uint8Array,
  now: number,
  /** 'demo' for a delivery of the built-in demo provider. */
  source: 'demo' | null = null,
): IngestResult {
  const [outcome] = ingestGroup(database, filers, [{ raw: rawBody, now, source }], now);
  if (!outcome || 'error' in outcome) throw outcome?.error;
  return outcome.result;
}

/**
 * Files a group of deliveries in ONE transaction (one BEGIN IMMEDIATE … COMMIT, one synchronous=FULL sync for all of
 * them), in the order given; the outcomes come back in the same order. Acknowledge a delivery only after this
 * returned.
 *
 * Each delivery is filed as `fileDelivery` files it (raw log first, a bad payload quarantined, a duplicate — also of an
 * earlier delivery of the same group — recognised). A delivery that fails on its own (not the store: a bug) is reported
 * as an error without touching the others (see `fileAll`). A STORE fault (disk full, I/O, busy,
 * read-only, damaged) fails the whole group: the transaction is rolled back, nothing of any delivery stays, nothing is
 * quarantined, and the original error is thrown for the caller to answer 5xx to every delivery of the group.
 */
export function ingestGroup(
  database: Database,
  filers: DeliveryFilers,
  deliveries: readonly PendingDelivery[],
  now: number,
  /**
   * Written in the same transaction, after the group (the mailbox's collector saves how far it has filed): it commits
   * with the deliveries or not at all. A throw fails the whole group like a store fault.
   */
  alsoWrite?: (db: Database['db'], outcomes: readonly GroupOutcome[]) => void,
): GroupOutcome[] {
  const { health } = database;
  const damaged = health.refusing() ? health.problem() : null;
  if (damaged) throw new StoreUnavailable(damaged.reason);
  const db = withCachedStatements(database.db);
  let outcomes: GroupOutcome[];
  try {
    outcomes = database.transaction(() => {
      const filed = fileAll(db, filers, deliveries);
      alsoWrite?.(db, filed);
      return filed;
    });
  } catch (error) {
    health.writeFailed(error, now);
    throw error;
  }
  health.writeSucceeded(now);
  return outcomes;
}

/** Thrown out of the quick way of filing a group when one delivery failed on its own (a bug, not the store). */
class FiledAlone extends Error {}

/**
 * Files a group the quick way first: every delivery straight into the transaction, no savepoint of its own (each
 * savepoint makes SQLite's full-text index write out what it holds, per delivery). Only when a delivery fails on its
 * own — a bug, never the store — is the group rolled back to where it started and filed again the careful way, each
 * delivery in its own savepoint, so that delivery alone fails or is quarantined. Either way the outcomes are the same.
 */
function fileAll(db: Database['db'], filers: DeliveryFilers, deliveries: readonly PendingDelivery[]): GroupOutcome[] {
  db.exec('SAVEPOINT file_group');
  try {
    const outcomes = deliveries.map((delivery): GroupOutcome => {
      const { logged, text } = readBody(delivery.raw);
      try {
        return { result: fileOne(db, filers, logged, text, delivery.now, delivery.source, false) };
      } catch (error) {
        if (dataFileFault(error) || !db.isTransaction) throw error;
        throw new FiledAlone();
      }
    });
    db.exec('RELEASE file_group');
    return outcomes;
  } catch (error) {
    if (!(error instanceof FiledAlone)) throw error;
    db.exec('ROLLBACK TO file_group');
    db.exec('RELEASE file_group');
    return deliveries.map((delivery) => fileInSavepoint(db, filers, delivery));
  }
}

function fileInSavepoint(db: Database['db'], filers: DeliveryFilers, delivery: PendingDelivery): GroupOutcome {
  const { logged, text } = readBody(delivery.raw);
  db.exec('SAVEPOINT file_push');
  try {
    const result = fileOne(db, filers, logged, text, delivery.now, delivery.source, true);
    db.exec('RELEASE file_push');
    return { result };
  } catch (error) {
    // The store failed: the whole group goes (thrown as it was). SQLite may have rolled back by itself.
    if (dataFileFault(error) || !db.isTransaction) throw error;
    db.exec('ROLLBACK TO file_push');
    db.exec('RELEASE file_push');
    return { error };
  }
}

/**
 * Files one delivery inside a transaction the caller holds (a restore files every delivery it read back from the
 * damaged file in one transaction: all of them or none, then its marker goes). Throws on a store fault, like
 * `fileDelivery`.
 */
export function fileInTransaction(
  db: Database['db'],
  filers: DeliveryFilers,
  rawBody: string | Uint8Array,
  now: number,
  source: 'demo' | null,
): IngestResult {
  const { logged, text } = readBody(rawBody);
  return fileOne(withCachedStatements(db), filers, logged, text, now, source, true);
}

function fileOne(
  db: Database['db'],
  filers: DeliveryFilers,
  logged: string | Uint8Array,
  text: string,
  now: number,
  source: 'demo' | null,
  /** In a savepoint of its own, so that a failure to store it quarantines it; else such a failure is thrown. */
  guarded: boolean,
): IngestResult {
  // What the delivery is, read before anything is written (nothing here writes or can lose it): the log row then
  // carries its kind from the start, and a delivery that is stored needs no second write to its log row.
  let body: unknown = undefined;
  let json = true;
  try {
    body = JSON.parse(text);
  } catch {
    json = false;
  }
  const kind = json ? classifyDelivery(body) : null;
  const logRow = db
    .prepare("INSERT INTO push_log (received_at, body, kind, outcome, source) VALUES (?, ?, ?, 'stored', ?)")
    .run(now, logged, kind, source);
  const pushLogId = Number(logRow.lastInsertRowid);
  const finish = (result: Omit<IngestResult, 'pushLogId'>): IngestResult => {
    if (result.outcome !== 'stored' || result.kind !== kind || result.reason !== undefined) {
      db.prepare('UPDATE push_log SET kind = ?, outcome = ?, detail = ? WHERE id = ?').run(
        result.kind,
        result.outcome,
        result.reason ?? null,
        pushLogId,
      );
    }
    return { ...result, pushLogId };
  };
  const quarantine = (kind: DeliveryKind | null, reason: string) => {
    db.prepare('INSERT INTO quarantine (push_log_id, reason, created_at) VALUES (?, ?, ?)').run(pushLogId, reason, now);
    return finish({ httpStatus: 200, outcome: 'quarantined', kind, reason });
  };

  if (!json) return finish({ httpStatus: 400, outcome: 'not-json', kind: null, reason: 'The body is not JSON.' });
  if (!kind) return quarantine(null, 'Not a guest message or a review: none of their identifying fields is present.');
  const parsed = DELIVERY_SCHEMAS[kind].safeParse(body);
  if (!parsed.success)
    return quarantine(kind, `Looks like a ${kind} but does not fit it: ${describeIssues(parsed.error)}`);

  if (!guarded) return finish(store(db, filers, kind, parsed.data, { receivedAt: now, pushLogId }));
  db.exec('SAVEPOINT store_push');
  try {
    const result = store(db, filers, kind, parsed.data, { receivedAt: now, pushLogId });
    db.exec('RELEASE store_push');
    return finish(result);
  } catch (error) {
    // The store failed, not the payload: the whole delivery is refused (5xx) with the original error, never
    // quarantined and acknowledged. SQLite may already have rolled the transaction back by itself.
    if (dataFileFault(error) || !db.isTransaction) throw error;
    db.exec('ROLLBACK TO store_push');
    db.exec('RELEASE store_push');
    const why = errorText(error);
    return quarantine(kind, `Innkeeper could not file this ${kind}: ${why}`);
  }
}

/**
 * Hands a delivery that fits its kind's schema to the filer of the feature that owns the kind. A kind no feature
 * files (none registered) is quarantined: kept, acknowledged, and shown to the owner.
 */
function store(
  db: Database['db'],
  filers: DeliveryFilers,
  kind: DeliveryKind,
  data: unknown,
  meta: { receivedAt: number; pushLogId: number },
): Omit<IngestResult, 'pushLogId'> {
  const filer = filers[kind] as DeliveryFiler | undefined;
  if (!filer) throw new Error(`nothing in Innkeeper files a ${kind}`);
  const filed = filer(db, data as never, meta);
  return filed === null || filed === undefined
    ? { httpStatus: 200, outcome: 'duplicate', kind }
    : { httpStatus: 200, outcome: 'stored', kind, filed };
}
