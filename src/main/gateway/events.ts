import type { ContractEvents, EventName } from '../../shared/contract';
import { errorText } from '../../shared/result';
import { containsSecret } from './secretLeaks';

/** The core's typed event bus; hosts forward its events to the renderer. */
export interface EventBus {
  emit<E extends EventName>(event: E, payload: ContractEvents[E]): void;
  on<E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void): () => void;
  /** Every event, for hosts that forward all of them. */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
}

/**
 * @param secretValues SECURITY: stored secrets; an event whose payload would carry one is dropped (and logged
 * without it), because events go to the renderer just like call results do.
 */
export function createEventBus(secretValues: () => string[] = () => []): EventBus {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const onAny: EventBus['onAny'] = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    emit(event, payload) {
      const serialized = JSON.stringify(payload);
      if (containsSecret(serialized, secretValues())) {
        console.error(`SECURITY: the ${event} event contained a secret; it was not sent.`);
        return;
      }
      for (const l of [...listeners]) {
        try {
          l(event, payload);
        } catch (error) {
          // A broken listener (a closed window) must not stop the others or the service that emitted.
          console.error(`event listener for ${event} failed:`, errorText(error));
        }
      }
    },
    on: (event, listener) => onAny((e, p) => e === event && listener(p as never)),
    onAny,
  };
}
