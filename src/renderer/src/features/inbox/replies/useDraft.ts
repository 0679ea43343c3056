import { computed, onScopeDispose, ref, watch } from 'vue';
import { onReconnect } from '@renderer/api/link';

/** How long typing must pause before the draft is written. */
export const DRAFT_DELAY_MS = 400;

/**
 * Keeps what the owner types in a reply box, saved `DRAFT_DELAY_MS` after they stop typing and whenever the box
 * goes away, one save at a time and in order, so a restart finds the text where it was left. A save that failed
 * (browser mode: the app was stopped) is made again when the link to the app comes back. The box says "Saving
 * draft…" from the first keystroke a save has not yet written, and "Draft saved" only once its newest text is
 * written: an earlier save's answer does not claim the text typed since.
 */
export function useDraft(save: (threadId: number, body: string) => Promise<boolean>) {
  const text = ref('');
  const state = ref<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  let threadId: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** Saves queued so far, and each thread's newest (only its answer says how that thread's draft stands). */
  let writes = 0;
  const newest = new Map<number, number>();
  /** Set while the text is changed by the app (a thread opened, a reply sent), not typed. */
  let quiet = false;
  /** Thread → the text whose save failed last (and was not saved or sent since). */
  const failed = new Map<number, string>();

  /** Saves the text after the pause. */
  function schedule() {
    if (threadId === null) return;
    if (timer) clearTimeout(timer);
    // Not saved yet: whatever an earlier save said no longer holds for this text.
    state.value = 'saving';
    timer = setTimeout(() => void flush(), DRAFT_DELAY_MS);
  }
  // Synchronous, so a change made quietly (below) is recognised as such.
  watch(text, () => quiet || schedule(), { flush: 'sync' });

  /** Writes a pending draft now; resolves when every save so far is done. */
  function flush(): Promise<void> {
    if (!timer || threadId === null) return chain;
    clearTimeout(timer);
    timer = null;
    return write(threadId, text.value);
  }

  /** Queues one save after those under way. */
  function write(id: number, body: string): Promise<void> {
    failed.delete(id);
    const mine = ++writes;
    newest.set(id, mine);
    if (id === threadId) state.value = 'saving';
    chain = chain.then(async () => {
      const ok = await save(id, body).catch(() => false);
      if (!ok) failed.set(id, body);
      // Only the box's own thread reports (a save of the thread left behind says nothing here), and only its newest
      // save with no change waiting: an older answer would call newer text saved, or failed.
      if (id === threadId && newest.get(id) === mine && !timer) state.value = ok ? 'saved' : 'failed';
    });
    return chain;
  }

  /** Back after the link was lost: every save that failed is made again (this box's own with its text now). */
  function retryFailed() {
    for (const [id, body] of [...failed]) {
      // The box's own thread with a save pending already writes its newest text.
      if (id === threadId && timer) continue;
      void write(id, id === threadId ? text.value : body);
    }
  }

  /** Shows another thread's text (its draft): the previous thread's pending save is written first. */
  function open(id: number, body: string) {
    void flush();
    threadId = id;
    setQuietly(body);
    state.value = 'idle';
  }

  /**
   * Drops the pending save (the text is being sent); resolves when saves already under way are done. Their answers
   * say nothing of the text sent, so the box says nothing until the send's outcome (`clear`, or `schedule` again).
   */
  function cancel(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (threadId !== null) newest.set(threadId, ++writes);
    state.value = 'idle';
    return chain;
  }

  /** Empties the box after its text was sent (the core dropped the saved draft with the send). */
  function clear() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (threadId !== null) failed.delete(threadId);
    setQuietly('');
    state.value = 'idle';
  }

  /** Replaces the text without saving it as a draft. */
  function setQuietly(body: string) {
    quiet = true;
    try {
      text.value = body;
    } finally {
      quiet = false;
    }
  }

  const onHide = () => void flush();
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onHide);
  const stopRetries = onReconnect(retryFailed);
  onScopeDispose(() => {
    stopRetries();
    window.removeEventListener('pagehide', onHide);
    document.removeEventListener('visibilitychange', onHide);
    void flush();
  });

  /** What the reply box says about its draft. */
  const note = computed(
    () =>
      ({ idle: '', saving: 'Saving draft…', saved: 'Draft saved', failed: 'The draft could not be saved' })[
        state.value
      ],
  );

  return { text, state, note, open, flush, cancel, schedule, clear };
}
