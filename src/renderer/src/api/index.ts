import type { ContractResults, InnkeeperApi, Method, MethodArgs } from '@shared/contract';
import type { Result } from '@shared/result';
import { cookieSession, createHttpApi, sessionProved, sessionToken } from './httpApi';

/**
 * How this window reaches the core: the preload's `window.innkeeper` in Electron, the HTTP client in browser
 * mode. Null when browser mode was opened without its session link: see {@link connectWithCookie} then.
 */
export function connect(): InnkeeperApi | null {
  if (window.innkeeper) return window.innkeeper;
  const token = sessionToken();
  return token ? createHttpApi({ token }) : null;
}

/**
 * Browser mode opened without its session link (a bookmark): the HTTP client when this browser opened the link
 * before and still holds the session cookie; null otherwise (nothing can be reached then).
 */
export async function connectWithCookie(): Promise<InnkeeperApi | null> {
  const proofKey = await cookieSession();
  return proofKey ? createHttpApi({ cookie: true, proofKey }) : null;
}

/**
 * The one way stores reach the core. main.ts sets it before the app mounts, and mounts no app at all without
 * it, so every store calls it directly. Tests set a fake with {@link setApi}.
 */
export let api: InnkeeperApi;

export function setApi(next: InnkeeperApi): void {
  api = next;
}

type Answer<M extends Method> = Promise<Result<ContractResults[M]>>;
/** `api[method](args)`, typed for one method. */
const send = <M extends Method>(method: M, args: MethodArgs<M>): Answer<M> =>
  (api[method] as unknown as (args: MethodArgs<M>) => Answer<M>)(args);
/** How long an answer asked for early waits to be taken: one never taken (another property shown) is dropped. */
const EARLY_MS = 10_000;
const early = new Map<string, { answer: Promise<unknown>; at: number }>();
const callKey = (method: Method, args: unknown) => `${method} ${JSON.stringify(args)}`;

/**
 * Starts a call before the code that wants its answer has loaded (a new tab's first screen, shell/firstScreen.ts):
 * that code takes the answer with {@link callOnce}.
 */
export function callEarly<M extends Method>(method: M, args: MethodArgs<M>): Answer<M> {
  const answer = send(method, args);
  const now = performance.now();
  // Answers never taken (another property was shown) are let go rather than kept for the page's life.
  for (const [key, call] of early) if (now - call.at >= EARLY_MS) early.delete(key);
  early.set(callKey(method, args), { answer, at: now });
  return answer;
}

/**
 * Settles when the calls asked for so far have gone out to the core (browser mode: once the session proof is answered;
 * in Electron at once), and those started early are answered.
 */
export async function firstCallsAnswered(): Promise<void> {
  await sessionProved();
  // Answers may start others (the rates calendar's first property, once the list is there): those are waited for too.
  const waited = new Set<Promise<unknown>>();
  for (let next = [...early.values()]; next.length; next = [...early.values()].filter((c) => !waited.has(c.answer))) {
    next.forEach((call) => waited.add(call.answer));
    await Promise.allSettled(next.map((call) => call.answer));
  }
}

/** Settles when the calls asked for so far have gone out to the core (browser mode: after the session proof). */
export const firstCallsSent = (): Promise<unknown> => sessionProved();

/** The answer of the same call started early, taken once (the next asks the core again), or a new call. */
export function callOnce<M extends Method>(method: M, args: MethodArgs<M>): Answer<M> {
  const key = callKey(method, args);
  const started = early.get(key);
  early.delete(key);
  if (started && performance.now() - started.at < EARLY_MS) return started.answer as Answer<M>;
  return send(method, args);
}
