import type { Dispatcher } from '../../src/main/gateway/dispatcher';
import type { ContractResults, Method, MethodArgs } from '../../src/shared/contract';
import type { Result } from '../../src/shared/result';

/** A method's argument, optional when the method takes none. */
type ArgsOf<M extends Method> =
  Record<string, never> extends MethodArgs<M> ? [args?: MethodArgs<M>] : [args: MethodArgs<M>];

/**
 * The contract as the renderer uses it, typed by method, over a real core's dispatcher (which validates every
 * argument just as the hosts do). `call` answers the value and throws on an error; `dispatch` answers the whole
 * `{ ok, value } | { ok: false, error }`; `dispatchUnchecked` sends what the types would not allow, for tests of
 * what the core refuses.
 */
export function contractClient(dispatcher: () => Dispatcher) {
  const dispatch = <M extends Method>(method: M, ...[args]: ArgsOf<M>) =>
    dispatcher().dispatch(method, args ?? {}) as Promise<Result<ContractResults[M]>>;
  const call = async <M extends Method>(method: M, ...rest: ArgsOf<M>): Promise<ContractResults[M]> => {
    const result = await dispatch(method, ...rest);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value;
  };
  const dispatchUnchecked = (method: string, args: unknown) => dispatcher().dispatch(method, args);
  return { call, dispatch, dispatchUnchecked };
}
