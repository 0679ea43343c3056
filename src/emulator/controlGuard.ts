import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Control routes anyone on this computer may read: an image's `su_url` (a redirect) and liveness. */
const isPublic = (request: FastifyRequest) =>
  request.method === 'GET' && /^\/_emulator\/(health|images\/[^/]+)$/.test(request.url.split('?')[0]!);

/**
 * Whether a request is addressed to this emulator's own loopback address (`Host` is `127.0.0.1:<port>`,
 * `localhost:<port>` or `[::1]:<port>`, the port it was received on), which a web page reaching it through a rebound
 * DNS name cannot send.
 */
export function isOwnLoopbackHost(request: FastifyRequest): boolean {
  const port = request.socket.localPort;
  const host = request.headers.host ?? '';
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/**
 * SECURITY: the emulator on a loopback address (the app's built-in demo, the tests) answers only requests addressed
 * to that address (`isOwnLoopbackHost`): a web page reaching it through a rebound DNS name could otherwise take a
 * token with the public demo credentials, open its payment pages or read its images. Others get 421 and why.
 */
export function guardLoopbackHost(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (isOwnLoopbackHost(request)) return;
    const port = request.socket.localPort;
    return reply.code(421).send({
      error: `The emulator answers only at its own loopback address (127.0.0.1:${port} or localhost:${port}), not at ${JSON.stringify((request.headers.host ?? '').slice(0, 100))}.`,
    });
  });
}

/**
 * SECURITY: the control API can post pushes into an app's inbox, so it answers only
 * - requests addressed to its own loopback address (`isOwnLoopbackHost`), whatever address the Su paths listen on;
 * - with its token as `Authorization: Bearer …`, compared timing-safe (a web page cannot set that header without
 *   a CORS preflight, which the emulator never grants);
 * - with JSON bodies only: a cross-site form post (`application/x-www-form-urlencoded`, `multipart/form-data`,
 *   `text/plain`) is refused before anything is parsed.
 * All three are checked on request, before the body is read.
 */
export function guardControlApi(control: FastifyInstance, token: string): void {
  const expected = digest(token);
  control.addHook('onRequest', async (request, reply) => {
    if (!isOwnLoopbackHost(request)) {
      return reply.code(421).send({ error: 'The emulator answers only at its own loopback address.' });
    }
    if (isPublic(request)) return;
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected) || !given) {
      return reply.code(401).send({ error: 'The control API needs its token: Authorization: Bearer <token>.' });
    }
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (['POST', 'PUT', 'PATCH'].includes(request.method) && type !== 'application/json') {
      return reply.code(415).send({ error: 'The control API takes application/json bodies only.' });
    }
  });
}
