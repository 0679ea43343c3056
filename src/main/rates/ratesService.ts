import { AppFailure, ErrorCode } from '../../shared/result';
import { localToday } from '../../shared/dates';
import { validationError } from '../../shared/validation';
import {
  dropPastDays,
  rateDraftSchema,
  type RateBookView,
  type RateDraftInput,
  type RatePreview,
  type RateRevertPreview,
} from '../../shared/rates';
import { type PropertySetup, type PropertySetupInput } from '../../shared/rateSetups';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import { composeRequest, targetKey, type DaySet, type RuleEdit } from '../../shared/ratesComposer';
import { dayChanges, priceWarnings, summarize } from './changes';
import { fingerprintOf as fingerprint } from '../reviewedChange/reviewedChanges';
import { createRatePushes, type RatesKinds } from './pushes';
import { createRateSetups } from './setups';

export { RATES_KIND, type RatesKinds } from './pushes';

/** Pushes bigger than this ask the owner to confirm, naming how much changes. */
const LARGE = { days: 31, changes: 200 };

/**
 * Drafts, preview, push (through the outbox), history and revert of inventory, rate and closed rules, and the
 * rooms and rate plans they apply to. Pushes themselves, one unsettled per property, live in `pushes.ts`.
 */
export function createRatesService(deps: {
  database: Database;
  outbox: Outbox<RatesKinds>;
  now: () => number;
  today?: () => string;
}) {
  const { database, outbox, now } = deps;
  const { db } = database;
  const today = deps.today ?? (() => localToday());
  const setups = createRateSetups(database, now);
  const pushes = createRatePushes({ database, outbox, now, today });
  const { effectiveBook, pushedTargets, refuseWhileUnsettled } = pushes;

  function draft(hotelId: string): { name: string; edits: RuleEdit[]; updatedAt: number | null } {
    const row = db.prepare('SELECT name, edits, updated_at FROM rate_drafts WHERE hotel_id = ?').get(hotelId) as
      { name: string; edits: string; updated_at: number } | undefined;
    // A draft left overnight keeps what can still be sent.
    return row
      ? { name: row.name, edits: dropPastDays(JSON.parse(row.edits) as RuleEdit[], today()), updatedAt: row.updated_at }
      : { name: '', edits: [], updatedAt: null };
  }

  function preview(hotelId: string): RatePreview {
    const { edits, name } = draft(hotelId);
    return previewOf(hotelId, name, edits);
  }

  /** What sending `edits` would send and change. */
  function previewOf(hotelId: string, name: string, edits: RuleEdit[]): RatePreview {
    const book = effectiveBook(hotelId);
    const request = composeRequest(hotelId, book, edits);
    const days = dayChanges(book, edits);
    const summary = summarize(days);
    const pushed = pushedTargets(hotelId);
    const warnings = priceWarnings(days, setups.get(hotelId));
    return {
      name: name || 'Rates update',
      request,
      fingerprint: fingerprint(request),
      days,
      summary,
      warnings,
      large:
        summary.changedDays > LARGE.days ||
        summary.channelChanges > LARGE.changes ||
        summary.closes ||
        warnings.length > 0,
      firstPush: [...new Set(edits.map((e) => targetKey(e.target)))].filter((key) => !pushed.has(key)),
    };
  }

  /** Refuses a push whose request is not the one previewed, or a large one not confirmed. */
  function checkConfirmed(p: RatePreview, confirmed: boolean, expected: string): void {
    if (expected !== p.fingerprint)
      throw new AppFailure({
        code: ErrorCode.PreviewStale,
        message: 'What would be sent changed since this preview: look at the new preview before pushing.',
        retryable: false,
      });
    if (p.large && !confirmed)
      throw new AppFailure({
        code: ErrorCode.ConfirmRequired,
        message: [
          `This changes ${p.summary.changedDays} days and ${p.summary.channelChanges} channel rules${p.summary.closes ? ', and closes dates' : ''}.`,
          ...p.warnings,
          'Confirm to send it.',
        ].join(' '),
        retryable: false,
      });
  }

  /** What reverting a push would send and change, previewed like a push (and what it leaves alone). */
  function revertPreview(pushId: number): RateRevertPreview {
    const plan = pushes.revertPlan(pushId);
    return { ...previewOf(plan.hotelId, plan.name, plan.edits), keptLater: plan.keptLater, past: plan.past };
  }

  return {
    draft,
    preview,
    revertPreview,
    /**
     * Queues a revert, as a push: `expected` (its preview's fingerprint, required) makes sure only what the owner
     * looked at is sent, and a large one (or one that closes dates) needs `confirmed`.
     */
    revert(pushId: number, confirmed: boolean, expected: string) {
      checkConfirmed(revertPreview(pushId), confirmed, expected);
      return pushes.revert(pushId);
    },
    effectiveBook,
    outboxKind: pushes.outboxKind,
    recover: pushes.recover,
    history: pushes.history,

    /** Every property the owner set up for rates, by property id. */
    properties: (): PropertySetup[] => setups.all(),
    /** Adds or replaces a property's rooms, rate plans and base figures (validated; nothing is sent to Su). */
    saveSetup: (input: PropertySetupInput): PropertySetup => setups.save(input),
    /** Takes a property off the Rates screen; its record and history stay, so adding it again finds them. */
    removeSetup: (hotelId: string): void => setups.remove(hotelId),

    /** What Su holds from today on (confirmed and on its way), for the calendar. */
    book(hotelId: string): RateBookView {
      const from = today();
      const book: RateBookView['book'] = {};
      for (const [target, days] of effectiveBook(hotelId)) {
        const out: Record<string, DaySet> = {};
        for (const [day, set] of days) if (day >= from && Object.keys(set).length) out[day] = set;
        if (Object.keys(out).length) book[target] = out;
      }
      return { book, pending: pushes.pendingDays(hotelId), confirmed: pushes.confirmedDays(hotelId, from) };
    },

    /** Saves the whole draft as the owner edits it (validated; works with no connection). */
    saveDraft(input: RateDraftInput): { name: string; edits: RuleEdit[]; updatedAt: number } {
      const parsed = rateDraftSchema(today()).safeParse(input);
      if (!parsed.success) throw new AppFailure(validationError(parsed.error));
      const at = now();
      db.prepare(
        `INSERT INTO rate_drafts (hotel_id, name, edits, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id)
         DO UPDATE SET name = excluded.name, edits = excluded.edits, updated_at = excluded.updated_at,
                       revision = rate_drafts.revision + 1`,
      ).run(parsed.data.hotelId, parsed.data.name, JSON.stringify(parsed.data.edits), at);
      return { name: parsed.data.name, edits: parsed.data.edits as RuleEdit[], updatedAt: at };
    },

    /**
     * Queues the draft. A large change needs `confirmed`; `expected` (the preview's fingerprint, required) refuses
     * the push if the request is no longer the one the owner looked at. The draft is kept until Su confirms.
     */
    push(hotelId: string, confirmed: boolean, expected: string): { pushId: number } {
      refuseWhileUnsettled(hotelId);
      const { edits } = draft(hotelId);
      setups.checkEdits(hotelId, edits);
      const p = preview(hotelId);
      if (expected !== p.fingerprint)
        throw new AppFailure({
          code: ErrorCode.PreviewStale,
          message: 'The draft changed since this preview: look at the new preview before pushing.',
          retryable: false,
        });
      if (p.days.length === 0)
        throw new AppFailure({
          code: 'validation',
          message: 'Nothing to send: the draft changes nothing.',
          retryable: false,
        });
      checkConfirmed(p, confirmed, p.fingerprint);
      const revision = db.prepare('SELECT revision FROM rate_drafts WHERE hotel_id = ?').get(hotelId) as
        { revision: number } | undefined;
      return { pushId: pushes.enqueue(hotelId, p.name, edits, { draftRevision: revision?.revision ?? null }) };
    },
  };
}

export type RatesService = ReturnType<typeof createRatesService>;
