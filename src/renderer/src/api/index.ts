import type { InnkeeperApi } from '@shared/contract';
import { createHttpApi, sessionToken } from './httpApi';

/**
 * The one way the renderer reaches the core: the preload's `window.innkeeper` in Electron, the HTTP client
 * in browser mode. Null when browser mode was opened without its session link.
 */
function resolveApi(): InnkeeperApi | null {
  if (window.innkeeper) return window.innkeeper;
  const token = sessionToken();
  return token ? createHttpApi(token) : null;
}

export const api = resolveApi();
