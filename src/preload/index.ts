import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_NAMES, METHODS, type InnkeeperApi } from '../shared/contract';

// SECURITY: the preload exposes functions only, one per contract method plus `on` for events; no ipcRenderer,
// no Node objects. Channel names are inlined to keep this bundle free of main-process code.
const api: Record<string, unknown> = {};
for (const method of METHODS) {
  api[method] = (args: unknown) => ipcRenderer.invoke('innkeeper:call', method, args);
}
api.on = (event: string, listener: (payload: unknown) => void) => {
  if (!(EVENT_NAMES as string[]).includes(event)) throw new Error(`Unknown event ${event}`);
  const handler = (_e: unknown, name: string, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on('innkeeper:event', handler);
  return () => ipcRenderer.removeListener('innkeeper:event', handler);
};

contextBridge.exposeInMainWorld('innkeeper', api as InnkeeperApi);
