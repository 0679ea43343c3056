import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { PropertyPush, PropertySection } from '@shared/property';
import type { PropertySetup } from '@shared/rateSetups';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { latestOnly } from '@renderer/lib/latestOnly';

const PROPERTY_KEY = 'innkeeper.property.hotelId';

/** Where a revert put its record back as the draft: the tab (and the room) to open with its preview. */
export interface RevertTarget {
  section: PropertySection;
  hotelId: string;
  roomId: string | null;
}

/**
 * The Property screen's shared state: the properties the owner set up (Rooms & rate plans on the Rates screen),
 * which one is on screen, and its push history (details and facilities together), with Revert and the decisions
 * about a push that did not go through.
 */
export const usePropertyStore = defineStore('property', () => {
  const properties = shallowRef<PropertySetup[] | null>(null);
  const propertiesError = shallowRef<AppError | null>(null);
  const hotelId = ref<string | null>(null);
  const property = computed(() => properties.value?.find((p) => p.hotelId === hotelId.value) ?? null);
  const history = shallowRef<PropertyPush[] | null>(null);
  const historyError = shallowRef<AppError | null>(null);

  async function loadProperties(): Promise<void> {
    const result = await api['rates.properties']({});
    if (!result.ok) return void (propertiesError.value = result.error);
    propertiesError.value = null;
    properties.value = result.value;
  }

  /** The property to show when the address names none (or one that is gone): the last one shown, else the first. */
  function defaultHotelId(): string | null {
    const list = properties.value ?? [];
    const remembered = localStorage.getItem(PROPERTY_KEY);
    return list.find((p) => p.hotelId === remembered)?.hotelId ?? list[0]?.hotelId ?? null;
  }

  /** Shows a property (its history is read again). */
  async function select(id: string | null): Promise<void> {
    if (id !== hotelId.value) history.value = null;
    hotelId.value = id;
    if (id) localStorage.setItem(PROPERTY_KEY, id);
    if (id) await loadHistory();
  }

  const historyLoads = latestOnly();
  async function loadHistory(): Promise<void> {
    const id = hotelId.value;
    if (!id) return;
    const isNewest = historyLoads();
    const result = await api['property.history']({ hotelId: id });
    if (id !== hotelId.value || !isNewest()) return;
    if (result.ok) history.value = result.value;
    historyError.value = result.ok ? null : result.error;
  }

  /** Makes an earlier push's record the draft again; answers where, for the screen to open its preview. */
  async function revert(pushId: number, replaceDraft = false): Promise<RevertTarget | AppError> {
    const result = await api['property.revert']({ pushId, replaceDraft });
    if (!result.ok) return result.error;
    return result.value;
  }

  /** Retry or Discard of a push that did not go through: the outbox decides, the history follows. */
  async function decide(decision: 'retry' | 'discard' | 'markSent', push: PropertyPush): Promise<AppError | null> {
    const error = await useOutboxStore()[decision](push.outboxId);
    await loadHistory();
    return error;
  }

  /** Follows the core's `property.changed`: the history, and whatever `also` reloads (the tab on screen). */
  function listen(also: (change: RevertTarget) => void): () => void {
    return api.on('property.changed', (change) => {
      if (change.hotelId !== hotelId.value) return;
      void loadHistory();
      also(change);
    });
  }

  return {
    properties,
    propertiesError,
    hotelId,
    property,
    history,
    historyError,
    loadProperties,
    defaultHotelId,
    select,
    loadHistory,
    revert,
    decide,
    listen,
  };
});
