import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router } from 'vue-router';
import { setScreenTitle } from './title';

/** What a screen shows in the navigation. Only screens that exist are listed. */
export interface NavMeta {
  title: string;
  icon: string;
}

// Each screen is its own chunk, loaded when the owner first opens it: the first screen waits only for the shell and
// its own code (bench/RESULTS.md, "First screen"). The router keeps the previous screen on view until the next one
// has loaded, so nothing half-drawn shows meanwhile; a screen's code starts loading when the owner points at its
// link (preloadScreen).
const InboxView = () => import('@renderer/features/inbox/InboxView.vue');
const RatesView = () => import('@renderer/features/rates/RatesView.vue');
const PropertyView = () => import('@renderer/features/property/PropertyView.vue');
const PaymentsView = () => import('@renderer/features/payments/PaymentsView.vue');
const ConnectionView = () => import('@renderer/features/connection/ConnectionView.vue');

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/inbox' },
  {
    // One screen, three addresses: the thread list, an open thread (a notification opens it), and the reviews.
    path: '/inbox',
    meta: { title: 'Inbox', icon: 'pi pi-inbox' } satisfies NavMeta,
    children: [
      { path: '', name: 'inbox', component: InboxView },
      { path: ':threadId(\\d+)', name: 'thread', component: InboxView },
      { path: 'reviews/:reviewId(\\d+)?', name: 'reviews', component: InboxView },
    ],
  },
  {
    path: '/rates',
    component: RatesView,
    meta: { title: 'Rates & availability', icon: 'pi pi-calendar' } satisfies NavMeta,
  },
  {
    // One screen: the property and the tab are in the address (a notice's alert opens its property's notices).
    path: '/property',
    meta: { title: 'Property', icon: 'pi pi-building' } satisfies NavMeta,
    children: [
      { path: ':hotelId?/:tab(details|facilities|notices|photos)?', name: 'property', component: PropertyView },
    ],
  },
  {
    // One screen: a link in the address (a paid alert opens it) is brought into view in the ledger.
    path: '/payments',
    meta: { title: 'Payments', icon: 'pi pi-credit-card' } satisfies NavMeta,
    children: [
      { path: '', name: 'payments', component: PaymentsView },
      { path: ':linkId(\\d+)', name: 'payment', component: PaymentsView },
    ],
  },
  {
    path: '/connection',
    component: ConnectionView,
    meta: { title: 'Connection', icon: 'pi pi-link' } satisfies NavMeta,
  },
  { path: '/:pathMatch(.*)*', redirect: '/inbox' },
];

/**
 * Loads a screen's code before it is opened: when the pointer comes over its link in the navigation or the link gets
 * the focus, so that the click finds it loaded. Nothing loads before the first screen has what it needs.
 */
export function preloadScreen(path: string): void {
  for (const record of routes) {
    if (record.path !== path) continue;
    const loaders = [record.component, ...(record.children ?? []).map((child) => child.component)];
    for (const load of loaders) if (typeof load === 'function') void (load as () => Promise<unknown>)().catch(() => {});
  }
}

/**
 * The app's router. Hash history: the same URLs work from file:// in Electron and from the loopback server in
 * browser mode. Created only after main.ts took the session token out of the address: the history keeps the
 * query it finds as part of its base, and would put the token back into every address.
 */
export function createAppRouter(): Router {
  const router = createRouter({ history: createWebHashHistory(), routes });
  router.afterEach((to) => setScreenTitle((to.meta as Partial<NavMeta>).title ?? null));
  router.afterEach((to) => to.hash && scrollToSection(to.hash.slice(1)));
  return router;
}

/**
 * An address's #section (`/connection#su-reach`) brings that section into view once its screen has drawn it (it
 * may wait for data). The screens scroll inside the shell, not the window, so the router's own scrolling does not
 * reach them.
 */
function scrollToSection(id: string, triesLeft = 40): void {
  const el = document.getElementById(id);
  if (el) return el.scrollIntoView({ block: 'start', behavior: 'smooth' });
  if (triesLeft > 0) setTimeout(() => scrollToSection(id, triesLeft - 1), 100);
}
