import { isIP } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What the listener bounds, and how (docs/security-and-reliability.md: "The listener"). */
export interface ListenerLimits {
  /** Failed logins one client may make per window; more are answered 429 until the window ends. */
  failedPerClient: number;
  /** Failed logins from all clients together per window (a flood from many addresses); more are answered 429. */
  failedTotal: number;
  windowMs: number;
  /** Open connections in total; at the cap a new connection closes the oldest one not serving a request. */
  maxConnections: number;
  /** Open connections from one socket address (through the tunnel every connection comes from 127.0.0.1). */
  maxConnectionsPerAddress: number;
  /**
   * A connection must have sent its request's headers within this time (Su's come in one go; short, so a connection
   * that trickles them holds its place briefly, and it can be closed for a new one meanwhile anyway). Counted from
   * the connection for its first request; for a later one on a kept-alive connection, from when its first bytes were
   * seen, which the guard notices within this same time (so a later request has between one and two of it).
   */
  headersTimeoutMs: number;
  /** A request must have arrived whole (headers and body) within this time: the body's read deadline. */
  requestTimeoutMs: number;
  /** A connection with nothing happening on it is closed after this time. */
  idleTimeoutMs: number;
  /**
   * A stream (server-sent events on an authenticated route that says `stream: true`) is closed after this long with
   * nothing sent or received; instead of the idle timeout, which a stream's pings (every 20 s) would not satisfy.
   */
  streamIdleTimeoutMs: number;
}

export const DEFAULT_LISTENER_LIMITS: ListenerLimits = {
  failedPerClient: 20,
  failedTotal: 200,
  windowMs: 60_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 256,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  idleTimeoutMs: 15_000,
  streamIdleTimeoutMs: 60_000,
};

/** Every limit must be a positive whole number; a wrong one names itself. */
export function listenerLimits(overrides: Partial<ListenerLimits> = {}): ListenerLimits {
  const limits = { ...DEFAULT_LISTENER_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`limits.${name} must be a positive whole number`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError('limits.headersTimeoutMs must not be longer than limits.requestTimeoutMs');
  return limits;
}

const isLoopback = (address: string) =>
  address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');

/**
 * The client a request comes from, for counting its failed logins. Through the tunnel (or the owner's reverse proxy
 * on this computer) every connection comes from 127.0.0.1, so the address the forwarder reports is used: the LAST
 * `X-Forwarded-For` entry, the one the forwarder itself appended (earlier entries are whatever the client claimed).
 * SECURITY: the header is believed only when `forwarded` says a forwarder is in front of the listener right now (the
 * tunnel is on, or the owner set their own public address) and only on a loopback connection; otherwise anyone on
 * this computer could pick the key their failures are counted under, and the socket's own address counts.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  forwarded: boolean,
): string {
  const own = socketAddress ?? 'unknown';
  if (!forwarded || !forwardedFor || !isLoopback(own)) return own;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  const last = entries.at(-1)!.trim();
  return isIP(last) ? last : own;
}

/**
 * Where the periods during which failed logins are refused go (the desktop: its uptime log, shown with the downtime).
 * Called inside requests: it must never throw.
 */
export interface RefusalLog {
  /** Starts a period (or renames the open one, e.g. when one address's refusals turn into a flood). */
  begin(detail: string): void;
  end(): void;
  active(): boolean;
}

/** A refusal log that keeps nothing (when the caller gives none). */
export const NO_REFUSAL_LOG: RefusalLog = { begin: () => undefined, end: () => undefined, active: () => false };

/** Why a failed login is refused with 429 instead of 401: this client made too many, or everyone together did. */
export type Refusal = 'client' | 'flood';

/** The most clients counted one by one per window (spoofed addresses beyond that count only towards the total). */
const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Counts FAILED logins only (401: a request with valid credentials, a public route or an unknown path is never
 * counted nor refused; each call of a throttled route counts as one), per client and in total, in fixed windows. The
 * periods during which failed logins are refused go to the refusal log.
 */
export function createFailedLoginLimiter(limits: ListenerLimits, log: RefusalLog, now: () => number) {
  let windowStart = now();
  let total = 0;
  let perClient = new Map<string, number>();
  const refusedClients = new Set<string>();
  let flooded = false;
  let timer: NodeJS.Timeout | null = null;

  const roll = () => {
    if (now() - windowStart < limits.windowMs) return;
    windowStart = now();
    total = 0;
    perClient = new Map();
    refusedClients.clear();
    flooded = false;
    if (timer) clearTimeout(timer);
    timer = null;
    log.end();
  };
  // The period ends with the window, also when no request comes to notice it.
  const schedule = () => {
    timer ??= setTimeout(
      () => {
        timer = null;
        roll();
        if (log.active()) schedule();
      },
      Math.max(1, windowStart + limits.windowMs - now()),
    ).unref();
  };
  const refusing = (refusal: Refusal, client: string) => {
    if (refusal === 'flood') flooded = true;
    else refusedClients.add(client);
    const [first] = refusedClients;
    log.begin(
      flooded
        ? 'refusing failed logins (flood)'
        : refusedClients.size === 1
          ? `refusing failed logins from ${first}`
          : `refusing failed logins from ${refusedClients.size} addresses`,
    );
    schedule();
  };

  return {
    /** A failed login from this client: null when it is answered 401 (and counted), else why it is refused. */
    failed(client: string): Refusal | null {
      roll();
      const own = perClient.get(client) ?? 0;
      const refusal: Refusal | null =
        total >= limits.failedTotal ? 'flood' : own >= limits.failedPerClient ? 'client' : null;
      if (refusal) {
        refusing(refusal, client);
        return refusal;
      }
      total += 1;
      if (perClient.has(client) || perClient.size < MAX_TRACKED_CLIENTS) perClient.set(client, own + 1);
      return null;
    },
    /** Seconds until the window ends (the Retry-After of a 429). */
    retryAfterSeconds: () => Math.max(1, Math.ceil((windowStart + limits.windowMs - now()) / 1000)),
    close(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      log.end();
    },
  };
}
export type FailedLoginLimiter = ReturnType<typeof createFailedLoginLimiter>;

/**
 * Node's own check of the header and request deadlines runs on an interval from the moment the server listens,
 * whether or not a connection is open (the one that would enforce 5 s and 15 s woke the idle app every second, all
 * day). It is turned off with these server options; `guardConnections` keeps the deadlines itself, one timer per open
 * connection, so an idle listener sets none. 2^31 - 1 ms is the longest interval Node's timers take: a longer one
 * would fire at once.
 */
export const NODE_DEADLINE_CHECKS_OFF = {
  headersTimeout: 0,
  requestTimeout: 0,
  connectionsCheckingInterval: 2 ** 31 - 1,
} as const;

const TIMEOUT_BODY = JSON.stringify({
  status: 'Fail',
  error: 'timeout',
  message: 'The request did not arrive in time.',
});
/** What a connection past its deadline is told before it is closed (as Node's own check would: 408). */
const TIMEOUT_ANSWER =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n${TIMEOUT_BODY}`;

/**
 * Caps the open connections so that thousands of idle, slow or unwanted ones cannot keep a real delivery out. A
 * connection is PROTECTED only while it serves a request the listener chose to serve (`serving`: an authenticated
 * delivery or device call, a stream for as long as it is open, a public address); every other one — still sending
 * its headers, idle between requests, or being refused — can be closed to make room. At the cap (in total, or for one
 * address) a new connection closes the OLDEST unprotected connection, so a new delivery always gets in; only when
 * every connection is serving a request is the new one refused. A delivery's own connection is never closed for
 * another one.
 *
 * It also keeps each connection's deadlines (the server must be made with NODE_DEADLINE_CHECKS_OFF): its request's
 * headers within `headersTimeoutMs`, the whole request within `requestTimeoutMs`; one past either is answered 408 and
 * closed. Each open connection has one timer, set to its next deadline; a listener with no connection has none.
 */
export function guardConnections(server: Server, limits: ListenerLimits) {
  const now = Date.now;
  interface Tracked {
    address: string;
    /** Requests on it the listener is serving right now (accepted, answer not finished). */
    served: number;
    /** The request whose headers are in and whose answer is not finished yet; null while the next one's are awaited. */
    request: { req: IncomingMessage; res: ServerResponse } | null;
    /** When the request being received started (the connection, for its first). */
    since: number;
    /**
     * Between requests on a kept-alive connection: the bytes read when it was last seen with nothing arriving (the
     * next request's start is only known to be after that look). Null once its start is known.
     */
    idleAt: number | null;
    timer: NodeJS.Timeout | null;
  }
  const open = new Map<Socket, Tracked>();
  let evicted = 0;

  const oldestUnprotected = (address: string | null): Socket | null => {
    for (const [socket, tracked] of open) {
      if (tracked.served === 0 && (address === null || tracked.address === address)) return socket;
    }
    return null;
  };
  const countFrom = (address: string) => {
    let n = 0;
    for (const tracked of open.values()) if (tracked.address === address) n += 1;
    return n;
  };

  const arm = (socket: Socket, tracked: Tracked, at: number) => {
    if (tracked.timer) clearTimeout(tracked.timer);
    tracked.timer = setTimeout(() => due(socket, tracked), Math.max(1, at - now())).unref();
  };
  const cut = (socket: Socket, tracked: Tracked) => {
    if (socket.writable && !tracked.request?.res.headersSent) socket.write(TIMEOUT_ANSWER);
    socket.destroy();
  };
  const due = (socket: Socket, tracked: Tracked) => {
    tracked.timer = null;
    if (socket.destroyed) return;
    if (tracked.request) {
      // The headers are in: the body's deadline. A request received whole waits for nothing more.
      if (!tracked.request.req.complete) cut(socket, tracked);
      return;
    }
    if (tracked.idleAt !== null) {
      const read = socket.bytesRead;
      // Between requests and nothing arrived: not a request yet (the keep-alive timeout closes an idle connection).
      // Something arrived: a request started since the last look; its headers have their full time from now.
      if (read !== tracked.idleAt) tracked.idleAt = null;
      tracked.since = now();
      arm(socket, tracked, tracked.since + limits.headersTimeoutMs);
      return;
    }
    cut(socket, tracked);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const overAddress = countFrom(address) >= limits.maxConnectionsPerAddress;
    const overTotal = open.size >= limits.maxConnections;
    if (overAddress || overTotal) {
      const victim = oldestUnprotected(overAddress ? address : null);
      if (!victim) {
        socket.destroy();
        return;
      }
      open.delete(victim);
      victim.destroy();
      evicted += 1;
    }
    const tracked: Tracked = { address, served: 0, request: null, since: now(), idleAt: null, timer: null };
    open.set(socket, tracked);
    arm(socket, tracked, tracked.since + limits.headersTimeoutMs);
    socket.once('close', () => {
      if (tracked.timer) clearTimeout(tracked.timer);
      tracked.timer = null;
      open.delete(socket);
    });
  });
  // A request's headers are in: its deadline is now the whole request's; once its answer is finished, the next
  // request's headers are awaited.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const tracked = open.get(socket);
    if (!tracked) return;
    // One sent before the previous one was answered (pipelined) started no earlier than now.
    if (tracked.request) tracked.since = now();
    tracked.request = { req, res };
    tracked.idleAt = null;
    arm(socket, tracked, tracked.since + limits.requestTimeoutMs);
    res.once('close', () => {
      if (tracked.request?.res !== res || socket.destroyed) return;
      tracked.request = null;
      tracked.idleAt = socket.bytesRead;
      tracked.since = now();
      arm(socket, tracked, tracked.since + limits.headersTimeoutMs);
    });
  });

  return {
    /**
     * The listener serves this request (it authenticated, or asks for a public address): its connection is not
     * closed to make room until the answer is finished. Called as soon as the request's headers are judged, before
     * its body is read.
     */
    serving(socket: Socket, response: { once(event: 'close', listener: () => void): unknown }): void {
      const tracked = open.get(socket);
      if (!tracked) return;
      tracked.served += 1;
      response.once('close', () => {
        tracked.served -= 1;
      });
    },
    /** Connections open right now. */
    openConnections: () => open.size,
    /** Connections closed to make room since the start. */
    evicted: () => evicted,
  };
}
