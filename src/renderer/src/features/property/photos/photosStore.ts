import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef } from 'vue';
import { photosMethods, type Photo, type PhotoAssignments, type PhotosView } from '@shared/photos';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { latestOnly } from '@renderer/lib/latestOnly';
import { filterPhotos, needsUpload, type PhotoFilter } from './photoWords';

/** A thumbnail: loading, its data: URL, or why it could not be loaded. */
export type Thumb = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; message: string };
const thumbOf = (result: { ok: true; value: { dataUrl: string } } | { ok: false; error: AppError }): Thumb =>
  result.ok ? { state: 'ready', url: result.value.dataUrl } : { state: 'failed', message: result.error.message };
/**
 * How long a thumbnail waits for the core (which reads Su's copy within 10 s and makes the small JPEG): an answer lost
 * on the way (the app restarted meanwhile) ends as a thumbnail that says so, never a spinner for ever.
 */
export const THUMB_WAIT_MS = 30_000;
const NO_ANSWER: AppError = {
  code: 'timeout',
  message: 'The preview did not come in time. Open the photos again, or check what Su holds, to ask again.',
};
type ThumbAnswer = Parameters<typeof thumbOf>[0];
const withinWait = (call: Promise<ThumbAnswer>): Promise<ThumbAnswer> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ThumbAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: NO_ANSWER }), THUMB_WAIT_MS);
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
};
/** Thumbnails that could not be loaded are asked for again when the property is opened again. */
const dropFailed = (map: Map<unknown, Thumb>) => map.forEach((t, k) => t.state === 'failed' && map.delete(k));

/** What the owner is told after removing a photo Su holds: Su keeps its copy. */
export interface RemovedNote {
  caption: string;
  heldAtSu: boolean;
}

/**
 * The Photos tab of the property on screen: its library, the channels' checks, how Su reaches this computer, what
 * Su holds (after "Check what Su holds"), the thumbnails (cached by photo, loaded when shown), and every change the
 * owner makes to a photo. Adding files is the adds store's.
 */
export const usePhotosStore = defineStore('photos', () => {
  const hotelId = ref<string | null>(null);
  const view = shallowRef<PhotosView | null>(null);
  const error = shallowRef<AppError | null>(null);
  const filter = ref<PhotoFilter>({ kind: 'all' });
  const thumbs = reactive(new Map<number, Thumb>());
  const suThumbs = reactive(new Map<string, Thumb>());
  const reconciling = ref(false);
  const uploading = ref(false);
  const removed = shallowRef<RemovedNote | null>(null);

  const photos = computed(() => view.value?.photos ?? []);
  const shown = computed(() => filterPhotos(photos.value, filter.value));
  /** The photos "Upload to Su" sends: never sent, discarded, not fetched by Su, or with a place not yet linked. */
  const toUpload = computed(() => photos.value.filter(needsUpload));

  const loads = latestOnly();
  async function load(): Promise<void> {
    const id = hotelId.value;
    if (!id) return;
    const isNewest = loads();
    const result = await api['photos.list']({ hotelId: id });
    if (id !== hotelId.value || !isNewest()) return;
    error.value = result.ok ? null : result.error;
    if (result.ok) view.value = result.value;
  }

  /** Properties whose holdings at Su were asked for by themselves this session (once each, when never checked). */
  const autoChecked = new Set<string>();

  /**
   * Shows a property's photos (the filter starts at All for another property). A property never checked at Su is
   * checked once by itself, so that what Su already holds shows from the first visit.
   */
  async function open(id: string): Promise<void> {
    if (id !== hotelId.value) {
      view.value = null;
      error.value = null;
      removed.value = null;
      filter.value = { kind: 'all' };
      hotelId.value = id;
    }
    dropFailed(thumbs);
    dropFailed(suThumbs);
    await load();
    const v = view.value;
    if (v?.hotelId === id && v.atSu === null && !v.atSuError && !autoChecked.has(id)) {
      autoChecked.add(id);
      void reconcile();
    }
  }

  /** Puts a photo the core answered in place of the one on screen. */
  function replace(photo: Photo) {
    const v = view.value;
    if (!v || v.hotelId !== photo.hotelId) return;
    const exists = v.photos.some((p) => p.id === photo.id);
    view.value = {
      ...v,
      photos: exists ? v.photos.map((p) => (p.id === photo.id ? photo : p)) : [...v.photos, photo],
    };
  }

  /** Why a caption cannot be saved (the contract's own rule), or null. */
  function captionProblem(caption: string): string | null {
    const checked = photosMethods['photos.update'].shape.caption.safeParse(caption);
    return checked.success ? null : (checked.error.issues[0]?.message ?? 'This caption cannot be used.');
  }

  /** Saves a caption or the assignments; the checks follow (the view is read again). */
  async function update(
    id: number,
    patch: { caption?: string; assignments?: PhotoAssignments },
  ): Promise<AppError | null> {
    if (patch.caption !== undefined) {
      const problem = captionProblem(patch.caption);
      if (problem) return { code: 'validation', message: problem, field: 'caption' };
    }
    const result = await api['photos.update']({ id, ...patch });
    if (!result.ok) return result.error;
    replace(result.value);
    if (patch.assignments) void load();
    return null;
  }

  /** Takes a photo out of the library; when Su holds it, says that Su keeps its copy. */
  async function remove(id: number): Promise<AppError | null> {
    const photo = photos.value.find((p) => p.id === id);
    const result = await api['photos.remove']({ id });
    if (!result.ok) return result.error;
    removed.value = { caption: photo?.caption || photo?.fileName || 'The photo', heldAtSu: result.value.heldAtSu };
    thumbs.delete(id);
    await load();
    return null;
  }

  /** Uploads the photos given, or every one not yet at Su. */
  async function upload(ids?: number[]): Promise<AppError | null> {
    const id = hotelId.value;
    const list = ids ?? toUpload.value.map((p) => p.id);
    if (!id || list.length === 0 || uploading.value) return null;
    uploading.value = true;
    try {
      const result = await api['photos.upload']({ hotelId: id, ids: list });
      if (!result.ok) return result.error;
      if (view.value?.hotelId === id) view.value = { ...view.value, reach: result.value.reach };
      await load();
      return null;
    } finally {
      uploading.value = false;
    }
  }

  /** Asks Su what it holds for the property on screen. */
  async function reconcile(): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id || reconciling.value) return null;
    reconciling.value = true;
    try {
      const result = await api['photos.reconcile']({ hotelId: id });
      if (id !== hotelId.value) return null;
      if (!result.ok) return result.error;
      view.value = result.value;
      // Su was asked again: a copy that did not answer before is asked for again.
      dropFailed(suThumbs);
      return null;
    } finally {
      reconciling.value = false;
    }
  }

  /** Retry or Discard of an upload or association that did not go through: the outbox decides, the view follows. */
  async function decide(decision: 'retry' | 'discard', outboxId: number): Promise<AppError | null> {
    const failure = await useOutboxStore()[decision](outboxId);
    await load();
    return failure;
  }

  /** Loads a photo's thumbnail once (the cache keeps it while the app runs). */
  async function thumbnail(id: number): Promise<void> {
    if (thumbs.has(id)) return;
    thumbs.set(id, { state: 'loading' });
    thumbs.set(id, thumbOf(await withinWait(api['photos.thumbnail']({ id }))));
  }

  const suKey = (hotel: string, imageId: number) => `${hotel}:${imageId}`;
  /** Loads the thumbnail of an image Su holds once (fetched by the core from Su's copy). */
  async function suThumbnail(imageId: number): Promise<void> {
    const id = hotelId.value;
    if (!id || suThumbs.has(suKey(id, imageId))) return;
    suThumbs.set(suKey(id, imageId), { state: 'loading' });
    suThumbs.set(suKey(id, imageId), thumbOf(await withinWait(api['photos.suThumbnail']({ hotelId: id, imageId }))));
  }
  const suThumb = (imageId: number) => (hotelId.value ? suThumbs.get(suKey(hotelId.value, imageId)) : undefined);

  /** Follows `photos.changed` for the property on screen. */
  function listen(): () => void {
    return api.on('photos.changed', (change) => {
      if (change.hotelId === hotelId.value) void load();
    });
  }

  return {
    hotelId,
    view,
    error,
    filter,
    thumbs,
    reconciling,
    uploading,
    removed,
    photos,
    shown,
    toUpload,
    load,
    open,
    replace,
    captionProblem,
    update,
    remove,
    upload,
    reconcile,
    decide,
    thumbnail,
    suThumbnail,
    suThumb,
    listen,
  };
});
