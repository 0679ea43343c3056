import { AppFailure } from '../../shared/result';
import { invRateControlSchema, type InvRateControl } from '../../shared/su/inventory';
import { validationError } from '../../shared/validation';
import type { RatePushRecord } from '../../shared/rates';
import {
  applyToBook,
  composeRequest,
  targetKey,
  withoutPastDays,
  type DaySet,
  type RuleBook,
  type RuleEdit,
} from '../../shared/ratesComposer';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import type { OutboxKind } from '../outbox/types';
import { createReviewedChanges } from '../reviewedChange/reviewedChanges';
import { dayChanges, pushDays, revertEdits, type Snapshot } from './changes';

/** The outbox kind of a rates push (Su's inventory and rate control call, `invratecontrol`). */
export const RATES_KIND = 'rates-push';
export type RatesKinds = { [RATES_KIND]: OutboxKind<InvRateControl> };
/** What a property's rates pushes belong to in the outbox: one at a time, in order. */
export const ratesKey = (hotelId: string) => `rates:${hotelId}`;

/**
 * The outbox's sender of a rates push: days that passed while it waited (offline overnight) are left out, since Su
 * refuses past dates (code 925); when none is left, nothing is sent and the push fails saying so.
 */
export function ratesSender(send: (request: InvRateControl) => Promise<unknown>, today: () => string) {
  return async (request: InvRateControl): Promise<unknown> => {
    const current = withoutPastDays(request, today());
    if (!current)
      throw new AppFailure({
        code: 'validation',
        message: 'Every day of this push has passed, so nothing was sent to Su. Discard it.',
        retryable: false,
      });
    return send(current);
  };
}

type PushRow = {
  id: number;
  hotel_id: string;
  name: string;
  edits: string;
  before: string;
  outbox_id: number;
  created_at: number;
  applied_at: number | null;
  reverts: number | null;
  draft_revision: number | null;
};

/**
 * The pushes of rates and what Su holds because of them: the record (what Su confirmed), the one push per property
 * that may be unsettled, queuing through the outbox, confirmation, history and revert.
 *
 * One push per property is unsettled at a time: a push is composed from the record, so while an earlier one is on
 * its way (or refused and not yet retried or discarded) the next waits. That keeps every request equal to what its
 * preview showed, and the record equal to what Su holds.
 */
export function createRatePushes(deps: {
  database: Database;
  outbox: Outbox<RatesKinds>;
  now: () => number;
  today: () => string;
}) {
  const { database, outbox, now, today } = deps;
  const { db } = database;
  // A push is a reviewed change (reviewedChanges.ts): one unsettled per property; confirmed, it becomes the record.
  const changes = createReviewedChanges<PushRow>({
    database,
    table: 'rate_pushes',
    part: ['hotel_id'],
    noun: 'push',
    verb: 'push',
    decideWhere: ' in History',
    apply: (push) => applyConfirmed(push),
  });

  /** The push of this property not yet confirmed by Su and not discarded, if any. */
  const unsettled = (hotelId: string) => changes.unsettled(hotelId);
  const refuseWhileUnsettled = (hotelId: string) => changes.refuseWhileUnsettled([hotelId], (push) => push.name);

  /** What Su holds once the unsettled push (if any) has gone through: the calendar shows it this way. */
  function effectiveBook(hotelId: string): RuleBook {
    const record = loadRecord(hotelId);
    const open = unsettled(hotelId);
    return open ? applyToBook(record, JSON.parse(open.edits) as RuleEdit[]) : record;
  }

  /** Targets Su ever confirmed a push for (kept as pushes are confirmed, so a preview reads no history). */
  function pushedTargets(hotelId: string): Set<string> {
    const rows = db.prepare('SELECT target FROM rate_pushed_targets WHERE hotel_id = ?').all(hotelId) as {
      target: string;
    }[];
    return new Set(rows.map((r) => r.target));
  }

  function enqueue(
    hotelId: string,
    name: string,
    edits: RuleEdit[],
    from: { reverts: number } | { draftRevision: number | null },
  ): number {
    refuseWhileUnsettled(hotelId);
    const record = loadRecord(hotelId);
    const request = composeRequest(hotelId, record, edits);
    const checked = invRateControlSchema(today()).safeParse(request);
    if (!checked.success) throw new AppFailure(validationError(checked.error));
    const before: Snapshot = {};
    for (const d of dayChanges(record, edits, false)) (before[d.target] ??= {})[d.day] = d.before;
    return database.transaction(() => {
      const item = outbox.enqueue(RATES_KIND, ratesKey(hotelId), checked.data as InvRateControl);
      const row = db
        .prepare(
          'INSERT INTO rate_pushes (hotel_id, name, edits, request, before, outbox_id, created_at, reverts, draft_revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          hotelId,
          name,
          JSON.stringify(edits),
          JSON.stringify(request),
          JSON.stringify(before),
          item.id,
          now(),
          'reverts' in from ? from.reverts : null,
          'draftRevision' in from ? from.draftRevision : null,
        );
      return Number(row.lastInsertRowid);
    });
  }

  /** Days of the unsettled push, as `TARGET|DAY`. */
  function pendingDays(hotelId: string): string[] {
    const open = unsettled(hotelId);
    if (!open) return [];
    return Object.entries(JSON.parse(open.before) as Snapshot).flatMap(([target, days]) =>
      Object.keys(days).map((day) => `${target}|${day}`),
    );
  }

  /**
   * The days from `from` on that a push Su confirmed set, per target: there Innkeeper knows each channel's rule
   * (a push sends a day's whole rule set). On other days Su may hold rules set elsewhere.
   */
  function confirmedDays(hotelId: string, from: string): Record<string, string[]> {
    const out: Record<string, Set<string>> = {};
    const rows = db
      .prepare('SELECT before FROM rate_pushes WHERE hotel_id = ? AND applied_at IS NOT NULL')
      .all(hotelId) as { before: string }[];
    for (const row of rows)
      for (const [target, days] of Object.entries(JSON.parse(row.before) as Snapshot))
        for (const day of Object.keys(days)) if (day >= from) (out[target] ??= new Set()).add(day);
    return Object.fromEntries(Object.entries(out).map(([t, days]) => [t, [...days].sort()]));
  }

  /** One property's record of what Su holds. */
  function loadRecord(hotelId: string): RuleBook {
    const book = new Map<string, Map<string, DaySet>>();
    for (const row of db.prepare('SELECT target, day, rules FROM rate_rules WHERE hotel_id = ?').all(hotelId) as {
      target: string;
      day: string;
      rules: string;
    }[]) {
      const days = book.get(row.target) ?? new Map<string, DaySet>();
      days.set(row.day, JSON.parse(row.rules) as DaySet);
      book.set(row.target, days);
    }
    return book;
  }

  /** Writes what a confirmed push sent into the record, marks it applied, and clears the draft it came from. */
  function applyConfirmed(push: PushRow): void {
    const upsert = db.prepare(
      'INSERT INTO rate_rules (hotel_id, target, day, rules) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id, target, day) DO UPDATE SET rules = excluded.rules',
    );
    const remove = db.prepare('DELETE FROM rate_rules WHERE hotel_id = ? AND target = ? AND day = ?');
    const pushed = db.prepare('INSERT OR IGNORE INTO rate_pushed_targets (hotel_id, target) VALUES (?, ?)');
    database.transaction(() => {
      const edits = JSON.parse(push.edits) as RuleEdit[];
      for (const { target, day, after } of pushDays(JSON.parse(push.before) as Snapshot, edits)) {
        if (Object.keys(after).length) upsert.run(push.hotel_id, target, day, JSON.stringify(after));
        else remove.run(push.hotel_id, target, day);
      }
      for (const edit of edits) pushed.run(push.hotel_id, targetKey(edit.target));
      db.prepare('UPDATE rate_pushes SET applied_at = ? WHERE id = ?').run(now(), push.id);
      // The draft that produced this push is done — that revision exactly: one edited since is kept, and a revert
      // (which no draft produced) leaves the draft alone.
      if (push.draft_revision !== null)
        db.prepare('DELETE FROM rate_drafts WHERE hotel_id = ? AND revision = ?').run(
          push.hotel_id,
          push.draft_revision,
        );
    });
  }

  return {
    unsettled,
    refuseWhileUnsettled,
    effectiveBook,
    pushedTargets,
    pendingDays,
    confirmedDays,
    enqueue,

    /**
     * The outbox kind of rates pushes: when Su confirmed one, exactly the sets it sent become the record and the
     * draft behind it is cleared; `changed` hears of every move of one (its property's calendar refreshes).
     */
    outboxKind: (send: (request: InvRateControl) => Promise<unknown>, changed: (hotelId: string) => void) =>
      changes.outboxKind(send, (push) => changed(push.hotel_id)),
    /** Applies pushes Su confirmed whose record was not written (the app stopped in between): run at start. */
    recover: changes.recover,

    history(hotelId: string): RatePushRecord[] {
      const rows = changes.history(['hotel_id'], hotelId);
      const revertedBy = new Map<number, number>();
      for (const r of rows)
        if (r.reverts !== null && r.state !== 'discarded' && r.state !== 'failed') revertedBy.set(r.reverts, r.id);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        appliedAt: r.applied_at,
        reverts: r.reverts,
        revertedBy: revertedBy.get(r.id) ?? null,
        outboxId: r.outbox_id,
        state: r.state,
        error: r.last_error ? JSON.parse(r.last_error) : null,
        days: pushDays(JSON.parse(r.before) as Snapshot, JSON.parse(r.edits) as RuleEdit[]),
      }));
    },

    revertPlan,

    /**
     * Queues the request that gives each channel a push changed its earlier rule back, from today on. A channel a
     * later push changed again keeps its newer rule (counted in `keptLater`); days that have passed are left out.
     */
    revert(pushId: number): { pushId: number; keptLater: number; past: number } {
      const plan = revertPlan(pushId);
      return {
        pushId: enqueue(plan.hotelId, plan.name, plan.edits, { reverts: pushId }),
        keptLater: plan.keptLater,
        past: plan.past,
      };
    },
  };

  /** What reverting a push would send: its edits and name, and what is left alone (see `revert`). */
  function revertPlan(pushId: number) {
    const row = db.prepare('SELECT * FROM rate_pushes WHERE id = ?').get(pushId) as PushRow | undefined;
    if (!row)
      throw new AppFailure({ code: 'not_found', message: 'This push is not in the history.', retryable: false });
    if (row.applied_at === null)
      throw new AppFailure({
        code: 'invalid_state',
        message: 'Only a push Su confirmed can be reverted.',
        retryable: false,
      });
    refuseWhileUnsettled(row.hotel_id);
    const changes = pushDays(JSON.parse(row.before) as Snapshot, JSON.parse(row.edits) as RuleEdit[]);
    const { edits, keptLater, past } = revertEdits(changes, loadRecord(row.hotel_id), today(), parseTarget);
    if (edits.length === 0)
      throw new AppFailure({
        code: 'invalid_state',
        message:
          keptLater > 0
            ? 'Nothing to revert: later pushes changed every rule this push set.'
            : 'Nothing to revert: the days this push changed have passed, or already hold what was there before.',
        retryable: false,
      });
    return { hotelId: row.hotel_id, name: `Revert of “${row.name}”`, edits, keptLater, past };
  }
}

/** `inv:ROOM` or `rate:ROOM:RATE` back into a target. */
export function parseTarget(key: string): RuleEdit['target'] {
  const [level, roomId, rateId] = key.split(':');
  return level === 'inventory' || level === 'inv'
    ? { level: 'inventory', roomId: roomId! }
    : { level: 'rate', roomId: roomId!, rateId: rateId! };
}
