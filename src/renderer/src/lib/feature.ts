import type { Pinia } from 'pinia';
import type { ToastMessageOptions } from 'primevue/toast';
import type { RouteLocationResolved, RouteRecordRaw, Router } from 'vue-router';
import { defineSlot, type AnySection, type Slot } from './sections';

// What a renderer feature gives the shell. The shell (src/renderer/src/shell) builds itself from one ordered list of
// these (shell/features.ts): the routes, the navigation, the sections of screens, what it does at start, on events
// and on reconnect, the first screen's early calls. It names no feature, and no feature imports it.

declare module 'vue-router' {
  interface RouteMeta {
    /** The screen's name, in the window title ("Inbox · Innkeeper"); the shell sets it from the navigation entry. */
    title?: string;
    /** The navigation entry's icon (PrimeIcons classes); set by the shell with the title. */
    icon?: string;
    /**
     * The slots this screen draws (its own, filled by later features): the shell loads their sections' code with
     * the screen's, so that the screen shows with them. The route's components must then be loaders.
     */
    sections?: readonly Slot[];
  }
}

/** A count beside a navigation entry, and what it counts in words for screen readers ("3 unread"). */
export interface NavBadge {
  count: number;
  what: string;
}

/** A screen's entry in the sidebar. */
export interface NavEntry {
  /** The address it opens: one of the feature's routes, which gets `title` and `icon` as its meta. */
  path: string;
  title: string;
  /** PrimeIcons classes: `pi pi-inbox`. */
  icon: string;
  /**
   * Where it stands in the sidebar, smaller first (the feature list is in the order of dependencies, not of the
   * sidebar). The first entry is the home screen: `/` and unknown addresses open it.
   */
  order: number;
  /** The badge beside it, read in a computed (a store may be used); none shows while the count is 0. */
  badge?(): NavBadge;
}

/** A click on a toast: each feature's handler ignores the toasts that are not its own. */
export interface ToastClick {
  originalEvent: Event;
  message: ToastMessageOptions;
}

/**
 * What the shell does for a feature while the app runs, each optional. Returned by the feature's `shell()`, which
 * the shell calls once in its own setup, in list order (as in a component's setup: stores, `useToast`, `useRouter`,
 * `onMounted` may be used there).
 */
export interface ShellHooks {
  /**
   * Reads what the feature shows around every screen (counts, statuses): after the first screen is drawn, once
   * the core's events reach the page, and again when the app is back after it was stopped.
   */
  load?(): unknown;
  /** Follows the core's events from the shell's mount; returns the function that stops. */
  listen?(): () => void;
  /** Back after the app was stopped (browser mode), beside `load`: what else is read again (the screen's lists). */
  reconnected?(): void;
  /**
   * Browser mode, once the event socket has opened: what the first screen read before it is read again (a change
   * meanwhile sent the page no event).
   */
  readAgain?(): void;
  /** A click on one of the feature's alert toasts (`useToast().add` in the feature) opens what it is about. */
  onToastClick?(event: ToastClick): void;
  /** Why no screen can be shown (the connection settings could not be read): shown in place of the screens. */
  blocked?(): string | null;
  /** The count the window title leads with, "(3) Inbox · Innkeeper" (the counts of every feature are added). */
  titleCount?(): number;
}

/** What a feature's `firstScreen` gets: the screen the address names, before the app mounts. */
export interface FirstScreen {
  /** The route, past its redirects. */
  route: RouteLocationResolved;
  router: Router;
  /** The app's store (no component is set up yet: `useStore(pinia)`). */
  pinia: Pinia;
}

/** One renderer feature: what of it the shell shows and runs. Every part is optional. */
export interface Feature {
  /** The feature's word: its folder under features/. */
  name: string;
  /**
   * Its screens: vue-router records. Each screen's component is a loader (`() => import('./RatesView.vue')`),
   * so that each screen is its own chunk, loaded when first opened (or pointed at in the navigation).
   */
  routes?: readonly RouteRecordRaw[];
  /** Its entry in the sidebar. */
  nav?: NavEntry;
  /** Its parts of other features' screens (and of the shell's: `SHELL_BANNER`, `SHELL_SIDEBAR`). */
  sections?: readonly AnySection[];
  /** What the shell does for it while the app runs (called once, in the shell's setup). */
  shell?(): ShellHooks;
  /**
   * A new tab opening on one of its screens: starts that screen's first data before the app mounts (the shell
   * loads the screen's code). Returns the calls that go out once an earlier one is answered: the shell mounts after
   * them (or after a short wait). Called for every feature; each looks at the route and does nothing for another's.
   */
  firstScreen?(screen: FirstScreen): Promise<unknown> | void;
}

/** Declares a feature (its type kept as written). */
export function defineFeature<F extends Feature>(feature: F): F {
  return feature;
}

/** On every screen, above it: what the owner must know wherever they are (the data file's banner). */
export const SHELL_BANNER = defineSlot('shell.banner');
/** The sidebar's foot, above the version (the connection's badge). */
export const SHELL_SIDEBAR = defineSlot('shell.sidebar');
