import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { PUSH_PASSWORD, PUSH_USER, startPushTarget } from '../support/pushTarget';

/** Exhaustion and draining: connections held open, slow bodies and huge unwanted bodies against the listener. */

const auth = `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`;
const message = (id: string) => JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id });

let t: Awaited<ReturnType<typeof startPushTarget>> | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await t?.stop();
  t = null;
});

/** A raw connection to the listener that records what it is answered and whether the server closed it. */
function rawConnection(port: number, localAddress = '127.0.0.1') {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  const state = { answer: '', closed: false, connected: false };
  socket.on('connect', () => (state.connected = true));
  socket.on('data', (chunk) => (state.answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  return { socket, state };
}

describe('thousands of idle or slow connections cannot keep a real push out', () => {
  it('600 connections that send nothing or half their headers, then a real push is acknowledged and stored', async () => {
    t = await startPushTarget({ limits: { maxConnections: 100, maxConnectionsPerAddress: 100 } });
    const held = Array.from({ length: 600 }, (_, i) => {
      const c = rawConnection(t!.receiver.port);
      if (i % 3 === 0) c.socket.write('POST /push HTTP/1.1\r\nHost: x\r\n');
      return c;
    });
    await eventually(
      async () => held.filter((c) => c.state.connected || c.state.closed).length,
      (n) => n === 600,
    );

    const response = await t.post(message('after-the-siege'));
    expect(response.status).toBe(200);
    expect(t.count('messages')).toBe(1);
    // The listener holds no more than its cap: the oldest idle connections were closed to make room.
    expect(t.receiver.openConnections()).toBeLessThanOrEqual(100);
    expect(held.filter((c) => c.state.closed).length).toBeGreaterThanOrEqual(500);
  });

  it('one address at its cap closes its own oldest idle connections, not another address’s', async () => {
    t = await startPushTarget({ limits: { maxConnections: 100, maxConnectionsPerAddress: 5 } });
    const port = t.receiver.port;
    const others = Array.from({ length: 3 }, () => rawConnection(port, '127.0.0.1'));
    await eventually(
      async () => others.every((c) => c.state.connected),
      (ok) => ok,
    );
    const crowd = Array.from({ length: 12 }, () => rawConnection(port, '127.0.0.2'));
    await eventually(
      async () => crowd.filter((c) => c.state.closed).length,
      (n) => n === 7,
    );
    expect(crowd.slice(0, 7).every((c) => c.state.closed)).toBe(true);
    expect(others.some((c) => c.state.closed)).toBe(false);
    expect(t.receiver.openConnections()).toBe(8);
  });
});

describe('timeouts that really apply', () => {
  it('a connection that never finishes its headers is answered 408 and closed by the server', async () => {
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 } });
    const c = rawConnection(t.receiver.port);
    c.socket.write(`POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n`);
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
    );
    expect(c.state.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a slow body is cut at the read deadline and nothing is stored', async () => {
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 } });
    const c = rawConnection(t.receiver.port);
    const body = message('slow');
    c.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    // One byte at a time, far slower than the deadline allows; it stops once the server has closed.
    const trickle = setInterval(() => {
      if (c.state.closed || sent >= body.length - 1) return;
      c.socket.write(body[sent]!);
      sent += 1;
    }, 20);
    try {
      await eventually(
        async () => c.state.closed,
        (closed) => closed,
      );
    } finally {
      clearInterval(trickle);
    }
    expect(c.state.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length - 1);
    expect(t.count('push_log')).toBe(0);
  });
});

describe('the connection is closed after a refusal, the rest of the body unread', () => {
  /** Sends headers announcing 500 MiB and then writes the body as fast as the server takes it, until it closes. */
  async function hugeBody(port: number, headers: string) {
    const c = rawConnection(port);
    const announced = 500 * 1024 * 1024;
    c.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let accepted = 0;
    await new Promise<void>((resolve) => {
      const pump = () => {
        while (!c.state.closed && !c.socket.destroyed && accepted < announced) {
          accepted += chunk.length;
          if (!c.socket.write(chunk)) return void c.socket.once('drain', pump);
        }
        resolve();
      };
      c.socket.once('close', () => resolve());
      pump();
    });
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
    );
    return { answer: c.state.answer, accepted, announced };
  }

  it('a 500 MiB unauthenticated body: 401, Connection: close, and the socket closed long before the end', async () => {
    t = await startPushTarget();
    const { answer, accepted, announced } = await hugeBody(t.receiver.port, 'Authorization: Basic eDp5\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(accepted).toBeLessThan(announced / 20);
    expect(t.count('push_log')).toBe(0);
  });

  it('an authenticated body over the limit: 413 and closed, not read to the end', async () => {
    t = await startPushTarget();
    const { answer, accepted, announced } = await hugeBody(t.receiver.port, `Authorization: ${auth}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(accepted).toBeLessThan(announced / 20);
  });

  it('a 429 also closes the connection', async () => {
    t = await startPushTarget({ limits: { failedPerClient: 1 } });
    const wrong = { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` };
    expect((await t.post(message('x'), wrong)).status).toBe(401);
    const c = rawConnection(t.receiver.port);
    const body = message('x');
    c.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${wrong.authorization}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
    );
    expect(c.state.answer).toMatch(/^HTTP\/1\.1 429/);
    expect(c.state.answer.toLowerCase()).toContain('connection: close');
  });
});
