import type { ContractEvents, EventName } from '../../shared/contract';
import { errorText } from '../../shared/result';
import { containsSecret, redactDeep } from './secretLeaks';

/** The core's typed event bus; hosts forward its events to the renderer. */
export interface EventBus {
  emit<E extends EventName>(event: E, payload: ContractEvents[E]): void;
  on<E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void): () => void;
  /** Every event, for hosts that forward all of them. */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
}

/**
 * @param secretValues SECURITY: stored secrets; an event's payload is cleaned of them in every form, as call results
 * are (events go to the renderer just like call results do): a guest message with a secret in it is still announced,
 * with "[secret removed]" where the secret was. A payload that still carries one after cleaning is dropped (and
 * logged without it).
 */
export function createEventBus(secretValues: () => string[] = () => []): EventBus {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  const onAny: EventBus['onAny'] = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    emit(event, sent) {
      const secrets = secretValues();
      const payload = redactDeep(sent, secrets);
      if (payload !== sent) console.error(`SECURITY: the ${event} event carried a secret; it was removed.`);
      if (containsSecret(JSON.stringify(payload), secrets)) {
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
