import { METHODS, type ContractEvents, type EventName, type InnkeeperApi, type Method } from '@shared/contract';
import { ErrorCode, fail, type Result } from '@shared/result';
import { setCoreLink } from './link';

const STORAGE_KEY = 'innkeeper.session';

/**
 * The browser-mode session token: taken from `?session=` on first load, kept in sessionStorage for reloads,
 * and removed from the address bar so it is not shared by copying the URL.
 */
export function sessionToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('session');
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl);
    url.searchParams.delete('session');
    window.history.replaceState(null, '', url.toString());
    return fromUrl;
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

/** The contract over HTTP (calls) and one WebSocket (events), for browser mode. */
export function createHttpApi(token: string): InnkeeperApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let retryMs = 500;

  const connect = () => {
    const url = new URL('/api/events', window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', token);
    socket = new WebSocket(url);
    // Whether events flow, on the page root: for whoever debugs a stale screen, and for the end-to-end tests,
    // which wait for it before they push.
    const root = document.documentElement;
    socket.onopen = () => {
      retryMs = 500;
      root.dataset.events = 'open';
      setCoreLink('connected');
    };
    socket.onmessage = (message) => {
      const { event, payload } = JSON.parse(String(message.data)) as { event: EventName; payload: unknown };
      listeners.get(event)?.forEach((l) => l(payload));
    };
    socket.onclose = () => {
      socket = null;
      root.dataset.events = 'closed';
      // Unless the socket came back meanwhile (the answer would be older than the open socket).
      void whyClosed().then((why) => socket?.readyState !== WebSocket.OPEN && setCoreLink(why));
      // Keeps trying while anyone listens: the app may be restarting (it comes back on the same port and token).
      if (listeners.size > 0) setTimeout(connect, (retryMs = Math.min(retryMs * 2, 5_000)));
    };
  };

  /** After the socket closed: is the app gone (`disconnected`), or does it refuse this page's token? */
  const whyClosed = async (): Promise<'disconnected' | 'refused'> => {
    try {
      const response = await fetch('/api/call/app.info', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: '{}',
      });
      return response.status === 401 ? 'refused' : 'disconnected';
    } catch {
      return 'disconnected';
    }
  };

  const call = async (method: Method, args: unknown): Promise<Result<unknown>> => {
    try {
      const response = await fetch(`/api/call/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(args ?? {}),
      });
      return (await response.json()) as Result<unknown>;
    } catch {
      return fail({
        code: ErrorCode.Network,
        message: 'This page lost its connection to Innkeeper. Is Innkeeper still running?',
        retryable: true,
      });
    }
  };

  const api: Record<string, unknown> = {};
  for (const method of METHODS) api[method] = (args: unknown) => call(method, args);
  api.on = <E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener as (p: unknown) => void);
    listeners.set(event, set);
    if (!socket) connect();
    return () => set.delete(listener as (p: unknown) => void);
  };
  return api as InnkeeperApi;
}
