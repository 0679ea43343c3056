import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppFailure, errorText } from '../../shared/result';
import type { Database } from '../db/database';
import { basicAuthMatches, type DeliveryCredentials } from './basicAuth';
import type { DeliveryFilers } from './deliveryKinds';
import { ACCEPTED_ENCODINGS, bodyEncodings, decodeBody } from './contentEncoding';
import { createGroupWriter, type GroupWriterStats } from './groupWriter';
import { ACKNOWLEDGEMENT, type IngestResult } from './ingest';
import {
  clientAddress,
  createFailedLoginLimiter,
  guardConnections,
  listenerLimits,
  type ListenerLimits,
} from './listenerGuard';
import { createRefusalLog, createUptimeLog, type UptimeLog } from '../db/uptime';

/** The uptime log's name for the periods the listener refused failed logins (shown with the downtime). */
export const GUARD_COMPONENT = 'guard';
/**
 * Answers after which the connection is closed: the rest of what the sender sends is not read. (404: an unknown path
 * or a photo address that is gone; 408, and 413 for a body over the limit, come from the body's reading.)
 */
const CLOSE_AFTER = new Set([401, 404, 408, 413, 415, 429]);
/** Whether a request says a body follows (a length above 0, or a chunked one). */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

export interface ReceiverOptions {
  database: Database;
  /** Who files each kind of delivery (the inbox: messages and reviews). */
  filers: DeliveryFilers;
  now?: () => number;
  /** The Basic credentials a delivery may carry, each accepted; none refuses every delivery (none chosen yet). */
  credentials: () => readonly DeliveryCredentials[];
  /** Loopback port (0 picks a free one). */
  port: number;
  /** Called after the acknowledgement went out, for notifications and UI updates (never before). */
  onIngested?: (result: IngestResult) => void;
  /** Largest body accepted; real deliveries are a few kilobytes. */
  bodyLimit?: number;
  /** Failed-login throttling, connection caps and timeouts (listenerGuard.ts has the defaults). */
  limits?: Partial<ListenerLimits>;
  /**
   * Whether a forwarder is in front of the listener right now (the tunnel is on, or the owner set their own public
   * address through a reverse proxy): only then is its `X-Forwarded-For` believed. Asked at each failed login; by
   * default never (the socket address counts).
   */
  forwarded?: () => boolean;
  /**
   * Routes answered without credentials (the photo addresses Su fetches): each registers with
   * `config: { public: true }` and must answer only what it is meant to.
   */
  publicRoutes?: (app: FastifyInstance) => void;
}

export interface RunningReceiver {
  port: number;
  /** The address the tunnel or reverse proxy forwards to. */
  localUrl: string;
  uptime: UptimeLog;
  app: FastifyInstance;
  /** Connections open right now (the cap's bookkeeping). */
  openConnections(): number;
  /** The transactions deliveries were filed in so far, and how many deliveries they held. */
  writes(): GroupWriterStats;
  close(): Promise<void>;
}

/**
 * The partner endpoint Su delivers to: one address, `POST /push`, for messages, reviews and legacy reviews.
 *
 * SECURITY: binds 127.0.0.1 only (the internet reaches it only through a tunnel the owner enables). Every request is
 * judged on its headers, in onRequest, before its body is read: only a delivery with valid Basic credentials
 * (timing-safe) and a photo address without a body are served; anything else (an unknown path: 404, a failed login:
 * 401, or 429 once too many failed, a body on a photo address: 400, a compression not known: 415) is answered at
 * once and its connection closed, the body unread. Only FAILED logins are counted, per client (the address the tunnel
 * or the owner's reverse proxy reports) and in total. Connections are capped: one serving a delivery or a photo is
 * never closed to make room, any other (the oldest first) is; the header, request and idle timeouts are checked
 * every second. Nothing acknowledged is lost: the acknowledgement is sent only after the delivery is
 * committed (synchronous=FULL); a failed write answers 503 so the provider reposts. Deliveries that arrive while a
 * commit runs share the next one (groupWriter.ts): one sync for the group, each answered once it committed.
 */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const now = options.now ?? Date.now;
  const limits = listenerLimits(options.limits);
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const app = Fastify({
    logger: false,
    bodyLimit,
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    forceCloseConnections: true,
    trustProxy: false,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  });
  const connections = guardConnections(app.server, limits);
  const failedLogins = createFailedLoginLimiter(limits, createRefusalLog(options.database, GUARD_COMPONENT, now), now);
  const sources = new WeakMap<FastifyRequest, 'demo'>();
  /** Requests answered on their headers alone: their connection is closed and the body left unread. */
  const refused = new WeakSet<FastifyRequest>();
  const writer = createGroupWriter(options.database, options.filers, now);
  const clientOf = (request: FastifyRequest) =>
    clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], options.forwarded?.() ?? false);
  /** A route answered without credentials: a photo address Su fetches (unguessable, GET and HEAD only). */
  const isPublic = (request: FastifyRequest) =>
    (request.routeOptions.config as { public?: boolean } | undefined)?.public === true;

  // Every request is judged on its headers, before a byte of its body is read. Served: a delivery with valid
  // credentials (whatever else is going on) and a photo address; their connections are then never closed to make
  // room for others. Everything else is answered now and its connection closed: a slow body sent to a path that does
  // not exist, or without credentials, holds no place (through a tunnel every connection comes from 127.0.0.1, so
  // such connections could otherwise fill the address's share and keep Su out). A failed login is counted, and
  // answered 429 once its client or everyone together failed too often in the window; an unknown path (404) and a
  // photo address (Su asking for stale photos) are never counted nor refused for failed logins.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) {
      refused.add(request);
      return reply.code(404).header('cache-control', 'no-store').send({ status: 'Fail', message: 'Not found' });
    }
    if (isPublic(request)) {
      if (hasBody(request)) {
        refused.add(request);
        return reply.code(400).send({ status: 'Fail', message: 'A photo address takes no body.' });
      }
      connections.serving(request.raw.socket, reply.raw);
      return;
    }
    const matched = basicAuthMatches(request.headers.authorization, options.credentials());
    if (matched) {
      if (bodyEncodings(request.headers['content-encoding']) === null) {
        refused.add(request);
        return reply
          .code(415)
          .header('Accept-Encoding', ACCEPTED_ENCODINGS)
          .send({ status: 'Fail', message: `Deliveries may be compressed with ${ACCEPTED_ENCODINGS} only.` });
      }
      if (matched.source) sources.set(request, matched.source);
      connections.serving(request.raw.socket, reply.raw);
      return;
    }
    refused.add(request);
    if (failedLogins.failed(clientOf(request))) {
      return reply
        .code(429)
        .header('Retry-After', String(failedLogins.retryAfterSeconds()))
        .send({ status: 'Fail', message: 'Too many failed logins; try again later.' });
    }
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="Innkeeper"')
      .send({ status: 'Fail', message: 'Unauthorized' });
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
  // Keep the body as the exact bytes received (it is logged raw), whatever content type the sender declared.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  options.publicRoutes?.(app);

  app.post('/push', async (request, reply) => {
    // SECURITY: the credentials are asked again once the body is in: ones withdrawn while it was on its way (the
    // owner left the demo, whose credentials then stop working at once) file nothing. Not counted as a failed login.
    if (!basicAuthMatches(request.headers.authorization, options.credentials())) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Basic realm="Innkeeper"')
        .send({ status: 'Fail', message: 'Unauthorized' });
    }
    let raw = Buffer.isBuffer(request.body) ? request.body : typeof request.body === 'string' ? request.body : '';
    // A compressed delivery (gzip or deflate) is filed and logged as the bytes it decodes to: the JSON Su sent, not
    // its compressed form. It may not decode to more than the size limit (a small body that would inflate to
    // gigabytes is refused with 413 once the limit is passed, nothing filed). One that cannot be decoded at all is
    // filed as the bytes received, so it is still logged (and answered 400: not JSON).
    const encodings = bodyEncodings(request.headers['content-encoding']) ?? [];
    if (encodings.length > 0 && Buffer.isBuffer(raw)) {
      const decoded = await decodeBody(raw, encodings, bodyLimit);
      if ('tooLarge' in decoded) {
        return reply.code(413).send({ status: 'Fail', message: 'The delivery is too large once unpacked.' });
      }
      if ('body' in decoded) raw = decoded.body;
    }
    let result: IngestResult;
    try {
      // Resolves once the transaction holding this delivery (and those that arrived with it) has committed.
      result = await writer.submit({ raw, now: now(), source: sources.get(request) ?? null });
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
    const after = options.onIngested;
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

  try {
    await app.listen({ host: '127.0.0.1', port: options.port });
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
  const uptime = createUptimeLog(options.database, 'listener', now);
  try {
    uptime.up();
  } catch (error) {
    // The store cannot record that the listener is up (a read-only file): never leave the port answering while
    // the caller reports the listener as not started.
    await app.close();
    throw error;
  }
  return {
    port,
    localUrl: `http://127.0.0.1:${port}/push`,
    uptime,
    app,
    openConnections: connections.openConnections,
    writes: writer.stats,
    close: async () => {
      uptime.down();
      failedLogins.close();
      await app.close();
    },
  };
}
