import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { rawConnection, slowFlood } from '../support/rawClients';
import { fixtureText } from '../support/fixtures';
import { basic, startTestMailbox, type TestDevice } from '../support/mailboxHarness';

// The mailbox's listener is the desktop's (src/receiving/receiver.ts): the same flood, slow-client and body-size
// probes as test/integration/listenerHardening*.test.ts and listenerSlowBodies.test.ts, here against the mailbox's
// own routes too (pairing, device calls with a bearer token, the stream), over real loopback sockets.

const message = (id: string) => JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id });

let cleanups: (() => Promise<void> | void)[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

async function pairedMailbox(options: Parameters<typeof startTestMailbox>[0] = {}) {
  const t = await startTestMailbox(options);
  cleanups.push(() => t.stop());
  const laptop: TestDevice = (await t.pair(t.mailbox.pairingCode!, 'Laptop')).device;
  return { t, laptop, auth: basic(laptop.pushUser, laptop.pushPassword), port: t.mailbox.port };
}

/** Su's push on a connection of its own: its status (or the socket error) and how long it took. */
function timedPush(url: string, auth: string, body: string) {
  const started = performance.now();
  return new Promise<{ status: number | string; ms: number }>((resolve) => {
    const request = httpRequest(`${url}/push`, {
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

const deliveries = (t: Awaited<ReturnType<typeof startTestMailbox>>) =>
  (t.mailbox.store.db.prepare('SELECT count(*) AS n FROM deliveries').get() as { n: number }).n;

describe('a flood never keeps a real push out', () => {
  it('wrong Basic credentials, wrong device tokens and pairing guesses: refused, then 429; Su and the device still served', async () => {
    const { t, laptop } = await pairedMailbox({ limits: { failedPerClient: 10, failedTotal: 1_000 } });
    const answers: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const n = batch * 20 + i;
          if (n % 3 === 2) return (await t.pair(`AAAA-BBBB-${String(n).padStart(4, '0')}`)).status;
          const response =
            n % 3 === 0
              ? await t.push(message(`flood-${n}`), { authorization: basic(laptop.pushUser, `guess-${n}`) })
              : await fetch(`${t.url}/mailbox/deliveries`, {
                  headers: { authorization: `Bearer guess${n}xxxxxxxxxxxxxxxx` },
                });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      answers.push(...statuses);
    }
    expect(answers).toHaveLength(200);
    // 401 (a wrong credential), 410 (no pairing code waiting: the one printed was used), then 429 for everything.
    expect(new Set(answers)).toEqual(new Set([401, 410, 429]));
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(150);
    // Valid credentials are always served, from the same address.
    expect((await t.push(message('the-real-one'), laptop)).status).toBe(200);
    expect((await t.device(laptop.token).deliveries()).status).toBe(200);
    expect(deliveries(t)).toBe(1);
  }, 60_000);

  it('600 idle or half-sent connections: a real push is acknowledged, and an open stream is never closed to make room', async () => {
    const { t, laptop, auth, port } = await pairedMailbox({
      limits: { maxConnections: 100, maxConnectionsPerAddress: 100 },
    });
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const stream = await fetch(`${t.url}/mailbox/stream`, {
      headers: { authorization: `Bearer ${laptop.token}` },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const held = Array.from({ length: 600 }, (_, i) => {
      const c = rawConnection(port, sockets);
      if (i % 3 === 0) c.socket.write('POST /push HTTP/1.1\r\nHost: x\r\n');
      return c;
    });
    await eventually(
      async () => held.filter((c) => c.state.connected || c.state.closed).length,
      (n) => n === 600,
    );
    expect((await timedPush(t.url, auth, message('after-the-siege'))).status).toBe(200);
    expect(t.mailbox.receiver.openConnections()).toBeLessThanOrEqual(100);
    expect(held.filter((c) => c.state.closed).length).toBeGreaterThanOrEqual(500);
    // The stream is still there and gets the push.
    const reader = stream.body!.getReader();
    let text = '';
    const until = Date.now() + 5_000;
    while (!text.includes('event: delivery') && Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: delivery');
    expect(t.mailbox.openStreams()).toBe(1);
  });
});

describe('slow clients', () => {
  it('slow bodies to an unknown path, to /push and to a device call without credentials, held 10 s: every push acknowledged within 1 s', async () => {
    const { t, auth, port } = await pairedMailbox();
    const floods = [
      slowFlood(port, 'POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n', 100, sockets),
      slowFlood(
        port,
        'POST /push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
        100,
        sockets,
      ),
      slowFlood(port, 'POST /mailbox/confirm HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n', 100, sockets),
    ];
    const pushes: { status: number | string; ms: number }[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const until = Date.now() + 10_000;
      for (let i = 0; Date.now() < until; i++) {
        pushes.push(await timedPush(t.url, auth, message(`during-the-flood-${i}`)));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    } finally {
      for (const flood of floods) flood.stop();
    }
    expect(pushes.length).toBeGreaterThanOrEqual(5);
    expect(pushes.filter((p) => p.status !== 200)).toEqual([]);
    expect(pushes.filter((p) => p.ms >= 1_000)).toEqual([]);
    expect(deliveries(t)).toBe(pushes.length);
    // Each was answered at its headers and closed, never left trickling.
    expect([...floods[0]!.stats.answers.keys()]).toEqual(['404']);
    // Both count as failed logins, together: 401 until the address failed too often, then 429.
    const refusals = new Set([...floods[1]!.stats.answers.keys(), ...floods[2]!.stats.answers.keys()]);
    expect(refusals).toEqual(new Set(['401', '429']));
    expect(floods[2]!.stats.answers.get('429')).toBeGreaterThan(0);
    for (const flood of floods) expect(flood.stats.connections).toBeGreaterThan(400);
  }, 40_000);

  it('headers never finished: 408 and closed; a slow authenticated body is cut at the read deadline, nothing stored', async () => {
    const { t, auth, port } = await pairedMailbox({
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 },
    });
    const half = rawConnection(port, sockets);
    half.socket.write(`POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n`);
    await eventually(
      async () => half.state.closed,
      (closed) => closed,
      5_000,
    );
    expect(half.state.answer).toMatch(/^HTTP\/1\.1 408/);

    const slow = rawConnection(port, sockets);
    const body = message('slow');
    slow.socket.write(
      `POST /push HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const trickle = setInterval(() => {
      if (slow.state.closed || sent >= body.length - 1) return;
      slow.socket.write(body[sent]!);
      sent += 1;
    }, 20);
    try {
      await eventually(
        async () => slow.state.closed,
        (closed) => closed,
        5_000,
      );
    } finally {
      clearInterval(trickle);
    }
    expect(slow.state.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length - 1);
    expect(deliveries(t)).toBe(0);
  });
});

describe('body sizes', () => {
  it('a huge unauthenticated body: 401 and closed long before its end; over the limit with credentials: 413', async () => {
    const { t, auth, port } = await pairedMailbox({ bodyLimit: 64 * 1024 });
    const huge = rawConnection(port, sockets);
    huge.socket.write(
      'POST /push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 524288000\r\n\r\n',
    );
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    while (!huge.state.closed && sent < 500 * 1024 * 1024) {
      if (!huge.socket.write(chunk))
        await new Promise((resolve) => huge.socket.once('drain', resolve).once('close', resolve));
      sent += chunk.length;
    }
    expect(huge.state.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(sent).toBeLessThan(100 * 1024 * 1024);

    const over = await fetch(`${t.url}/push`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(70 * 1024) }),
    });
    expect(over.status).toBe(413);
    // A small gzip body that would unpack past the limit (a decompression bomb): 413, nothing stored.
    const bomb = await fetch(`${t.url}/push`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)),
    });
    expect(bomb.status).toBe(413);
    // The mailbox's own calls take small bodies only.
    const bigPairing = await fetch(`${t.url}/mailbox/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x', name: 'y'.repeat(20_000) }),
    });
    expect(bigPairing.status).toBe(413);
    expect(deliveries(t)).toBe(0);
    expect((await t.push(message('still-fine'), { authorization: auth })).status).toBe(200);
  });
});
