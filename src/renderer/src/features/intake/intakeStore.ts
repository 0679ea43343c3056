import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { IntakeSettingsInput, IntakeStatus, QuarantinedDelivery } from '@shared/intake';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/** The listener's settings and health, live, and the deliveries it set aside as not understood. */
export const useIntakeStore = defineStore('intake', () => {
  const status = ref<IntakeStatus | null>(null);
  const saveError = ref<AppError | null>(null);
  const saving = ref(false);

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const reads = latestOnly();
  async function load() {
    const isNewest = reads();
    const result = await api['intake.status']({});
    if (result.ok && isNewest()) status.value = result.value;
  }

  function listen() {
    return api.on('intake.changed', (next) => {
      reads();
      status.value = next;
    });
  }

  async function save(input: IntakeSettingsInput): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      const result = await api['intake.save'](input);
      if (result.ok) status.value = result.value;
      else saveError.value = result.error;
      return result.ok;
    } finally {
      saving.value = false;
    }
  }

  // ---- deliveries received but not understood: listed when the owner asks, each can be dismissed -----------------
  const quarantine = ref<QuarantinedDelivery[] | null>(null);
  const quarantineError = ref<string | null>(null);

  async function showQuarantine() {
    const result = await api['intake.quarantine']({});
    if (result.ok) quarantine.value = result.value;
    else quarantineError.value = result.error.message;
  }

  async function dismissQuarantined(id: number) {
    const result = await api['intake.dismissQuarantined']({ id });
    if (result.ok) quarantine.value = quarantine.value?.filter((i) => i.id !== id) ?? null;
    else quarantineError.value = result.error.message;
  }

  /** What is in quarantine, for a summary elsewhere (the inbox's banner); the Connection screen's list is untouched. */
  async function peekQuarantine(): Promise<QuarantinedDelivery[] | null> {
    const result = await api['intake.quarantine']({});
    return result.ok ? result.value : null;
  }

  /** The list closes with the screen that showed it: the next visit starts from the "Show them" button again. */
  function closeQuarantine() {
    quarantine.value = null;
    quarantineError.value = null;
  }

  return {
    status,
    saveError,
    saving,
    load,
    listen,
    save,
    quarantine,
    quarantineError,
    showQuarantine,
    peekQuarantine,
    dismissQuarantined,
    closeQuarantine,
  };
});
