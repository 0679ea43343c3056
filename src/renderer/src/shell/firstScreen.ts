import type { Pinia } from 'pinia';
import type { RouteLocationResolved, Router } from 'vue-router';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';

/** How long the inbox's first navigation waits for its first page before it shows the placeholders. */
export const FIRST_PAGE_WAIT_MS = 400;

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
 * (the router would only ask for it once the shell has mounted and its navigation has begun) and, for the inbox's
 * thread list, its first page. The session proof is already under way (the API client asks for it when created), so
 * the calls follow as soon as it is answered. Returns the route's name, for the tests.
 */
export function startFirstScreen(router: Router, pinia: Pinia, path = window.location.hash.slice(1) || '/'): string {
  const route = addressedRoute(router, path);
  for (const record of route.matched) {
    const load = record.components?.default;
    // A lazy screen: its loader, the same one the router calls (the module loads once).
    if (typeof load === 'function') void (load as () => Promise<unknown>)().catch(() => {});
  }
  if (route.name === 'inbox' || route.name === 'thread') {
    const inbox = useInboxStore(pinia);
    if (inbox.total === null && !inbox.listLoading) {
      const firstPage = inbox.loadList();
      // The list is drawn once, with its rows, rather than as placeholders first and again when the rows come (two
      // renders of the screen where one does): the first navigation waits for the first page, or FIRST_PAGE_WAIT_MS.
      const stop = router.beforeResolve(async () => {
        stop();
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([firstPage, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_PAGE_WAIT_MS)))]);
        clearTimeout(timer);
      });
    }
  }
  return String(route.name ?? route.path);
}
