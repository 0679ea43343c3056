import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_PATH, SESSION_PROOF_KEY_LABEL, SESSION_PROOF_PATH, sessionProofMessage } from '@shared/contract';
import { connectWithCookie } from '@renderer/api';
import { cookieSession, createHttpApi, proofKeyOf, proveSession } from '@renderer/api/httpApi';
import { coreLink, setCoreLink } from '@renderer/api/link';

// Browser mode after the app stopped: another local program may listen on its port. The page sends the session
// token only to a server that first proved it knows it (the HMAC of a nonce), so such a program collects nothing.

const TOKEN = 'the-session-token-0123456789abcdefghijklmnopq';

/** Everything the page sent, as text (URL, headers, body), to look for the token in. */
let sent: string[];
/** Who answers at the page's address now: the app (knows the token), another program, or nobody. */
let server: 'app' | 'impostor' | 'relay' | 'nobody';

class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  constructor(readonly url: URL | string) {
    sent.push(`socket ${String(url)}`);
    // The browser sends its cookies with the socket's handshake.
    if (hasCookie) cookieSent.push(`${server} socket ${new URL(String(url)).pathname}`);
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.();
  }
}

/** The real clock, for the tests that fake the page's timers. */
const realTimeout = globalThis.setTimeout;

/** Under fake timers: lets the page's retries and its proofs (WebCrypto answers outside the fake clock) run until `done`. */
async function until(done: () => boolean) {
  for (let i = 0; i < 500 && !done(); i++) {
    await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => realTimeout(resolve, 1));
  }
  expect(done()).toBe(true);
}

/** base64url HMAC-SHA256 (written here with WebCrypto too, as the app does with node:crypto). */
async function hmac(key: string, message: string): Promise<string> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const imported = await crypto.subtle.importKey('raw', encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', imported, encode(message)));
  return btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
/** The app's proof key: the HMAC of its label keyed with the token. */
const appProofKey = () => hmac(TOKEN, SESSION_PROOF_KEY_LABEL);
/** The proof the app gives: the HMAC of the nonce and its port keyed with the proof key. */
const appProof = async (nonce: string, onPort: number) => hmac(await appProofKey(), sessionProofMessage(nonce, onPort));

const port = () => Number(new URL(window.location.href).port) || 80;

/** Whether the browser holds the session cookie (sent with every request that does not leave credentials out). */
let hasCookie = false;
/** What went out with the session cookie: every request the page did not send with `credentials: 'omit'`. */
let cookieSent: string[];

async function fakeFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), window.location.href);
  sent.push(`${init.method ?? 'GET'} ${url.href} ${JSON.stringify(init.headers ?? {})} ${String(init.body ?? '')}`);
  if (hasCookie && init.credentials !== 'omit') cookieSent.push(`${server} ${init.method ?? 'GET'} ${url.pathname}`);
  if (server === 'nobody') throw new TypeError('Failed to fetch');
  if (url.pathname === SESSION_PATH && server === 'app') {
    return hasCookie
      ? new Response(JSON.stringify({ ok: true, value: { proofKey: await appProofKey() } }))
      : new Response(JSON.stringify({ ok: false, error: { code: 'unauthorized' } }), { status: 401 });
  }
  if (url.pathname === SESSION_PROOF_PATH) {
    const nonce = url.searchParams.get('nonce') ?? '';
    if (server === 'impostor') return new Response('not-the-proof');
    // A program that asks the app on another port for its proof of the page's nonce and passes it on.
    const proof = await appProof(nonce, server === 'relay' ? port() + 1 : port());
    return new Response(proof);
  }
  if (server !== 'app') return new Response('{}', { status: 404 });
  return new Response(JSON.stringify({ ok: true, value: { host: 'browser' } }));
}

const tokenSent = () => sent.filter((line) => line.includes(TOKEN));

beforeEach(() => {
  sent = [];
  cookieSent = [];
  hasCookie = false;
  FakeSocket.all = [];
  window.history.replaceState(null, '', '/');
  vi.stubGlobal('fetch', fakeFetch);
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setCoreLink('connected');
});

describe('the page proves the server before it sends the session token', () => {
  it('accepts the proof of the app, and no other answer', async () => {
    server = 'app';
    expect(await proveSession(proofKeyOf(TOKEN))).toBe('ok');
    expect(await proveSession(proofKeyOf('another-token-0123456789abcdefghijklmnopqrstu'))).toBe('refused');
    server = 'impostor';
    expect(await proveSession(proofKeyOf(TOKEN))).toBe('refused');
    server = 'relay';
    expect(await proveSession(proofKeyOf(TOKEN))).toBe('refused');
    server = 'nobody';
    expect(await proveSession(proofKeyOf(TOKEN))).toBe('disconnected');
    // The proof asks with a fresh random nonce, never with the token.
    const nonces = sent.map((line) => new URL(line.split(' ')[1]!).searchParams.get('nonce'));
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(tokenSent()).toEqual([]);
  });

  it('asks for the proof as soon as the client exists, before it knows the answer to expect (and without the token)', async () => {
    server = 'app';
    const api = createHttpApi({ token: TOKEN });
    // Sent while the page's code still runs: a new tab's first calls wait for this answer.
    expect(sent.map((line) => new URL(line.split(' ')[1]!).pathname)).toEqual([SESSION_PROOF_PATH]);
    expect(tokenSent()).toEqual([]);
    expect(await api['app.info']({})).toMatchObject({ ok: true });
    expect(sent.filter((line) => line.includes(SESSION_PROOF_PATH))).toHaveLength(1); // the call used that proof
  });

  it('sends the token to the app once it proved itself: calls and the event socket', async () => {
    server = 'app';
    const api = createHttpApi({ token: TOKEN });
    expect(await api['app.info']({})).toMatchObject({ ok: true });
    api.on('inbox.changed', () => undefined);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(tokenSent()).toHaveLength(2); // the call's header and the socket's address
    // One proof for both: the socket opened on the proof the call waited for (not lost since).
    expect(sent.filter((line) => line.includes(SESSION_PROOF_PATH))).toHaveLength(1);
  });

  it('sends a program on the port nothing — no call, no socket — and says it is not this Innkeeper', async () => {
    for (const other of ['impostor', 'relay'] as const) {
      server = other;
      sent = [];
      const api = createHttpApi({ token: TOKEN });
      const stop = api.on('inbox.changed', () => undefined);
      const answer = await api['inbox.counts']({});
      await vi.waitFor(() => expect(coreLink.value).toBe('refused'));
      expect(answer).toMatchObject({ ok: false, error: { code: 'network' } });
      expect(answer.ok || answer.error.message).toContain('not this Innkeeper');
      expect(FakeSocket.all).toHaveLength(0);
      expect(coreLink.value).toBe('refused');
      expect(sent.length).toBeGreaterThan(0);
      expect(tokenSent()).toEqual([]);
      stop(); // no more retries
    }
  });

  it('after the app stopped, neither the probe nor the reconnects hand the token to the program now on its port', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server = 'app';
    const api = createHttpApi({ token: TOKEN });
    api.on('inbox.changed', () => undefined);
    await until(() => FakeSocket.all.length === 1);
    FakeSocket.all[0]!.open();
    expect(coreLink.value).toBe('connected');
    expect(await api['app.info']({})).toMatchObject({ ok: true });

    // The app stops; another program takes its port.
    server = 'impostor';
    sent = [];
    FakeSocket.all[0]!.close();
    await until(() => sent.length > 5 && coreLink.value === 'refused'); // it kept asking for the proof
    expect(await api['inbox.counts']({})).toMatchObject({ ok: false });
    expect(FakeSocket.all).toHaveLength(1);
    expect(tokenSent()).toEqual([]);

    // The app is back on its port: the page proves it again and reconnects.
    server = 'app';
    await until(() => FakeSocket.all.length === 2);
    FakeSocket.all[1]!.open();
    expect(coreLink.value).toBe('connected');
  });
});

describe('a page opened without the link, in a browser that keeps the session cookie', () => {
  it('asks once whether the browser holds the session, and is given the proof key only then', async () => {
    server = 'app';
    expect(await cookieSession()).toBeNull();
    expect(await connectWithCookie()).toBeNull();
    hasCookie = true;
    expect(await cookieSession()).toBe(await appProofKey());
    cookieSent = [];
    const api = await connectWithCookie();
    expect(api).not.toBeNull();
    expect(await api!['app.info']({})).toMatchObject({ ok: true });
    // No token anywhere: the calls carry no Authorization header and the socket no token (the browser's cookie does).
    const stop = api!.on('inbox.changed', () => undefined);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    stop();
    expect(String(FakeSocket.all[0]!.url)).not.toContain('token');
    expect(sent.filter((line) => line.includes('Authorization'))).toEqual([]);
    expect(cookieSent).toEqual([`app POST ${SESSION_PATH}`, 'app POST /api/call/app.info', 'app socket /api/events']);
  });

  it('after the app stopped, sends the program now on its port nothing the cookie goes with', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server = 'app';
    hasCookie = true;
    const api = createHttpApi({ cookie: true, proofKey: await appProofKey() });
    const stop = api.on('inbox.changed', () => undefined);
    await until(() => FakeSocket.all.length === 1);
    FakeSocket.all[0]!.open();
    expect(await api['app.info']({})).toMatchObject({ ok: true });

    // The app stops; another program takes its port. The page keeps checking it, with the cookie left out.
    server = 'impostor';
    sent = [];
    FakeSocket.all[0]!.close();
    await until(() => sent.length > 5 && coreLink.value === 'refused');
    expect(await api['inbox.counts']({})).toMatchObject({ ok: false, error: { code: 'network' } });
    expect(FakeSocket.all).toHaveLength(1);
    expect(cookieSent.filter((line) => line.startsWith('impostor'))).toEqual([]);

    // The app is back: proved again, the socket reopens (with the cookie, to the app).
    server = 'app';
    await until(() => FakeSocket.all.length === 2);
    FakeSocket.all[1]!.open();
    expect(coreLink.value).toBe('connected');
    expect(cookieSent.at(-1)).toBe('app socket /api/events');
    stop();
  });
});
