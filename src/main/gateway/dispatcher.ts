import {
  contractArgs,
  MAX_CALL_BYTES,
  type ContractResults,
  type Method,
  type MethodArgs,
  type ParsedArgs,
} from '../../shared/contract';
import { AppFailure, ErrorCode, fail, ok, type AppError, type Result } from '../../shared/result';
import { validationError } from '../../shared/validation';
import { containsSecret, isCleanAnswer, redact, redactDeep } from './secretLeaks';

/** One implementation per contract method, receiving already-validated arguments. */
export type Handlers = { [M in Method]: (args: ParsedArgs<M>) => Promise<ContractResults[M]> | ContractResults[M] };

/** One feature's slice of `Handlers`: the methods named `<feature>.…`, which its `handlers.ts` implements. */
export type HandlerSlice<Feature extends string> = Pick<Handlers, Extract<Method, `${Feature}.${string}`>>;

/** The single entry point every host uses: Electron IPC and browser-mode HTTP both call `dispatch`. */
export interface Dispatcher {
  /**
   * `bodyBytes`: the size of the request body the host read `args` from, when it held that body to MAX_CALL_BYTES
   * itself (the web host). The arguments are then not written out again to be measured: a photo's chunk sent as JSON
   * is 175 KB of base64, and measuring it again took 0.4 ms of the core's thread (bench/RESULTS.md, photos).
   */
  dispatch(method: unknown, args: unknown, bodyBytes?: number): Promise<Result<unknown>>;
}

/** The size of a call's arguments written as JSON; bytes among them (a photo's chunk over IPC) count their length. */
function sizeOf(args: unknown): number {
  let bytes = 0;
  const text = JSON.stringify(args ?? {}, function (this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key]; // before a Buffer's toJSON turned it into an array of numbers
    if (!(raw instanceof Uint8Array)) return value;
    bytes += raw.byteLength;
    return 0;
  });
  return Buffer.byteLength(text, 'utf8') + bytes;
}

const isMethod = (m: unknown): m is Method => typeof m === 'string' && Object.hasOwn(contractArgs, m);

/**
 * Validates, calls and wraps. SECURITY: arguments are checked against the shared schemas (with a size cap)
 * before any service sees them, and every result and error is cleaned of the stored secret values, in every form
 * (`secretLeaks.ts`): where one was, the renderer gets "[secret removed]", so neither a bug nor a guest who writes
 * a secret into a message can hand one to the renderer, and the rest of the answer still arrives (a conversation
 * stays readable). A result that still carries one after cleaning (inside something that is not plain data) is
 * replaced by an error.
 */
export function createDispatcher(
  handlers: Handlers,
  secretValues: () => string[],
  /** Told of every unexpected error (the core has the data file checked after a store error). */
  onUnexpected: (error: unknown) => void = () => {},
): Dispatcher {
  const guard = <T>(result: Result<T>, method: string): Result<T> => {
    const secrets = secretValues();
    if (isCleanAnswer(result, secrets)) return result; // most answers: one pass over their JSON text
    const clean = redactDeep(result, secrets);
    if (clean !== result) console.error(`SECURITY: the result of ${method} carried a secret; it was removed.`);
    if (!containsSecret(JSON.stringify(clean), secrets)) return clean;
    console.error(`SECURITY: the result of ${method} contained a secret; it was withheld.`);
    return fail({ code: ErrorCode.Internal, message: 'Innkeeper withheld an answer that contained a secret.' });
  };

  return {
    async dispatch(method, args, bodyBytes) {
      if (!isMethod(method)) {
        return fail({ code: ErrorCode.UnknownMethod, message: `Unknown method ${String(method).slice(0, 80)}.` });
      }
      let size: number;
      try {
        size = bodyBytes ?? sizeOf(args);
      } catch {
        return fail({ code: ErrorCode.Validation, message: 'The request could not be read (it is not plain data).' });
      }
      if (size > MAX_CALL_BYTES) {
        return fail({ code: ErrorCode.Validation, message: `The request is too large (${size} bytes).` });
      }
      const parsed = contractArgs[method].safeParse(args ?? {});
      if (!parsed.success) return fail(validationError(parsed.error));
      try {
        const handler = handlers[method] as (a: unknown) => unknown;
        return guard(ok(await handler(parsed.data)), method);
      } catch (error) {
        if (error instanceof AppFailure) return guard(fail(error.error), method);
        onUnexpected(error);
        // Unexpected: log the name and message only (a stack or object dump could carry request data).
        const name = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        console.error(`${method} failed unexpectedly: ${redact(name, secretValues())}`);
        const internal: AppError = {
          code: ErrorCode.Internal,
          message: 'Something went wrong inside Innkeeper. Nothing was sent.',
        };
        return fail(internal);
      }
    },
  };
}

/** A contract method called from inside the core: answers its value, or throws the `AppFailure` it failed with. */
export type ContractCaller = <M extends Method>(method: M, args: MethodArgs<M>) => Promise<ContractResults[M]>;

/**
 * The contract called from inside the app, typed by method, through the same validation as a host's call (the
 * demo enters its rooms as the owner would): answers the value, or throws the `AppFailure` the call failed with.
 */
export function contractCaller(dispatcher: Dispatcher): ContractCaller {
  return async <M extends Method>(method: M, args: MethodArgs<M>): Promise<ContractResults[M]> => {
    const result = await dispatcher.dispatch(method, args);
    if (!result.ok) throw new AppFailure(result.error);
    return result.value as ContractResults[M];
  };
}
