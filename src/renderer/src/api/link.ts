import { readonly, ref } from 'vue';

/**
 * Whether this window reaches the core. Always `connected` in Electron; in browser mode it follows the event
 * socket: `disconnected` while the app is stopped (the page keeps trying and reconnects by itself when the app is
 * back), `refused` when what answers at the page's address cannot prove it knows this page's session token (the
 * app restarted with a new one, or another program took its port): the page then sends it nothing.
 */
export type CoreLink = 'connected' | 'disconnected' | 'refused';

const state = ref<CoreLink>('connected');
const reconnectListeners = new Set<() => void>();

/** The link's state, for the shell's line and for the controls that send (disabled while not connected). */
export const coreLink = readonly(state);

/** Called by the browser-mode client; a return to `connected` tells the reconnect listeners (they reload). */
export function setCoreLink(next: CoreLink): void {
  const was = state.value;
  state.value = next;
  if (next === 'connected' && was !== 'connected') reconnectListeners.forEach((listener) => listener());
}

let eventsOpen: Promise<boolean> = Promise.resolve(false);
let markEventsOpen = (): void => {};

/** Browser mode: the client was made; the core's events reach this page once its event socket opens. */
export function awaitEvents(): void {
  eventsOpen = new Promise((resolve) => (markEventsOpen = () => resolve(true)));
}

/** Browser mode: the event socket opened (only the first time counts). */
export function eventsOpened(): void {
  markEventsOpen();
}

/**
 * Resolves once the core's events reach this window: at once in Electron (with false); in browser mode when the event
 * socket first opens (with true: a change between a read made before then and the opening sent this page no event,
 * so what was read may be older than it looks).
 */
export const firstEventsOpen = (): Promise<boolean> => eventsOpen;

/** Calls `listener` each time the link comes back after it was lost; returns the function that stops. */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}
