import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_NAMES, METHODS, type InnkeeperApi } from '../shared/contract';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/ipcChannels';

// SECURITY: the preload exposes functions only, one per contract method plus `on` for events; no ipcRenderer,
// no Node objects. Only src/shared is imported, so this bundle carries no main-process code.
const api: Record<string, unknown> = {};
for (const method of METHODS) {
  api[method] = (args: unknown) => ipcRenderer.invoke(CALL_CHANNEL, method, args);
}
api.on = (event: string, listener: (payload: unknown) => void) => {
  if (!(EVENT_NAMES as string[]).includes(event)) throw new Error(`Unknown event ${event}`);
  const handler = (_e: unknown, name: string, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
};

contextBridge.exposeInMainWorld('innkeeper', api as InnkeeperApi);
