import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DataFileStatus } from '@shared/dataFile';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/** The data file's health, its backups and a restore the owner chose: live, on every screen (its banner). */
export const useDataFileStore = defineStore('dataFile', () => {
  const status = ref<DataFileStatus | null>(null);
  const restoreError = ref<string | null>(null);
  const restoring = ref(false);

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const reads = latestOnly();
  async function load() {
    const isNewest = reads();
    const result = await api['dataFile.status']({});
    if (result.ok && isNewest()) status.value = result.value;
  }

  function listen() {
    return api.on('dataFile.changed', (next) => {
      reads();
      status.value = next;
    });
  }

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
