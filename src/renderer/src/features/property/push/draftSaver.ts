import { ref, shallowRef } from 'vue';
import type { AppError } from '@shared/result';

/** How long a draft waits after the last keystroke before it is saved. */
export const SAVE_DELAY_MS = 400;

/**
 * Saves a draft as it is typed: once typing pauses, one save at a time and in order, each with the draft as it was
 * when it was made. `flush` saves at once what waits (before a preview, on leaving). `changes` counts the owner's
 * edits, so a reload that started before one does not overwrite it.
 */
export function createDraftSaver(save: () => Promise<AppError | null>) {
  const state = ref<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const error = shallowRef<AppError | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let changes = 0;
  let saves = 0;

  function persist(): Promise<void> {
    const mine = ++saves;
    state.value = 'saving';
    chain = chain.then(async () => {
      const failed = await save();
      if (mine !== saves) return; // a newer save is on its way: it says how saving goes
      state.value = failed ? 'failed' : 'saved';
      error.value = failed;
    });
    return chain;
  }

  return {
    state,
    error,
    /** The owner changed the draft: saved once typing pauses. */
    changed() {
      changes++;
      state.value = 'saving';
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void persist();
      }, SAVE_DELAY_MS);
    },
    /** Saves now whatever waits; resolves when every save so far is done. */
    flush(): Promise<void> {
      if (!timer) return chain;
      clearTimeout(timer);
      timer = null;
      return persist();
    },
    /** Forgets a save still waiting (the draft was discarded or another one is on screen). */
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
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
