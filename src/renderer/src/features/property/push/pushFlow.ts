import { ref, shallowRef } from 'vue';
import type { PropertyPreview, PropertySection } from '@shared/property';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/** What a draft is about: the details of a property, or the facilities of the property or one room. */
export interface PushScope {
  section: PropertySection;
  hotelId: string;
  roomId: string | null;
}

export const scopeKey = (s: PushScope | null) => (s ? `${s.section}|${s.hotelId}|${s.roomId ?? ''}` : '');

/**
 * Preview → Send for one draft, the same for details and facilities: the preview is asked for once the draft is
 * saved (`flush`), and Send carries the preview's fingerprint, so what goes is exactly what the owner looked at.
 * Used inside a store's setup.
 */
export function createPushFlow(scope: () => PushScope | null, flush: () => Promise<void>) {
  const preview = shallowRef<PropertyPreview | null>(null);
  const previewError = shallowRef<AppError | null>(null);
  const loading = ref(false);
  /** The preview dialog; a store opens it too (after Revert). */
  const dialogOpen = ref(false);
  /** The push sent from this screen, whose progress the bar reports until the owner hides it. */
  const lastPushId = ref<number | null>(null);
  const loads = latestOnly();

  function clear() {
    preview.value = null;
    previewError.value = null;
  }

  /** Another draft on screen (another property or room): nothing of this one's shows. */
  function reset() {
    clear();
    lastPushId.value = null;
  }

  /** Saves what is typed, then asks the core what Send would send. */
  async function refresh(): Promise<void> {
    const at = scope();
    if (!at) return;
    const isNewest = loads();
    loading.value = true;
    try {
      await flush();
      const args =
        at.section === 'details'
          ? ({ section: 'details', hotelId: at.hotelId } as const)
          : ({ section: 'facilities', hotelId: at.hotelId, roomId: at.roomId } as const);
      const result = await api['property.preview'](args);
      if (!isNewest() || scopeKey(scope()) !== scopeKey(at)) return; // a newer preview, or another draft on screen
      preview.value = result.ok ? result.value : null;
      previewError.value = result.ok ? null : result.error;
    } finally {
      if (isNewest()) loading.value = false;
    }
  }

  /**
   * Sends the previewed request through the outbox. `confirmed`: the owner agreed to the instances it creates.
   * Answers the push's id, or why it was not sent (a stale preview is drawn again for the owner to look at).
   */
  async function send(confirmed: boolean): Promise<{ pushId: number } | AppError> {
    const at = scope();
    const fingerprint = preview.value?.fingerprint;
    if (!at || !fingerprint) return { code: 'stale_preview', message: 'Preview the change first.' };
    const result = await api['property.send']({ ...at, fingerprint, confirmed });
    if (!result.ok) {
      // The draft changed since this preview, or it creates instances: the owner looks at the new preview first.
      if (result.error.code === 'stale_preview' || result.error.code === 'confirmation_needed') await refresh();
      return result.error;
    }
    lastPushId.value = result.value.pushId;
    return result.value;
  }

  return { preview, previewError, loading, dialogOpen, lastPushId, clear, reset, refresh, send };
}
