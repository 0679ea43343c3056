import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MEDIA_MAX_BYTES } from '../../src/receiving/mailboxProtocol';
import { eventually } from '../support/eventually';
import { startTestMailbox } from '../support/mailboxHarness';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

async function mailbox(options: Parameters<typeof startTestMailbox>[0] = {}) {
  const t = await startTestMailbox(options);
  cleanups.push(() => t.stop());
  return t;
}

/** Headers announcing a body of `length` bytes that never comes: what the mailbox answered, and whether it closed. */
async function headersOnly(url: string, head: string, length: number) {
  const { port } = new URL(url);
  const socket: Socket = connect({ port: Number(port), host: '127.0.0.1' });
  cleanups.push(() => void socket.destroy());
  const state = { answer: '', closed: false };
  socket.on('data', (chunk) => (state.answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  socket.write(`${head}Host: x\r\nContent-Type: image/jpeg\r\nContent-Length: ${length}\r\n\r\n`);
  await eventually(
    async () => state.answer.includes('\r\n\r\n'),
    (answered) => answered,
    5_000,
  );
  return state;
}

const put = (url: string, token: string, name: string, body: Buffer) =>
  fetch(`${url}/mailbox/media/${name}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body,
  });

const photo = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300_000)]);

describe('photos through the mailbox', () => {
  it('serves a handed-over photo byte for byte at an unguessable public address, until it is deleted', async () => {
    const t = await mailbox();
    const laptop = await t.pairNew('Laptop');
    const bytes = photo();
    const answer = await put(t.url, laptop.token, 'a1b2-sea-view.jpg', bytes);
    expect(answer.status).toBe(200);
    const { url, expiresAt } = (await answer.json()) as { url: string; expiresAt: number };
    expect(url).toMatch(new RegExp(`^${t.url}/media/[0-9a-f]{32}/a1b2-sea-view\\.jpg$`));
    expect(expiresAt).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // Anyone (Su) fetches it without credentials: the same bytes, as a JPEG.
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    // Kept in a file of its own, the owner's only.
    const folder = join(t.dataDir, 'media');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(statSync(join(folder, files[0]!)).mode & 0o777).toBe(0o600);
    // Another token, or none, answers nothing; nor does a name without its token.
    expect((await fetch(url.replace(/\/media\/[0-9a-f]{8}/, '/media/00000000'))).status).toBe(404);
    expect((await fetch(`${t.url}/media/a1b2-sea-view.jpg`)).status).toBe(404);

    // Deleted by its computer (Su has its copy): 404 from then on, and the file is gone.
    const deleted = await t.device(laptop.token).send('DELETE', '/mailbox/media/a1b2-sea-view.jpg', {});
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await fetch(url)).status).toBe(404);
    expect(readdirSync(folder)).toHaveLength(0);
  });

  it('answers 404 once a day has passed, and forgets the file at the next sweep', async () => {
    let now = Date.now();
    const t = await mailbox({ now: () => now });
    const laptop = await t.pairNew('Laptop');
    const { url } = (await (await put(t.url, laptop.token, 'p.jpg', photo())).json()) as { url: string };
    now += 23 * 3600_000;
    expect((await fetch(url)).status).toBe(200);
    now += 3600_000 + 1;
    expect((await fetch(url)).status).toBe(404);
    t.mailbox.media.sweep();
    expect(readdirSync(join(t.dataDir, 'media'))).toHaveLength(0);
  });

  it('answers 404 for the photos of a computer unpaired', async () => {
    const t = await mailbox();
    const laptop = await t.pairNew('Laptop');
    const office = await t.pairNew('Office PC');
    const { url } = (await (await put(t.url, laptop.token, 'p.jpg', photo())).json()) as { url: string };
    expect((await fetch(url)).status).toBe(200);
    await t.device(office.token).send('DELETE', `/mailbox/devices/${laptop.deviceId}`, {});
    expect((await fetch(url)).status).toBe(404);
  });

  it('refuses a wrong device token (401 before the body) and a body over the cap', async () => {
    const t = await mailbox();
    const laptop = await t.pairNew('Laptop');
    const wrong = await headersOnly(
      t.url,
      `PUT /mailbox/media/p.jpg HTTP/1.1\r\nAuthorization: Bearer ${'x'.repeat(43)}\r\n`,
      100_000,
    );
    expect(wrong.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(wrong.answer.toLowerCase()).toContain('connection: close');
    const none = await headersOnly(t.url, 'PUT /mailbox/media/p.jpg HTTP/1.1\r\n', 100_000);
    expect(none.answer).toMatch(/^HTTP\/1\.1 401/);

    // Over the cap: refused from its declared length, before it is read, and refused when it is sent all the same.
    const declared = await headersOnly(
      t.url,
      `PUT /mailbox/media/p.jpg HTTP/1.1\r\nAuthorization: Bearer ${laptop.token}\r\n`,
      MEDIA_MAX_BYTES + 1,
    );
    expect(declared.answer).toMatch(/^HTTP\/1\.1 413/);
    const sent = await put(t.url, laptop.token, 'p.jpg', Buffer.alloc(MEDIA_MAX_BYTES + 1, 1)).catch(() => null);
    expect(sent === null || sent.status === 413).toBe(true);
    // A bad name is named; nothing was kept.
    const badName = await put(t.url, laptop.token, '..%2Fescape', photo());
    expect(badName.status).toBe(400);
    expect(await badName.json()).toMatchObject({ field: 'name' });
    expect(readdirSync(join(t.dataDir, 'media'))).toHaveLength(0);
  });

  it('gives the public address it was told (--public-url) in the photo’s address', async () => {
    const t = await mailbox({ publicUrl: 'https://mailbox.example.com' });
    const laptop = await t.pairNew('Laptop');
    const { url } = (await (await put(t.url, laptop.token, 'p.jpg', photo())).json()) as { url: string };
    expect(url).toMatch(/^https:\/\/mailbox\.example\.com\/media\/[0-9a-f]{32}\/p\.jpg$/);
  });

  it('behind its trusted proxy, gives the https address the computer used; from anyone else the header is not believed', async () => {
    /** A PUT as Caddy forwards it: the Host the computer used, and X-Forwarded-Proto. */
    const forwarded = (url: string, token: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(url);
        const body = photo();
        const call = request(
          {
            host: '127.0.0.1',
            port: Number(port),
            method: 'PUT',
            path: '/mailbox/media/p.jpg',
            headers: {
              host: 'mailbox.example.com',
              'x-forwarded-proto': 'https',
              authorization: `Bearer ${token}`,
              'content-type': 'image/jpeg',
              'content-length': body.length,
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk) => (text += String(chunk)));
            response.on('end', () => resolve((JSON.parse(text) as { url: string }).url));
          },
        );
        call.on('error', reject);
        call.end(body);
      });
    const behind = await mailbox({ trustProxy: ['127.0.0.1'] });
    const laptop = await behind.pairNew('Laptop');
    expect(await forwarded(behind.url, laptop.token)).toMatch(
      /^https:\/\/mailbox\.example\.com\/media\/[0-9a-f]{32}\/p\.jpg$/,
    );
    const direct = await mailbox();
    const office = await direct.pairNew('Office PC');
    expect(await forwarded(direct.url, office.token)).toMatch(/^http:\/\/mailbox\.example\.com\/media\//);
  });
});
