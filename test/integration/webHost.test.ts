import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startWebHost, type RunningWebHost } from '../../src/main/hosts/web/webHost';
import { startWebHostWithSession, webSessionFile } from '../../src/main/hosts/web/webSession';
import { MAX_CALL_BYTES, SESSION_PROOF_PATH, sessionProofMessage } from '../../src/shared/contract';
import { DRAFT_MAX_LENGTH } from '../../src/shared/inbox';
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

  it("serves the renderer's files and nothing outside its folder, however the path is spelt", async () => {
    mkdirSync(join(ctx.dataDir, 'renderer', 'assets'));
    writeFileSync(join(ctx.dataDir, 'renderer', 'assets', 'screen-1a2b.js'), 'export const screen = 1;');
    writeFileSync(join(ctx.dataDir, 'secret.txt'), 'not for the browser');
    const asset = await fetch(`${base}/assets/screen-1a2b.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('export const screen = 1;');
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
    // Raw paths (fetch would tidy them): the data folder next to the renderer's is never reached.
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: web.port, path }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += String(chunk)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const answer = await raw(path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.body, path).not.toContain('not for the browser');
    }
  });

  it("lets the browser keep the renderer's hashed files without asking again, and nothing else", async () => {
    mkdirSync(join(ctx.dataDir, 'renderer', 'assets'));
    writeFileSync(join(ctx.dataDir, 'renderer', 'assets', 'InboxView-1a2b3c.js'), 'export default 1;');
    const asset = await fetch(`${base}/assets/InboxView-1a2b3c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // index.html (it names the files of the build) and a file outside assets/ (not named by its content) are never
    // kept; nor are the API's answers, a missing file or a refused call.
    writeFileSync(join(ctx.dataDir, 'renderer', 'logo.svg'), '<svg/>');
    const answers = {
      '/': await fetch(`${base}/`),
      '/index.html': await fetch(`${base}/index.html`),
      '/logo.svg': await fetch(`${base}/logo.svg`),
      '/assets/missing-1a2b.js': await fetch(`${base}/assets/missing-1a2b.js`),
      'app.info': await call('app.info', {}),
      'app.info without the token': await call('app.info', {}, {}),
    };
    for (const [what, response] of Object.entries(answers))
      expect(response.headers.get('cache-control'), what).toBe('no-store');
    expect(answers['/'].status).toBe(200);
    expect(answers['app.info'].status).toBe(200);
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

  it('proves it knows the token without one: the HMAC of the nonce and its port, and nothing else', async () => {
    const nonce = 'bm9uY2UtZnJvbS10aGUtcGFnZS0wMTIzNDU2Nzg5';
    const response = await fetch(`${base}${SESSION_PROOF_PATH}?nonce=${nonce}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const expected = createHmac('sha256', TOKEN).update(sessionProofMessage(nonce, web.port)).digest('base64url');
    expect(await response.text()).toBe(expected);
    // Another nonce, another proof; the token itself never appears.
    const other = await (await fetch(`${base}${SESSION_PROOF_PATH}?nonce=${'A'.repeat(43)}`)).text();
    expect(other).not.toBe(expected);
    expect(other).not.toContain(TOKEN);
    // Anything but one plain nonce is answered with nothing.
    for (const query of ['', '?nonce=', '?nonce=short', `?nonce=${'x'.repeat(129)}`, '?nonce=a%20b'.padEnd(40, 'c')]) {
      const refused = await fetch(`${base}${SESSION_PROOF_PATH}${query}`);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toBe('');
    }
    const post = await fetch(`${base}${SESSION_PROOF_PATH}?nonce=${nonce}`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.text()).not.toContain(expected);
  });

  it('keeps a draft of the longest length in CJK over real HTTP, and answers a call over the limit as a Result', async () => {
    await createEmulatorControl(ctx.emulator()).push({
      kind: 'message',
      channel: '19',
      hotelid: 'IK-DEMO-001',
      bookingid: '4055555555',
      threadid: '4055555555',
      message: 'Hello',
    });
    const page = (await (await call('inbox.threads', { search: '4055555555' })).json()) as {
      value: { threads: { id: number }[] };
    };
    const threadId = page.value.threads[0]!.id;
    const body = '漢字かな한글'.repeat(DRAFT_MAX_LENGTH / 6 + 1).slice(0, DRAFT_MAX_LENGTH);
    expect(body.length).toBe(DRAFT_MAX_LENGTH);
    expect(Buffer.byteLength(body)).toBeGreaterThan(262_144); // more than the old limit
    const saved = await call('inbox.saveDraft', { threadId, body });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ ok: true });
    const thread = (await (await call('inbox.thread', { id: threadId })).json()) as { value: { draft: string } };
    expect(thread.value.draft).toBe(body);

    // The longest draft of characters JSON must escape (6 bytes each) fits too.
    const escaped = await call('inbox.saveDraft', { threadId, body: '\u0001'.repeat(DRAFT_MAX_LENGTH) });
    expect(await escaped.json()).toMatchObject({ ok: true });

    const tooLarge = await call('inbox.saveDraft', { threadId, body: 'x'.repeat(MAX_CALL_BYTES + 1) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ ok: false, error: { code: 'validation' } });
    const notJson = await fetch(`${base}/api/call/app.info`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: '{',
    });
    expect(await notJson.json()).toMatchObject({ ok: false, error: { code: 'validation' } });
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

describe('browser mode keeps its port and session token per install', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  let rendererDir: string;
  const running: RunningWebHost[] = [];

  beforeEach(async () => {
    ctx = await startTestCore();
    rendererDir = join(ctx.dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Innkeeper</title>');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((web) => web.close()));
    await ctx.stop();
  });

  const start = async (port = 0) => {
    const web = await startWebHostWithSession({ core: ctx.core, rendererDir, port, dataDir: ctx.dataDir });
    running.push(web);
    return web;
  };
  const stop = async (web: RunningWebHost) => {
    running.splice(running.indexOf(web), 1);
    await web.close();
  };
  const callWith = (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/api/call/app.info`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: '{}',
    });
  const openSocket = (port: number, token: string) =>
    new Promise<'open' | number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`, {
        origin: `http://127.0.0.1:${port}`,
      });
      socket.on('error', () => undefined);
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    });

  it('writes the token and the port to an owner-only file in the data folder', async () => {
    const web = await start();
    const file = webSessionFile(ctx.dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { token: string; port: number };
    expect(kept.port).toBe(web.port);
    expect(kept.token.length).toBeGreaterThanOrEqual(43);
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?session=${kept.token}`);
  });

  it('after a restart listens on the same port with the same token, so the old session link keeps working', async () => {
    const first = await start();
    const token = new URL(first.url).searchParams.get('session')!;
    await stop(first);
    await expect(callWith(first.port, token)).rejects.toThrow();

    const second = await start();
    expect(second.port).toBe(first.port);
    expect(second.url).toBe(first.url);
    expect(await (await callWith(second.port, token)).json()).toMatchObject({ ok: true, value: { host: 'browser' } });
    expect(await openSocket(second.port, token)).toBe('open');
    // The token is still required for every call and the socket.
    expect((await callWith(second.port, 'x'.repeat(43))).status).toBe(401);
    expect(await openSocket(second.port, 'x'.repeat(43))).toBe(401);
  });

  it('makes a loosened session file owner-only again, and replaces one that holds no valid token', async () => {
    const first = await start();
    const token = new URL(first.url).searchParams.get('session')!;
    await stop(first);
    const file = webSessionFile(ctx.dataDir);
    chmodSync(file, 0o644);
    await stop(await start());
    expect(statSync(file).mode & 0o777).toBe(0o600);

    writeFileSync(file, '{"token":"short","port":1}', { mode: 0o644 });
    const renewed = await start();
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { token: string };
    expect(kept.token).not.toBe('short');
    expect(kept.token).not.toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await callWith(renewed.port, 'short')).status).toBe(401);
  });

  it('takes a free port and a new token when the kept port is in use now, and keeps both for next time', async () => {
    const first = await start();
    await stop(first);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(first.port, '127.0.0.1', resolve));
    try {
      const second = await start();
      expect(second.port).not.toBe(first.port);
      // A new token too: the program on the old port may have collected the old one from an open tab.
      const oldToken = new URL(first.url).searchParams.get('session')!;
      const newToken = new URL(second.url).searchParams.get('session')!;
      expect(newToken).not.toBe(oldToken);
      expect(newToken.length).toBeGreaterThanOrEqual(43);
      expect(JSON.parse(readFileSync(webSessionFile(ctx.dataDir), 'utf8'))).toEqual({
        token: newToken,
        port: second.port,
      });
      expect((await callWith(second.port, oldToken)).status).toBe(401);
      expect(await openSocket(second.port, oldToken)).toBe(401);
      expect((await callWith(second.port, newToken)).status).toBe(200);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('makes a new token as well when another port is asked for than the kept one', async () => {
    const first = await start();
    await stop(first);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    await new Promise((resolve) => squatter.close(resolve));
    const second = await start(port);
    expect(second.port).toBe(port);
    expect(new URL(second.url).searchParams.get('session')).not.toBe(new URL(first.url).searchParams.get('session'));
    await stop(second);
    // Asked for the same port again: the same token.
    expect((await start(port)).url).toBe(second.url);
  });

  it('refuses a port asked for explicitly that is in use, naming the setting', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    try {
      await expect(start(port)).rejects.toThrow(/INNKEEPER_WEB_PORT/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
