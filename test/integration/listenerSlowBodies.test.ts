import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { rawConnection, slowFlood } from '../support/rawClients';
import { PUSH_PASSWORD, PUSH_USER, startPushTarget } from '../support/pushTarget';

// Slow bodies against the listener, over real loopback sockets, all from 127.0.0.1 (as through a tunnel): a request
// that is not an authenticated push nor a photo address is answered before its body is read and its connection
// closed, and it never costs Su's push its connection.

const auth = `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`;
const message = (id: string) => JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id });

let t: Awaited<ReturnType<typeof startPushTarget>> | null = null;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await t?.stop();
  t = null;
});

/** A photo address, as the photos feature adds them: public, GET and HEAD, one live token. */
const photoAddress = (app: FastifyInstance) =>
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:token',
    config: { public: true },
    handler: async (request, reply) =>
      (request.params as { token: string }).token === 'known' ? 'photo' : reply.code(404).send('Not found'),
  });

/** Su's push on a new connection of its own: its status (or the socket error) and how long it took. */
function push(url: string, body: string) {
  const started = performance.now();
  return new Promise<{ status: number | string; ms: number }>((resolve) => {
    const request = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: 5_000,
    });
    const done = (status: number | string) => resolve({ status, ms: performance.now() - started });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode!));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    request.end(body);
  });
}

describe('slow bodies cannot keep Su’s pushes out', () => {
  it('300 slow bodies to an unknown path and 300 to /push without credentials, held 30 s: every push acknowledged within 1 s', async () => {
    t = await startPushTarget({ publicRoutes: photoAddress });
    const port = t.receiver.port;
    const photo = t.receiver.localUrl.replace('/push', '/media/known');
    const unknown = slowFlood(port, 'POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n', 300, sockets);
    const noCredentials = slowFlood(
      port,
      'POST /push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
      300,
      sockets,
    );
    const pushes: { status: number | string; ms: number }[] = [];
    const photos: number[] = [];
    let mostOpen = 0;
    try {
      // The flood is under way before the first push.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const until = Date.now() + 28_000;
      for (let i = 0; Date.now() < until; i++) {
        mostOpen = Math.max(mostOpen, t.receiver.openConnections());
        pushes.push(await push(t.receiver.localUrl, message(`during-the-flood-${i}`)));
        // Su fetching a photo is served all the same.
        const fetched = await fetch(photo);
        photos.push((await fetched.text()) === 'photo' ? fetched.status : 0);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    } finally {
      unknown.stop();
      noCredentials.stop();
    }
    // Every push was acknowledged, each within a second, and stored.
    expect(pushes.length).toBeGreaterThanOrEqual(12);
    expect(pushes.filter((p) => p.status !== 200)).toEqual([]);
    expect(pushes.filter((p) => p.ms >= 1_000)).toEqual([]);
    expect(t.count('messages')).toBe(pushes.length);
    expect(photos.filter((status) => status !== 200)).toEqual([]);
    // The flood's requests were answered at their headers (404; 401, then 429 once its failed logins were too many)
    // and their connections closed by the listener: none held a place while trickling its body.
    expect([...unknown.stats.answers.keys()]).toEqual(['404']);
    expect(new Set(noCredentials.stats.answers.keys())).toEqual(new Set(['401', '429']));
    expect(unknown.stats.connections).toBeGreaterThan(3_000);
    expect(noCredentials.stats.connections).toBeGreaterThan(3_000);
    expect(mostOpen).toBeLessThanOrEqual(256);
    expect(t.count('push_log')).toBe(pushes.length);
  }, 60_000);
});

describe('answered at the headers, the body never read', () => {
  /** Headers announcing a 100,000-byte body, then nothing: what the listener answers, and that it closed. */
  async function headersOnly(head: string) {
    const c = rawConnection(t!.receiver.port, sockets);
    c.socket.write(`${head}Host: x\r\nContent-Length: 100000\r\n\r\n`);
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
      5_000,
    );
    return c.state;
  }

  it('an unknown path (with or without credentials), a body on a photo address, an unknown compression', async () => {
    t = await startPushTarget({ publicRoutes: photoAddress });
    const unknown = await headersOnly('POST /nope HTTP/1.1\r\n');
    expect(unknown).toMatchObject({ closed: true, answer: expect.stringMatching(/^HTTP\/1\.1 404/) });
    expect(unknown.answer.toLowerCase()).toContain('connection: close');
    const unknownWithCredentials = await headersOnly(`PUT /push HTTP/1.1\r\nAuthorization: ${auth}\r\n`);
    expect(unknownWithCredentials.answer).toMatch(/^HTTP\/1\.1 404/);
    const bodyOnPhoto = await headersOnly('GET /media/known HTTP/1.1\r\n');
    expect(bodyOnPhoto.answer).toMatch(/^HTTP\/1\.1 400/);
    expect(bodyOnPhoto.answer).toContain('A photo address takes no body.');
    const chunkedOnPhoto = rawConnection(t.receiver.port, sockets);
    chunkedOnPhoto.socket.write('HEAD /media/known HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    await eventually(
      async () => chunkedOnPhoto.state.closed,
      (closed) => closed,
      5_000,
    );
    expect(chunkedOnPhoto.state.answer).toMatch(/^HTTP\/1\.1 400/);
    const brotli = await headersOnly(`POST /push HTTP/1.1\r\nAuthorization: ${auth}\r\nContent-Encoding: br\r\n`);
    expect(brotli.answer).toMatch(/^HTTP\/1\.1 415/);
    expect(brotli.answer.toLowerCase()).toContain('accept-encoding: gzip, deflate');
    const noCredentials = await headersOnly('POST /push HTTP/1.1\r\n');
    expect(noCredentials.answer).toMatch(/^HTTP\/1\.1 401/);
    // The photo address itself still answers, and nothing was filed.
    expect(await (await fetch(t.receiver.localUrl.replace('/push', '/media/known'))).text()).toBe('photo');
    expect(t.count('push_log')).toBe(0);
  });

  it('a delivery on its way is never closed to make room; connections not yet authenticated are', async () => {
    t = await startPushTarget({ limits: { maxConnections: 20, maxConnectionsPerAddress: 10 } });
    const body = message('kept-through-the-crowd');
    const delivery = rawConnection(t.receiver.port, sockets);
    delivery.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    // Its headers are in (it is being served) before the crowd comes.
    await eventually(
      async () => t!.receiver.openConnections(),
      (n) => n === 1,
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const crowd = Array.from({ length: 40 }, (_, i) => {
      const c = rawConnection(t!.receiver.port, sockets);
      if (i % 2) c.socket.write('POST /push HTTP/1.1\r\nHost: x\r\n');
      return c;
    });
    await eventually(
      async () => crowd.filter((c) => c.state.closed).length,
      (n) => n >= 31,
      5_000,
    );
    expect(delivery.state.closed).toBe(false);
    expect(t.receiver.openConnections()).toBeLessThanOrEqual(10);
    delivery.socket.write(body.slice(20));
    await eventually(
      async () => delivery.state.answer,
      (answer) => answer.includes('Success'),
      5_000,
    );
    expect(delivery.state.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(t.count('messages')).toBe(1);
  });
});
