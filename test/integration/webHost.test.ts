import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type RunningWebHost } from '../../src/main/hosts/web/webHost';
import { startTestCore } from '../support/core';

const TOKEN = 'test-session-token-0123456789';

describe('browser-mode web host over real loopback HTTP', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  let web: RunningWebHost;
  let base: string;

  beforeEach(async () => {
    ctx = await startTestCore();
    const rendererDir = join(ctx.dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Innkeeper</title>');
    web = await startWebHost({ core: ctx.core, rendererDir, port: 0, token: TOKEN });
    base = `http://127.0.0.1:${web.port}`;
  });
  afterEach(async () => {
    await web.close();
    await ctx.stop();
  });

  const call = (
    method: string,
    body: unknown,
    headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
  ) =>
    fetch(`${base}/api/call/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('prints a loopback URL carrying the session token', () => {
    expect(web.url).toBe(`${base}/?session=${TOKEN}`);
  });

  it('serves the renderer with a strict CSP and no CORS headers', async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a call with the token as {ok, value}', async () => {
    const response = await call('app.info', {});
    expect(await response.json()).toMatchObject({ ok: true, value: { host: 'browser' } });
  });

  it('refuses calls without the token or with a wrong one', async () => {
    expect((await call('connection.get', {}, {})).status).toBe(401);
    expect((await call('connection.get', {}, { Authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('refuses calls and the socket on any spelling of the API path without the token', async () => {
    for (const path of ['/%61pi/call/connection.get', '/api/%63all/connection.get', '//api/call/connection.get']) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect([401, 404]).toContain(response.status);
      expect(await response.text()).not.toContain('profiles');
    }
    const socket = new WebSocket(`ws://127.0.0.1:${web.port}/%61pi/events`, { origin: base });
    socket.on('error', () => undefined);
    const code = await new Promise((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode)),
    );
    expect(code).toBe(401);
  });

  it('closes the event socket for a null or foreign Origin', async () => {
    for (const origin of ['null', 'https://evil.example']) {
      const socket = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?token=${TOKEN}`, { origin });
      const closed = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
      expect(closed).toBe(1008);
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    // fetch() cannot set Host, so this goes through node:http, as a rebinding page's request would arrive.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: web.port,
          path: '/api/call/connection.get',
          method: 'POST',
          headers: {
            Host: `evil.example:${web.port}`,
            Authorization: `Bearer ${TOKEN}`,
            'Content-Type': 'application/json',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(421);
  });

  it('answers bad arguments with a validation error naming the field', async () => {
    const response = await call('connection.test', { environment: 'staging', domain: 'x.example' });
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'validation', field: 'environment' } });
  });

  it('pushes events over the socket only with the token and the app origin', async () => {
    const refused = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?token=wrong`, { origin: base });
    const refusedCode = await new Promise((resolve) =>
      refused.on('unexpected-response', (_req, res) => resolve(res.statusCode)),
    );
    expect(refusedCode).toBe(401);
    refused.on('error', () => undefined);

    const socket = new WebSocket(`ws://127.0.0.1:${web.port}/api/events?token=${TOKEN}`, { origin: base });
    await new Promise((resolve) => socket.on('open', resolve));
    const message = new Promise<{ event: string; payload: { active: string } }>((resolve) =>
      socket.on('message', (data) => {
        const parsed = JSON.parse(String(data)) as { event: string; payload: { active: string } };
        if (parsed.event === 'connection.changed') resolve(parsed);
      }),
    );
    await call('connection.test', { environment: 'demo', domain: 'demo.innkeeper.test' });
    expect(await message).toMatchObject({ event: 'connection.changed', payload: { active: 'demo' } });
    socket.close();
  });
});
