import { createHash } from 'node:crypto';
import { AppFailure } from '../../shared/result';
import type { Database } from '../db/database';
import type { OutboxItem, OutboxKind } from '../outbox/types';

// A reviewed change: something the owner drafts, previews and then sends to Su through the outbox (a rates push,
// a property's record or facilities). The parts every kind shares live here:
// - the fingerprint: what is sent must be exactly what the preview showed;
// - one unsettled change per part (a property's rates, a property's details): the next is composed from what Su
//   confirmed, so it waits while one is on its way or refused and not yet retried or discarded;
// - confirmation: when Su confirms, the change becomes the record of what Su holds (`apply`), also after a
//   restart between the outbox's commit and the record's (`recover`);
// - history: every change with where its outgoing item is, newest first;
// - marking sent: only a change whose outcome is unknown may be marked sent by the owner (Su may have it).
//
// A feature keeps its changes in a table of its own with at least `id`, `outbox_id` and `applied_at`, and says
// which columns name a part.

/** The fingerprint of a request: the preview shows it, and the send must carry the same one. */
export const fingerprintOf = (request: unknown): string =>
  createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** The columns every table of changes has. */
export interface ChangeRow {
  id: number;
  outbox_id: number;
  applied_at: number | null;
}

/** A change with where its outgoing item is: its state, and why its last attempt failed (JSON), if it did. */
export type ChangeWithState<Row> = Row & { state: string; last_error: string | null };

export interface ReviewedChangesOptions<Row extends ChangeRow> {
  database: Database;
  /** The table of changes (a constant of the feature's, never input). */
  table: string;
  /** The columns naming a part: one change per part is unsettled at a time (`['hotel_id']`). */
  part: readonly string[];
  /** The owner's words in messages: for one change ("push", "change"), for sending one ("push", "send"). */
  noun: string;
  verb: string;
  /** Where the owner retries or discards a refused one, when it is not where they are (" in History"). */
  decideWhere?: string;
  /**
   * Makes a change Su confirmed the record of what Su holds, marks it applied (`applied_at`), and clears the draft
   * it came from; `result` is what Su answered. Runs its own transaction.
   */
  apply(row: Row, result: unknown): void;
}

export function createReviewedChanges<Row extends ChangeRow>(options: ReviewedChangesOptions<Row>) {
  const { database, table, part, noun } = options;
  const { db } = database;
  const partWhere = part.map((column) => `p.${column} = ?`).join(' AND ');
  const withState = `SELECT p.*, o.state, o.last_error FROM ${table} p JOIN outbox o ON o.id = p.outbox_id`;

  const changes = {
    /** The change of this part not yet confirmed by Su and not discarded (queued, sending or failed), if any. */
    unsettled(...values: unknown[]): ChangeWithState<Row> | null {
      return (
        (db
          .prepare(
            `${withState} WHERE ${partWhere} AND p.applied_at IS NULL AND o.state IN ('queued', 'sending', 'failed')
             ORDER BY p.id LIMIT 1`,
          )
          .get(...(values as never[])) as ChangeWithState<Row> | undefined) ?? null
      );
    },

    /**
     * Refuses a new change of this part while one is unsettled, saying what to do about it (`name`: how the
     * owner knows the unsettled one, when it has a name).
     */
    refuseWhileUnsettled(values: readonly unknown[], name?: (row: Row) => string): void {
      const open = changes.unsettled(...values);
      if (!open) return;
      const which = name ? `“${name(open)}”` : `The last ${noun}`;
      throw new AppFailure({
        code: 'invalid_state',
        message:
          open.state === 'failed'
            ? `${which} was not confirmed by Su: retry it or discard it${options.decideWhere ?? ''} first.`
            : `${which} is still on its way to Su: ${options.verb} again once Su has confirmed it.`,
        retryable: false,
      });
    },

    /** The changes whose columns `where` names hold these values, with their state, newest first (200 at most). */
    history(where: readonly string[], ...values: unknown[]): ChangeWithState<Row>[] {
      const filter = where.map((column) => `p.${column} = ?`).join(' AND ');
      return db
        .prepare(`${withState} WHERE ${filter} ORDER BY p.id DESC LIMIT 200`)
        .all(...(values as never[])) as unknown as ChangeWithState<Row>[];
    },

    /** The change an outgoing item carries, once that item moved on: a confirmed one becomes the record. */
    onOutboxChange(item: OutboxItem): Row | null {
      const row = db.prepare(`SELECT * FROM ${table} WHERE outbox_id = ?`).get(item.id) as Row | undefined;
      if (!row) return null;
      if (item.state === 'sent' && row.applied_at === null) options.apply(row, item.result);
      return row;
    },

    /**
     * Applies changes Su confirmed whose record was not written (the app stopped between the outbox's commit and
     * the record's): run at start, so the next change is never composed from a stale record.
     */
    recover(): number {
      const rows = db
        .prepare(
          `SELECT p.*, o.result AS outbox_result FROM ${table} p JOIN outbox o ON o.id = p.outbox_id
           WHERE o.state = 'sent' AND p.applied_at IS NULL ORDER BY p.id`,
        )
        .all() as unknown as (Row & { outbox_result: string | null })[];
      for (const { outbox_result, ...row } of rows)
        options.apply(row as unknown as Row, outbox_result ? JSON.parse(outbox_result) : null);
      return rows.length;
    },

    /**
     * Why the owner may not mark a change as sent: marking it sent makes it the record of what Su holds, which is
     * true only when Su may have taken it (the outcome is unknown), never when Su refused it.
     */
    markSentRefusal(item: OutboxItem): string | null {
      if (item.state === 'failed' && !item.lastError?.outcomeUnknown)
        return `Su refused this ${noun}, so it cannot be marked as sent: retry it or discard it.`;
      return null;
    },

    /**
     * The outbox kind of these changes: `send` as given; an item the owner may mark sent only when Su may have
     * it; a confirmed item becomes the record, and `changed` hears of every move of one (the screen refreshes).
     */
    outboxKind<P>(send: (payload: P) => Promise<unknown>, changed: (row: Row) => void): OutboxKind<P> {
      return {
        send,
        markSentRefusal: (item) => changes.markSentRefusal(item),
        changed: (item) => {
          const row = changes.onOutboxChange(item);
          if (row) changed(row);
        },
      };
    },
  };
  return changes;
}

export type ReviewedChanges<Row extends ChangeRow> = ReturnType<typeof createReviewedChanges<Row>>;
