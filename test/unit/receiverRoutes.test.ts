import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListenerLimits } from '../../src/receiving/listenerGuard';
import { startReceiver, type ReceivedDelivery, type RunningReceiver } from '../../src/receiving/receiver';

// The routes a caller adds to the receiving side (the mailbox's device calls, its pairing, a public photo address),
// over real loopback sockets: each says who may call it, judged on the headers before any body is read. The store
// here keeps the deliveries in memory: what is under test is who is let in, not the filing (the desktop's and the
// mailbox's own tests file for real).

const GOOD = 'Bearer device-token-0123456789';
const authenticate = (request: FastifyRequest) => request.headers.authorization === GOOD;

const running: RunningReceiver[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/** A receiver on a free loopback port with the caller's routes; `handled` lists the route calls that ran. */
async function receiver(
  routes: (app: FastifyInstance, handled: string[]) => void,
  limits: Partial<ListenerLimits> = {},
) {
  const handled: string[] = [];
  const stored: ReceivedDelivery[] = [];
  const r = await startReceiver({
    port: 0,
    authorizePush: () => null,
    commit: (batch) => {
      stored.push(...batch);
      return batch.map(() => ({ result: { httpStatus: 200 as const } }));
    },
    limits,
    routes: (app) => routes(app, handled),
  });
  running.push(r);
  return { r, handled, base: `http://127.0.0.1:${r.port}` };
}

/** Sends `head` on a raw connection (no body follows); resolves with all it was answered once the server closed it. */
function rawAnswer(port: number, head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    sockets.add(socket);
    let answer = '';
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      resolve(answer);
    });
  });
}

const call = (url: string, init: RequestInit = {}) =>
  fetch(url, init).then(async (response) => ({ status: response.status, text: await response.text() }));

/** A device call taking a body, with its own check. */
const deviceRoute = (app: FastifyInstance, handled: string[]) =>
  app.post('/device/confirm', { config: { authenticate } }, async (request) => {
    handled.push('confirm');
    return { bytes: (request.body as Buffer).length };
  });

describe('a route with its own check', () => {
  it('refuses a wrong credential on the headers: 401, the body never read, the connection closed, the route not run', async () => {
    const { r, handled } = await receiver(deviceRoute);
    // 100,000 bytes announced and none sent: the answer comes all the same, so it was given before any body.
    const answer = await rawAnswer(
      r.port,
      'POST /device/confirm HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-token-0123456789\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/^www-authenticate: Bearer realm="Innkeeper"\r$/im);
    expect(answer).toMatch(/^connection: close\r$/im);
    expect(answer).toContain('"error":"unauthorized"');
    expect(handled).toEqual([]);
  });

  it('serves the right credential, body and all', async () => {
    const { base, handled } = await receiver(deviceRoute);
    const body = JSON.stringify({ upTo: 12 });
    const served = await call(`${base}/device/confirm`, {
      method: 'POST',
      headers: { authorization: GOOD, 'content-type': 'application/json' },
      body,
    });
    expect(served).toEqual({ status: 200, text: JSON.stringify({ bytes: body.length }) });
    expect(handled).toEqual(['confirm']);
  });

  it('counts each refusal as a failed login: 429 once one address failed too often, the right credential still served', async () => {
    const { base, handled } = await receiver(deviceRoute, { failedPerClient: 3 });
    const wrong = () =>
      call(`${base}/device/confirm`, { method: 'POST', headers: { authorization: 'Bearer nope-0123456789abcdef' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const served = await call(`${base}/device/confirm`, {
      method: 'POST',
      headers: { authorization: GOOD },
      body: 'x',
    });
    expect(served.status).toBe(200);
    expect(handled).toEqual(['confirm']);
  });

  it('a check that fails (its store) is answered 503 with Retry-After, the route not run', async () => {
    const { base, handled } = await receiver((app, handled) =>
      app.get(
        '/device/health',
        {
          config: {
            authenticate: () => {
              throw new Error('disk I/O error');
            },
          },
        },
        async () => {
          handled.push('health');
          return {};
        },
      ),
    );
    const response = await fetch(`${base}/device/health`, { headers: { authorization: GOOD } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('10');
    expect(handled).toEqual([]);
  });
});

describe('routes anyone may call', () => {
  const photo = (app: FastifyInstance, handled: string[]) =>
    app.route({
      method: ['GET', 'HEAD'],
      url: '/media/:token',
      config: { public: true },
      handler: async (request, reply) => {
        handled.push('media');
        return (request.params as { token: string }).token === 'known' ? 'photo' : reply.code(404).send('Not found');
      },
    });

  it('a public route is served without credentials; a body on it is refused before it is read', async () => {
    const { r, base, handled } = await receiver(photo);
    expect(await call(`${base}/media/known`)).toEqual({ status: 200, text: 'photo' });
    const withBody = await rawAnswer(r.port, 'GET /media/known HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
    expect(withBody).toMatch(/^HTTP\/1\.1 400 /);
    expect(handled).toEqual(['media']);
  });

  it('a throttled route is served without credentials, body and all, and answered 429 after too many calls', async () => {
    const { base, handled } = await receiver(
      (app, handled) =>
        app.post('/pair', { config: { throttled: true } }, async (request) => {
          handled.push((request.body as Buffer).toString('utf8'));
          return { ok: true };
        }),
      { failedPerClient: 2 },
    );
    const pair = (code: string) => call(`${base}/pair`, { method: 'POST', body: code });
    expect((await pair('AAAA')).status).toBe(200);
    expect((await pair('BBBB')).status).toBe(200);
    const third = await pair('CCCC');
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text)).toMatchObject({ error: 'too_many_attempts' });
    expect(handled).toEqual(['AAAA', 'BBBB']);
  });

  it('a route that does not say who may call it is refused when it is added', async () => {
    await expect(
      startReceiver({
        port: 0,
        authorizePush: () => null,
        commit: () => [],
        routes: (app) => app.get('/anyone', async () => 'open'),
      }),
    ).rejects.toThrow(/GET \/anyone: a route on the receiver declares who may call it/);
  });
});

describe('a stream (server-sent events) on a device route', () => {
  // Timeouts far shorter than the stream's pings: a connection with nothing on it for 1 s is closed, a request must
  // be whole within 1 s. Three connections at most.
  const limits: Partial<ListenerLimits> = {
    headersTimeoutMs: 500,
    requestTimeoutMs: 1_000,
    idleTimeoutMs: 1_000,
    maxConnections: 3,
    maxConnectionsPerAddress: 3,
  };
  /** `GET /stream`: a ping every 1.5 s, longer than the idle timeout. */
  const streamRoute = (stream: boolean) => (app: FastifyInstance) =>
    app.get('/stream', { config: { authenticate, stream } }, (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      reply.raw.write(': open\n\n');
      const timer = setInterval(() => reply.raw.write('event: ping\ndata: {}\n\n'), 1_500);
      reply.raw.on('close', () => clearInterval(timer));
    });

  /** Opens the stream; `pings()` counts those received so far, `closed` whether the server ended it. */
  function openStream(url: string) {
    const state = { pings: 0, closed: false };
    const request = httpRequest(url, { agent: false, headers: { authorization: GOOD } });
    const opened = new Promise<IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    request.on('error', () => (state.closed = true));
    request.end();
    void opened.then((response) => {
      response.on('data', (chunk: Buffer) => (state.pings += chunk.toString().split('event: ping').length - 1));
      response.on('close', () => (state.closed = true));
      response.on('error', () => (state.closed = true));
    });
    return { state, opened, stop: () => request.destroy() };
  }
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('outlives the request and idle timeouts, and is never closed to make room for other connections', async () => {
    const { r, base } = await receiver(streamRoute(true), limits);
    const stream = openStream(`${base}/stream`);
    expect((await stream.opened).statusCode).toBe(200);
    // Connections that send nothing fill the cap: each new one closes the oldest connection not serving, never the
    // stream's.
    for (let i = 0; i < 4; i++) {
      const idle = connect({ port: r.port, host: '127.0.0.1' });
      idle.on('error', () => undefined);
      sockets.add(idle);
      await wait(200);
    }
    await wait(4_000);
    expect(stream.state.closed).toBe(false);
    expect(stream.state.pings).toBeGreaterThanOrEqual(2);
    stream.stop();
  }, 20_000);

  it('without `stream`, the same answer is cut by the idle timeout (what `stream` is for)', async () => {
    const { base } = await receiver(streamRoute(false), limits);
    const stream = openStream(`${base}/stream`);
    expect((await stream.opened).statusCode).toBe(200);
    await wait(3_000);
    expect(stream.state.closed).toBe(true);
    expect(stream.state.pings).toBe(0);
    stream.stop();
  }, 20_000);
});
