import type { InnkeeperApi } from '@shared/contract';
import { createHttpApi, sessionToken } from './httpApi';

/**
 * How this window reaches the core: the preload's `window.innkeeper` in Electron, the HTTP client in browser
 * mode. Null when browser mode was opened without its session link: nothing can be reached then.
 */
export function connect(): InnkeeperApi | null {
  if (window.innkeeper) return window.innkeeper;
  const token = sessionToken();
  return token ? createHttpApi(token) : null;
}

/**
 * The one way stores reach the core. main.ts sets it before the app mounts, and mounts no app at all without
 * it, so every store calls it directly. Tests set a fake with {@link setApi}.
 */
export let api: InnkeeperApi;

export function setApi(next: InnkeeperApi): void {
  api = next;
}
