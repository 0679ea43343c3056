import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { CALL_CHANNEL } from '../../src/shared/ipcChannels';
import { isAppMainFrame, registerIpcGateway } from '../../src/main/hosts/electron/ipcGateway';
import { createDispatcher, type Handlers } from '../../src/main/gateway/dispatcher';
import { createEventBus } from '../../src/main/gateway/events';
import { SECRET_REMOVED } from '../../src/main/gateway/secretLeaks';
import { MAX_CALL_BYTES, METHODS } from '../../src/shared/contract';
import { DRAFT_MAX_LENGTH } from '../../src/shared/inbox';
import { PHOTO_CHUNK_BYTES } from '../../src/shared/photos';
import type { Result } from '../../src/shared/result';
import { startEmulator } from '../../src/emulator/emulator';
import { startTestCore } from '../support/core';

type Handler = (event: IpcMainInvokeEvent, method: unknown, args: unknown) => Promise<Result<unknown>>;
const APP_URL = 'file:///opt/Innkeeper/resources/app/out/renderer/index.html';
const SENTINEL = 'sentinel-secret-7f3a9c1e';

/** A fake ipcMain that records the handler, and fake events shaped like Electron's. */
function fakeIpc() {
  const handlers = new Map<string, Handler>();
  return {
    ipcMain: { handle: (channel: string, fn: Handler) => void handlers.set(channel, fn) },
    invoke: (event: unknown, method: unknown, args?: unknown) =>
      handlers.get(CALL_CHANNEL)!(event as IpcMainInvokeEvent, method, args),
  };
}
const event = (over: { id?: number; url?: string; parent?: unknown } = {}) => ({
  sender: { id: over.id ?? 7 },
  senderFrame: { url: over.url ?? `${APP_URL}#/connection`, parent: over.parent ?? null },
});

describe('IPC gateway', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>>;
  let ipc: ReturnType<typeof fakeIpc>;

  beforeEach(async () => {
    ctx = await startTestCore();
    ipc = fakeIpc();
    registerIpcGateway(ipc.ipcMain as never, ctx.core.dispatcher, (e) =>
      isAppMainFrame(e, { webContentsId: 7, appUrl: APP_URL }),
    );
  });
  afterEach(() => ctx.stop());

  it('serves a call from the app main frame as {ok, value}', async () => {
    const result = await ipc.invoke(event(), 'app.info', {});
    expect(result).toMatchObject({ ok: true, value: { host: 'browser', version: '0.0.0-test' } });
  });

  it.each([
    ['another window', event({ id: 8 })],
    ['an iframe inside the app', event({ parent: { url: APP_URL } })],
    ['a page the window navigated to', event({ url: 'https://evil.example/' })],
    ['another local file', event({ url: 'file:///opt/Innkeeper/resources/app/out/renderer/index.html.evil' })],
    ['an event without a frame', { sender: { id: 7 }, senderFrame: null }],
  ])('refuses a call from %s', async (_name, foreign) => {
    const result = await ipc.invoke(foreign, 'connection.get', {});
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'forbidden' }) });
  });

  it('refuses an unknown method', async () => {
    const result = await ipc.invoke(event(), 'fs.readFile', { path: '/etc/passwd' });
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
  });

  it('answers bad arguments with a validation error naming the field, before any service runs', async () => {
    const result = await ipc.invoke(event(), 'connection.save', {
      environment: 'sandbox',
      mainBaseUrl: 'http://connect.su-api.com/SUAPI',
      tokenBaseUrl: 'https://token.suissu.com',
      domain: 'my guesthouse',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('validation');
    expect(result.error.fields).toMatchObject({
      mainBaseUrl: expect.stringContaining('https'),
      domain: expect.stringContaining('domain name'),
    });
    const state = await ipc.invoke(event(), 'connection.get', {});
    expect(state).toMatchObject({ ok: true, value: { firstRun: true } });
  });

  it('answers arguments that cannot be serialized with an error, not a rejected promise', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await ipc.invoke(event(), 'connection.get', cyclic)).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    expect(await ipc.invoke(event(), 'connection.get', { n: 10n })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
  });

  it('rejects unexpected keys and oversized arguments', async () => {
    const extra = await ipc.invoke(event(), 'connection.get', { __proto__x: 1 });
    expect(extra).toMatchObject({ ok: false, error: { code: 'validation' } });
    const tooLarge = { ok: false, error: { code: 'validation', message: expect.stringContaining('too large') } };
    const huge = await ipc.invoke(event(), 'connection.test', {
      environment: 'demo',
      domain: 'a'.repeat(MAX_CALL_BYTES + 1),
    });
    expect(huge).toMatchObject(tooLarge);
    // The limit counts UTF-8 bytes, as the web host's body limit does: fewer characters than bytes in CJK.
    const wide = '漢'.repeat(Math.ceil(MAX_CALL_BYTES / 3));
    expect(await ipc.invoke(event(), 'connection.test', { environment: 'demo', domain: wide })).toMatchObject(tooLarge);
  });

  it('measures a call by the body a host read it from, when the host says how large that was', async () => {
    // The web host passes its request body's length (held to MAX_CALL_BYTES by Fastify): the arguments, a photo's
    // chunk of 175 KB among them, are not written out again to be measured.
    const { dispatcher } = ctx.core;
    const tooLarge = { ok: false, error: { code: 'validation', message: expect.stringContaining('too large') } };
    expect(await dispatcher.dispatch('app.info', {}, MAX_CALL_BYTES + 1)).toMatchObject(tooLarge);
    expect(await dispatcher.dispatch('app.info', {}, MAX_CALL_BYTES)).toMatchObject({ ok: true });
    // Without a size the dispatcher measures the arguments itself, as for Electron's IPC.
    const huge = { environment: 'demo', domain: 'a'.repeat(MAX_CALL_BYTES + 1) };
    expect(await dispatcher.dispatch('connection.test', huge)).toMatchObject(tooLarge);
  });

  it("counts a photo chunk's bytes by their length, not as the JSON array of numbers they would write out", async () => {
    // 300 KB of bytes would write out as 1.2 MB of JSON ([255,255,…]): measured so, the call was "too large"; counted
    // by its length it reaches the contract, which refuses it for the field's own limit.
    // A Buffer too, whose own toJSON would write it out so before the dispatcher saw it.
    for (const bytes of [new Uint8Array(300 * 1024).fill(255), Buffer.alloc(300 * 1024, 255)]) {
      const answer = await ipc.invoke(event(), 'photos.addChunk', { uploadId: 'a'.repeat(32), offset: 0, data: bytes });
      expect(answer).toMatchObject({ ok: false, error: { code: 'validation', field: 'data' } });
    }
    // A chunk of the size the page sends reaches its method (no such upload here).
    const chunk = Buffer.alloc(PHOTO_CHUNK_BYTES, 255);
    expect(
      await ipc.invoke(event(), 'photos.addChunk', { uploadId: 'a'.repeat(32), offset: 0, data: chunk }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    // Bytes past the limit are still too large.
    const huge = new Uint8Array(MAX_CALL_BYTES + 1);
    expect(
      await ipc.invoke(event(), 'photos.addChunk', { uploadId: 'a'.repeat(32), offset: 0, data: huge }),
    ).toMatchObject({
      ok: false,
      error: { code: 'validation', message: expect.stringContaining('too large') },
    });
  });

  it('lets through the longest draft, in CJK, to be checked by its method (not refused as too large)', async () => {
    const body = '漢字かな한글'.repeat(DRAFT_MAX_LENGTH / 6 + 1).slice(0, DRAFT_MAX_LENGTH);
    const answer = await ipc.invoke(event(), 'inbox.saveDraft', { threadId: 999_999, body });
    expect(JSON.stringify(answer)).not.toContain('too large');
    expect((answer as Result<unknown>).ok || (answer as { error: { code: string } }).error.code).not.toBe('validation');
  });

  it('a saved secret never appears in any result', async () => {
    // The sandbox profile points at an emulator of the test's own (the demo's stops once sandbox is the active
    // provider): the sentinel must never travel anywhere real.
    const su = await startEmulator();
    onTestFinished(() => su.close());
    const input = {
      environment: 'sandbox',
      mainBaseUrl: su.mainUrl,
      tokenBaseUrl: su.tokenUrl,
      domain: 'demo.innkeeper.test',
      secrets: {
        clientSecret: SENTINEL,
        facilityApiKey: `${SENTINEL}-f`,
        paymentApiKey: `${SENTINEL}-p`,
        notificationPassword: `${SENTINEL}-n`,
      },
    };
    const results = [
      await ipc.invoke(event(), 'connection.save', input),
      await ipc.invoke(event(), 'connection.get', {}),
      await ipc.invoke(event(), 'app.info', {}),
      await ipc.invoke(event(), 'connection.test', { ...input, secrets: {} }),
    ];
    for (const r of results) expect(JSON.stringify(r)).not.toContain(SENTINEL);
    // The emulator refused the sentinel as a client secret; the refusal names the field, not the value.
    expect(results[3]).toMatchObject({ ok: false, error: { field: 'clientSecret' } });
    expect(results[1]).toMatchObject({
      ok: true,
      value: { active: 'sandbox', profiles: { sandbox: { secretsSet: { clientSecret: true, paymentApiKey: true } } } },
    });
  });

  it('removes a secret from a result, even when a handler is buggy, and withholds one it cannot reach', async () => {
    /** Not plain data: its fields travel to the renderer, but the cleaning does not look inside it. */
    class Opaque {
      constructor(readonly inside: string) {}
    }
    const handlers = Object.fromEntries(METHODS.map((m) => [m, () => ({})])) as unknown as Handlers;
    const leaky = createDispatcher(
      {
        ...handlers,
        'app.info': () => ({ version: SENTINEL, host: `host of ${SENTINEL}` }) as never,
        'connection.get': () => ({ folder: new Opaque(SENTINEL) }) as never,
        'connection.test': () => {
          throw new Error(`token request failed with secret ${SENTINEL}`);
        },
      },
      () => [SENTINEL],
    );
    const info = await leaky.dispatch('app.info', {});
    expect(JSON.stringify(info)).not.toContain(SENTINEL);
    // The rest of the answer arrives; where the secret was, the renderer reads that something was removed.
    expect(info).toEqual({ ok: true, value: { version: SECRET_REMOVED, host: `host of ${SECRET_REMOVED}` } });
    const opaque = await leaky.dispatch('connection.get', {});
    expect(JSON.stringify(opaque)).not.toContain(SENTINEL);
    expect(opaque).toMatchObject({ ok: false, error: { code: 'internal' } });
    const thrown = await leaky.dispatch('connection.test', { environment: 'demo', domain: 'demo.innkeeper.test' });
    expect(JSON.stringify(thrown)).not.toContain(SENTINEL);
  });
});

describe('a clean answer is checked in one pass over its JSON text', () => {
  const handlers = Object.fromEntries(METHODS.map((m) => [m, () => ({})])) as unknown as Handlers;
  const page = (extra: Record<string, unknown>) => ({
    total: 2,
    threads: [
      { preview: 'Is parking free?', guest: { firstName: 'Anna' } },
      { preview: 'See you', ...extra },
    ],
  });

  it('returns a clean answer as it is, and still cleans a secret in any string or key of it', async () => {
    const secret = 'pw-4f8a1c9e2b7d-Innkeeper';
    const clean = page({});
    const dispatcher = createDispatcher(
      {
        ...handlers,
        'app.info': () => clean as never,
        'connection.get': () => page({ [`key ${secret}`]: 1, nested: [{ deep: `x${secret}y` }] }) as never,
      },
      () => [secret],
    );
    const answer = await dispatcher.dispatch('app.info', {});
    expect(answer).toEqual({ ok: true, value: clean });
    expect((answer as { value: unknown }).value).toBe(clean); // not copied: nothing in it was a secret
    const leaky = await dispatcher.dispatch('connection.get', {});
    expect(JSON.stringify(leaky)).not.toContain(secret);
    expect(JSON.stringify(leaky)).toContain(`"deep":"x${SECRET_REMOVED}y"`);
    expect(JSON.stringify(leaky)).toContain(`"key ${SECRET_REMOVED}":1`);
  });

  it('looks at every string when a form of the secret is written otherwise in JSON (a quote, a backslash)', async () => {
    // The answer holds the secret as a provider's JSON escapes it; in the answer's own JSON text that is escaped
    // once more, and a pass over the text would not see it.
    const secret = 'pa"ss\\word-19-Innkeeper';
    const escaped = JSON.stringify(secret).slice(1, -1);
    const dispatcher = createDispatcher(
      { ...handlers, 'app.info': () => page({ note: `said ${escaped}` }) as never },
      () => [secret],
    );
    const answer = (await dispatcher.dispatch('app.info', {})) as { value: { threads: { note?: string }[] } };
    expect(answer.value.threads[1]!.note).toBe(`said ${SECRET_REMOVED}`);
  });
});

describe('events to the renderer', () => {
  it('an event whose payload would carry a stored secret is sent without it; one it cannot clean is not sent', () => {
    const bus = createEventBus(() => [SENTINEL]);
    const seen: unknown[] = [];
    bus.onAny((event, payload) => seen.push([event, payload]));
    bus.emit('inbox.newMessage', { threadId: 1, channelName: 'Airbnb', guestName: null, preview: `code ${SENTINEL}` });
    bus.emit('inbox.newMessage', { threadId: 1, channelName: 'Airbnb', guestName: null, preview: 'hello' });
    bus.emit(
      'inbox.newMessage',
      new (class {
        preview = SENTINEL;
      })() as never,
    );
    expect(seen).toEqual([
      ['inbox.newMessage', { threadId: 1, channelName: 'Airbnb', guestName: null, preview: `code ${SECRET_REMOVED}` }],
      ['inbox.newMessage', { threadId: 1, channelName: 'Airbnb', guestName: null, preview: 'hello' }],
    ]);
  });
});
