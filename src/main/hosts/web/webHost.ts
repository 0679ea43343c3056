import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  CALL_ARGS_HEADER,
  CALL_BYTES_TYPE,
  MAX_CALL_BYTES,
  SESSION_PATH,
  SESSION_PROOF_PATH,
  sessionProofMessage,
} from '../../../shared/contract';
import { ErrorCode, fail } from '../../../shared/result';
import type { Core } from '../../core';
import { CONTENT_SECURITY_POLICY } from '../csp';
import {
  clearSessionCookie,
  sessionCookiesIn,
  sessionCookieValid,
  sessionProofKey,
  setSessionCookie,
} from './sessionCookie';

export interface WebHostOptions {
  core: Pick<Core, 'dispatcher' | 'events'>;
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  port: number;
  /**
   * The session token every call and the event socket must present (kept per install: webSession.ts), or the session
   * cookie made with it (sessionCookie.ts).
   */
  token: string;
}

export interface RunningWebHost {
  /** The address to open, with the session token. */
  url: string;
  port: number;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The renderer's hashed files: a year, and never revalidated (a changed file gets a new name). */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const digest = (s: string) => createHash('sha256').update(s).digest();
/** A nonce the page made: 128 to 768 random bits, base64url. */
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

/** The host part of an Origin header; '' for a missing, `null` or malformed one. */
function originHost(origin: string | undefined): string {
  try {
    return origin ? new URL(origin).host : '';
  } catch {
    return '';
  }
}

const STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden', 421: 'Misdirected Request' } as const;

/** Answers a refused WebSocket upgrade and closes its socket (otherwise it would stay open, unused). */
function refuseUpgrade(reply: FastifyReply, status: keyof typeof STATUS_TEXT, setCookie?: string): FastifyReply {
  reply.hijack();
  const cookie = setCookie ? `Set-Cookie: ${setCookie}\r\n` : '';
  reply.raw.socket?.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${cookie}Connection: close\r\nContent-Length: 0\r\n\r\n`,
  );
  return reply;
}

/**
 * Browser mode: the built renderer and the contract over HTTP (calls) and WebSocket (events).
 * SECURITY: binds 127.0.0.1 only; every call and the socket need the random session token (compared
 * timing-safe); the Host header must name this loopback port (blocks DNS rebinding); no CORS headers are sent,
 * so other sites cannot read answers; the event socket also checks its Origin. The page sends the token only to a
 * server that first proved it knows it: `SESSION_PROOF_PATH` answers the HMAC of the page's nonce and the port keyed
 * with the session's proof key, and nothing else (so a program squatting on the port while the app is down collects
 * no token). The session cookie (sessionCookie.ts) stands for the token only on a request of the app's own page: its
 * Origin is this address, and its Sec-Fetch-Site, when the browser sends one, `same-origin`.
 */
export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_CALL_BYTES,
    requestTimeout: 60_000,
    forceCloseConnections: true,
  });
  const expected = digest(options.token);
  const tokenOk = (candidate: unknown) =>
    typeof candidate === 'string' && candidate !== '' && timingSafeEqual(digest(candidate), expected);
  let allowedHosts = new Set<string>();
  /** The port listened on (known once listening; no request is answered before). */
  let port = options.port;
  const proofKey = sessionProofKey(options.token);
  /** The session cookies the request carries: whether one is valid, and whether there are any. */
  const cookiesOf = (request: FastifyRequest) => {
    const values = sessionCookiesIn(request.headers.cookie, port);
    return { valid: values.some((value) => sessionCookieValid(options.token, port, value)), any: values.length > 0 };
  };
  /** A request of the app's own page: the only one the session cookie may stand for. */
  const fromOwnPage = (request: FastifyRequest) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    const origin = request.headers.origin;
    return origin === `http://${request.headers.host}` && allowedHosts.has(originHost(origin));
  };

  app.addHook('onRequest', async (request, reply) => {
    if (allowedHosts.has(request.headers.host ?? '')) return;
    if (request.headers.upgrade) return refuseUpgrade(reply, 421);
    return reply.code(421).send({ ok: false, error: { code: ErrorCode.Forbidden, message: 'Unknown host.' } });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    // Nothing is kept by the browser (answers, index.html) but the renderer's hashed files (below).
    if (reply.getHeader('Cache-Control') !== ASSET_CACHE_CONTROL) reply.header('Cache-Control', 'no-store');
    // The page (never a kept file) opened with the session link or the session cookie gives the browser the cookie
    // afresh, so a bookmark keeps working while it is used; a cookie no longer valid is removed.
    const page = String(reply.getHeader('Content-Type') ?? '').startsWith('text/html');
    if (page && request.method === 'GET' && reply.statusCode === 200 && !reply.hasHeader('Set-Cookie')) {
      const { session } = request.query as { session?: unknown };
      const cookies = cookiesOf(request);
      if (tokenOk(session) || cookies.valid) reply.header('Set-Cookie', setSessionCookie(options.token, port));
      else if (cookies.any) reply.header('Set-Cookie', clearSessionCookie(port));
    }
    return payload;
  });

  // Every failure answers a Result, also the ones Fastify raises before a handler runs (a call over the size limit,
  // a body that is not JSON).
  app.setErrorHandler(async (error: { statusCode?: number; code?: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const tooLarge = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    const message = tooLarge
      ? `The request is too large (more than ${MAX_CALL_BYTES} bytes).`
      : status < 500
        ? 'The request could not be read.'
        : 'Something went wrong inside Innkeeper. Nothing was sent.';
    return reply
      .code(status)
      .send({ ok: false, error: { code: status < 500 ? ErrorCode.Validation : ErrorCode.Internal, message } });
  });

  // Outside the token-guarded /api plugin: it needs no token and answers only the proof, as text.
  app.get(SESSION_PROOF_PATH, async (request, reply) => {
    const { nonce } = request.query as { nonce?: unknown };
    if (typeof nonce !== 'string' || !NONCE_PATTERN.test(nonce)) return reply.code(400).type('text/plain').send('');
    const proof = createHmac('sha256', proofKey).update(sessionProofMessage(nonce, port)).digest('base64url');
    return reply.type('text/plain').send(proof);
  });

  /**
   * A call sent as bytes (CALL_BYTES_TYPE): its other arguments are the JSON object in CALL_ARGS_HEADER, and the bytes
   * its `data`; the dispatcher then checks them as any call's. Its size is the body's and the header's.
   */
  const dispatchBytes = (method: string, bytes: Buffer, header: string | string[] | undefined) => {
    let other: unknown = null;
    try {
      other = typeof header === 'string' ? JSON.parse(header) : null;
    } catch {
      // answered below
    }
    if (typeof other !== 'object' || other === null || Array.isArray(other) || Object.hasOwn(other, 'data')) {
      return fail({
        code: ErrorCode.Validation,
        message: `The request could not be read (its other arguments belong in ${CALL_ARGS_HEADER}, as a JSON object).`,
      });
    }
    const size = bytes.byteLength + Buffer.byteLength(header as string);
    return options.core.dispatcher.dispatch(method, { ...other, data: bytes }, size);
  };

  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 } });
  // SECURITY: the token hook lives inside the /api plugin, so it guards every route registered here however
  // the request spells its path (a check on request.url could be dodged with /%61pi/…).
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        // A repeated `?token=` arrives as an array: only a single string can be the token (never a 500).
        const queried = request.headers.upgrade ? (request.query as { token?: unknown }).token : undefined;
        const fromQuery = typeof queried === 'string' ? queried : undefined;
        if (tokenOk(bearer ?? fromQuery)) return;
        const cookies = cookiesOf(request);
        if (cookies.valid && fromOwnPage(request)) return;
        if (cookies.valid) {
          // The cookie, sent by a page of another program on this computer (another port), or by a page of this one
          // that was not asked for (no Origin): refused, and the cookie kept.
          if (request.headers.upgrade) return refuseUpgrade(reply, 403);
          return reply.code(403).send({
            ok: false,
            error: { code: ErrorCode.Forbidden, message: 'Innkeeper answers only its own page.' },
          });
        }
        const clear = cookies.any ? clearSessionCookie(port) : undefined;
        if (request.headers.upgrade) return refuseUpgrade(reply, 401, clear);
        if (clear) reply.header('Set-Cookie', clear);
        return reply.code(401).send({
          ok: false,
          error: { code: ErrorCode.Unauthorized, message: 'Open Innkeeper with the address printed when it started.' },
        });
      });
      // The page asks here whether this browser holds the session (the cookie, which it cannot read), and is given
      // the proof key to check the server with before it sends anything again; the cookie is issued afresh.
      api.post(SESSION_PATH.slice('/api'.length), async (_request, reply) => {
        reply.header('Set-Cookie', setSessionCookie(options.token, port));
        return { ok: true, value: { proofKey } };
      });
      // A call's bytes as its body (a photo's chunk): read as they are, up to MAX_CALL_BYTES like any body.
      api.addContentTypeParser(CALL_BYTES_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      api.post('/call/:method', async (request) => {
        const { method } = request.params as { method: string };
        if (Buffer.isBuffer(request.body))
          return dispatchBytes(method, request.body, request.headers[CALL_ARGS_HEADER]);
        // Fastify read the body up to MAX_CALL_BYTES (bodyLimit): its length is the call's size.
        const length = Number(request.headers['content-length']);
        return options.core.dispatcher.dispatch(
          method,
          request.body ?? {},
          Number.isSafeInteger(length) && length >= 0 ? length : undefined,
        );
      });
      api.get('/events', { websocket: true }, (socket, request) => {
        if (!allowedHosts.has(originHost(request.headers.origin))) {
          socket.close(1008, 'origin');
          return;
        }
        const off = options.core.events.onAny((event, payload) => socket.send(JSON.stringify({ event, payload })));
        socket.on('close', off);
      });
    },
    { prefix: '/api' },
  );
  // One route for every file of the built renderer, looked up when asked for (not one route per file, read and
  // registered at each start: the screens loaded on demand are many small files).
  // The files under assets/ are named by a hash of their content: a new tab takes them (and the code Chromium
  // compiled from them) from the browser's cache without asking again; a new build has new names. index.html, which
  // names them, is never kept.
  const assetsDir = join(resolve(options.rendererDir), 'assets') + sep;
  await app.register(fastifyStatic, {
    root: options.rendererDir,
    index: ['index.html'],
    wildcard: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      if (path.startsWith(assetsDir)) response.setHeader('Cache-Control', ASSET_CACHE_CONTROL);
    },
  });

  try {
    await app.listen({ host: '127.0.0.1', port: options.port });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw Object.assign(
        new Error(`Port ${options.port} on 127.0.0.1 is already in use; set INNKEEPER_WEB_PORT to a free port (or 0).`),
        { code: 'EADDRINUSE' },
      );
    }
    throw error;
  }
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : options.port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/?session=${options.token}`,
    port,
    app,
    close: () => app.close(),
  };
}
