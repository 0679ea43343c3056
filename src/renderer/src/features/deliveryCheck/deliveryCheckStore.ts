import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DeliveryCheck } from '@shared/deliveryCheck';
import { api } from '@renderer/api';

/** The last check of whether Su's deliveries reach Innkeeper, or why it could not be made. */
export const useDeliveryCheckStore = defineStore('deliveryCheck', () => {
  const result = ref<DeliveryCheck | null>(null);
  const error = ref<string | null>(null);
  const running = ref(false);

  async function run() {
    running.value = true;
    error.value = null;
    try {
      const answer = await api['deliveryCheck.run']({});
      result.value = answer.ok ? answer.value : null;
      if (!answer.ok) error.value = answer.error.message;
    } finally {
      running.value = false;
    }
  }

  return { result, error, running, run };
});
