import {
  checkFacilityRequest,
  composeFacilities,
  detailsFormOf,
  detailsFormSchema,
  detailsRequest,
  facilitiesDraftSchema,
  sameJson,
  type DetailsForm,
  type DetailsView,
  type FacilitiesView,
  type FacilityEntry,
  type FacilityRecordEntry,
  type PropertyPreview,
  type PropertyPush,
  type PropertyUpdate,
} from '../../shared/property';
import { AppFailure, ErrorCode } from '../../shared/result';
import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import { createReviewedChanges, fingerprintOf } from '../reviewedChange/reviewedChanges';
import {
  detailsChanges,
  answerOf,
  firstDetailsForm,
  draftOfRecord,
  returnedIds,
  revertedFacilities,
  draftPathOf,
  facilitiesAfter,
  facilityChanges,
  parseScope,
  scopeKey,
  type RequestSources,
  type Scope,
} from './records';
import { PROPERTY_KINDS, propertyKey, type PropertyKinds } from './senders';
import { createPropertyStore, type FacilitiesAfter, type PushRow } from './propertySql';

const refused = (message: string, code = 'invalid_state') => new AppFailure({ code, message, retryable: false });

/**
 * The property's record and facilities at Su: what Su last confirmed (Su cannot be asked), the owner's drafts as
 * typed, and pushes through the durable outbox — one unsettled push per part at a time, each composed from the
 * record, so what the preview showed is what goes and the record stays what Su holds.
 */
export function createPropertyService(deps: {
  database: Database;
  /** The provider in use: records, drafts and pushes are kept per provider ('demo', 'sandbox', 'production'). */
  provider: () => string;
  outbox: Outbox<PropertyKinds>;
  now: () => number;
  /** The property as the owner set it up (name, rooms), to start a first record from. */
  setup: (hotelId: string) => { name: string; roomIds: string[] } | null;
}) {
  const { database, outbox, now, provider } = deps;
  const { db } = database;

  const store = createPropertyStore({ database, now, provider });
  const { record, draft, writeDraft, revertsKept, dropDraft, channelIds, saveChannelIds, toPush } = store;
  // A push is a reviewed change (reviewedChanges.ts): one unsettled per part; confirmed, it becomes the record.
  const changes = createReviewedChanges<PushRow>({
    database,
    table: 'property_pushes',
    part: ['provider', 'hotel_id', 'scope'],
    noun: 'change',
    verb: 'send',
    apply: (push, result) => applyConfirmed(push, result),
  });
  /** The push of this part not yet confirmed by Su and not discarded, if any. */
  const unsettled = (hotelId: string, scope: Scope) => changes.unsettled(provider(), hotelId, scopeKey(scope));

  // ── Details ──

  function details(hotelId: string): DetailsView {
    const confirmed = record<PropertyUpdate>(hotelId, { section: 'details' });
    const stored = draft<DetailsForm>(hotelId, { section: 'details' });
    const base = confirmed ? detailsFormOf(confirmed.value) : firstDetailsForm(deps.setup(hotelId));
    const pending = unsettled(hotelId, { section: 'details' });
    return {
      hotelId,
      record: confirmed?.value ?? null,
      confirmedAt: confirmed?.confirmedAt ?? null,
      form: stored ? { ...base, ...stored.value } : base,
      hasDraft: stored !== null,
      pending: pending ? toPush(pending) : null,
    };
  }

  function saveDetailsDraft(hotelId: string, form: DetailsForm): DetailsView {
    const confirmed = record<PropertyUpdate>(hotelId, { section: 'details' });
    const parsed = detailsFormSchema.parse(form);
    // Typed back to what Su holds: no draft (nothing to send).
    if (confirmed && sameJson(parsed, detailsFormOf(confirmed.value))) dropDraft(hotelId, { section: 'details' });
    else writeDraft(hotelId, { section: 'details' }, parsed, revertsKept(hotelId, { section: 'details' }, parsed));
    return details(hotelId);
  }

  function previewDetails(hotelId: string): PropertyPreview & { compose?: { request: PropertyUpdate } } {
    const view = details(hotelId);
    const made = detailsRequest(hotelId, view.form);
    if (!made.ok)
      return { request: null, changes: [], problems: made.error.fields ?? {}, creates: [], fingerprint: null };
    const changes = detailsChanges(view.record, made.request);
    if (view.record && changes.length === 0)
      return { request: null, changes, problems: {}, creates: [], fingerprint: null };
    return { request: made.request, changes, problems: {}, creates: [], fingerprint: fingerprintOf(made.request) };
  }

  // ── Facilities ──

  const facilityScope = (roomId: string | null): Scope => ({ section: 'facilities', roomId });

  function facilities(hotelId: string, roomId: string | null): FacilitiesView {
    const scope = facilityScope(roomId);
    const confirmed = record<FacilityRecordEntry[]>(hotelId, scope);
    const stored = draft<FacilityEntry[]>(hotelId, scope);
    const pending = unsettled(hotelId, scope);
    return {
      hotelId,
      roomId,
      channelIds: channelIds(hotelId),
      record: confirmed?.value ?? [],
      confirmedAt: confirmed?.confirmedAt ?? null,
      draft: stored?.value ?? draftOfRecord(confirmed?.value ?? []),
      hasDraft: stored !== null,
      pending: pending ? toPush(pending) : null,
    };
  }

  function saveFacilitiesDraft(hotelId: string, roomId: string | null, list: FacilityEntry[]): FacilitiesView {
    const scope = facilityScope(roomId);
    const parsed = facilitiesDraftSchema.parse(list) as FacilityEntry[];
    const confirmed = record<FacilityRecordEntry[]>(hotelId, scope)?.value ?? [];
    if (sameJson(parsed, draftOfRecord(confirmed))) dropDraft(hotelId, scope);
    else writeDraft(hotelId, scope, parsed, revertsKept(hotelId, scope, parsed));
    return facilities(hotelId, roomId);
  }

  function previewFacilities(
    hotelId: string,
    roomId: string | null,
  ): PropertyPreview & { sentIds?: Set<string>; sources?: RequestSources } {
    const view = facilities(hotelId, roomId);
    const problems: Record<string, string> = {};
    const ids = view.channelIds;
    if (!ids.channelHotelId)
      problems.channelHotelId = 'Enter the Booking.com property id: Su sets facilities on Booking.com by it.';
    const channelRoomId = roomId ? ids.rooms[roomId] : undefined;
    if (roomId && !channelRoomId)
      problems[`rooms.${roomId}`] = `Enter the Booking.com room id of room ${roomId}: Su sets room facilities by it.`;
    const composed = composeFacilities(
      { hotel_id: hotelId, channel_hotel_id: ids.channelHotelId ?? '', channel_room_id: channelRoomId },
      view.record,
      view.draft,
    );
    Object.assign(problems, composed.problems);
    const changes = facilityChanges(view.record, view.draft);
    if (composed.request) {
      // The client's own schema, each problem by its place in the draft (`2.instances.0.parking_details.name`).
      for (const [path, message] of Object.entries(checkFacilityRequest(composed.request))) {
        if (path === 'channel_hotel_id' || path === 'hotel_id' || path === 'channel_room_id') continue;
        problems[draftPathOf(path, composed.sources) ?? path] = message;
      }
    }
    const sendable = composed.request && Object.keys(problems).length === 0;
    return {
      request: sendable ? composed.request : null,
      changes,
      problems,
      creates: composed.creates,
      fingerprint: sendable ? fingerprintOf(composed.request) : null,
      sentIds: new Set(composed.request?.facilities.map((f) => String(f.facility_id)) ?? []),
      sources: composed.sources,
    };
  }

  // ── Preview, send, confirmation ──

  function preview(hotelId: string, scope: Scope): PropertyPreview {
    const result = scope.section === 'details' ? previewDetails(hotelId) : previewFacilities(hotelId, scope.roomId);
    return {
      request: result.request,
      changes: result.changes,
      problems: result.problems,
      creates: result.creates,
      fingerprint: result.fingerprint,
    };
  }

  function send(hotelId: string, scope: Scope, fingerprint: string, confirmed: boolean): { pushId: number } {
    changes.refuseWhileUnsettled([provider(), hotelId, scopeKey(scope)]);
    const shown = scope.section === 'details' ? previewDetails(hotelId) : previewFacilities(hotelId, scope.roomId);
    const problems = Object.entries(shown.problems);
    if (problems.length) {
      const [field, message] = problems[0]!;
      throw new AppFailure({
        code: 'validation',
        message,
        field,
        fields: shown.problems,
        retryable: false,
      });
    }
    if (!shown.request) throw refused('Nothing to send: Su already holds exactly this.');
    if (shown.fingerprint !== fingerprint)
      throw refused(
        'The draft changed after the preview: preview it again, then send what it shows.',
        ErrorCode.PreviewStale,
      );
    if (shown.creates.length && !confirmed)
      throw refused(
        `This creates ${shown.creates.map((c) => c.what).join(', ')} at Booking.com. Su does not answer with the new id, so sending the same instance again would create another: confirm to go on.`,
        ErrorCode.ConfirmRequired,
      );

    const stored = draft<unknown>(hotelId, scope);
    let after: unknown;
    if (scope.section === 'details') after = shown.request;
    else {
      const view = facilities(hotelId, scope.roomId);
      after = {
        facilities: facilitiesAfter(view.record, view.draft, (shown as { sentIds: Set<string> }).sentIds),
        created: shown.creates.map((c) => c.key),
        sources: (shown as { sources: RequestSources }).sources,
      } satisfies FacilitiesAfter;
    }
    const kind = scope.section === 'details' ? PROPERTY_KINDS.details : PROPERTY_KINDS.facilities;
    return database.transaction(() => {
      const item = outbox.enqueue(kind, propertyKey(hotelId, scopeKey(scope)), shown.request as never);
      const row = db
        .prepare(
          `INSERT INTO property_pushes (provider, hotel_id, scope, request, after, changes, outbox_id, created_at, reverts, draft_revision)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          provider(),
          hotelId,
          scopeKey(scope),
          JSON.stringify(shown.request),
          JSON.stringify(after),
          JSON.stringify(shown.changes),
          item.id,
          now(),
          stored?.reverts ?? null,
          stored?.revision ?? null,
        );
      return { pushId: Number(row.lastInsertRowid) };
    });
  }

  function applyConfirmed(push: PushRow, result: unknown): void {
    const scope = parseScope(push.scope);
    const at = now();
    database.transaction(() => {
      let value: unknown;
      if (scope.section === 'details') {
        value = JSON.parse(push.after);
        // Su answers with the channel's id of the property: the facility set needs it, so it is kept when unknown.
        const propertyId = answerOf(result).propertyId;
        const ids = channelIds(push.hotel_id, push.provider);
        if (
          propertyId &&
          !ids.channelHotelId &&
          /^[A-Za-z0-9._-]{1,20}$/.test(propertyId) &&
          propertyId !== push.hotel_id
        )
          saveChannelIds(push.hotel_id, { ...ids, channelHotelId: propertyId }, push.provider);
      } else {
        const after = JSON.parse(push.after) as FacilitiesAfter;
        const ids = returnedIds(result);
        for (const facility of after.facilities) {
          const created = facility.instances.filter((i) => after.created.includes(i.key));
          for (const instance of created) instance.createdAt = at;
          // Ids Su returned, if it ever does: taken only when they are new ids and exactly one per created instance
          // of that facility, so an id can never be given to the wrong instance.
          const known = new Set(facility.instances.map((i) => i.instanceId).filter(Boolean));
          const fresh = ids.filter((r) => r.facilityId === facility.facilityId && !known.has(r.instanceId));
          if (fresh.length === created.length)
            created.forEach((instance, n) => (instance.instanceId = fresh[n]!.instanceId));
        }
        value = after.facilities;
      }
      db.prepare(
        `INSERT INTO property_records (provider, hotel_id, scope, record, confirmed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (provider, hotel_id, scope) DO UPDATE SET record = excluded.record, confirmed_at = excluded.confirmed_at`,
      ).run(push.provider, push.hotel_id, push.scope, JSON.stringify(value), at);
      db.prepare('UPDATE property_pushes SET applied_at = ?, answer = ? WHERE id = ?').run(
        at,
        JSON.stringify(answerOf(result)),
        push.id,
      );
      // The draft that produced this push is done — that revision exactly: one edited since is kept.
      if (push.draft_revision !== null)
        db.prepare(
          'DELETE FROM property_drafts WHERE provider = ? AND hotel_id = ? AND scope = ? AND revision = ?',
        ).run(push.provider, push.hotel_id, push.scope, push.draft_revision);
    });
  }

  return {
    details,
    saveDetailsDraft,
    facilities,
    saveFacilitiesDraft,
    channelIds,
    saveChannelIds,
    preview,
    send,
    discardDraft: (hotelId: string, scope: Scope) => ({ discarded: dropDraft(hotelId, scope) }),

    /** The pushes of one property, newest first. */
    history(hotelId: string): PropertyPush[] {
      const rows = changes.history(['provider', 'hotel_id'], provider(), hotelId);
      const seen = new Set<string>();
      return rows.map((row) => {
        const push = toPush(row);
        // Newest first: the first confirmed push of each part is the record Su holds.
        if (push.appliedAt !== null && !seen.has(row.scope)) {
          seen.add(row.scope);
          push.current = true;
        }
        return push;
      });
    },

    /**
     * Makes the record an earlier confirmed push left the draft again, to be previewed and sent like any draft. For
     * facilities, instances Su has now keep their ids, and a facility the earlier record did not have becomes
     * unavailable (Su cannot remove facilities or instances).
     */
    revert(
      pushId: number,
      replaceDraft = false,
    ): { section: Scope['section']; hotelId: string; roomId: string | null } {
      const row = db.prepare('SELECT * FROM property_pushes WHERE id = ?').get(pushId) as PushRow | undefined;
      if (!row) throw refused('This change is not in the history.', 'not_found');
      if (row.applied_at === null) throw refused('Only a change Su confirmed can be sent again.');
      if (row.provider !== provider())
        throw refused('This change went to another provider than the one in use: switch back to send it again.');
      const scope = parseScope(row.scope);
      if (!replaceDraft && draft(row.hotel_id, scope))
        throw refused(
          'You have changes not yet sent here: reverting replaces them with the earlier record.',
          'draft_exists',
        );
      if (scope.section === 'details') {
        writeDraft(row.hotel_id, scope, detailsFormOf(JSON.parse(row.after) as PropertyUpdate), pushId);
        return { section: 'details', hotelId: row.hotel_id, roomId: null };
      }
      const then = (JSON.parse(row.after) as FacilitiesAfter).facilities;
      const list = revertedFacilities(then, record<FacilityRecordEntry[]>(row.hotel_id, scope)?.value ?? []);
      writeDraft(row.hotel_id, scope, list, pushId);
      return {
        section: 'facilities',
        hotelId: row.hotel_id,
        roomId: scope.section === 'facilities' ? scope.roomId : null,
      };
    },

    /**
     * The outbox kind of property pushes: when Su confirmed one, what it sent becomes the record and the draft
     * behind it is cleared; `changed` hears of every move of one (the tab showing its part refreshes).
     */
    outboxKind: <P>(send: (request: P) => Promise<unknown>, changed: (hotelId: string, scope: Scope) => void) =>
      changes.outboxKind(send, (push) => changed(push.hotel_id, parseScope(push.scope))),
    /** Applies pushes Su confirmed whose record was not written (the app stopped in between): run at start. */
    recover: changes.recover,
  };
}

export type PropertyService = ReturnType<typeof createPropertyService>;
