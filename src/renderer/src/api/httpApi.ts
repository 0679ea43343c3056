// Types only from the contract: its module holds every method's argument schema (zod), which the page does not need
// to call the core (the core validates) and would otherwise load before the first screen.
import type { ContractEvents, EventName, InnkeeperApi, Method } from '@shared/contract';
import { ErrorCode, fail, type Result } from '@shared/result';
import { CALL_ARGS_HEADER, CALL_BYTES_TYPE } from '@shared/callBytes';
import { SESSION_PATH, SESSION_PROOF_KEY_LABEL, SESSION_PROOF_PATH, sessionProofMessage } from '@shared/sessionProof';
import { awaitEvents, eventsOpened, setCoreLink } from './link';

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

/** Whether the server at this page's address knows the session token: `ok`, gone, or another server. */
export type SessionProof = 'ok' | 'disconnected' | 'refused';

const bytesToBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * A call's request body: its arguments as JSON, or, when its `data` is bytes (a photo's chunk), the bytes as they are
 * with the other arguments in a header (`CALL_BYTES_TYPE`): no base64, and nothing for the core to decode.
 */
export function requestOf(args: unknown): { headers: Record<string, string>; body: BodyInit } {
  if (typeof args === 'object' && args !== null && (args as { data?: unknown }).data instanceof Uint8Array) {
    const { data, ...other } = args as { data: Uint8Array<ArrayBuffer> };
    // A header carries Latin-1 only: anything past ASCII is written as JSON's \u escapes.
    const json = JSON.stringify(other).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    return { headers: { 'Content-Type': CALL_BYTES_TYPE, [CALL_ARGS_HEADER]: json }, body: data };
  }
  return { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args ?? {}) };
}

/** The port the page was loaded from (the one the app listens on). */
function pagePort(): number {
  const url = new URL(window.location.href);
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}

const encode = (text: string) => new TextEncoder().encode(text);
/** base64url HMAC-SHA256 of `message` keyed with `key` (WebCrypto). */
async function hmac(key: string, message: string): Promise<string> {
  const imported = await crypto.subtle.importKey('raw', encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return bytesToBase64url(new Uint8Array(await crypto.subtle.sign('HMAC', imported, encode(message))));
}

/** The key the app proves itself with, worked out from the session token (as the app does). */
export const proofKeyOf = (token: string): Promise<string> => hmac(token, SESSION_PROOF_KEY_LABEL);

/**
 * SECURITY: asks the server at this page's address to prove it knows the session before the page sends it anything
 * (the token, or a call the browser sends the session cookie with): a random nonce goes out (no token, no cookie),
 * and only the HMAC-SHA256 of that nonce and this port keyed with the session's proof key passes. While the app is
 * stopped another local program may listen on its port; it cannot answer, so it never gets the token or the cookie.
 *
 * The question goes out at once and the expected answer is computed while it travels: the nonce carries nothing
 * secret, and the answer is only compared once both are there (a new tab's first calls wait for this proof).
 */
export async function proveSession(proofKey: string | Promise<string>): Promise<SessionProof> {
  let nonce: string;
  try {
    nonce = bytesToBase64url(crypto.getRandomValues(new Uint8Array(32)));
  } catch {
    return 'refused'; // no WebCrypto: the page cannot check the server, so it sends nothing
  }
  const answer = fetch(`${SESSION_PROOF_PATH}?nonce=${nonce}`, { cache: 'no-store', credentials: 'omit' }).then(
    async (response) => (response.ok ? await response.text() : null),
  );
  answer.catch(() => {}); // read below, after the expected answer (an early failure is not unhandled meanwhile)
  let expected: string;
  try {
    expected = await hmac(await proofKey, sessionProofMessage(nonce, pagePort()));
  } catch {
    return 'refused'; // no WebCrypto: the page cannot check the server, so it sends nothing
  }
  try {
    const text = await answer;
    return text !== null && text === expected ? 'ok' : 'refused';
  } catch {
    return 'disconnected';
  }
}

/**
 * A page opened without the session link: whether this browser holds the session cookie (set when it last opened the
 * link; the page cannot read it). Asked once, as the page loads (the browser sent the cookie with the page itself
 * just before): the proof key when it does, null when not (or when nothing answers).
 */
export async function cookieSession(): Promise<string | null> {
  try {
    const response = await fetch(SESSION_PATH, { method: 'POST', cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return null;
    const answer = (await response.json()) as { ok?: boolean; value?: { proofKey?: unknown } };
    const key = answer.ok ? answer.value?.proofKey : undefined;
    return typeof key === 'string' && key !== '' ? key : null;
  } catch {
    return null;
  }
}

/**
 * How this page shows it holds the session: the token (from the session link), sent with every call and the event
 * socket; or the session cookie, which the browser sends by itself (the page holds only the proof key then).
 */
export type SessionCredential = { token: string } | { cookie: true; proofKey: string };

let firstProof: Promise<SessionProof> | null = null;
/**
 * Settles once the session proof the client asked for when created is answered: the calls made before then have gone
 * out by the time it settles (each was waiting for it, and goes on first).
 */
export const sessionProved = (): Promise<unknown> => firstProof ?? Promise.resolve();

/** The contract over HTTP (calls) and one WebSocket (events), for browser mode. */
export function createHttpApi(credential: SessionCredential): InnkeeperApi {
  const token = 'token' in credential ? credential.token : null;
  const proofKey = 'token' in credential ? proofKeyOf(credential.token) : credential.proofKey;
  // Worked out at once (read by each proof); a page without WebCrypto fails its proofs, and sends nothing.
  if (typeof proofKey !== 'string') proofKey.catch(() => {});
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let connecting = false;
  let retryMs = 500;
  /** The server at this address proved it knows the token, and has not been lost since. */
  let proven = false;
  let proving: Promise<SessionProof> | null = null;
  /** One proof at a time: calls and the socket made together wait for the same one. */
  const prove = (): Promise<SessionProof> =>
    (proving ??= proveSession(proofKey)
      .then((outcome) => {
        proven = outcome === 'ok';
        return outcome;
      })
      .finally(() => (proving = null)));
  // Asked at once, while the page's code still runs: the first screen's calls then find it answered or under way.
  firstProof = prove();
  awaitEvents();
  // Whether events flow, on the page root: for whoever debugs a stale screen, and for the end-to-end tests,
  // which wait for it before they post deliveries.
  const root = document.documentElement;
  const isOpen = () => socket?.readyState === WebSocket.OPEN;
  /** Keeps trying while anyone listens: the app may be restarting (it comes back on the same port and token). */
  const listening = () => [...listeners.values()].some((set) => set.size > 0);
  const retry = () => {
    if (listening()) setTimeout(() => void connect(), (retryMs = Math.min(retryMs * 2, 5_000)));
  };

  const connect = async () => {
    if (socket || connecting || !listening()) return;
    connecting = true;
    // As for calls: proved once and not lost since (a closed socket or a failed call clears it), the token may go.
    // The first screen's socket then opens without a second proof's round trip.
    const outcome = proven ? 'ok' : await prove();
    connecting = false;
    if (socket) return;
    if (outcome !== 'ok') {
      setCoreLink(outcome);
      retry();
      return;
    }
    const url = new URL('/api/events', window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (token !== null) url.searchParams.set('token', token);
    const opened = new WebSocket(url);
    socket = opened;
    opened.onopen = () => {
      retryMs = 500;
      root.dataset.events = 'open';
      setCoreLink('connected');
      eventsOpened();
    };
    opened.onmessage = (message) => {
      const { event, payload } = JSON.parse(String(message.data)) as { event: EventName; payload: unknown };
      listeners.get(event)?.forEach((l) => l(payload));
    };
    opened.onclose = () => {
      if (socket === opened) socket = null;
      proven = false;
      root.dataset.events = 'closed';
      // Is the app gone, or is another server there now? Asked without the token. Unless the socket came back
      // meanwhile (the answer would be older than the open socket).
      void prove().then((why) => isOpen() || setCoreLink(why === 'ok' ? 'disconnected' : why));
      retry();
    };
  };

  const lost = (message: string) => fail({ code: ErrorCode.Network, message, retryable: true });
  const call = async (method: Method, args: unknown): Promise<Result<unknown>> => {
    const request = requestOf(args);
    if (!proven) {
      const outcome = await prove();
      if (outcome === 'refused') {
        return lost(
          'The program at this address is not this Innkeeper session; nothing was sent to it. Open Innkeeper with the address it printed when it started.',
        );
      }
      if (outcome !== 'ok') return lost('This page lost its connection to Innkeeper. Is Innkeeper still running?');
    }
    try {
      const response = await fetch(`/api/call/${method}`, {
        method: 'POST',
        // With the cookie the browser sends it (this page's own origin); with the token the page does.
        headers: token === null ? request.headers : { ...request.headers, Authorization: `Bearer ${token}` },
        body: request.body,
      });
      return (await response.json()) as Result<unknown>;
    } catch {
      proven = false;
      return lost('This page lost its connection to Innkeeper. Is Innkeeper still running?');
    }
  };

  const on = <E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener as (p: unknown) => void);
    listeners.set(event, set);
    void connect();
    return () => set.delete(listener as (p: unknown) => void);
  };
  // Every other name is a contract method, called as `api['inbox.threads'](args)`; the type allows only the
  // contract's names, and the core answers any other with an error. One function per name, made on first use.
  // `then` is not a method: the API is not a promise when returned from an async function.
  const methods = new Map<string, (args: unknown) => Promise<Result<unknown>>>();
  const method = (name: string) => {
    let fn = methods.get(name);
    if (!fn) methods.set(name, (fn = (args: unknown) => call(name as Method, args)));
    return fn;
  };
  return new Proxy({} as InnkeeperApi, {
    get: (_, name) => (name === 'on' ? on : typeof name === 'string' && name !== 'then' ? method(name) : undefined),
  });
}
