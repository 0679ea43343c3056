import { defineStore } from 'pinia';
import { ref } from 'vue';
import { api } from '@renderer/api';
import { liveValue } from '@renderer/api/liveValue';

/** The data file's health, its backups and a restore the owner chose: live, on every screen (its banner). */
export const useDataFileStore = defineStore('dataFile', () => {
  const { value: status, load, listen } = liveValue('dataFile.status', 'dataFile.changed');
  const restoreError = ref<string | null>(null);
  const restoring = ref(false);

  /** A backup chosen to restore at the next start (`file`), or that choice undone (null). */
  async function restoreBackup(file: string | null) {
    restoring.value = true;
    restoreError.value = null;
    try {
      const result = file ? await api['dataFile.restoreBackup']({ file }) : await api['dataFile.cancelRestore']({});
      if (result.ok) status.value = result.value;
      else restoreError.value = result.error.message;
    } finally {
      restoring.value = false;
    }
  }

  return { status, load, listen, restoreError, restoring, restoreBackup };
});
