import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost } from '../../src/main/hosts/web/webHost';
import { clientAddress } from '../../src/receiving/listenerGuard';
import { GUARD_COMPONENT, startListener } from '../../src/main/intake/listener';
import { downSpansOf } from '../../src/main/db/uptime';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { createFakeTunnelProvider } from '../support/fakeTunnel';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { PUSH_USER, startPushTarget } from '../support/pushTarget';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

const message = (id: string) => JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const wrong = (i: number) => ({ authorization: basic(PUSH_USER, `guess-${i}`) });

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('a flood through the tunnel never keeps a real push out', () => {
  it('620 unauthenticated requests from forwarded addresses, then Su’s push is acknowledged and stored', async () => {
    // Each flood request claims its own address in a test header; the fake tunnel reports it as the client.
    const fake = createFakeTunnelProvider({
      clientOf: (req) => String(req.headers['x-test-client'] ?? '198.51.100.1'),
    });
    const ctx = await startTestCore({ tunnelProvider: fake.provider });
    cleanup.push(() => ctx.stop());
    const { call } = contractClient(() => ctx.core.dispatcher);
    const password = 'flood-test-password-123';
    const status = await call('intake.save', {
      port: 40000, // the test core's INNKEEPER_PUSH_PORT=0 wins: a free port
      username: 'su-partner',
      password,
      publicUrl: '',
      tunnel: { enabled: true, authtoken: '2abcdefghijklmnopqrstuvwxyz_0123456789', domain: '' },
    });
    const url = status.registerUrl!;
    expect(status.tunnel.state).toBe('up');

    const answers: number[] = [];
    for (let batch = 0; batch < 31; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const n = batch * 20 + i;
          const response = await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-test-client': `198.51.100.${n % 61}`,
              ...(n % 2 ? wrong(n) : {}),
            },
            body: message(`flood-${n}`),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      answers.push(...statuses);
    }
    expect(answers).toHaveLength(620);
    expect(new Set(answers)).toEqual(new Set([401, 429]));

    // Su's real push, from one of the flooding addresses even: valid credentials are always served.
    const real = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-test-client': '198.51.100.3',
        authorization: basic('su-partner', password),
      },
      body: message('the-real-one'),
    });
    expect(real.status).toBe(200);
    const stored = ctx.core.db.db.prepare(
      "SELECT count(*) AS n FROM messages WHERE provider_message_id = 'the-real-one'",
    );
    expect((stored.get() as { n: number }).n).toBe(1);
    expect((await call('inbox.threads')).total).toBe(1);
    // The flood's pushes were never stored.
    expect((ctx.core.db.db.prepare('SELECT count(*) AS n FROM push_log').get() as { n: number }).n).toBe(1);
    // The period is in the uptime log as refused failed logins (the flood: all together failed too often).
    expect(downSpansOf(ctx.core.db, GUARD_COMPONENT)).toEqual([
      { component: GUARD_COMPONENT, from: expect.any(Number), to: null, reason: 'refusing failed logins (flood)' },
    ]);
    // The owner's status shows it beside the listener's downtime.
    expect((await call('intake.status')).downtime.filter((d) => d.component === GUARD_COMPONENT)).toEqual([
      { component: GUARD_COMPONENT, from: expect.any(Number), to: null, reason: 'refusing failed logins (flood)' },
    ]);
  }, 90_000); // 620 requests through a forwarder on a shared machine
});

/** A listener with a forwarder in front (the owner's reverse proxy), whose X-Forwarded-For is believed. */
const behindProxy = { forwarded: () => true };

describe('only failed logins are throttled, per client', () => {
  it('one forwarded client gets 429 while another still gets 401, and valid credentials 200 from both', async () => {
    const t = await startPushTarget({ ...behindProxy, limits: { failedPerClient: 3, failedTotal: 100 } });
    cleanup.push(() => t.stop());
    const from = (client: string) => ({ 'x-forwarded-for': client });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await t.post(message('x'), { ...wrong(i), ...from('203.0.113.5') })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);

    const other = await t.post(message('x'), { ...wrong(9), ...from('203.0.113.6') });
    expect(other.status).toBe(401);
    expect((await t.post(message('m-5'), from('203.0.113.5'))).status).toBe(200);
    expect((await t.post(message('m-6'), from('203.0.113.6'))).status).toBe(200);
    expect(t.count('messages')).toBe(2);
    expect(downSpansOf(t.database, GUARD_COMPONENT).map((s) => s.reason)).toEqual([
      'refusing failed logins from 203.0.113.5',
    ]);
  });

  it('a client cannot dodge its limit with an X-Forwarded-For of its own: the forwarder’s last entry counts', async () => {
    const t = await startPushTarget({ ...behindProxy, limits: { failedPerClient: 2, failedTotal: 100 } });
    cleanup.push(() => t.stop());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // What a client sends through a tunnel: its claims first, then the address the tunnel appended.
      statuses.push(
        (await t.post(message('x'), { ...wrong(i), 'x-forwarded-for': `10.0.0.${i}, 203.0.113.8` })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
  });

  it('the header is believed only while a forwarder is in front, on loopback; otherwise the socket address', () => {
    expect(clientAddress('127.0.0.1', '10.1.1.1, 203.0.113.9', true)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', ['203.0.113.1', '203.0.113.2'], true)).toBe('203.0.113.2');
    expect(clientAddress('192.168.1.20', '203.0.113.9', true)).toBe('192.168.1.20');
    expect(clientAddress('127.0.0.1', 'not-an-address', true)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', undefined, true)).toBe('127.0.0.1');
    // No tunnel and no public address: whatever the header says, the connection's own address counts.
    expect(clientAddress('127.0.0.1', '203.0.113.9', false)).toBe('127.0.0.1');
  });

  it('a global cap on 401s: failures from many addresses are refused together, valid pushes still served', async () => {
    let clock = 1_000_000;
    const t = await startPushTarget({
      ...behindProxy,
      now: () => clock,
      limits: { failedPerClient: 50, failedTotal: 10, windowMs: 60_000 },
    });
    cleanup.push(() => t.stop());
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      statuses.push((await t.post(message('x'), { ...wrong(i), 'x-forwarded-for': `198.51.100.${i}` })).status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
    const refused = await t.post(message('x'), { ...wrong(99), 'x-forwarded-for': '198.51.100.200' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.post(message('during'))).status).toBe(200);

    // The window ends: the period is closed in the log, and a failed login is a plain 401 again.
    clock += 60_000;
    expect((await t.post(message('x'), { ...wrong(100), 'x-forwarded-for': '198.51.100.201' })).status).toBe(401);
    expect(downSpansOf(t.database, GUARD_COMPONENT)).toEqual([
      { component: GUARD_COMPONENT, from: 1_000_000, to: 1_060_000, reason: 'refusing failed logins (flood)' },
    ]);
    expect(t.count('messages')).toBe(1);
  });

  it('a refusal period ends with its window even when no request comes; one left open by a crash is closed', async () => {
    const t = await startPushTarget({ limits: { failedPerClient: 1, windowMs: 200 } });
    cleanup.push(() => t.stop());
    await t.post(message('x'), wrong(1));
    expect((await t.post(message('x'), wrong(2))).status).toBe(429);
    const spans = await eventually(
      async () => downSpansOf(t.database, GUARD_COMPONENT),
      (s) => s.length === 1 && s[0]!.to !== null,
    );
    expect(spans).toEqual([
      {
        component: GUARD_COMPONENT,
        from: expect.any(Number),
        to: expect.any(Number),
        reason: 'refusing failed logins from 127.0.0.1',
      },
    ]);

    // A run that died while refusing leaves an open 'down'; the next start closes it.
    t.database.db
      .prepare(
        "INSERT INTO uptime_log (component, state, at, detail) VALUES (?, 'down', 5, 'refusing failed logins (flood)')",
      )
      .run(GUARD_COMPONENT);
    await t.receiver.close();
    const again = await startListener({ database: t.database, filers: INBOX_FILERS, port: 0, credentials: () => [] });
    cleanup.push(() => again.close());
    expect(downSpansOf(t.database, GUARD_COMPONENT).every((s) => s.to !== null)).toBe(true);
  });

  it('only 401s count: 404s on a public route or an unknown path never get a client refused', async () => {
    const t = await startPushTarget({
      ...behindProxy,
      limits: { failedPerClient: 3 },
      publicRoutes: (app) =>
        app.get('/media/:token', { config: { public: true } }, async (request, reply) =>
          (request.params as { token: string }).token === 'known' ? 'photo' : reply.code(404).send('not found'),
        ),
    });
    cleanup.push(() => t.stop());
    const base = t.receiver.localUrl.replace('/push', '');
    const from = { 'x-forwarded-for': '203.0.113.66' };
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await fetch(`${base}/admin-${i}`, { headers: from })).status);
    for (let i = 0; i < 10; i++) answers.push((await fetch(`${base}/media/stale-${i}`, { headers: from })).status);
    expect(answers).toEqual(Array(20).fill(404));
    expect((await fetch(`${base}/media/known`, { headers: from })).status).toBe(200);
    // Its failed logins are counted from zero: three 401s, then 429.
    const logins: number[] = [];
    for (let i = 0; i < 4; i++) logins.push((await t.post(message('x'), { ...wrong(i), ...from })).status);
    expect(logins).toEqual([401, 401, 401, 429]);
    // A client refused for its failed logins still gets the photos.
    expect((await fetch(`${base}/media/known`, { headers: from })).status).toBe(200);
  });
});

describe('the event socket of the web host', () => {
  it('a duplicated ?token= is a clean refusal, never a 500', async () => {
    const ctx = await startTestCore();
    cleanup.push(() => ctx.stop());
    const rendererDir = join(ctx.dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Innkeeper</title>');
    const token = 'test-session-token-0123456789';
    const web = await startWebHost({ core: ctx.core, rendererDir, port: 0, token });
    cleanup.push(() => web.close());
    const base = `http://127.0.0.1:${web.port}`;
    const upgrade = (query: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?${query}`, { origin: base });
        socket.on('error', () => undefined);
        socket.on('open', () => reject(new Error(`opened with ${query}`)));
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      });
    expect(await upgrade('token=a&token=b')).toBe(401);
    expect(await upgrade(`token=${token}&token=${token}`)).toBe(401);
    expect(await upgrade(`token=${token}&token=nope`)).toBe(401);
    // The single right token still opens it.
    const open = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?token=${token}`, { origin: base });
    await new Promise<void>((resolve, reject) => {
      open.on('open', () => resolve());
      open.on('error', reject);
    });
    open.close();
  });
});
