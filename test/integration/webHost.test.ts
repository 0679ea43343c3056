import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startWebHost, type RunningWebHost } from '../../src/main/hosts/web/webHost';
import { startWebHostWithSession, webSessionFile } from '../../src/main/hosts/web/webSession';
import { sessionCookieName, sessionCookieValue, sessionProofKey } from '../../src/main/hosts/web/sessionCookie';
import {
  CALL_ARGS_HEADER,
  CALL_BYTES_TYPE,
  MAX_CALL_BYTES,
  SESSION_PATH,
  SESSION_PROOF_PATH,
  sessionProofMessage,
} from '../../src/shared/contract';
import { DRAFT_MAX_LENGTH } from '../../src/shared/inbox';
import { PHOTO_CHUNK_BYTES } from '../../src/shared/photos';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

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

  it('proves it knows the token without one: the HMAC of the nonce and its port keyed with the proof key, and nothing else', async () => {
    const nonce = 'bm9uY2UtZnJvbS10aGUtcGFnZS0wMTIzNDU2Nzg5';
    const response = await fetch(`${base}${SESSION_PROOF_PATH}?nonce=${nonce}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    // The proof key: the HMAC of its label keyed with the token (a page with the token works it out).
    const key = createHmac('sha256', TOKEN).update('innkeeper-session-proof-key').digest('base64url');
    expect(sessionProofKey(TOKEN)).toBe(key);
    const expected = createHmac('sha256', key).update(sessionProofMessage(nonce, web.port)).digest('base64url');
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

  it("takes a photo's chunks as bytes, its other arguments in a header, and files them byte for byte", async () => {
    const { call: contract } = contractClient(() => ctx.core.dispatcher);
    await eventually(
      () => contract('rates.properties', {}),
      (p) => p.length >= 1,
    );
    const bytes = await sharp({
      create: {
        width: 900,
        height: 600,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 120, sigma: 50 },
      },
    })
      .jpeg()
      .toBuffer();
    expect(bytes.length).toBeGreaterThan(PHOTO_CHUNK_BYTES); // more than one chunk
    const { uploadId } = await contract('photos.addStart', {
      hotelId: 'IK-DEMO-001',
      fileName: 'yard.jpg',
      bytes: bytes.length,
    });
    const sendBytes = (
      chunk: Uint8Array,
      other: unknown,
      headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
    ) =>
      fetch(`${base}/api/call/photos.addChunk`, {
        method: 'POST',
        headers: { 'Content-Type': CALL_BYTES_TYPE, [CALL_ARGS_HEADER]: JSON.stringify(other), ...headers },
        body: chunk,
      });
    const first = bytes.subarray(0, PHOTO_CHUNK_BYTES);

    // Without the token, nothing is read; other arguments that are not an object, or that carry `data`, are refused.
    expect((await sendBytes(first, { uploadId, offset: 0 }, {})).status).toBe(401);
    for (const other of [null, [uploadId, 0], { uploadId, offset: 0, data: 'QQ==' }]) {
      expect(await (await sendBytes(first, other)).json()).toMatchObject({
        ok: false,
        error: { code: 'validation', message: expect.stringContaining(CALL_ARGS_HEADER) },
      });
    }
    // Checked as any call is: a chunk longer than PHOTO_CHUNK_BYTES names the field.
    expect(
      await (await sendBytes(bytes.subarray(0, PHOTO_CHUNK_BYTES + 1), { uploadId, offset: 0 })).json(),
    ).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'data' },
    });

    for (let offset = 0; offset < bytes.length; offset += PHOTO_CHUNK_BYTES) {
      const answer = await sendBytes(bytes.subarray(offset, offset + PHOTO_CHUNK_BYTES), { uploadId, offset });
      expect(await answer.json()).toEqual({
        ok: true,
        value: { received: Math.min(offset + PHOTO_CHUNK_BYTES, bytes.length) },
      });
    }
    const photo = (await contract('photos.addFinish', { uploadId })) as { id: number };
    expect(readFileSync(join(ctx.dataDir, 'photos', `${photo.id}-original`)).equals(bytes)).toBe(true);
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

describe('browser mode lets a browser that opened the session link come back with its session cookie', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  let web: RunningWebHost;
  let origin: string;
  let rendererDir: string;

  beforeEach(async () => {
    ctx = await startTestCore();
    rendererDir = join(ctx.dataDir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Innkeeper</title>');
    writeFileSync(join(rendererDir, 'assets', 'screen-1a2b.js'), 'export const screen = 1;');
    web = await startWebHost({ core: ctx.core, rendererDir, port: 0, token: TOKEN });
    origin = `http://127.0.0.1:${web.port}`;
  });
  afterEach(async () => {
    await web.close();
    await ctx.stop();
  });

  interface Answer {
    status: number;
    setCookie: string[];
    body: string;
  }
  /** One request over node:http, which sends every header as given (Host, Origin, Cookie), as a browser's arrives. */
  const send = (path: string, headers: Record<string, string>, method = 'GET', body?: string, port = web.port) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += String(chunk)));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], body: text }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  const host = () => `127.0.0.1:${web.port}`;
  /** The page's call as the browser sends it with the cookie: its own Origin, same-origin. */
  const pageCall = (cookie: string, headers: Record<string, string> = {}) =>
    send(
      '/api/call/app.info',
      {
        Host: host(),
        Origin: origin,
        'Sec-Fetch-Site': 'same-origin',
        'Content-Type': 'application/json',
        Cookie: cookie,
        ...headers,
      },
      'POST',
      '{}',
    );
  /** The cookie the link's first visit sets, as the browser sends it back. */
  const firstVisit = async () => {
    const page = await send(`/?session=${TOKEN}`, { Host: host() });
    expect(page.status).toBe(200);
    return page.setCookie[0]!.split(';')[0]!;
  };
  const socketWith = (headers: Record<string, string>, socketOrigin = origin) =>
    new Promise<'open' | number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${web.port}/api/events`, { origin: socketOrigin, headers });
      socket.on('error', () => undefined);
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('close', (code) => resolve(code));
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    });

  it('sets an HttpOnly, SameSite=Strict cookie for this port on the first visit with the link, holding no token', async () => {
    const page = await send(`/?session=${TOKEN}`, { Host: host() });
    expect(page.setCookie).toHaveLength(1);
    const [pair, ...attributes] = page.setCookie[0]!.split(';').map((part) => part.trim());
    expect(pair!.startsWith(`${sessionCookieName(web.port)}=`)).toBe(true);
    expect(pair).not.toContain(TOKEN);
    expect(attributes).toEqual(['Path=/', `Max-Age=${90 * 24 * 3600}`, 'HttpOnly', 'SameSite=Strict']);
    // No Domain: the browser keeps it for this loopback host only. Not Secure: the page is plain http on loopback.
    expect(page.setCookie[0]).not.toMatch(/Domain|Secure/i);
    // The page without the link (and without the cookie) sets none; a wrong link none either.
    expect((await send('/', { Host: host() })).setCookie).toEqual([]);
    expect((await send('/?session=wrong-token-0123456789', { Host: host() })).setCookie).toEqual([]);
    // A file of the renderer (kept by the browser a year) never carries one.
    expect((await send(`/assets/screen-1a2b.js?session=${TOKEN}`, { Host: host() })).setCookie).toEqual([]);
  });

  it('answers a bare address with the cookie: the calls, the session check and the event socket', async () => {
    const cookie = await firstVisit();
    const answer = await pageCall(cookie);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { host: 'browser' } });

    // The page opened without the link asks whether it holds the session: yes, with the proof key to check the
    // server with from then on, and the cookie issued afresh.
    const session = await send(
      SESSION_PATH,
      { Host: host(), Origin: origin, 'Sec-Fetch-Site': 'same-origin', Cookie: cookie },
      'POST',
    );
    expect(session.status).toBe(200);
    expect(JSON.parse(session.body)).toEqual({ ok: true, value: { proofKey: sessionProofKey(TOKEN) } });
    expect(session.setCookie[0]).toMatch(new RegExp(`^${sessionCookieName(web.port)}=\\d+\\.[\\w-]{43}; Path=/;`));
    // Opening the bare page with it issues it afresh too (a bookmark keeps working while it is used).
    expect((await send('/', { Host: host(), Cookie: cookie })).setCookie[0]).toContain('HttpOnly; SameSite=Strict');

    expect(await socketWith({ Cookie: cookie })).toBe('open');
    // localhost on the same port is the same app (its own Origin then).
    const viaLocalhost = await send(
      '/api/call/app.info',
      {
        Host: `localhost:${web.port}`,
        Origin: `http://localhost:${web.port}`,
        'Content-Type': 'application/json',
        Cookie: cookie,
      },
      'POST',
      '{}',
    );
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses a forged, absent, expired or foreign cookie, and removes one that is no longer valid', async () => {
    expect((await pageCall('')).status).toBe(401);
    const name = sessionCookieName(web.port);
    const now = Math.floor(Date.now() / 1000);
    const forged = [
      `${name}=${now}.${'A'.repeat(43)}`,
      `${name}=${TOKEN}`,
      `${name}=${sessionCookieValue(TOKEN, web.port + 1)}`, // made for another port
      `${name}=${sessionCookieValue('another-install-token-0123456789', web.port)}`, // another session secret
      `${name}=${sessionCookieValue(TOKEN, web.port, Date.now() - 91 * 24 * 3600 * 1000)}`, // older than 90 days
      `${sessionCookieName(web.port + 1)}=${sessionCookieValue(TOKEN, web.port)}`, // under another port's name
    ];
    for (const cookie of forged) {
      const answer = await pageCall(cookie);
      expect(answer.status, cookie).toBe(401);
      expect(answer.body, cookie).not.toContain('"ok":true');
      expect(await socketWith({ Cookie: cookie }), cookie).toBe(401);
      const check = await send(SESSION_PATH, { Host: host(), Origin: origin, Cookie: cookie }, 'POST');
      expect(check.status, cookie).toBe(401);
      expect(check.body, cookie).not.toContain(sessionProofKey(TOKEN));
    }
    // A cookie of this port's name that no longer opens anything is removed, by the call and by the page.
    expect((await pageCall(forged[0]!)).setCookie).toEqual([`${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`]);
    expect((await send('/', { Host: host(), Cookie: forged[3]! })).setCookie[0]).toContain('Max-Age=0');
  });

  it('takes the cookie only from its own page: a wrong Host, another Origin or another site is refused', async () => {
    const cookie = await firstVisit();
    // DNS rebinding: another name for this address.
    expect(
      (await pageCall(cookie, { Host: `evil.example:${web.port}`, Origin: `http://evil.example:${web.port}` })).status,
    ).toBe(421);
    expect((await pageCall(cookie, { Host: `evil.example:${web.port}` })).status).toBe(421);
    // A page of another program on this computer (another port: cookies are not kept apart by port), another site,
    // an opaque origin, no Origin at all, or the browser saying the request is not the page's own.
    const foreign: Record<string, string>[] = [
      { Origin: `http://127.0.0.1:${web.port + 1}` },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: `http://localhost:${web.port}` }, // another origin than the Host asked
      { Origin: '' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const answer = await pageCall(cookie, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).not.toContain('"ok":true');
      expect(answer.setCookie, 'the cookie is kept').toEqual([]);
    }
    const noOrigin = await send(
      '/api/call/app.info',
      { Host: host(), 'Content-Type': 'application/json', Cookie: cookie },
      'POST',
      '{}',
    );
    expect(noOrigin.status).toBe(403);
    // The event socket of another page.
    expect(await socketWith({ Cookie: cookie }, `http://127.0.0.1:${web.port + 1}`)).toBe(403);
    expect(await socketWith({ Cookie: cookie }, 'https://evil.example')).toBe(403);
  });

  it('voids every cookie when the session secret changes (web-session.json deleted, another port)', async () => {
    await web.close();
    const first = await startWebHostWithSession({ core: ctx.core, rendererDir, port: 0, dataDir: ctx.dataDir });
    const port = first.port;
    const token = new URL(first.url).searchParams.get('session')!;
    const visit = await send(`/?session=${token}`, { Host: `127.0.0.1:${port}` }, 'GET', undefined, port);
    const cookie = visit.setCookie[0]!.split(';')[0]!;
    const callOn = (cookieNow: string) =>
      send(
        '/api/call/app.info',
        {
          Host: `127.0.0.1:${port}`,
          Origin: `http://127.0.0.1:${port}`,
          'Content-Type': 'application/json',
          Cookie: cookieNow,
        },
        'POST',
        '{}',
        port,
      );
    expect((await callOn(cookie)).status).toBe(200);
    // A restart keeps the session: the cookie still opens it.
    await first.close();
    const again = await startWebHostWithSession({ core: ctx.core, rendererDir, port: 0, dataDir: ctx.dataDir });
    expect(again.port).toBe(port);
    expect((await callOn(cookie)).status).toBe(200);
    // The owner revokes every session: a new secret, and the cookie opens nothing.
    await again.close();
    rmSync(webSessionFile(ctx.dataDir));
    web = await startWebHostWithSession({ core: ctx.core, rendererDir, port, dataDir: ctx.dataDir });
    expect(web.url).not.toContain(token);
    expect((await callOn(cookie)).status).toBe(401);
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
