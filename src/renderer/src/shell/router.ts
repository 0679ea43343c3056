import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router } from 'vue-router';
import type { Feature, NavEntry } from '@renderer/lib/feature';
import type { Sections } from '@renderer/lib/sections';
import { FEATURES } from './features';
import { sections } from './sections';
import { setScreenTitle } from './title';

/** What a screen shows in the navigation (its route's meta). Only screens that exist are listed. */
export interface NavMeta {
  title: string;
  icon: string;
}

type Lazy = () => Promise<unknown>;

/** The navigation entries of these features, in the sidebar's order. */
export function navEntries(features: readonly Feature[]): NavEntry[] {
  return features.flatMap((f) => (f.nav ? [f.nav] : [])).sort((a, b) => a.order - b.order);
}

/**
 * A feature's route records as the app uses them: the one its navigation entry opens carries the entry's title and
 * icon, and a screen that draws slots (`meta.sections`) loads their sections' code with its own.
 */
function screenRoutes(feature: Feature, all: Sections): RouteRecordRaw[] {
  const copy = (record: RouteRecordRaw, slots = record.meta?.sections): RouteRecordRaw => {
    const nav = feature.nav && record.path === feature.nav.path ? feature.nav : null;
    const load = record.component as Lazy | undefined;
    return {
      ...record,
      ...(nav ? { meta: { ...record.meta, title: nav.title, icon: nav.icon } } : {}),
      ...(load && slots?.length
        ? { component: () => Promise.all([load(), all.load(...slots)]).then(([module]) => module) }
        : {}),
      ...(record.children
        ? { children: record.children.map((child) => copy(child, child.meta?.sections ?? slots)) }
        : {}),
    } as RouteRecordRaw;
  };
  return (feature.routes ?? []).map((record) => copy(record));
}

/**
 * The app's routes, built from a feature list: each feature's screens, those with a navigation entry first in the
 * sidebar's order; the first entry is the home screen ('/' and unknown addresses open it).
 */
export function routesOf(features: readonly Feature[], all: Sections = sections): RouteRecordRaw[] {
  const home = navEntries(features)[0]?.path ?? '/';
  const byNav = [...features].sort((a, b) => (a.nav?.order ?? Infinity) - (b.nav?.order ?? Infinity));
  return [
    { path: '/', redirect: home },
    ...byNav.flatMap((feature) => screenRoutes(feature, all)),
    { path: '/:pathMatch(.*)*', redirect: home },
  ];
}

// Each screen is its own chunk, loaded when the owner first opens it: the first screen waits only for the shell and
// its own code (bench/RESULTS.md, "First screen"). The router keeps the previous screen on view until the next one
// has loaded, so nothing half-drawn shows meanwhile; a screen's code starts loading when the owner points at its
// link (preloadScreen).
export const routes: RouteRecordRaw[] = routesOf(FEATURES);

/**
 * Loads a screen's code before it is opened: when the pointer comes over its link in the navigation or the link gets
 * the focus, so that the click finds it loaded. Nothing loads before the first screen has what it needs.
 */
export function preloadScreen(path: string): void {
  for (const record of routes) {
    if (record.path !== path) continue;
    const loaders = [record.component, ...(record.children ?? []).map((child) => child.component)];
    for (const load of loaders) if (typeof load === 'function') void (load as Lazy)().catch(() => {});
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
  followAddressesDuringStart(router);
  return router;
}

/**
 * The router hears the address change only once its first navigation is done, and that one may wait a while (the
 * inbox's waits for its first page): an address followed meanwhile (a link, a notification opening a conversation,
 * the owner typing it) would be lost, the window showing the first screen under the address of another. The last
 * such address is kept, and the router goes there once its first navigation is done.
 */
function followAddressesDuringStart(router: Router): void {
  let followed: string | null = null;
  const remember = () => (followed = window.location.hash.slice(1) || null);
  window.addEventListener('hashchange', remember);
  const done = () => {
    window.removeEventListener('hashchange', remember);
    if (followed && followed !== router.currentRoute.value.fullPath) void router.replace(followed);
  };
  void router.isReady().then(done, done);
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
