import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { OutboxStatus } from '@shared/outbox';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

type Decision = 'outbox.retry' | 'outbox.discard' | 'outbox.markSent';

/**
 * Replies on their way to Su: the queue's health for the inbox banner, and the owner's decisions about a reply
 * that did not go out (Retry, Edit, Discard, Mark as sent). Kept live by the core's `outbox.changed` events, which
 * it passes on to the features whose screens show where their items are (`onChanged`).
 */
export const useOutboxStore = defineStore('outbox', () => {
  const status = shallowRef<OutboxStatus | null>(null);

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const reads = latestOnly();
  async function load() {
    const isNewest = reads();
    const result = await api['outbox.status']({});
    if (result.ok && isNewest()) status.value = result.value;
  }

  const changeListeners = new Set<() => void>();
  function listen(): () => void {
    return api.on('outbox.changed', (next) => {
      reads();
      status.value = next;
      changeListeners.forEach((listener) => listener());
    });
  }

  /** Calls `listener` after each change the core reports (while `listen` follows them); returns the function that stops. */
  function onChanged(listener: () => void): () => void {
    changeListeners.add(listener);
    return () => changeListeners.delete(listener);
  }

  /** Applies a decision to one reply; resolves with the reason it was not possible, or null. */
  async function decide(method: Decision, id: number): Promise<AppError | null> {
    const result = await api[method]({ id });
    if (!result.ok) return result.error;
    status.value = result.value;
    return null;
  }

  return {
    status,
    load,
    listen,
    onChanged,
    retry: (id: number) => decide('outbox.retry', id),
    discard: (id: number) => decide('outbox.discard', id),
    markSent: (id: number) => decide('outbox.markSent', id),
    /** Puts new text into a refused reply and sends it again. */
    async editReply(id: number, body: string): Promise<AppError | null> {
      const result = await api['inbox.editReply']({ id, body });
      return result.ok ? null : result.error;
    },
    /** Tries the paused queue again (after the owner fixed the credentials elsewhere). */
    async resume(): Promise<AppError | null> {
      const result = await api['outbox.resume']({});
      if (!result.ok) return result.error;
      status.value = result.value;
      return null;
    },
  };
});
