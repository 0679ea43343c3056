import type { ConnectionState } from '../shared/connection';
import { errorText } from '../shared/result';
import type { IngestResult } from './intake/ingest';
import type { OutboxItem } from './outbox/types';

/**
 * Events between the core's features: how one feature reacts to what another did, without either importing the
 * other's service. Never forwarded to the renderer (that is `events`, the contract's events). A listener runs
 * after the change it hears about is committed; it must not throw (a throwing listener is logged and the others
 * still run).
 */
export interface CoreEvents {
  /** The provider in use, its credentials or its state changed (connection.save, a switch, a test, a token). */
  connectionChanged: ConnectionState;
  /** The owner saved connection settings: work that waited for credentials may go again. */
  connectionSaved: ConnectionState;
  /** The intake's listener is listening at `localUrl` (null: it stopped or could not start). */
  intakeListening: { localUrl: string | null };
  /**
   * Deliveries Su made were filed and acknowledged, in one group: each with its outcome (stored, duplicate,
   * quarantined) and what its filer answered. Heard after Su was told, in the next turn of the event loop.
   */
  deliveriesFiled: readonly IngestResult[];
  /** A guest's message was filed (not the owner's own reply, nor a duplicate). Unread until the owner reads it. */
  guestMessageFiled: { messageId: number; threadId: number };
  /** A review was filed: new (`created`) or an update of one already filed. */
  reviewFiled: { reviewId: number; created: boolean };
  /** An outgoing item reached an end: sent (Su confirmed), failed (stopped for the owner) or discarded. */
  outboxSettled: OutboxItem;
  /**
   * The provider now answers at another origin than before (the built-in demo, whose port was taken at its start):
   * addresses a feature stored under one of the `from` origins (payment links, Su's copies of photos) are rewritten
   * to `to` (http://127.0.0.1:4123 style origins, no path). Heard before the features' background work starts.
   */
  providerMoved: { provider: string; from: string[]; to: string };
  /** Every feature has started (`start` ran for each, in list order). */
  coreStarted: Record<string, never>;
}

export type CoreEventName = keyof CoreEvents;

/** The core's own event bus (see CoreEvents). */
export interface CoreBus {
  emit<E extends CoreEventName>(event: E, payload: CoreEvents[E]): void;
  /** Subscribes; returns the function that unsubscribes. */
  on<E extends CoreEventName>(event: E, listener: (payload: CoreEvents[E]) => void): () => void;
}

export function createCoreBus(): CoreBus {
  const listeners = new Map<CoreEventName, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch (error) {
          // One feature's failure must not stop the others from hearing it, nor the feature that emitted.
          console.error(`a listener of ${event} failed: ${errorText(error)}`);
        }
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
