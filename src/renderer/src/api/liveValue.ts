import { ref, type Ref } from 'vue';
import type { ContractEvents, ContractResults, EventName, Method, MethodArgs } from '@shared/contract';
import type { AppError, Result } from '@shared/result';
import { latestOnly } from '@renderer/lib/latestOnly';
import { api } from './index';

/**
 * A value the core keeps and announces as it changes (a status, the settings): `load` asks `method` (which takes
 * no arguments) for it, `listen` follows `event`, whose payload is that value (and returns the stop). Each event
 * counts as a newer read: an answer older than an event is dropped (see latestOnly). `failed` hears a read the core could not answer; `heard` each event, before the value
 * changes.
 */
export function liveValue<M extends Method, E extends EventName>(
  method: M & (Record<string, never> extends MethodArgs<M> ? unknown : never),
  event: E & (ContractEvents[E] extends ContractResults[M] ? unknown : never),
  hooks: { failed?: (error: AppError) => void; heard?: (next: ContractResults[M]) => void } = {},
) {
  const value = ref(null) as Ref<ContractResults[M] | null>;
  const reads = latestOnly();
  async function load() {
    const isNewest = reads();
    const read = api[method] as unknown as (args: MethodArgs<M>) => Promise<Result<ContractResults[M]>>;
    const result = await read({} as MethodArgs<M>);
    if (!result.ok) hooks.failed?.(result.error);
    else if (isNewest()) value.value = result.value;
  }
  function listen() {
    return api.on(event, (next) => {
      const current = next as ContractResults[M];
      hooks.heard?.(current);
      reads();
      value.value = current;
    });
  }
  return { value, load, listen };
}
