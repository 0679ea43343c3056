import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_PROOF_PATH, sessionProofMessage } from '@shared/contract';
import { createHttpApi, proveSession } from '@renderer/api/httpApi';
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

/** The real clock, for the test that fakes the page's timers. */
const realTimeout = globalThis.setTimeout;

/** The proof the app gives: base64url HMAC-SHA256 keyed with the token (written here with WebCrypto too). */
async function appProof(nonce: string, onPort: number): Promise<string> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const key = await crypto.subtle.importKey('raw', encode(TOKEN), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encode(sessionProofMessage(nonce, onPort))));
  return btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const port = () => Number(new URL(window.location.href).port) || 80;

async function fakeFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), window.location.href);
  sent.push(`${init.method ?? 'GET'} ${url.href} ${JSON.stringify(init.headers ?? {})} ${String(init.body ?? '')}`);
  if (server === 'nobody') throw new TypeError('Failed to fetch');
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
    expect(await proveSession(TOKEN)).toBe('ok');
    expect(await proveSession('another-token-0123456789abcdefghijklmnopqrstu')).toBe('refused');
    server = 'impostor';
    expect(await proveSession(TOKEN)).toBe('refused');
    server = 'relay';
    expect(await proveSession(TOKEN)).toBe('refused');
    server = 'nobody';
    expect(await proveSession(TOKEN)).toBe('disconnected');
    // The proof asks with a fresh random nonce, never with the token.
    const nonces = sent.map((line) => new URL(line.split(' ')[1]!).searchParams.get('nonce'));
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(tokenSent()).toEqual([]);
  });

  it('asks for the proof as soon as the client exists, before it knows the answer to expect (and without the token)', async () => {
    server = 'app';
    const api = createHttpApi(TOKEN);
    // Sent while the page's code still runs: a new tab's first calls wait for this answer.
    expect(sent.map((line) => new URL(line.split(' ')[1]!).pathname)).toEqual([SESSION_PROOF_PATH]);
    expect(tokenSent()).toEqual([]);
    expect(await api['app.info']({})).toMatchObject({ ok: true });
    expect(sent.filter((line) => line.includes(SESSION_PROOF_PATH))).toHaveLength(1); // the call used that proof
  });

  it('sends the token to the app once it proved itself: calls and the event socket', async () => {
    server = 'app';
    const api = createHttpApi(TOKEN);
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
      const api = createHttpApi(TOKEN);
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
    /** Lets the page's retries and its proofs (WebCrypto answers outside the fake clock) run until `done`. */
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) {
        await vi.advanceTimersByTimeAsync(100);
        await new Promise((resolve) => realTimeout(resolve, 1));
      }
      expect(done()).toBe(true);
    };
    server = 'app';
    const api = createHttpApi(TOKEN);
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
