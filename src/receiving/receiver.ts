// The receiving side both the desktop's listener (src/main/intake/listener.ts) and the mailbox (src/mailbox/) run:
// one hardened HTTP listener for Su's deliveries, plus the routes its caller adds.
//
//   const receiver = await startReceiver({
//     port, host,                                   // binds 127.0.0.1 unless `host` says otherwise
//     authorizePush: (authorization) => …,          // POST /push: Basic credentials → { source } or null
//     commit: (batch) => …,                         // stores a group in ONE transaction (synchronous=FULL) and
//                                                   // answers an outcome per item: { result } | { error }
//     ready, now, onReceived, bodyLimit, limits, forwarded,
//     onListening, onClosed, refusals,              // the caller's uptime and refusal logs
//     routes: (app) => { … },                       // the caller's routes, each declaring its access (RouteAccess)
//   });
//
// POST /push is the receiver's own: credentials judged on the headers before any body (and again once the body is
// in), gzip/deflate undone within the size limit, the exact bytes handed to `commit` (a group commit: items that
// arrive while a commit runs share the next one), and only once it committed the acknowledgement (200
// ACKNOWLEDGEMENT, or 400 when the result says the body is not JSON: kept all the same); 503 + Retry-After when it
// could not be stored, so that Su reposts. `onReceived(result)` runs after the answer went out.
//
// The caller's routes say in their `config` who may call them, checked in onRequest on the headers alone, before a
// byte of the body is read (a route without one is refused when it is added):
//   { public: true }                 anyone; GET/HEAD without a body (a photo address Su fetches); a body is 400.
//   { throttled: true }              anyone, body allowed (the mailbox's pairing); every call counts as a failed login,
//                                    so one address is answered 429 after `limits.failedPerClient` in a window.
//   { authenticate: (request) => boolean, stream?: true }
//                                    the route's own check (a device's `Authorization: Bearer …`); false is refused
//                                    like a failed login: 401 (`WWW-Authenticate: Bearer`), counted, 429 once too many,
//                                    connection closed, body unread. Accepted requests are served: their connection is
//                                    never closed to make room. `stream: true` (server-sent events): the idle timeout
//                                    becomes `limits.streamIdleTimeoutMs` (ping more often than that), and the stream
//                                    counts as serving for as long as it is open.
// Bodies reach every route as the raw Buffer (no JSON parsing here: parse and validate in the route). Answers 401,
// 404, 408, 413, 415 and 429 close the connection. Refusals of throttled and authenticated routes answer
// `{ error, message }` (a check that throws, its store failing: 503 `unavailable` with Retry-After).
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppFailure, errorText } from '../shared/result';
import { ACCEPTED_ENCODINGS, bodyEncodings, decodeBody } from './contentEncoding';
import { createGroupWriter, type GroupCommit, type GroupWriterStats } from './groupWriter';
import { accessOf, hasBody } from './routeAccess';

export type { RouteAccess } from './routeAccess';
import {
  clientAddress,
  createFailedLoginLimiter,
  guardConnections,
  listenerLimits,
  NODE_DEADLINE_CHECKS_OFF,
  NO_REFUSAL_LOG,
  type ListenerLimits,
  type RefusalLog,
} from './listenerGuard';

/**
 * The acknowledgement the provider expects. Messages and legacy reviews are acknowledged with `status`, current
 * reviews with `Status` in the contract and `status` in the published sample: both keys satisfy every reader.
 */
export const ACKNOWLEDGEMENT = { status: 'Success', Status: 'Success' } as const;

/**
 * Answers after which the connection is closed: the rest of what the sender sends is not read. (404: an unknown path
 * or a photo address that is gone; 408, and 413 for a body over the limit, come from the body's reading.)
 */
const CLOSE_AFTER = new Set([401, 404, 408, 413, 415, 429]);
/** One delivery to store, as it was received. */
export interface ReceivedDelivery {
  /** The body's exact bytes (after undoing a gzip or deflate Content-Encoding; empty when none came). */
  raw: Buffer;
  receivedAt: number;
  /** What `authorizePush` said of its credentials (the desktop: 'demo' for the demo provider's own). */
  source: string | null;
}

/** What the store made of one delivery: at least how Su is answered (400: not JSON, stored all the same). */
export interface StoredDelivery {
  httpStatus: 200 | 400;
}

export interface ReceiverOptions<Result extends StoredDelivery> {
  /** The address to bind: 127.0.0.1 unless told otherwise (the internet reaches it through a tunnel or a proxy). */
  host?: string;
  /** The port (0 picks a free one). */
  port: number;
  /**
   * Whether the `Authorization` header of a POST /push is one Su delivers with: what it says of the sender, or null.
   * Asked on the headers (before the body) and again once the body is in (credentials withdrawn meanwhile store
   * nothing). SECURITY: compare timing-safe (basicAuth.ts).
   */
  authorizePush: (authorization: string | undefined) => { source: string | null } | null;
  /** Stores a group of deliveries in one transaction with synchronous=FULL (see groupWriter.ts). */
  commit: GroupCommit<ReceivedDelivery, Result>;
  /** Nothing is committed (nor acknowledged) before it resolved (the desktop: the data file's integrity check). */
  ready?: Promise<unknown>;
  now?: () => number;
  /** Called after the acknowledgement went out, for notifications and UI updates (never before). */
  onReceived?: (result: Result) => void;
  /** Largest body accepted, also once unpacked; real deliveries are a few kilobytes. A route may set its own. */
  bodyLimit?: number;
  /** Failed-login throttling, connection caps and timeouts (listenerGuard.ts has the defaults). */
  limits?: Partial<ListenerLimits>;
  /**
   * Whether a forwarder is in front of the listener right now (a tunnel, a reverse proxy): only then is its
   * `X-Forwarded-For` believed, and only on a loopback connection. Asked at each failed login, with the connection's
   * own address (the mailbox believes only its configured proxy's); by default never.
   */
  forwarded?: (socketAddress: string | undefined) => boolean;
  /** The caller's routes; each declares in its `config` who may call it (RouteAccess). */
  routes?: (app: FastifyInstance) => void;
  /** The listener is listening (the desktop's uptime log); a throw closes it again and fails the start. */
  onListening?: () => void;
  /** The listener was closed. */
  onClosed?: () => void;
  /** Where the periods of refused failed logins go (by default nowhere). */
  refusals?: RefusalLog;
}

export interface RunningReceiver {
  port: number;
  /** The address of its /push on this computer (what a tunnel or reverse proxy forwards to). */
  localUrl: string;
  app: FastifyInstance;
  /** Connections open right now (the cap's bookkeeping). */
  openConnections(): number;
  /** The transactions deliveries were stored in so far, and how many deliveries they held. */
  writes(): GroupWriterStats;
  close(): Promise<void>;
}

/**
 * The partner endpoint Su delivers to: one address, `POST /push`, for messages, reviews and legacy reviews, and the
 * caller's routes beside it.
 *
 * SECURITY: binds 127.0.0.1 unless told otherwise. Every request is judged on its headers, in onRequest, before its
 * body is read: only a delivery with valid credentials, a public address without a body, a throttled route within its
 * limit and an authenticated route are served; anything else (an unknown path: 404, a failed login: 401, or 429 once
 * too many failed, a body on a public address: 400, a compression not known: 415) is answered at once and its
 * connection closed, the body unread. Only FAILED logins (and throttled calls) are counted, per client (the address
 * the tunnel or the reverse proxy reports) and in total. Connections are capped: one serving a delivery, an
 * authenticated call, a stream or a public address is never closed to make room, any other (the oldest first) is;
 * each open connection has its header and request deadlines (one timer each; an idle listener has none) and an
 * idle timeout. Nothing acknowledged is lost: the acknowledgement is
 * sent only after the delivery is committed; a failed write answers 503 so the provider reposts. Deliveries that
 * arrive while a commit runs share the next one (groupWriter.ts): one sync for the group, each answered once it
 * committed.
 */
export async function startReceiver<Result extends StoredDelivery>(
  options: ReceiverOptions<Result>,
): Promise<RunningReceiver> {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const limits = listenerLimits(options.limits);
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const app = Fastify({
    logger: false,
    bodyLimit,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: 5_000,
    forceCloseConnections: true,
    trustProxy: false,
    // The header and request deadlines are kept by guardConnections, per connection: Node's own check would wake
    // the idle listener every second.
    http: { ...NODE_DEADLINE_CHECKS_OFF },
  });
  const connections = guardConnections(app.server, limits);
  const failedLogins = createFailedLoginLimiter(limits, options.refusals ?? NO_REFUSAL_LOG, now);
  const sources = new WeakMap<FastifyRequest, string>();
  /** Requests answered on their headers alone: their connection is closed and the body left unread. */
  const refused = new WeakSet<FastifyRequest>();
  const writer = createGroupWriter(options.commit, options.ready ? { ready: options.ready } : {});
  const clientOf = (request: FastifyRequest) =>
    clientAddress(
      request.socket.remoteAddress,
      request.headers['x-forwarded-for'],
      options.forwarded?.(request.socket.remoteAddress) ?? false,
    );
  /** A refused call of a route with access: its connection is closed, the body unread. */
  const refuse = (request: FastifyRequest) => refused.add(request);
  /** A failed login (a route's own check said no): 401, or 429 once its client or everyone failed too often. */
  const failedLogin = (request: FastifyRequest) => failedLogins.failed(clientOf(request));
  /**
   * A failed login, Su's (Basic) or a device's (Bearer): refused (the connection closes, the body unread), counted,
   * answered 429 once its client or everyone together failed too often, 401 before; `answer` gives the body's shape.
   */
  const refuseLogin = (
    request: FastifyRequest,
    reply: FastifyReply,
    scheme: 'Basic' | 'Bearer',
    answer: (error: string, message: string) => object,
  ) => {
    refuse(request);
    if (failedLogin(request)) {
      return reply
        .code(429)
        .header('Retry-After', String(failedLogins.retryAfterSeconds()))
        .send(answer('too_many_failures', 'Too many failed logins; try again later.'));
    }
    return reply
      .code(401)
      .header('WWW-Authenticate', `${scheme} realm="Innkeeper"`)
      .send(answer('unauthorized', 'Unauthorized'));
  };

  // Every request is judged on its headers, before a byte of its body is read. Served: a delivery with valid
  // credentials (whatever else is going on), an authenticated call and a public address; their connections are then
  // never closed to make room for others. Everything else is answered now and its connection closed: a slow body sent
  // to a path that does not exist, or without credentials, holds no place (through a tunnel every connection comes
  // from 127.0.0.1, so such connections could otherwise fill the address's share and keep Su out). A failed login is
  // counted, and answered 429 once its client or everyone together failed too often in the window; an unknown path
  // (404) and a public address (Su asking for stale photos) are never counted nor refused for failed logins.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) {
      refuse(request);
      return reply.code(404).header('cache-control', 'no-store').send({ status: 'Fail', message: 'Not found' });
    }
    const access = accessOf(request.routeOptions.config);
    if (access?.kind === 'public') {
      if (hasBody(request)) {
        refuse(request);
        return reply.code(400).send({ status: 'Fail', message: 'A photo address takes no body.' });
      }
      connections.serving(request.raw.socket, reply.raw);
      return;
    }
    if (access?.kind === 'throttled') {
      // Not protected: anyone may call it, so its connection may be closed to make room like any other.
      if (!failedLogin(request)) return;
      refuse(request);
      return reply
        .code(429)
        .header('Retry-After', String(failedLogins.retryAfterSeconds()))
        .send({ error: 'too_many_attempts', message: 'Too many attempts; try again later.' });
    }
    if (access?.kind === 'authenticated') {
      let allowed: boolean;
      try {
        allowed = access.route.authenticate(request) === true;
      } catch (error) {
        // The check itself failed (its store): nothing is known of the caller; it tries again later.
        console.error(`a request could not be checked: ${errorText(error)}`);
        refuse(request);
        return reply
          .code(503)
          .header('Retry-After', '10')
          .send({ error: 'unavailable', message: 'Temporarily unable to check the credentials; try again.' });
      }
      if (allowed) {
        connections.serving(request.raw.socket, reply.raw);
        // A stream's answer lasts: instead of the idle timeout (which its pings, every 20 s, would not satisfy), its
        // own. The request timeout does not apply: a GET is whole once its headers are in.
        if (access.route.stream) request.raw.socket.setTimeout(limits.streamIdleTimeoutMs);
        return;
      }
      return refuseLogin(request, reply, 'Bearer', (error, message) => ({ error, message }));
    }
    // POST /push, the receiver's own route: Su's Basic credentials.
    const matched = options.authorizePush(request.headers.authorization);
    if (matched) {
      if (bodyEncodings(request.headers['content-encoding']) === null) {
        refuse(request);
        return reply
          .code(415)
          .header('Accept-Encoding', ACCEPTED_ENCODINGS)
          .send({ status: 'Fail', message: `Deliveries may be compressed with ${ACCEPTED_ENCODINGS} only.` });
      }
      if (matched.source !== null) sources.set(request, matched.source);
      connections.serving(request.raw.socket, reply.raw);
      return;
    }
    return refuseLogin(request, reply, 'Basic', (_error, message) => ({ status: 'Fail', message }));
  });
  // After a refusal the connection is closed, and destroyed once the answer is out when the sender is still
  // sending a body (Node would otherwise read it to the end, however large, before closing).
  app.addHook('onSend', async (request, reply, payload) => {
    if (!refused.has(request) && !CLOSE_AFTER.has(reply.statusCode)) return payload;
    reply.header('Connection', 'close');
    const socket = request.raw.socket;
    reply.raw.once('finish', () => {
      if (!request.raw.complete) socket.destroy();
    });
    return payload;
  });
  // Keep the body as the exact bytes received (a delivery is stored raw), whatever content type the sender declared.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/push', async (request, reply) => {
    // SECURITY: the credentials are asked again once the body is in: ones withdrawn while it was on its way (the
    // owner left the demo, whose credentials then stop working at once) store nothing. Not counted as a failed login.
    if (!options.authorizePush(request.headers.authorization)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Basic realm="Innkeeper"')
        .send({ status: 'Fail', message: 'Unauthorized' });
    }
    let raw = Buffer.isBuffer(request.body)
      ? request.body
      : Buffer.from(typeof request.body === 'string' ? request.body : '');
    // A compressed delivery (gzip or deflate) is stored as the bytes it decodes to: the JSON Su sent, not its
    // compressed form. It may not decode to more than the size limit (a small body that would inflate to gigabytes is
    // refused with 413 once the limit is passed, nothing stored). One that cannot be decoded at all is stored as the
    // bytes received, so it is still kept (and answered 400: not JSON).
    const encodings = bodyEncodings(request.headers['content-encoding']) ?? [];
    if (encodings.length > 0) {
      const decoded = await decodeBody(raw, encodings, bodyLimit);
      if ('tooLarge' in decoded) {
        return reply.code(413).send({ status: 'Fail', message: 'The delivery is too large once unpacked.' });
      }
      if ('body' in decoded) raw = decoded.body;
    }
    let result: Result;
    try {
      // Resolves once the transaction holding this delivery (and those that arrived with it) has committed.
      result = await writer.submit({ raw, receivedAt: now(), source: sources.get(request) ?? null });
    } catch (error) {
      // Nothing was acknowledged: a damaged or failing store (the original error is logged, never a rollback's);
      // a store fault answers this to every delivery of the group, none of which was stored.
      console.error(`delivery could not be stored: ${errorText(error)}`);
      return reply
        .code(503)
        .header('Retry-After', '60')
        .send({ status: 'Fail', message: 'Temporarily unable to store the delivery; please repost.' });
    }
    // After the acknowledgement: UI updates and notifications only. A failure there (a closed window, a destroyed
    // tray) is logged, never thrown: the delivery is already safely stored.
    const after = options.onReceived;
    if (after)
      setImmediate(() => {
        try {
          after(result);
        } catch (error) {
          console.error(`after a delivery: ${errorText(error)}`);
        }
      });
    if (result.httpStatus === 400) return reply.code(400).send({ status: 'Fail', message: 'The body is not JSON.' });
    return reply.code(200).send(ACKNOWLEDGEMENT);
  });

  // Every route added from here on says who may call it: a route without one would otherwise be judged as a delivery.
  app.addHook('onRoute', (route) => {
    if (!accessOf(route.config))
      throw new Error(
        `${String(route.method)} ${route.url}: a route on the receiver declares who may call it (config: { public: true }, { throttled: true } or { authenticate }).`,
      );
  });
  try {
    options.routes?.(app);
  } catch (error) {
    failedLogins.close();
    await app.close();
    throw error;
  }

  try {
    await app.listen({ host, port: options.port });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new AppFailure({
        code: 'port_in_use',
        message: `Port ${options.port} is already used by another program, so Innkeeper cannot receive messages on it. Choose another port.`,
        field: 'pushPort',
        retryable: false,
      });
    }
    throw error;
  }
  const port = (app.server.address() as { port: number }).port;
  try {
    options.onListening?.();
  } catch (error) {
    // The caller cannot record that the listener is up (a read-only file): never leave the port answering while
    // the caller reports the listener as not started.
    failedLogins.close();
    await app.close();
    throw error;
  }
  const shownHost =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return {
    port,
    localUrl: `http://${shownHost}:${port}/push`,
    app,
    openConnections: connections.openConnections,
    writes: writer.stats,
    close: async () => {
      options.onClosed?.();
      failedLogins.close();
      await app.close();
    },
  };
}
