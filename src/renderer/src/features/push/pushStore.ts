import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PushSettingsInput, PushStatus } from '@shared/push';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';

/** The push listener's settings and health, live. */
export const usePushStore = defineStore('push', () => {
  const status = ref<PushStatus | null>(null);
  const saveError = ref<AppError | null>(null);
  const saving = ref(false);

  async function load() {
    const result = await api['push.status']({});
    if (result.ok) status.value = result.value;
  }

  function listen() {
    return api.on('push.changed', (next) => (status.value = next));
  }

  async function save(input: PushSettingsInput): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      const result = await api['push.save'](input);
      if (result.ok) status.value = result.value;
      else saveError.value = result.error;
      return result.ok;
    } finally {
      saving.value = false;
    }
  }

  return { status, saveError, saving, load, listen, save };
});
