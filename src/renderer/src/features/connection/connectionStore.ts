import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ConnectionTestResult } from '@shared/connection';
import type { ConnectionProfileInput } from '@shared/connection';
import type { Environment } from '@shared/environments';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { liveValue } from '@renderer/api/liveValue';

/** The connection settings as the core reports them, plus the outcome of the last test and save. */
export const useConnectionStore = defineStore('connection', () => {
  const loadError = ref<AppError | null>(null);
  const {
    value: state,
    load,
    listen,
  } = liveValue('connection.get', 'connection.changed', {
    failed: (error) => (loadError.value = error),
  });
  const testResult = ref<ConnectionTestResult | null>(null);
  const testError = ref<AppError | null>(null);
  const saveError = ref<AppError | null>(null);
  const testing = ref(false);
  const saving = ref(false);

  const active = computed<Environment>(() => state.value?.active ?? 'demo');

  async function test(input: ConnectionProfileInput) {
    testing.value = true;
    testError.value = null;
    testResult.value = null;
    try {
      const result = await api['connection.test'](input);
      if (result.ok) testResult.value = result.value;
      else testError.value = result.error;
    } finally {
      testing.value = false;
    }
  }

  async function save(input: ConnectionProfileInput): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      const result = await api['connection.save'](input);
      if (result.ok) state.value = result.value;
      else saveError.value = result.error;
      return result.ok;
    } finally {
      saving.value = false;
    }
  }

  function clearOutcome() {
    testResult.value = null;
    testError.value = null;
    saveError.value = null;
  }

  return {
    state,
    loadError,
    active,
    testResult,
    testError,
    saveError,
    testing,
    saving,
    load,
    listen,
    test,
    save,
    clearOutcome,
  };
});
