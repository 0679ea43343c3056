import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { MailboxPairInput, MailboxStatus } from '@shared/mailbox';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { liveValue } from '@renderer/api/liveValue';

/** Where a "… arrived while this computer was off" note was put away, by when its catch-up was done. */
const DISMISSED_KEY = 'innkeeper.mailbox.whileOffDismissed';

function dismissedAt(): number | null {
  try {
    const value = Number(localStorage.getItem(DISMISSED_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** The owner's mailbox: its status as the core announces it, pairing and unpairing (this computer or another). */
export const useMailboxStore = defineStore('mailbox', () => {
  /** Events heard: an answer to pair or unpair is older than an event heard while it was on its way. */
  let heard = 0;
  const { value: status, load, listen } = liveValue('mailbox.status', 'mailbox.changed', { heard: () => heard++ });
  /** Takes the core's answer unless an event came meanwhile (collecting starts at once and says so first). */
  const unlessNewer = (before: number, next: MailboxStatus) => {
    if (heard === before) status.value = next;
  };
  const pairError = ref<AppError | null>(null);
  const unpairError = ref<AppError | null>(null);
  const pairing = ref(false);
  const unpairing = ref(false);
  /** The catch-up whose note the owner put away (kept in this browser, so that it stays away after a reload). */
  const dismissed = ref<number | null>(dismissedAt());

  /** Pairs with the mailbox at `url` with the code it printed; the refusal lands next to its field. */
  async function pair(input: MailboxPairInput): Promise<boolean> {
    if (pairing.value) return false;
    pairing.value = true;
    pairError.value = null;
    const before = heard;
    try {
      const answer = await api['mailbox.pair'](input);
      if (answer.ok) unlessNewer(before, answer.value);
      else pairError.value = answer.error;
      return answer.ok;
    } finally {
      pairing.value = false;
    }
  }

  async function unpair(): Promise<boolean> {
    if (unpairing.value) return false;
    unpairing.value = true;
    unpairError.value = null;
    const before = heard;
    try {
      const answer = await api['mailbox.unpair']({});
      if (answer.ok) unlessNewer(before, answer.value);
      else unpairError.value = answer.error;
      return answer.ok;
    } finally {
      unpairing.value = false;
    }
  }

  /** The other device being unpaired, and the refusal of the last one that could not be (by device). */
  const unpairingDevice = ref<string | null>(null);
  const deviceError = ref<{ deviceId: string; error: AppError } | null>(null);

  /** Unpairs another device from the mailbox (a computer lost, sold or given away). */
  async function unpairDevice(deviceId: string): Promise<boolean> {
    if (unpairingDevice.value) return false;
    unpairingDevice.value = deviceId;
    deviceError.value = null;
    const before = heard;
    try {
      const answer = await api['mailbox.unpairDevice']({ deviceId });
      if (answer.ok) unlessNewer(before, answer.value);
      else deviceError.value = { deviceId, error: answer.error };
      return answer.ok;
    } finally {
      unpairingDevice.value = null;
    }
  }

  /** Puts the "… arrived while this computer was off" note away (until the next catch-up brings something). */
  function dismissWhileOff() {
    const at = status.value?.whileOff?.collectedAt;
    if (!at) return;
    dismissed.value = at;
    try {
      localStorage.setItem(DISMISSED_KEY, String(at));
    } catch {
      // Private mode: put away for this window only.
    }
  }

  return {
    status,
    pairError,
    unpairError,
    pairing,
    unpairing,
    unpairingDevice,
    deviceError,
    dismissed,
    load,
    listen,
    pair,
    unpair,
    unpairDevice,
    dismissWhileOff,
  };
});
