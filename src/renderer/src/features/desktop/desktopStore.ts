import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { StartAtLoginState } from '@shared/desktop';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/** "Start Innkeeper when I log in": what the core says, and the owner's choice. */
export const useDesktopStore = defineStore('desktop', () => {
  const state = ref<StartAtLoginState | null>(null);
  const error = ref<AppError | null>(null);
  const saving = ref(false);
  /** Counts refused changes: the switch is drawn again from what the core holds (the click had moved it). */
  const refusals = ref(0);

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const reads = latestOnly();
  async function load() {
    const isNewest = reads();
    const answer = await api['desktop.startAtLogin']({});
    if (!answer.ok) error.value ??= answer.error;
    else if (isNewest()) state.value = answer.value;
  }

  /** The core says when it changed elsewhere (the tray's menu, or a real account connected). */
  function listen() {
    return api.on('desktop.changed', (next) => {
      reads();
      state.value = next;
    });
  }

  /** Keeps the owner's choice; on failure the switch shows what is really in force, with the reason. */
  async function choose(on: boolean): Promise<boolean> {
    if (saving.value) return false;
    saving.value = true;
    error.value = null;
    try {
      const answer = await api['desktop.setStartAtLogin']({ on });
      if (answer.ok) state.value = answer.value;
      else {
        error.value = answer.error;
        await load();
        refusals.value++;
      }
      return answer.ok;
    } finally {
      saving.value = false;
    }
  }

  return { state, error, saving, refusals, load, listen, choose };
});
