import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openDelivery } from '../../src/receiving/sealing';
import type { DeliveriesAnswer, SealedDelivery } from '../../src/receiving/mailboxProtocol';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { basic, startTestMailbox } from '../support/mailboxHarness';

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

const message = (id: string, text: string) =>
  JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: id, message: text });

/** Headers announcing a 100,000-byte body that never comes: what the mailbox answered, and whether it closed. */
async function headersOnly(url: string, head: string) {
  const { port } = new URL(url);
  const socket: Socket = connect({ port: Number(port), host: '127.0.0.1' });
  cleanups.push(() => void socket.destroy());
  const state = { answer: '', closed: false };
  socket.on('data', (chunk) => (state.answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  socket.write(`${head}Host: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
  await eventually(
    async () => state.closed,
    (closed) => closed,
    5_000,
  );
  return state;
}

describe('device credentials', () => {
  it('a wrong or revoked token is answered 401 before the body, and the connection closed', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!, 'Laptop').then((p) => p.device);
    const office = await t.pairNew('Office PC');
    expect((await t.device(laptop.token).get('/mailbox/health')).status).toBe(200);

    const wrong = await headersOnly(
      t.url,
      `POST /mailbox/confirm HTTP/1.1\r\nAuthorization: Bearer ${'x'.repeat(43)}\r\n`,
    );
    expect(wrong).toMatchObject({ closed: true, answer: expect.stringMatching(/^HTTP\/1\.1 401/) });
    expect(wrong.answer.toLowerCase()).toContain('connection: close');
    const none = await headersOnly(t.url, 'PUT /mailbox/settings HTTP/1.1\r\n');
    expect(none.answer).toMatch(/^HTTP\/1\.1 401/);
    // A push credential is not a device credential.
    const basicOnDevice = await t.device(laptop.token).get('/mailbox/health');
    expect(basicOnDevice.status).toBe(200);
    const withBasic = await fetch(`${t.url}/mailbox/health`, {
      headers: { authorization: basic(laptop.pushUser, laptop.pushPassword) },
    });
    expect(withBasic.status).toBe(401);

    // The office PC unpairs the laptop: its token is refused at once, before any body, and its boxes are gone.
    expect((await t.push(message('1', 'before the unpairing'), laptop)).status).toBe(200);
    const unpaired = await t.device(office.token).send('DELETE', `/mailbox/devices/${laptop.deviceId}`, {});
    expect(unpaired).toMatchObject({ status: 200, body: { unpaired: laptop.deviceId } });
    const revoked = await headersOnly(
      t.url,
      `POST /mailbox/confirm HTTP/1.1\r\nAuthorization: Bearer ${laptop.token}\r\n`,
    );
    expect(revoked).toMatchObject({ closed: true, answer: expect.stringMatching(/^HTTP\/1\.1 401/) });
    expect((await t.device(laptop.token).deliveries()).status).toBe(401);
    const boxes = t.mailbox.store.db
      .prepare('SELECT count(*) AS n FROM boxes WHERE device_id = ?')
      .get(laptop.deviceId);
    expect(boxes).toEqual({ n: 0 });
    // Its push credentials went with it.
    expect((await t.push(message('2', 'after the unpairing'), laptop)).status).toBe(401);
    expect((await t.push(message('2', 'after the unpairing'), office)).status).toBe(200);
    // An unknown device: 404 naming the id.
    expect(await t.device(office.token).send('DELETE', '/mailbox/devices/nobody', {})).toMatchObject({
      status: 404,
      body: { field: 'id' },
    });
  });

  it('health: who is paired, what waits for this device, when the mailbox was up', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!, 'Laptop').then((p) => p.device);
    const office = await t.pairNew('Office PC');
    await t.push(message('1', 'one'), laptop);
    await t.push(message('2', 'two'), office);
    await t.device(office.token).confirm(2);
    const health = await t.device(laptop.token).get('/mailbox/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      mailboxId: t.mailbox.store.mailboxId,
      version: 1,
      waiting: 2,
      retentionDays: 30,
      lastDeliveryAt: expect.any(Number),
      up: [{ from: expect.any(Number), to: null }],
    });
    expect((health.body.devices as { name: string; self: boolean }[]).map((d) => [d.name, d.self])).toEqual([
      ['Laptop', true],
      ['Office PC', false],
    ]);
    expect((await t.device(office.token).get('/mailbox/health')).body.waiting).toBe(0);
  });

  it('settings: the retention, 1 to 365 days, the field named when wrong', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    const device = t.device(laptop.token);
    expect(await device.send('PUT', '/mailbox/settings', { retentionDays: 7 })).toMatchObject({
      status: 200,
      body: { retentionDays: 7 },
    });
    expect(await device.send('PUT', '/mailbox/settings', { retentionDays: 400 })).toMatchObject({
      status: 400,
      body: { field: 'retentionDays', message: expect.stringMatching(/at most 365/) },
    });
    expect((await device.get('/mailbox/health')).body.retentionDays).toBe(7);
  });
});

describe('Su’s push', () => {
  it('with a paired device’s credentials: acknowledged as the desktop does, stored sealed for every device', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!, 'Laptop').then((p) => p.device);
    const office = await t.pairNew('Office PC');
    const body = message('9100000001', 'Is there a cot for the baby?');
    // Either device's credentials are Su's.
    const response = await t.push(body, office);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'Success', Status: 'Success' });

    for (const device of [laptop, office]) {
      const page = (await t.device(device.token).deliveries()).body as unknown as DeliveriesAnswer;
      expect(page).toMatchObject({ last: 1, more: false });
      const [delivery] = page.deliveries as [SealedDelivery];
      expect(delivery).toMatchObject({ seq: 1, size: Buffer.byteLength(body), receivedAt: expect.any(Number) });
      expect(openDelivery(delivery.box, 1, device.keys.privateKey).raw.toString('utf8')).toBe(body);
      // One device's box does not open with the other's key.
      const other = device === laptop ? office : laptop;
      expect(() => openDelivery(delivery.box, 1, other.keys.privateKey)).toThrow();
    }
    const rows = t.mailbox.store.db.prepare('SELECT box FROM boxes').all() as { box: string }[];
    expect(rows).toHaveLength(2);
    expect(rows.some((r) => r.box.includes('cot for the baby'))).toBe(false);
  });

  it('wrong credentials: 401 before the body; none paired yet: every push 401', async () => {
    const t = await mailbox();
    expect(
      (await t.push(message('1', 'nobody paired'), { authorization: basic('su', 'anything at all') })).status,
    ).toBe(401);
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    expect(
      (await t.push(message('1', 'x'), { pushUser: laptop.pushUser, pushPassword: 'wrong password!' })).status,
    ).toBe(401);
    expect((await t.push(message('1', 'x'), { pushUser: 'someone', pushPassword: laptop.pushPassword })).status).toBe(
      401,
    );
    const early = await headersOnly(
      t.url,
      `POST /push HTTP/1.1\r\nAuthorization: ${basic(laptop.pushUser, 'nope')}\r\n`,
    );
    expect(early).toMatchObject({ closed: true, answer: expect.stringMatching(/^HTTP\/1\.1 401/) });
    expect(t.mailbox.store.db.prepare('SELECT count(*) AS n FROM deliveries').get()).toEqual({ n: 0 });
  });

  it('a repost of the same body keeps one sequence number; a body that is not JSON is 400 and kept', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    const body = message('9100000002', 'Same words twice');
    expect((await t.push(body, laptop)).status).toBe(200);
    expect((await t.push(body, laptop)).status).toBe(200);
    const broken = await t.push('{"message": "cut off', laptop);
    expect(broken.status).toBe(400);
    const collected = await t.collect(laptop);
    expect(collected.map((c) => [c.seq, c.text])).toEqual([
      [1, body],
      [2, '{"message": "cut off'],
    ]);
  });

  it('503 with Retry-After when the store cannot write (a full disk), then acknowledged again', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    expect((await t.push(message('1', 'first'), laptop)).status).toBe(200);
    const { db } = t.mailbox.store;
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    const big = message('2', 'x'.repeat(20_000));
    const refused = await t.push(big, laptop);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(db.prepare('SELECT count(*) AS n FROM deliveries').get()).toEqual({ n: 1 });
    db.exec('PRAGMA max_page_count = 1073741823');
    expect((await t.push(big, laptop)).status).toBe(200);
    expect((await t.collect(laptop)).map((c) => c.seq)).toEqual([1, 2]);
  });

  it('a compressed push is kept as the bytes it decodes to', async () => {
    const { gzipSync } = await import('node:zlib');
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    const body = message('3', 'Packed words');
    const response = await fetch(`${t.url}/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: basic(laptop.pushUser, laptop.pushPassword),
      },
      body: gzipSync(body),
    });
    expect(response.status).toBe(200);
    expect((await t.collect(laptop)).map((c) => c.text)).toEqual([body]);
  });
});
