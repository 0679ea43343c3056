import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ConnectionProfileInput, ConnectionTestResult, CredentialPart, PartCheckResult } from '@shared/connection';
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

  /** The setup guide's checks of the account's parts, with the settings on screen when each was checked. */
  const partChecks = ref<Partial<Record<CredentialPart, PartCheckResult>>>({});
  const checking = ref<CredentialPart | null>(null);

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

  /** Checks one part of the account (facility setup, payments, notifications) with the settings on screen. */
  async function checkPart(part: CredentialPart, input: ConnectionProfileInput) {
    checking.value = part;
    try {
      const result = await api['connection.checkPart']({ part, profile: input });
      partChecks.value = {
        ...partChecks.value,
        [part]: result.ok
          ? result.value
          : { part, ok: false, text: result.error.message, field: result.error.field ?? null, checkedAt: Date.now() },
      };
    } finally {
      checking.value = null;
    }
  }

  function clearOutcome() {
    testResult.value = null;
    testError.value = null;
    saveError.value = null;
  }

  /** Forgets the parts' checks (another environment on screen), or one part's (its fields changed). */
  function clearChecks(part?: CredentialPart) {
    if (!part) partChecks.value = {};
    else if (partChecks.value[part]) {
      const { [part]: _gone, ...rest } = partChecks.value;
      partChecks.value = rest;
    }
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
    partChecks,
    checking,
    load,
    listen,
    test,
    save,
    checkPart,
    clearOutcome,
    clearChecks,
  };
});
