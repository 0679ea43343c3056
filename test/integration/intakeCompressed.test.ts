import { once } from 'node:events';
import { createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/receiving/contentEncoding';
import { fixtureText } from '../support/fixtures';
import { PUSH_PASSWORD, PUSH_USER, startPushTarget } from '../support/pushTarget';

// Deliveries compressed with gzip or deflate (Content-Encoding), over real loopback HTTP to a real data file: filed
// and acknowledged as the JSON they decode to, never unpacked past the size limit.

const message = (id: string) => JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id });

let t: Awaited<ReturnType<typeof startPushTarget>>;
beforeEach(async () => {
  t = await startPushTarget();
});
afterEach(() => t.stop());

const auth = `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`;
const post = (body: Buffer, encoding: string) =>
  fetch(t.receiver.localUrl, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', 'content-encoding': encoding },
    body,
  });
const logged = () => t.database.db.prepare('SELECT body, kind, outcome FROM push_log ORDER BY id').all();

/** `mib` MiB of zeros inside a JSON message, gzipped as it is made (never held whole): a decompression bomb. */
async function gzipBomb(mib: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024, 0x30);
  gzip.write('{"messageid":"bomb","message":"');
  for (let i = 0; i < mib; i++) if (!gzip.write(zeros)) await once(gzip, 'drain');
  gzip.end('"}');
  await once(gzip, 'end');
  return Buffer.concat(parts);
}

describe('compressed deliveries', () => {
  it('gzip: filed and acknowledged; the log keeps the JSON it decodes to', async () => {
    const json = message('gzipped');
    const response = await post(gzipSync(json), 'gzip');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'Success', Status: 'Success' });
    expect(t.database.db.prepare('SELECT provider_message_id FROM messages').all()).toEqual([
      { provider_message_id: 'gzipped' },
    ]);
    expect(logged()).toEqual([{ body: json, kind: 'message', outcome: 'stored' }]);
  });

  it('deflate (zlib’s format, and a raw deflate stream), x-gzip, and identity', async () => {
    expect((await post(deflateSync(message('deflated')), 'deflate')).status).toBe(200);
    expect((await post(deflateRawSync(message('raw-deflate')), 'Deflate')).status).toBe(200);
    expect((await post(gzipSync(message('x-gzip')), 'x-gzip')).status).toBe(200);
    expect((await post(Buffer.from(message('plain')), 'identity')).status).toBe(200);
    const ids = t.database.db.prepare('SELECT provider_message_id AS id FROM messages ').all();
    expect(ids.map((r) => (r as { id: string }).id).sort()).toEqual(['deflated', 'plain', 'raw-deflate', 'x-gzip']);
  });

  it('a bomb (256 MiB in a few hundred KiB) is refused with 413, nothing filed, never unpacked whole', async () => {
    const bomb = await gzipBomb(256);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage();
    const response = await post(bomb, 'gzip');
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    const after = process.memoryUsage();
    // Unpacked whole it would take 256 MiB; the listener stops at its 1 MiB limit.
    expect(after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed).toBeLessThan(64 * 1024 * 1024);
    expect(t.count('push_log')).toBe(0);
    // The listener goes on: the next delivery is filed.
    expect((await post(gzipSync(message('after-the-bomb')), 'gzip')).status).toBe(200);
    expect(t.count('messages')).toBe(1);
  });

  it('a body just over the limit once unpacked is refused too; one just under it is filed', async () => {
    const padded = (length: number) => {
      const json = message('padded');
      return `${json.slice(0, -1)},"padding":"${'p'.repeat(length - Buffer.byteLength(json) - 13)}"}`;
    };
    expect(Buffer.byteLength(padded(1024 * 1024))).toBe(1024 * 1024);
    expect((await post(gzipSync(padded(1024 * 1024 + 1)), 'gzip')).status).toBe(413);
    expect(t.count('push_log')).toBe(0);
    expect((await post(gzipSync(padded(1024 * 1024)), 'gzip')).status).toBe(200);
    expect(t.count('messages')).toBe(1);
  });

  it('a body that is not what it says (corrupt gzip) gets 400 and is logged as received', async () => {
    const corrupt = gzipSync(message('corrupt')).subarray(0, 40);
    const response = await post(corrupt, 'gzip');
    expect(response.status).toBe(400);
    const [row] = logged() as { body: Uint8Array; outcome: string }[];
    expect(row!.outcome).toBe('not-json');
    expect(Buffer.from(row!.body).equals(corrupt)).toBe(true);
  });

  it('a compression not known gets 415 naming the ones taken, and nothing is filed', async () => {
    const response = await post(Buffer.from(message('brotli')), 'br');
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('gzip, deflate');
    expect(response.headers.get('connection')).toBe('close');
    expect((await post(gzipSync(gzipSync(gzipSync(message('x')))), 'gzip, gzip, gzip')).status).toBe(415);
    expect(t.count('push_log')).toBe(0);
  });
});

describe('decodeBody', () => {
  it('stops at the limit, also inside a second compression', async () => {
    const bomb = await gzipBomb(16);
    expect(await decodeBody(bomb, ['gzip'], 64 * 1024)).toEqual({ tooLarge: true });
    expect(await decodeBody(gzipSync(bomb), ['gzip', 'gzip'], 64 * 1024)).toEqual({ tooLarge: true });
  });

  it('undoes two compressions, the last applied first', async () => {
    const decoded = await decodeBody(gzipSync(deflateSync('{"a":1}')), ['deflate', 'gzip'], 100);
    expect(decoded).toEqual({ body: Buffer.from('{"a":1}') });
  });
});
