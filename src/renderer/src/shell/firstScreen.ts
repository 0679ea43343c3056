import type { Pinia } from 'pinia';
import type { RouteLocationResolved, Router } from 'vue-router';
import { firstCallsAnswered } from '@renderer/api';
import { firstEventsOpen } from '@renderer/api/link';
import { FEATURES } from './features';

/** How long the shell's mount waits for the first screen's calls that follow an answer (see firstCallsStarted). */
export const FOLLOW_UP_WAIT_MS = 150;
/** The first screen's calls that go out once an earlier one is answered (the rates calendar's first property). */
let followUps: Promise<unknown> = Promise.resolve();

/**
 * Settles once the first screen's calls that follow an answer have gone out, or after FOLLOW_UP_WAIT_MS: main.ts
 * mounts the shell after it, as the mount keeps the page busy a while and the answer would wait behind it (the rates
 * calendar's book, asked for once the list of properties is there, went out ~300 ms later in bench:calendar).
 */
export function firstCallsStarted(): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise((resolve) => (timer = setTimeout(resolve, FOLLOW_UP_WAIT_MS)));
  return Promise.race([followUps, cap]).finally(() => clearTimeout(timer));
}

/** The route the address names, past its redirects ('/' and unknown addresses open the inbox). */
function addressedRoute(router: Router, path: string): RouteLocationResolved {
  let resolved = router.resolve(path);
  for (let hops = 0; hops < 5; hops++) {
    const redirect = resolved.matched.at(-1)?.redirect;
    if (typeof redirect !== 'string') break;
    resolved = router.resolve(redirect);
  }
  return resolved;
}

/**
 * Starts what the screen the address names needs, before the app mounts (bench/RESULTS.md, "First screen"): its code
 * (the router would only ask for it once the shell has mounted and its navigation has begun) and its first data, as
 * each feature asks for it (`firstScreen`: the inbox's first page of threads, the rates calendar's properties and
 * book). The session proof is already under way (the API client asks for it when created), so the calls follow as
 * soon as it is answered. Returns the route's name, for the tests.
 */
export function startFirstScreen(router: Router, pinia: Pinia, path = window.location.hash.slice(1) || '/'): string {
  const route = addressedRoute(router, path);
  for (const record of route.matched) {
    const load = record.components?.default;
    // A lazy screen: its loader, the same one the router calls (the module loads once).
    if (typeof load === 'function') void (load as () => Promise<unknown>)().catch(() => {});
  }
  const started = FEATURES.map((feature) =>
    'firstScreen' in feature ? feature.firstScreen({ route, router, pinia }) : undefined,
  );
  followUps = Promise.allSettled(started);
  return String(route.name ?? route.path);
}

/**
 * Resolves once the first screen is drawn: the router's first navigation done (the inbox's waits for its first page),
 * the calls asked for it early answered (the rates calendar's), and the frame that shows them painted. What the first screen does not show waits for it (the shell's counts, badges
 * and status, the toasts' code) rather than competing with it for the page's one thread and the core's connections.
 */
export async function afterFirstScreen(router: Router): Promise<void> {
  await Promise.all([router.isReady().catch(() => {}), firstCallsAnswered()]);
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Browser mode: how long the shell's reads wait for the event socket to open before they go anyway. */
export const EVENTS_WAIT_MS = 2_000;

/**
 * Browser mode: a change between a read and the event socket's opening sends this page no event, and the screen
 * would show the older state until the next change. `read` (the shell's counts and statuses) runs once events flow:
 * at once in Electron, and in a new tab the socket is normally open by the time this is called. `readAgain` (what the
 * first screen read before the socket opened) runs once the socket opens. A socket that takes longer than
 * EVENTS_WAIT_MS does not hold `read` back: it runs then, and again with `readAgain` once the socket opens.
 */
export async function readOnceEventsFlow(read: () => void, readAgain: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<'not yet'>((resolve) => (timer = setTimeout(() => resolve('not yet'), EVENTS_WAIT_MS)));
  const open = await Promise.race([firstEventsOpen(), cap]).finally(() => clearTimeout(timer));
  read();
  if (open === 'not yet') {
    await firstEventsOpen();
    read();
  }
  if (open !== false) readAgain();
}
