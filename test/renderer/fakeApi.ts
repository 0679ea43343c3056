import type { ContractEvents, ContractResults, EventName, InnkeeperApi, Method } from '@shared/contract';
import type { Result } from '@shared/result';
import { setApi } from '@renderer/api';

/** A call the fake core has not answered yet: the test answers it when it wants, in the order it wants. */
export interface PendingCall<M extends Method = Method> {
  method: M;
  args: unknown;
  answer(result: Result<ContractResults[M]>): void;
}

type Answers = { [M in Method]?: (args: never) => Result<ContractResults[M]> };

/**
 * A fake core for store tests, installed as the renderer's `api`. Methods given in `answers` reply at once;
 * every other call waits in `pending(method)` until the test answers it, so the test chooses the order in which
 * answers arrive. `emit` plays an event from the core.
 */
export function installFakeApi(answers: Answers = {}) {
  const waiting: PendingCall[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const api = new Proxy({} as InnkeeperApi, {
    get(_, name: string) {
      if (name === 'on') {
        return (event: string, listener: (payload: unknown) => void) => {
          const set = listeners.get(event) ?? new Set();
          set.add(listener);
          listeners.set(event, set);
          return () => set.delete(listener);
        };
      }
      const method = name as Method;
      return (args: unknown) => {
        const reply = answers[method] as ((args: unknown) => Result<unknown>) | undefined;
        if (reply) return Promise.resolve(reply(args));
        return new Promise((resolve) => {
          const call: PendingCall = {
            method,
            args,
            answer: (result) => {
              waiting.splice(waiting.indexOf(call), 1);
              resolve(result);
            },
          };
          waiting.push(call);
        });
      };
    },
  });
  setApi(api);

  return {
    /** The unanswered calls of `method`, oldest first. */
    pending<M extends Method>(method: M): PendingCall<M>[] {
      return waiting.filter((call) => call.method === method) as unknown as PendingCall<M>[];
    },
    emit<E extends EventName>(event: E, payload: ContractEvents[E]): void {
      listeners.get(event)?.forEach((listener) => listener(payload));
    },
  };
}

/** Lets everything that can happen now happen: answers arrive, the code after each await runs. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
