import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DemoDelivery, DemoDeliveryResult } from '@shared/demo';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { liveValue } from '@renderer/api/liveValue';

/** What the owner last asked of the demo: one kind of delivery, or switching the live messages. */
export type DemoAction = DemoDelivery['kind'] | 'live' | 'laptop';

/** The built-in demo provider while it runs, and the deliveries the owner asks it for. */
export const useDemoStore = defineStore('demo', () => {
  /** The core says when the demo starts or stops (the owner changed provider) and when its settings change. */
  const {
    value: status,
    load,
    listen,
  } = liveValue('demo.status', 'demo.changed', {
    // A demo that stopped takes its last result with it: a later start begins with a clean panel.
    heard: (next) => {
      if (!next.running) clearOutcome();
    },
  });
  const result = ref<DemoDeliveryResult | null>(null);
  const error = ref<AppError | null>(null);
  // What the result or error is about, so field errors land next to the controls that caused them.
  const action = ref<DemoAction | null>(null);
  const delivering = ref(false);
  const switchingLive = ref(false);
  /** "Close the laptop for an hour" on its way (the guests write before it answers), or opening it. */
  const switchingLaptop = ref(false);

  function clearOutcome() {
    result.value = null;
    error.value = null;
    action.value = null;
  }

  /** Delivers one thing through the listener; a second ask while one is on its way is ignored. */
  async function deliver(delivery: DemoDelivery): Promise<boolean> {
    if (delivering.value) return false;
    delivering.value = true;
    clearOutcome();
    action.value = delivery.kind;
    try {
      const answer = await api['demo.deliver'](delivery);
      if (answer.ok) result.value = answer.value;
      else error.value = answer.error;
      return answer.ok && answer.value.acknowledged;
    } finally {
      delivering.value = false;
    }
  }

  async function setLiveMessages(enabled: boolean) {
    if (switchingLive.value) return;
    switchingLive.value = true;
    try {
      const answer = await api['demo.setLiveMessages']({ enabled });
      if (answer.ok) {
        status.value = answer.value;
        if (action.value === 'live') clearOutcome();
      } else {
        clearOutcome();
        action.value = 'live';
        error.value = answer.error;
      }
    } finally {
      switchingLive.value = false;
    }
  }

  /** Closes the laptop (collecting from the demo's mailbox pauses while its guests write) or opens it again. */
  async function setLaptop(open: boolean) {
    if (switchingLaptop.value) return;
    switchingLaptop.value = true;
    clearOutcome();
    try {
      const answer = await api['demo.laptop']({ open });
      if (answer.ok) status.value = answer.value;
      else {
        action.value = 'laptop';
        error.value = answer.error;
      }
    } finally {
      switchingLaptop.value = false;
    }
  }

  return {
    status,
    result,
    error,
    action,
    delivering,
    switchingLive,
    switchingLaptop,
    load,
    listen,
    deliver,
    setLiveMessages,
    setLaptop,
  };
});
