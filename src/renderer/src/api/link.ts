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

/** Calls `listener` each time the link comes back after it was lost; returns the function that stops. */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}
