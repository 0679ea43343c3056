import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { sameJson, type ChannelIds, type FacilitiesView, type FacilityEntry } from '@shared/property';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';
import { createPropertyDraft, scopeKey } from '../push/propertyDraft';
import { liveProblems } from './facilityEdit';

/**
 * An error's problems by the draft's path (`3.instances.0.details.parking_details.name`). The core names them so;
 * a request path it could not place (`facilities.1.…`) is placed here by its facility id, when the request says it.
 */
export function problemsByDraftPath(
  error: AppError | null | undefined,
  request: unknown,
  draft: FacilityEntry[],
): Record<string, string> {
  if (!error) return {};
  const sent = ((request as { facilities?: { facility_id?: unknown }[] } | null)?.facilities ?? []).map((f) =>
    String(f.facility_id),
  );
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(error.fields ?? (error.field ? { [error.field]: error.message } : {}))) {
    if (/^\d+(\.|$)/.test(path)) {
      out[path] = message;
      continue;
    }
    const m = /^facilities\.(\d+)(?:\.(.*))?$/.exec(path);
    const i = m ? draft.findIndex((e) => e.facilityId === sent[Number(m[1])]) : -1;
    if (m && i >= 0) out[m[2] ? `${i}.${m[2]}` : `${i}.facilityId`] = message;
  }
  return out;
}

/**
 * The Facilities tab: for the property or one of its rooms, the facilities Su confirmed, the draft as typed (saved
 * as it is typed), the Booking.com ids the request needs, and Preview → confirm what it creates → Send.
 */
export const useFacilitiesStore = defineStore('propertyFacilities', () => {
  const hotelId = ref<string | null>(null);
  /** The owner's room id, or null for the property itself. */
  const roomId = ref<string | null>(null);
  const view = shallowRef<FacilitiesView | null>(null);
  const viewError = shallowRef<AppError | null>(null);
  const draft = shallowRef<FacilityEntry[]>([]);
  const scope = () =>
    hotelId.value ? { section: 'facilities' as const, hotelId: hotelId.value, roomId: roomId.value } : null;

  const part = createPropertyDraft({
    scope,
    save: async () => {
      const at = scope();
      if (!at) return null;
      const result = await api['property.saveFacilitiesDraft']({
        hotelId: at.hotelId,
        roomId: at.roomId,
        draft: draft.value,
      });
      if (result.ok && scopeKey(scope()) === scopeKey(at)) view.value = result.value;
      // A preview on screen follows the draft: its creates and problems are about what is typed now.
      if (result.ok && flow.preview.value) void flow.refresh();
      return result.ok ? null : result.error;
    },
    load: () => load(),
  });
  const { saver, flow, sendError } = part;

  const channelIds = computed<ChannelIds | null>(() => view.value?.channelIds ?? null);
  /** The Booking.com ids this scope still needs before anything can be sent. */
  const missingIds = computed(() => {
    const ids = channelIds.value;
    if (!ids) return false;
    return !ids.channelHotelId || (roomId.value !== null && !ids.rooms[roomId.value]);
  });
  const changed = computed(() => !!view.value && !sameJson(draft.value, stripCreated(view.value.record)));
  const pending = computed(() => view.value?.pending ?? null);
  const refusal = computed(() => (pending.value?.state === 'failed' ? pending.value.error : null));

  /** Every problem by the draft's path: as typed (live), from the preview (the instance trap), from Su. */
  const problems = computed<Record<string, string>>(() => ({
    ...problemsByDraftPath(sendError.value, flow.preview.value?.request, draft.value),
    ...problemsByDraftPath(refusal.value, pending.value?.request, draft.value),
    ...(flow.preview.value?.problems ?? {}),
    ...liveProblems(draft.value),
  }));
  watch(draft, () => (sendError.value = null));

  const loads = latestOnly();
  async function load(): Promise<void> {
    const at = scope();
    if (!at) return;
    const isNewest = loads();
    const mark = saver.mark();
    const result = await api['property.facilities']({ hotelId: at.hotelId, roomId: at.roomId });
    if (scopeKey(scope()) !== scopeKey(at) || !isNewest()) return;
    viewError.value = result.ok ? null : result.error;
    if (!result.ok) return;
    view.value = result.value;
    if (!saver.editedSince(mark)) draft.value = result.value.draft;
  }

  /** Shows the facilities of a property (roomId null) or one of its rooms. */
  async function open(id: string, room: string | null): Promise<void> {
    if (id !== hotelId.value || room !== roomId.value) {
      await part.leave();
      view.value = null;
      draft.value = [];
      hotelId.value = id;
      roomId.value = room;
    }
    await load();
  }

  /** The owner changed the draft (with one of the `edit` helpers): shown at once, saved as typing pauses. */
  function update(next: FacilityEntry[]): void {
    draft.value = next;
    saver.changed();
  }

  async function saveChannelIds(
    channelHotelId: string | null,
    rooms: Record<string, string>,
  ): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id) return null;
    const result = await api['property.saveChannelIds']({ hotelId: id, channelHotelId, rooms });
    if (!result.ok) return result.error;
    if (view.value && id === hotelId.value) view.value = { ...view.value, channelIds: result.value };
    return null;
  }

  return {
    section: 'facilities' as const,
    hotelId,
    roomId,
    view,
    viewError,
    draft,
    channelIds,
    missingIds,
    changed,
    pending,
    refusal,
    problems,
    ...part.exposed,
    openPreview: () => (part.dialogOpen.value = true),
    send: part.send,
    discardDraft: part.discardDraft,
    open,
    load,
    update,
    saveChannelIds,
  };
});

/** The record as a draft (a record's instances also say when Su created them). */
function stripCreated(record: FacilitiesView['record']): FacilityEntry[] {
  return record.map((e) => ({ ...e, instances: e.instances.map(({ createdAt: _, ...x }) => x) }));
}
