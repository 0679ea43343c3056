import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppInfo } from '@shared/contract';
import { api } from '@renderer/api';

/** Facts about the running app (host kind, data folder, how secrets are stored). */
export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null);
  async function load() {
    const result = await api['app.info']({});
    if (result.ok) info.value = result.value;
  }
  return { info, load };
});
