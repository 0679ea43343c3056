import { ref, shallowRef } from 'vue';
import type { AppError } from '@shared/result';
import type { SaveState } from './types';

/** How long a draft waits after the last keystroke before it is saved. */
export const SAVE_DELAY_MS = 400;

/**
 * Saves a draft as it is changed: at once (`changedNow`) or once typing pauses (`changed`), one save at a time and
 * in order, each with the draft as it was when it was made (`save` reads it when its turn comes). `flush` saves at
 * once what waits (before a preview, on leaving). `mark`/`editedSince` count the owner's changes, so a reload that
 * started before one does not overwrite it. Used inside a store's setup.
 */
export function createDraftSaver(save: () => Promise<AppError | null>, delay = SAVE_DELAY_MS) {
  const state = ref<SaveState>('idle');
  const error = shallowRef<AppError | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let changes = 0;
  let saves = 0;

  function stopTimer() {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function persist(): Promise<void> {
    const mine = ++saves;
    state.value = 'saving';
    chain = chain.then(async () => {
      const failed = await save();
      // A newer save is on its way, or a change waits to be saved: that one says how saving goes.
      if (mine !== saves || timer) return;
      state.value = failed ? 'failed' : 'saved';
      error.value = failed;
    });
    return chain;
  }

  return {
    state,
    error,
    /** The owner changed the draft: saved once typing pauses. */
    changed(): void {
      changes++;
      state.value = 'saving';
      stopTimer();
      timer = setTimeout(() => {
        timer = null;
        void persist();
      }, delay);
    },
    /** The owner changed the draft: saved now (with any change still waiting); resolves once saved. */
    changedNow(): Promise<void> {
      changes++;
      stopTimer();
      return persist();
    },
    /** Saves now whatever waits; resolves when every save so far is done. */
    flush(): Promise<void> {
      if (!timer) return chain;
      stopTimer();
      return persist();
    },
    /** Resolves when the saves under way are done (what waits for typing to pause is not saved). */
    settled: (): Promise<void> => chain,
    /** Forgets a save still waiting and the answers of those under way (the draft was discarded or another is on screen). */
    cancel(): void {
      stopTimer();
      changes++;
      saves++;
      state.value = 'idle';
      error.value = null;
    },
    /** Whether the owner changed anything since `mark` was taken, or a save waits. */
    mark: () => changes,
    editedSince: (mark: number) => mark !== changes || timer !== null,
  };
}
