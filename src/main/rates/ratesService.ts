import { AppFailure } from '../../shared/result';
import { invRateControlSchema, localToday, type InvRateControl } from '../../shared/schemas/inventory';
import { validationError } from '../../shared/validation';
import {
  dropPastDays,
  propertySetupSchema,
  rateDraftSchema,
  type PropertySetup,
  type PropertySetupInput,
  type RateBookView,
  type RateDraftInput,
} from '../../shared/rates';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import type { OutboxItem } from '../outbox/types';
import {
  applyEdits,
  applyToBook,
  composeRequest,
  targetKey,
  type DaySet,
  type RuleBook,
  type RuleEdit,
} from '../../shared/ratesComposer';

/** The outbox kind and sender of a rates push (spec endpoint 13). */
export const RATES_KIND = 'rates-push';
export type RatesSenders = { [RATES_KIND]: (request: InvRateControl) => Promise<unknown> };

/** Pushes bigger than this ask the owner to confirm, naming how much changes. */
const LARGE = { days: 31, changes: 200 };

type Snapshot = Record<string, Record<string, DaySet>>;

/** Drafts, preview, push (through the outbox), history and revert of inventory, rate and closed rules. */
export function createRatesService(deps: {
  database: Database;
  outbox: Outbox<RatesSenders>;
  now: () => number;
  today?: () => string;
}) {
  const { database, outbox, now } = deps;
  const { db } = database;
  const today = deps.today ?? (() => localToday());

  /** What Su holds once everything already queued has gone through: the record plus pending pushes, in order. */
  function effectiveBook(hotelId: string): RuleBook {
    let result: RuleBook = loadRecord(hotelId);
    const pending = db
      .prepare(
        `SELECT p.edits FROM rate_pushes p JOIN outbox o ON o.id = p.outbox_id
         WHERE p.hotel_id = ? AND p.applied_at IS NULL AND o.state IN ('queued', 'sending', 'failed') ORDER BY p.id`,
      )
      .all(hotelId) as { edits: string }[];
    for (const p of pending) result = applyToBook(result, JSON.parse(p.edits) as RuleEdit[]);
    return result;
  }

  function draft(hotelId: string): { name: string; edits: RuleEdit[]; updatedAt: number | null } {
    const row = db.prepare('SELECT name, edits, updated_at FROM rate_drafts WHERE hotel_id = ?').get(hotelId) as
      { name: string; edits: string; updated_at: number } | undefined;
    // A draft left overnight keeps what can still be sent.
    return row
      ? { name: row.name, edits: dropPastDays(JSON.parse(row.edits) as RuleEdit[], today()), updatedAt: row.updated_at }
      : { name: '', edits: [], updatedAt: null };
  }

  function preview(hotelId: string) {
    const { edits, name } = draft(hotelId);
    const book = effectiveBook(hotelId);
    const request = composeRequest(hotelId, book, edits);
    const days: { target: string; day: string; before: DaySet; after: DaySet }[] = [];
    for (const [key, { days: after }] of applyEdits(book, edits)) {
      for (const [day, set] of after) {
        const before = book.get(key)?.get(day) ?? {};
        if (JSON.stringify(before) !== JSON.stringify(set)) days.push({ target: key, day, before, after: set });
      }
    }
    const changedDays = new Set(days.map((d) => d.day)).size;
    const channelChanges = days.reduce(
      (n, d) => n + new Set([...Object.keys(d.before), ...Object.keys(d.after)]).size,
      0,
    );
    const closes = days.some(
      (d) => Object.values(d.after).some((r) => r.closed) && !Object.values(d.before).some((r) => r.closed),
    );
    const firstPush = [...new Set(edits.map((e) => targetKey(e.target)))].filter((key) => !book.has(key));
    return {
      name,
      request,
      days,
      summary: { changedDays, channelChanges, closes },
      large: changedDays > LARGE.days || channelChanges > LARGE.changes || closes,
      /** Targets Innkeeper never pushed: rules set elsewhere for those dates will be replaced. */
      firstPush,
    };
  }

  function enqueuePush(hotelId: string, name: string, edits: RuleEdit[], reverts: number | null): number {
    const book = effectiveBook(hotelId);
    const request = composeRequest(hotelId, book, edits);
    const checked = invRateControlSchema(today()).safeParse(request);
    if (!checked.success) throw new AppFailure(validationError(checked.error));
    const before: Snapshot = {};
    for (const [key, { days }] of applyEdits(book, edits)) {
      before[key] = Object.fromEntries([...days.keys()].map((day) => [day, book.get(key)?.get(day) ?? {}]));
    }
    return database.transaction(() => {
      const item = outbox.enqueue(RATES_KIND, `rates:${hotelId}`, checked.data as InvRateControl);
      const row = db
        .prepare(
          'INSERT INTO rate_pushes (hotel_id, name, edits, request, before, outbox_id, created_at, reverts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          hotelId,
          name,
          JSON.stringify(edits),
          JSON.stringify(request),
          JSON.stringify(before),
          item.id,
          now(),
          reverts,
        );
      return Number(row.lastInsertRowid);
    });
  }

  /** Days of pushes not yet confirmed by Su, as `TARGET|DAY`. */
  function pendingDays(hotelId: string): string[] {
    const out = new Set<string>();
    const rows = db
      .prepare(
        `SELECT p.before FROM rate_pushes p JOIN outbox o ON o.id = p.outbox_id
         WHERE p.hotel_id = ? AND p.applied_at IS NULL AND o.state IN ('queued', 'sending', 'failed')`,
      )
      .all(hotelId) as { before: string }[];
    for (const row of rows) {
      for (const [target, days] of Object.entries(JSON.parse(row.before) as Snapshot))
        for (const day of Object.keys(days)) out.add(`${target}|${day}`);
    }
    return [...out];
  }

  return {
    draft,
    preview,
    effectiveBook,

    /** Every property the owner set up for rates, by property id. */
    properties(): PropertySetup[] {
      return (
        db.prepare('SELECT setup FROM rate_setups ORDER BY created_at, hotel_id').all() as { setup: string }[]
      ).map((r) => JSON.parse(r.setup) as PropertySetup);
    },

    /** Adds or replaces a property's rooms, rate plans and base figures (validated; nothing is sent to Su). */
    saveSetup(input: PropertySetupInput): PropertySetup {
      const parsed = propertySetupSchema.safeParse(input);
      if (!parsed.success) throw new AppFailure(validationError(parsed.error));
      const at = now();
      db.prepare(
        `INSERT INTO rate_setups (hotel_id, setup, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (hotel_id) DO UPDATE SET setup = excluded.setup, updated_at = excluded.updated_at`,
      ).run(parsed.data.hotelId, JSON.stringify(parsed.data), at, at);
      return parsed.data;
    },

    /** Takes a property off the Rates screen; its record and history stay, so adding it again finds them. */
    removeSetup(hotelId: string): void {
      db.prepare('DELETE FROM rate_setups WHERE hotel_id = ?').run(hotelId);
    },

    /** What Su holds from today on (confirmed and on its way), for the calendar. */
    book(hotelId: string): RateBookView {
      const from = today();
      const book: RateBookView['book'] = {};
      for (const [target, days] of effectiveBook(hotelId)) {
        const out: Record<string, DaySet> = {};
        for (const [day, set] of days) if (day >= from && Object.keys(set).length) out[day] = set;
        if (Object.keys(out).length) book[target] = out;
      }
      return { book, pending: pendingDays(hotelId) };
    },

    /** Saves the whole draft as the owner edits it (validated; works with no connection). */
    saveDraft(input: RateDraftInput): { name: string; edits: RuleEdit[]; updatedAt: number } {
      const parsed = rateDraftSchema(today()).safeParse(input);
      if (!parsed.success) throw new AppFailure(validationError(parsed.error));
      const at = now();
      db.prepare(
        'INSERT INTO rate_drafts (hotel_id, name, edits, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id) DO UPDATE SET name = excluded.name, edits = excluded.edits, updated_at = excluded.updated_at',
      ).run(parsed.data.hotelId, parsed.data.name, JSON.stringify(parsed.data.edits), at);
      return { name: parsed.data.name, edits: parsed.data.edits as RuleEdit[], updatedAt: at };
    },

    /** Queues the draft; a large change needs `confirmed`. The draft is kept until Su confirms the push. */
    push(hotelId: string, confirmed: boolean): { pushId: number } {
      const p = preview(hotelId);
      if (p.days.length === 0)
        throw new AppFailure({
          code: 'validation',
          message: 'Nothing to send: the draft changes nothing.',
          retryable: false,
        });
      if (p.large && !confirmed) {
        throw new AppFailure({
          code: 'confirm_required',
          message: `This changes ${p.summary.changedDays} days and ${p.summary.channelChanges} channel rules${p.summary.closes ? ', and closes dates' : ''}. Confirm to send it.`,
          retryable: false,
        });
      }
      return { pushId: enqueuePush(hotelId, p.name || 'Rates update', draft(hotelId).edits, null) };
    },

    /** When Su confirmed a push: it becomes the record, and the draft that produced it is cleared. */
    onOutboxChange(item: OutboxItem): void {
      if (item.kind !== RATES_KIND || item.state !== 'sent') return;
      const push = db
        .prepare('SELECT id, hotel_id, edits, applied_at, created_at, reverts FROM rate_pushes WHERE outbox_id = ?')
        .get(item.id) as
        | {
            id: number;
            hotel_id: string;
            edits: string;
            applied_at: number | null;
            created_at: number;
            reverts: number | null;
          }
        | undefined;
      if (!push || push.applied_at !== null) return;
      database.transaction(() => {
        for (const [key, { days }] of applyEdits(loadRecord(push.hotel_id), JSON.parse(push.edits) as RuleEdit[])) {
          for (const [day, set] of days) {
            if (Object.keys(set).length) {
              db.prepare(
                'INSERT INTO rate_rules (hotel_id, target, day, rules) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id, target, day) DO UPDATE SET rules = excluded.rules',
              ).run(push.hotel_id, key, day, JSON.stringify(set));
            } else
              db.prepare('DELETE FROM rate_rules WHERE hotel_id = ? AND target = ? AND day = ?').run(
                push.hotel_id,
                key,
                day,
              );
          }
        }
        db.prepare('UPDATE rate_pushes SET applied_at = ? WHERE id = ?').run(now(), push.id);
        // The draft that produced this push is done; one edited after the push was queued is kept, and a revert
        // (which no draft produced) leaves the draft alone.
        if (push.reverts === null)
          db.prepare('DELETE FROM rate_drafts WHERE hotel_id = ? AND updated_at <= ?').run(
            push.hotel_id,
            push.created_at,
          );
      });
    },

    history(hotelId: string) {
      return (
        db
          .prepare(
            `SELECT p.id, p.name, p.created_at, p.applied_at, p.reverts, p.before, p.edits, p.outbox_id, o.state, o.last_error
             FROM rate_pushes p JOIN outbox o ON o.id = p.outbox_id WHERE p.hotel_id = ? ORDER BY p.id DESC LIMIT 200`,
          )
          .all(hotelId) as {
          id: number;
          name: string;
          created_at: number;
          applied_at: number | null;
          reverts: number | null;
          before: string;
          edits: string;
          outbox_id: number;
          state: string;
          last_error: string | null;
        }[]
      ).map((r) => {
        const before = JSON.parse(r.before) as Snapshot;
        const after = applyEdits(
          new Map(Object.entries(before).map(([k, v]) => [k, new Map(Object.entries(v))])),
          JSON.parse(r.edits) as RuleEdit[],
        );
        return {
          id: r.id,
          name: r.name,
          createdAt: r.created_at,
          appliedAt: r.applied_at,
          reverts: r.reverts,
          outboxId: r.outbox_id,
          state: r.state,
          error: r.last_error ? JSON.parse(r.last_error) : null,
          days: Object.entries(before).flatMap(([target, days]) =>
            Object.entries(days).map(([day, set]) => ({
              target,
              day,
              before: set,
              after: after.get(target)?.days.get(day) ?? set,
            })),
          ),
        };
      });
    },

    /** Queues the request that puts back the rule sets a push replaced, on exactly its days. */
    revert(pushId: number): { pushId: number } {
      const row = db.prepare('SELECT hotel_id, name, before, applied_at FROM rate_pushes WHERE id = ?').get(pushId) as
        { hotel_id: string; name: string; before: string; applied_at: number | null } | undefined;
      if (!row)
        throw new AppFailure({ code: 'not_found', message: 'This push is not in the history.', retryable: false });
      if (row.applied_at === null)
        throw new AppFailure({
          code: 'invalid_state',
          message: 'Only a push Su confirmed can be reverted.',
          retryable: false,
        });
      const book = effectiveBook(row.hotel_id);
      const edits: RuleEdit[] = [];
      for (const [key, days] of Object.entries(JSON.parse(row.before) as Snapshot)) {
        const target = parseTarget(key);
        for (const [day, set] of Object.entries(days)) {
          // Remove every channel the day has now, then set back each channel's old rule: the day's set becomes `set`.
          const current = Object.keys(book.get(key)?.get(day) ?? {});
          if (current.length) edits.push({ target, from: day, to: day, channels: current, rule: null });
          for (const [channel, rule] of Object.entries(set))
            edits.push({ target, from: day, to: day, channels: [channel], rule });
          if (!current.length && !Object.keys(set).length)
            edits.push({ target, from: day, to: day, channels: [], rule: null });
        }
      }
      return { pushId: enqueuePush(row.hotel_id, `Revert of “${row.name}”`, edits, pushId) };
    },
  };

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
}

/** `inv:ROOM` or `rate:ROOM:RATE` back into a target. */
export function parseTarget(key: string): RuleEdit['target'] {
  const [level, roomId, rateId] = key.split(':');
  return level === 'inv'
    ? { level: 'inventory', roomId: roomId! }
    : { level: 'rate', roomId: roomId!, rateId: rateId! };
}
