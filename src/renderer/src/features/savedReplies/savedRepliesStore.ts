import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { InnkeeperApi } from '@shared/contract';
import type { AppError } from '@shared/result';
import { savedReplySchema, type SavedReply, type SavedReplyInput } from '@shared/savedReplies';
import { check } from '@shared/validation';
import { api } from '@renderer/api';

/** The owner's saved replies (with {{variables}}), for the composer's menu and their own dialog. */
export const useSavedRepliesStore = defineStore('savedReplies', () => {
  const list = shallowRef<SavedReply[] | null>(null);
  const loadError = shallowRef<AppError | null>(null);
  const busy = ref(false);

  async function load() {
    const result = await api['savedReplies.list']({});
    if (result.ok) {
      list.value = result.value;
      loadError.value = null;
    } else loadError.value = result.error;
  }

  /** Adds (no id) or changes a saved reply; resolves with what is wrong, by field, or null. */
  async function save(input: SavedReplyInput): Promise<AppError | null> {
    // Checked here first with the core's own schema, so every field's problem shows at once without a round trip.
    const checked = check(savedReplySchema, input);
    if (!checked.ok) return checked.error;
    return run(() => api['savedReplies.save'](checked.value));
  }

  const remove = (id: number) => run(() => api['savedReplies.delete']({ id }));

  async function run(call: () => ReturnType<InnkeeperApi['savedReplies.list']>): Promise<AppError | null> {
    busy.value = true;
    try {
      const result = await call();
      if (!result.ok) return result.error;
      list.value = result.value;
      return null;
    } finally {
      busy.value = false;
    }
  }

  return { list, loadError, busy, load, save, remove };
});
