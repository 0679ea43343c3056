import { ref, shallowRef } from 'vue';
import type { PropertySection } from '@shared/property';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { createDraftSaver } from '@renderer/ui/reviewedChange/draftSaver';
import { createSendFlow, failed } from '@renderer/ui/reviewedChange/sendFlow';

/** What a draft is about: the details of a property, or the facilities of the property or one room. */
export interface PushScope {
  section: PropertySection;
  hotelId: string;
  roomId: string | null;
}

export const scopeKey = (s: PushScope | null) => (s ? `${s.section}|${s.hotelId}|${s.roomId ?? ''}` : '');

/** A scope as the core's scope arguments take it (the details have no room). */
const scopeArgs = (at: PushScope) =>
  at.section === 'details'
    ? ({ section: 'details', hotelId: at.hotelId } as const)
    : ({ section: 'facilities', hotelId: at.hotelId, roomId: at.roomId } as const);

/**
 * A tab's draft, the same for details and facilities: saved as it is typed (`save`), previewed once saved, sent
 * with the preview's fingerprint through the outbox, or discarded; `load` reads the tab again after either. Used
 * inside a store's setup; `exposed` is what the store shows of it (the DraftFlow the bar and the preview use).
 */
export function createPropertyDraft(options: {
  scope: () => PushScope | null;
  save: () => Promise<AppError | null>;
  load: () => Promise<void>;
}) {
  const saver = createDraftSaver(options.save);
  const flow = createSendFlow({
    scope: options.scope,
    key: scopeKey,
    flush: () => saver.flush(),
    preview: (at) => api['property.preview'](scopeArgs(at)),
    send: (at, fingerprint, confirmed) => api['property.send']({ ...at, fingerprint, confirmed }),
  });
  /** The preview dialog; a store opens it too (after Revert). */
  const dialogOpen = ref(false);
  /** Why the last send failed (its field messages show at the fields). */
  const sendError = shallowRef<AppError | null>(null);

  /** Sends the previewed request; `confirmed`: the owner agreed to the instances it creates. */
  async function send(confirmed: boolean): Promise<AppError | null> {
    sendError.value = null;
    const outcome = await flow.send(confirmed);
    if (failed(outcome)) {
      sendError.value = outcome;
      return outcome;
    }
    flow.clear();
    await options.load();
    return null;
  }

  async function discardDraft(): Promise<AppError | null> {
    const at = options.scope();
    if (!at) return null;
    saver.cancel();
    const result = await api['property.discardDraft'](scopeArgs(at));
    flow.clear();
    await options.load();
    return result.ok ? null : result.error;
  }

  /** Another draft goes on screen: what waits to be saved of this one is saved, and nothing of it shows. */
  async function leave(): Promise<void> {
    await saver.flush();
    saver.cancel();
    sendError.value = null;
    flow.reset();
  }

  return {
    saver,
    flow,
    sendError,
    dialogOpen,
    send,
    discardDraft,
    leave,
    exposed: {
      saveState: saver.state,
      saveError: saver.error,
      flush: saver.flush,
      preview: flow.preview,
      previewError: flow.previewError,
      previewLoading: flow.loading,
      dialogOpen,
      lastPushId: flow.lastPushId,
      dismissPush: () => (flow.lastPushId.value = null),
      closePreview: () => (dialogOpen.value = false),
      refreshPreview: flow.refresh,
      sendError,
    },
  };
}
