import {
  sameJson,
  type ChannelIds,
  type FacilityRecordEntry,
  type FieldChange,
  type PropertyPush,
} from '../../shared/property';
import type { AppError } from '../../shared/result';
import type { Database } from '../db/database';
import { changesInWords, draftPathOf, parseScope, scopeKey, type RequestSources, type Scope } from './records';

// What the property feature keeps in SQLite, per provider: the records Su confirmed, the drafts as typed, the
// Booking.com ids, and the pushes as History shows them.

export type PushRow = {
  id: number;
  /** The provider the push went to ('demo', 'sandbox', 'production'): what Su holds is per provider. */
  provider: string;
  hotel_id: string;
  scope: string;
  request: string;
  after: string;
  changes: string;
  outbox_id: number;
  created_at: number;
  applied_at: number | null;
  answer: string | null;
  reverts: number | null;
  draft_revision: number | null;
};
/** A draft as stored: what was typed, and the push it reverts when it came from Revert. */
export type StoredDraft<T> = { value: T; reverts: number | null };
/** The facilities record a push leaves, the keys of the instances it creates, and where its parts are in the draft. */
export type FacilitiesAfter = { facilities: FacilityRecordEntry[]; created: string[]; sources?: RequestSources };

export function createPropertyStore(deps: { database: Database; now: () => number; provider: () => string }) {
  const { database, now, provider } = deps;
  const { db } = database;

  function record<T>(hotelId: string, scope: Scope): { value: T; confirmedAt: number } | null {
    const row = db
      .prepare('SELECT record, confirmed_at FROM property_records WHERE provider = ? AND hotel_id = ? AND scope = ?')
      .get(provider(), hotelId, scopeKey(scope)) as { record: string; confirmed_at: number } | undefined;
    return row ? { value: JSON.parse(row.record) as T, confirmedAt: row.confirmed_at } : null;
  }

  function draft<T>(hotelId: string, scope: Scope): (StoredDraft<T> & { revision: number }) | null {
    const row = db
      .prepare('SELECT draft, revision FROM property_drafts WHERE provider = ? AND hotel_id = ? AND scope = ?')
      .get(provider(), hotelId, scopeKey(scope)) as { draft: string; revision: number } | undefined;
    return row ? { ...(JSON.parse(row.draft) as StoredDraft<T>), revision: row.revision } : null;
  }

  function writeDraft(hotelId: string, scope: Scope, value: unknown, reverts: number | null): void {
    db.prepare(
      // Revisions only grow, also across a draft that was cleared: a confirmation clears the revision it was made
      // from, never a newer draft that happens to count from 1 again.
      `INSERT INTO property_drafts (provider, hotel_id, scope, draft, revision, updated_at)
       VALUES (:provider, :hotel, :scope, :draft,
         1 + coalesce((SELECT max(draft_revision) FROM property_pushes
                       WHERE provider = :provider AND hotel_id = :hotel AND scope = :scope), 0), :now)
       ON CONFLICT (provider, hotel_id, scope) DO UPDATE SET draft = excluded.draft, revision = revision + 1, updated_at = excluded.updated_at`,
    ).run({
      provider: provider(),
      hotel: hotelId,
      scope: scopeKey(scope),
      draft: JSON.stringify({ value, reverts } satisfies StoredDraft<unknown>),
      now: now(),
    });
  }

  /** A draft Revert made stays "the revert of …" only while it is saved unchanged; an edit makes it a change of its own. */
  function revertsKept(hotelId: string, scope: Scope, value: unknown): number | null {
    const stored = draft<unknown>(hotelId, scope);
    return stored && stored.reverts !== null && sameJson(stored.value, value) ? stored.reverts : null;
  }

  function dropDraft(hotelId: string, scope: Scope): boolean {
    return (
      db
        .prepare('DELETE FROM property_drafts WHERE provider = ? AND hotel_id = ? AND scope = ?')
        .run(provider(), hotelId, scopeKey(scope)).changes > 0
    );
  }

  function channelIds(hotelId: string, of = provider()): ChannelIds {
    const row = db
      .prepare('SELECT channel_hotel_id, rooms FROM property_channel_ids WHERE provider = ? AND hotel_id = ?')
      .get(of, hotelId) as { channel_hotel_id: string | null; rooms: string } | undefined;
    return {
      channelHotelId: row?.channel_hotel_id ?? null,
      rooms: row ? (JSON.parse(row.rooms) as Record<string, string>) : {},
    };
  }

  function saveChannelIds(hotelId: string, ids: ChannelIds, of = provider()): ChannelIds {
    db.prepare(
      `INSERT INTO property_channel_ids (provider, hotel_id, channel_hotel_id, rooms) VALUES (?, ?, ?, ?)
       ON CONFLICT (provider, hotel_id) DO UPDATE SET channel_hotel_id = excluded.channel_hotel_id, rooms = excluded.rooms`,
    ).run(of, hotelId, ids.channelHotelId, JSON.stringify(ids.rooms));
    return channelIds(hotelId, of);
  }

  function toPush(r: PushRow & { state: string; last_error: string | null }): PropertyPush {
    const scope = parseScope(r.scope);
    let error = r.last_error ? (JSON.parse(r.last_error) as AppError) : null;
    // Su names a request path; the owner's field is that place in the draft the push was made from.
    const sources = scope.section === 'facilities' ? (JSON.parse(r.after) as FacilitiesAfter).sources : undefined;
    const at = error?.field && sources ? draftPathOf(error.field, sources) : null;
    if (error && at) error = { ...error, field: at, fields: { [at]: error.message } };
    return {
      id: r.id,
      section: scope.section,
      roomId: scope.section === 'facilities' ? scope.roomId : null,
      createdAt: r.created_at,
      appliedAt: r.applied_at,
      state: r.state,
      outboxId: r.outbox_id,
      error,
      answer: r.answer ? JSON.parse(r.answer) : null,
      request: JSON.parse(r.request),
      changes: changesInWords(scope.section, JSON.parse(r.changes) as FieldChange[]),
      reverts: r.reverts,
      current: false,
    };
  }

  return { record, draft, writeDraft, revertsKept, dropDraft, channelIds, saveChannelIds, toPush };
}
