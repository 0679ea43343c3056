import { createHook } from 'node:async_hooks';
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

/**
 * Writes `text` one character every `everyMs` until the server closes the connection (or all of it was written);
 * answers how many characters were written.
 */
async function trickleUntilClosed(c: ReturnType<typeof rawConnection>, text: string, everyMs: number) {
  let sent = 0;
  const trickle = setInterval(() => {
    if (c.state.closed || sent >= text.length) return;
    c.socket.write(text[sent]!);
    sent += 1;
  }, everyMs);
  try {
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
    );
  } finally {
    clearInterval(trickle);
  }
  return sent;
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
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = rawConnection(t.receiver.port);
    c.socket.write(`POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n`);
    await eventually(
      async () => c.state.closed,
      (closed) => closed,
    );
    expect(c.state.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a slow body is cut at the read deadline and nothing is stored', async () => {
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = rawConnection(t.receiver.port);
    const body = message('slow');
    c.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // One byte at a time, far slower than the deadline allows (never the last one).
    const sent = await trickleUntilClosed(c, body.slice(0, -1), 20);
    expect(c.state.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length - 1);
    expect(t.count('push_log')).toBe(0);
  });
});

describe('deadlines kept per connection, not by a check that runs all day', () => {
  const pushRequest = (id: string) => {
    const body = message(id);
    return `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it('a later request on a kept-alive connection that trickles its headers is answered 408, not before its time', async () => {
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = rawConnection(t.receiver.port);
    c.socket.write(pushRequest('first'));
    await eventually(
      async () => c.state.answer,
      (answer) => /^HTTP\/1\.1 200[\s\S]*\r\n\r\n\{/.test(answer),
    );
    expect(t.count('messages')).toBe(1);
    // Kept alive and idle for a while (idle between requests is not counted), then a second request whose headers
    // come one byte every 40 ms: each byte is activity, so only the header deadline can end it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(c.state.closed).toBe(false);
    const answered = c.state.answer.length;
    const head = `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n`;
    const started = Date.now();
    const sent = await trickleUntilClosed(c, head, 40);
    const lasted = Date.now() - started;
    expect(c.state.answer.slice(answered)).toMatch(/^HTTP\/1\.1 408/);
    // Its headers had their full time from when their first bytes were seen, and at most twice that.
    expect(lasted).toBeGreaterThanOrEqual(300);
    expect(sent).toBeLessThan(head.length);
    expect(t.count('messages')).toBe(1);
  });

  it('requests sent one after another on a kept-alive connection are each served; none is cut by an earlier deadline', async () => {
    t = await startPushTarget({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = rawConnection(t.receiver.port);
    // Five pushes 250 ms apart: the connection lives past several header and request deadlines.
    for (let i = 0; i < 5; i += 1) {
      c.socket.write(pushRequest(`kept-${i}`));
      await eventually(
        async () => (c.state.answer.match(/HTTP\/1\.1 200/g) ?? []).length,
        (n) => n === i + 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(c.state.closed).toBe(false);
    expect(c.state.answer).not.toMatch(/408/);
    expect(t.count('messages')).toBe(5);
  });

  /** Whether the timer being created is the test's own (its polling), not the listener's: below this hook's frame. */
  const createdByTheTest = () => new Error().stack!.split('\n').slice(3).join('\n').includes('/test/');

  it('a listener with no connection open sets no timer that keeps firing', async () => {
    // Every timer created while the listener starts and serves one push on a connection that then closes: once the
    // answer's own one-shot timers ran out, none may fire (Node's own deadline check, which the guard replaces, fired
    // every second for as long as the listener was up).
    const created = new Set<number>();
    let recording = true;
    let firedAfter = 0;
    let idle = false;
    const hook = createHook({
      init(id, type) {
        // The test's own (its polling) are not the listener's.
        if (recording && type === 'Timeout' && !createdByTheTest()) created.add(id);
      },
      before(id) {
        if (idle && created.has(id)) firedAfter += 1;
      },
    }).enable();
    try {
      t = await startPushTarget();
      const c = rawConnection(t.receiver.port);
      c.socket.write(pushRequest('then-idle').replace('Host: x\r\n', 'Host: x\r\nConnection: close\r\n'));
      await eventually(
        async () => c.state.closed,
        (closed) => closed,
      );
      expect(c.state.answer).toMatch(/^HTTP\/1\.1 200/);
      recording = false;
      // One-shot timers of the answer (Node's cache of the Date header lasts 1 s) run out first; then nothing may fire.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      idle = true;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    } finally {
      hook.disable();
    }
    expect(t.receiver.openConnections()).toBe(0);
    expect(firedAfter).toBe(0);
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
