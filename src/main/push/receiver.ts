import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppFailure, errorText } from '../../shared/result';
import type { Database } from '../db/database';
import { basicAuthMatches, type PushCredentials } from './basicAuth';
import { ACKNOWLEDGEMENT, ingestPush, type IngestResult } from './ingest';
import { createUptimeLog, type UptimeLog } from './uptime';

export interface PushReceiverOptions {
  database: Database;
  now?: () => number;
  /** The Basic credentials a push may carry, each accepted; none refuses every push (none chosen yet). */
  credentials: () => readonly PushCredentials[];
  /** Loopback port (0 picks a free one). */
  port: number;
  /** Called after the acknowledgement went out, for notifications and UI updates (never before). */
  onIngested?: (result: IngestResult) => void;
  /** Largest body accepted; real pushes are a few kilobytes. */
  bodyLimit?: number;
  /** Requests allowed per minute from one connection address, far above any real burst. */
  maxPerMinute?: number;
  /**
   * Routes answered without credentials (the photo addresses Su fetches): each registers with
   * `config: { public: true }` and must answer only what it is meant to.
   */
  publicRoutes?: (app: FastifyInstance) => void;
}

export interface RunningPushReceiver {
  port: number;
  /** The address the tunnel or reverse proxy forwards to. */
  localUrl: string;
  uptime: UptimeLog;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The partner endpoint Su pushes to: one address, `POST /push`, for messages, reviews and legacy reviews.
 *
 * SECURITY: binds 127.0.0.1 only (the internet reaches it only through a tunnel the owner enables); Basic
 * credentials are checked in onRequest, before the body is read, timing-safe; rate-limited by the connection's
 * own address (never X-Forwarded-For, which a tunnel client could set); body size and timeouts bounded.
 * Nothing acknowledged is lost: the acknowledgement is sent only after the push is committed (synchronous=FULL);
 * a failed write answers 503 so the provider reposts.
 */
export async function startPushReceiver(options: PushReceiverOptions): Promise<RunningPushReceiver> {
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    connectionTimeout: 15_000,
    requestTimeout: 15_000,
    keepAliveTimeout: 5_000,
    forceCloseConnections: true,
    trustProxy: false,
  });
  await app.register(rateLimit, {
    max: options.maxPerMinute ?? 600,
    timeWindow: 60_000,
    keyGenerator: (request) => request.socket.remoteAddress ?? 'unknown',
    hook: 'onRequest',
  });
  // Auth is attached to each route after the rate limiter (both run on request, before the body is read), so
  // failed logins count against the limit too: guessing the password is throttled like any other flood.
  const sources = new WeakMap<FastifyRequest, 'demo'>();
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const matched = basicAuthMatches(request.headers.authorization, options.credentials());
    if (matched) {
      if (matched.source) sources.set(request, matched.source);
      return;
    }
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="Innkeeper"')
      .send({ status: 'Fail', message: 'Unauthorized' });
  };
  app.addHook('onRoute', (route) => {
    if ((route.config as { public?: boolean } | undefined)?.public === true) return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [...existing, authenticate];
  });
  // Keep the body as the exact bytes received (it is logged raw), whatever content type the sender declared.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  options.publicRoutes?.(app);

  app.post('/push', async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : typeof request.body === 'string' ? request.body : '';
    let result: IngestResult;
    try {
      result = ingestPush(options.database, raw, now(), sources.get(request) ?? null);
    } catch (error) {
      // Nothing was acknowledged: a damaged or failing store (the original error is logged, never a rollback's).
      console.error(`push could not be stored: ${errorText(error)}`);
      return reply
        .code(503)
        .header('Retry-After', '60')
        .send({ status: 'Fail', message: 'Temporarily unable to store the push; please repost.' });
    }
    // After the acknowledgement: UI updates and notifications only. A failure there (a closed window, a destroyed
    // tray) is logged, never thrown: the push is already safely stored.
    const after = options.onIngested;
    if (after)
      setImmediate(() => {
        try {
          after(result);
        } catch (error) {
          console.error(`after a push: ${errorText(error)}`);
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
    close: async () => {
      uptime.down();
      await app.close();
    },
  };
}
