import type { SQLInputValue } from 'node:sqlite';
import type { AppError } from '../../shared/result';
import type { Database } from '../db/database';
import { redactDeep, secretsOfDatabase } from '../gateway/secretLeaks';
import { PAUSING_CODES } from './policy';
import type { OutboxCounts, OutboxItem, OutboxPause, OutboxState } from './types';

interface Row {
  id: number;
  entity_key: string;
  kind: string;
  payload: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
  provider: string | null;
}

const toItem = (row: Row): OutboxItem => ({
  id: row.id,
  kind: row.kind,
  entityKey: row.entity_key,
  payload: JSON.parse(row.payload) as unknown,
  state: row.state,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error === null ? null : (JSON.parse(row.last_error) as AppError),
  result: row.result === null ? null : (JSON.parse(row.result) as unknown),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  provider: row.provider,
});

/** States that hold back later items of the same entity: a second reply in a thread waits for the first. */
const BLOCKING = `('queued', 'sending', 'failed')`;

/** A queued item whose entity has nothing earlier still open: it is its entity's turn. */
const IS_HEAD = `o.state = 'queued' AND NOT EXISTS (
  SELECT 1 FROM outbox e WHERE e.entity_key = o.entity_key AND e.id < o.id AND e.state IN ${BLOCKING})`;

/**
 * A queued item waiting for credentials is the persisted form of the pause: it survives a restart with the row
 * itself, and needs no table of its own. Its last_error is the provider's refusal.
 */
const WAITS_FOR_CREDENTIALS = `state = 'queued' AND last_error IS NOT NULL AND (
  json_extract(last_error, '$.code') IN (SELECT value FROM json_each(:codes))
  OR json_extract(last_error, '$.httpStatus') = 401)`;

/** The outbox table's SQL, one statement per transition. Each write is one autocommitted (durable) statement. */
export function createOutboxSql(database: Database) {
  const { db } = database;
  const codes = JSON.stringify(PAUSING_CODES);
  const one = (sql: string) => {
    const statement = db.prepare(sql);
    return (params: Record<string, SQLInputValue> = {}) => statement.get(params) as Row | undefined;
  };
  const all = (sql: string) => {
    const statement = db.prepare(sql);
    return (params: Record<string, SQLInputValue> = {}) => statement.all(params) as unknown as Row[];
  };
  const run = (sql: string) => {
    const statement = db.prepare(sql);
    return (params: Record<string, SQLInputValue>) => Number(statement.run(params).changes) > 0;
  };

  const insert = one(`
    INSERT INTO outbox (entity_key, kind, payload, state, attempts, next_attempt_at, created_at, updated_at, provider)
    VALUES (:entityKey, :kind, :payload, 'queued', 0, :now, :now, :now, :provider) RETURNING *`);
  const byId = one('SELECT * FROM outbox WHERE id = :id');
  const byEntity = all('SELECT * FROM outbox WHERE entity_key = :entityKey ORDER BY id');
  const open = all(`SELECT * FROM outbox WHERE state IN ${BLOCKING} ORDER BY id`);
  const countStates = all(
    `SELECT kind, state, count(*) AS n FROM outbox WHERE state IN ${BLOCKING} GROUP BY kind, state`,
  );
  const dueHeads = all(`SELECT o.* FROM outbox o WHERE ${IS_HEAD} AND o.next_attempt_at <= :now
    ORDER BY o.next_attempt_at, o.id LIMIT :limit`);
  const nextHead = one(`SELECT o.* FROM outbox o WHERE ${IS_HEAD} ORDER BY o.next_attempt_at, o.id LIMIT 1`);
  const pauseRow = one(`SELECT * FROM outbox WHERE ${WAITS_FOR_CREDENTIALS} ORDER BY updated_at, id LIMIT 1`);
  const pausedRows = all(`SELECT * FROM outbox WHERE ${WAITS_FOR_CREDENTIALS} ORDER BY id`);
  const sendingRows = all(`SELECT * FROM outbox WHERE state = 'sending' ORDER BY id`);

  const toSending = run(`UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = :now
    WHERE id = :id AND state = 'queued'`);
  const toSent = run(`UPDATE outbox SET state = 'sent', result = :result, last_error = NULL, updated_at = :now
    WHERE id = :id AND state = :from`);
  const toQueued = run(`UPDATE outbox SET state = 'queued', attempts = :attempts, next_attempt_at = :at,
    last_error = :error, updated_at = :now WHERE id = :id AND state = :from`);
  const toFailed = run(`UPDATE outbox SET state = 'failed', last_error = :error, updated_at = :now
    WHERE id = :id AND state = :from`);
  const toDiscarded = run(`UPDATE outbox SET state = 'discarded', updated_at = :now
    WHERE id = :id AND state IN ('queued', 'failed')`);
  const setPayload = run(`UPDATE outbox SET payload = :payload, updated_at = :now
    WHERE id = :id AND state IN ('queued', 'failed')`);
  const clearPause = run(`UPDATE outbox SET last_error = NULL, next_attempt_at = min(next_attempt_at, :now),
    updated_at = :now WHERE ${WAITS_FOR_CREDENTIALS}`);

  const item = (row: Row | undefined) => (row ? toItem(row) : null);
  /** SECURITY: a refusal (and an answer) is stored without the saved secrets, whatever the sender let through. */
  const json = (value: AppError | null) =>
    value === null ? null : JSON.stringify(redactDeep(value, secretsOfDatabase(db)));

  return {
    /** Inserts a queued item; runs inside the caller's transaction when there is one. */
    insert: (kind: string, entityKey: string, payload: string, now: number, provider: string | null) =>
      toItem(insert({ kind, entityKey, payload, now, provider })!),
    get: (id: number) => item(byId({ id })),
    list: (entityKey: string) => byEntity({ entityKey }).map(toItem),
    pending: () => open().map(toItem),
    /** Unsettled items per state; `only` picks the kinds counted (all by default). */
    counts(only: (kind: string) => boolean = () => true): OutboxCounts {
      const counts: OutboxCounts = { queued: 0, sending: 0, failed: 0 };
      for (const r of countStates() as unknown as { kind: string; state: keyof OutboxCounts; n: number }[])
        if (only(r.kind)) counts[r.state] += r.n;
      return counts;
    },
    /** Items whose turn it is and whose time has come, earliest first. */
    dueHeads: (now: number, limit: number) => dueHeads({ now, limit }).map(toItem),
    /** When the earliest item whose turn it is becomes due (null when none is waiting for its time). */
    nextDueAt: () => nextHead()?.next_attempt_at ?? null,
    paused(): OutboxPause | null {
      const row = pauseRow({ codes });
      return row ? { error: JSON.parse(row.last_error!) as AppError, since: row.updated_at, itemId: row.id } : null;
    },
    /** Clears the pause; returns the items that were waiting for credentials. */
    resume(now: number): OutboxItem[] {
      const waiting = pausedRows({ codes }).map((r) => r.id);
      clearPause({ codes, now });
      return waiting.map((id) => item(byId({ id }))).filter((i): i is OutboxItem => i !== null);
    },
    sending: () => sendingRows().map(toItem),

    markSending: (id: number, now: number) => toSending({ id, now }),
    markSent: (id: number, result: unknown, now: number, from: 'sending' | 'failed' = 'sending') =>
      toSent({ id, now, result: JSON.stringify(redactDeep(result ?? null, secretsOfDatabase(db))), from }),
    requeue: (
      id: number,
      p: { attempts: number; at: number; error: AppError | null; now: number; from: OutboxState },
    ) => toQueued({ id, attempts: p.attempts, at: p.at, now: p.now, from: p.from, error: json(p.error) }),
    fail: (id: number, error: AppError, now: number, from: OutboxState = 'sending') =>
      toFailed({ id, error: json(error), now, from }),
    discard: (id: number, now: number) => toDiscarded({ id, now }),
    setPayload: (id: number, payload: string, now: number) => setPayload({ id, payload, now }),
  };
}

export type OutboxSql = ReturnType<typeof createOutboxSql>;
