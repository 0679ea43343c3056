import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { IntakeSettingsInput, QuarantinedDelivery } from '@shared/intake';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { liveValue } from '@renderer/api/liveValue';

/** The listener's settings and health, live, and the deliveries it set aside as not understood. */
export const useIntakeStore = defineStore('intake', () => {
  const { value: status, load, listen } = liveValue('intake.status', 'intake.changed');
  const saveError = ref<AppError | null>(null);
  const saving = ref(false);

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
