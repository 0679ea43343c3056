import { ref, shallowRef } from 'vue';
import { ErrorCode, type AppError, type Result } from '@shared/result';
import { latestOnly } from '@renderer/lib/latestOnly';

/** Said when a change is sent before its preview was shown: the preview is drawn, nothing is sent. */
export const NOT_PREVIEWED: AppError = {
  code: ErrorCode.PreviewStale,
  message: 'Look at the preview first: nothing was sent.',
  retryable: false,
};

/**
 * The core's answers that mean "look at the preview again": the draft changed since it was drawn, or the change
 * needs the owner's confirmation.
 */
export const LOOK_AGAIN: readonly string[] = [ErrorCode.PreviewStale, ErrorCode.ConfirmRequired];

export interface SendFlowOptions<Scope, Preview, Sent> {
  /** What the draft on screen is about (null: nothing is on screen). */
  scope: () => Scope | null;
  /** Two scopes are the same draft when their keys are equal. */
  key: (scope: Scope) => string;
  /** Saves what waits to be saved before the preview is asked for (never a save that itself asks for one). */
  flush?: () => Promise<void>;
  /** Asks the core what sending would send. */
  preview: (scope: Scope) => Promise<Result<Preview>>;
  /** Sends the previewed change with its fingerprint; `confirmed`: the owner said yes to what needs it. */
  send: (scope: Scope, fingerprint: string, confirmed: boolean) => Promise<Result<Sent>>;
}

/**
 * Preview → Send of a reviewed change: the preview is asked for once the draft is saved, only the newest answer for
 * the draft on screen counts, and Send carries the preview's fingerprint, so what goes is exactly what the owner
 * looked at. Used inside a store's setup.
 */
export function createSendFlow<Scope, Preview extends { fingerprint: string | null }, Sent extends { pushId: number }>(
  options: SendFlowOptions<Scope, Preview, Sent>,
) {
  const preview = shallowRef<Preview | null>(null);
  const previewError = shallowRef<AppError | null>(null);
  const loading = ref(false);
  /** The change sent from this screen, whose progress the bar reports until the owner hides it. */
  const lastPushId = ref<number | null>(null);
  const loads = latestOnly();
  const keyOf = (scope: Scope | null) => (scope === null ? '' : options.key(scope));

  /** No preview shows, and none on its way will. */
  function clear() {
    loads();
    preview.value = null;
    previewError.value = null;
    loading.value = false;
  }

  /** Another draft on screen (another property or room): nothing of this one's shows. */
  function reset() {
    clear();
    lastPushId.value = null;
  }

  /** Saves what is typed, then asks the core what Send would send. */
  async function refresh(): Promise<void> {
    const at = options.scope();
    if (at === null) return;
    const isNewest = loads();
    loading.value = true;
    try {
      await options.flush?.();
      const result = await options.preview(at);
      if (!isNewest() || keyOf(options.scope()) !== keyOf(at)) return; // a newer preview, or another draft on screen
      preview.value = result.ok ? result.value : null;
      previewError.value = result.ok ? null : result.error;
    } finally {
      if (isNewest()) loading.value = false;
    }
  }

  /**
   * Sends the previewed change through the outbox. Answers what the core said (the change's id), or why nothing was
   * sent: without a preview it is drawn first; when the core asks to look again, it is drawn again.
   */
  async function send(confirmed: boolean): Promise<Sent | AppError> {
    const at = options.scope();
    const fingerprint = preview.value?.fingerprint;
    if (at === null) return NOT_PREVIEWED;
    if (!fingerprint) {
      await refresh();
      return previewError.value ?? NOT_PREVIEWED;
    }
    const result = await options.send(at, fingerprint, confirmed);
    if (!result.ok) {
      if (LOOK_AGAIN.includes(result.error.code)) await refresh();
      return result.error;
    }
    lastPushId.value = result.value.pushId;
    return result.value;
  }

  return { preview, previewError, loading, lastPushId, clear, reset, refresh, send };
}

/** Whether a flow's answer is an error (the other answer is what the core said of the change sent). */
export const failed = <Sent>(outcome: Sent | AppError): outcome is AppError =>
  typeof outcome === 'object' && outcome !== null && 'code' in outcome;
