import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { Notice, NoticesView } from '@shared/notices';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/**
 * Airbnb's notices about the owner's accounts: the unseen count over every property (the navigation badge, kept
 * live from the start), and for the property on screen its notices, its accounts and how checking goes.
 */
export const useNoticesStore = defineStore('notices', () => {
  const unseen = ref(0);
  const hotelId = ref<string | null>(null);
  const view = shallowRef<NoticesView | null>(null);
  const error = shallowRef<AppError | null>(null);
  const checking = ref(false);
  const added = new Set<(notice: Notice) => void>();

  const check = computed(() => view.value?.checks.find((c) => c.hotelId === hotelId.value) ?? null);
  /** Whether the property on screen is checked at all (it has Airbnb among its channels). */
  const checked = computed(() => (view.value ? view.value.hotelIds.includes(hotelId.value ?? '') : null));
  const unseenHere = computed(() => view.value?.notices.filter((n) => n.seenAt === null).length ?? 0);

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const unseenReads = latestOnly();
  /** The unseen count, at start. */
  async function loadUnseen(): Promise<void> {
    const isNewest = unseenReads();
    const result = await api['notices.list']({});
    if (result.ok && isNewest()) unseen.value = result.value.unseen;
  }

  const loads = latestOnly();
  async function load(): Promise<void> {
    const id = hotelId.value;
    if (!id) return;
    const isNewest = loads();
    const result = await api['notices.list']({ hotelId: id });
    if (id !== hotelId.value || !isNewest()) return;
    take(result.ok ? result.value : null, result.ok ? null : result.error);
  }

  function take(next: NoticesView | null, failure: AppError | null) {
    error.value = failure;
    if (!next) return;
    view.value = next;
    unseen.value = next.unseen;
  }

  async function open(id: string): Promise<void> {
    if (id !== hotelId.value) {
      view.value = null;
      error.value = null;
      hotelId.value = id;
    }
    await load();
  }

  /** Marks notices seen: the ones given, or every one of the property on screen. */
  async function markSeen(ids?: number[]): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id) return null;
    const result = await api['notices.markSeen'](ids ? { ids } : { hotelId: id });
    if (!result.ok) return result.error;
    unseen.value = result.value.unseen;
    await load();
    return null;
  }

  /** Asks Airbnb (through Su) now, for the property on screen. */
  async function checkNow(): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id || checking.value) return null;
    checking.value = true;
    try {
      const result = await api['notices.checkNow']({ hotelId: id });
      if (id !== hotelId.value) return null;
      if (!result.ok) return result.error;
      take(result.value, null);
      return null;
    } finally {
      checking.value = false;
    }
  }

  /**
   * Opens a notice's call to action in the system browser (Electron sends https windows there; in browser mode a
   * new tab). The core marks it seen and answers only an https address.
   */
  async function openAction(id: number): Promise<AppError | null> {
    const result = await api['notices.open']({ id });
    if (!result.ok) return result.error;
    // SECURITY: only https leaves the app, and the page opened gets no handle on this window.
    if (!/^https:\/\//i.test(result.value.url))
      return { code: 'validation', message: 'This notice has no web address to open.' };
    window.open(result.value.url, '_blank', 'noopener,noreferrer');
    await load();
    return null;
  }

  /** Follows `notices.changed`: the badge, the list on screen, and the new notices for the alerts. */
  function listen(): () => void {
    return api.on('notices.changed', (change) => {
      unseenReads(); // newer than any read under way
      unseen.value = change.unseen;
      if (hotelId.value && view.value) void load();
      for (const notice of change.added) added.forEach((listener) => listener(notice));
    });
  }

  /** Calls `listener` for each new notice while the app is open; returns the function that stops. */
  function onAdded(listener: (notice: Notice) => void): () => void {
    added.add(listener);
    return () => added.delete(listener);
  }

  return {
    unseen,
    hotelId,
    view,
    error,
    checking,
    check,
    checked,
    unseenHere,
    loadUnseen,
    load,
    open,
    markSeen,
    checkNow,
    openAction,
    listen,
    onAdded,
  };
});
