import { afterEach, describe, expect, it } from 'vitest';
import { openDelivery } from '../../src/receiving/sealing';
import type { DeliveriesAnswer, SealedDelivery } from '../../src/receiving/mailboxProtocol';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { startTestMailbox, type TestDevice } from '../support/mailboxHarness';

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

/** A device's stream, read as it comes: each event with when it arrived. */
async function openStream(url: string, device: TestDevice, after = 0) {
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  const response = await fetch(`${url}/mailbox/stream?after=${after}`, {
    headers: { authorization: `Bearer ${device.token}` },
    signal: controller.signal,
  });
  const events: { event: string; data: unknown; at: number }[] = [];
  const state = { ended: false };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data), at: performance.now() });
        }
      }
    } catch {
      // Aborted by the test.
    }
    state.ended = true;
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    state,
    deliveries: () => events.filter((e) => e.event === 'delivery').map((e) => e.data as SealedDelivery),
    close: () => controller.abort(),
  };
}

describe('collecting', () => {
  it('the deliveries after a position, in order, page by page', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    const bodies = Array.from({ length: 12 }, (_, i) => message(`91000000${i}`, `words number ${i}`));
    for (const body of bodies) expect((await t.push(body, laptop)).status).toBe(200);
    const device = t.device(laptop.token);

    const first = (await device.deliveries(0, 5)).body as unknown as DeliveriesAnswer;
    expect(first.deliveries.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(first).toMatchObject({ last: 5, more: true });
    const second = (await device.deliveries(5, 5)).body as unknown as DeliveriesAnswer;
    expect(second.deliveries.map((d) => d.seq)).toEqual([6, 7, 8, 9, 10]);
    const third = (await device.deliveries(10, 5)).body as unknown as DeliveriesAnswer;
    expect(third).toMatchObject({ last: 12, more: false });
    expect((await device.deliveries(12, 5)).body).toEqual({ deliveries: [], last: null, more: false });
    expect((await t.collect(laptop)).map((c) => c.text)).toEqual(bodies);
    // The page size is bounded, the field named.
    expect(await device.deliveries(0, 501)).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await device.get('/mailbox/deliveries?after=-1')).toMatchObject({ status: 400, body: { field: 'after' } });
  });

  it('the stream: first what waits after the position, then each push live within a second, pings', async () => {
    const t = await mailbox({ pingMs: 200 });
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    for (let i = 1; i <= 3; i++) await t.push(message(`92${i}`, `waiting ${i}`), laptop);
    const stream = await openStream(t.url, laptop, 1);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await eventually(
      async () => stream.deliveries().length,
      (n) => n === 2,
      5_000,
    );
    expect(stream.deliveries().map((d) => d.seq)).toEqual([2, 3]);

    const latencies: number[] = [];
    for (let i = 4; i <= 8; i++) {
      const before = performance.now();
      expect((await t.push(message(`92${i}`, `live ${i}`), laptop)).status).toBe(200);
      const arrived = await eventually(
        async () => stream.events.find((e) => e.event === 'delivery' && (e.data as SealedDelivery).seq === i),
        (e) => e !== undefined,
        5_000,
      );
      latencies.push(arrived!.at - before);
    }
    expect(latencies.filter((ms) => ms >= 1_000)).toEqual([]);
    expect(stream.deliveries().map((d) => d.seq)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    const last = stream.deliveries().at(-1)!;
    expect(openDelivery(last.box, last.seq, laptop.keys.privateKey).raw.toString()).toBe(message('928', 'live 8'));
    await eventually(
      async () => stream.events.filter((e) => e.event === 'ping').length,
      (n) => n >= 2,
      5_000,
    );

    // One stream per device: a new one closes the old.
    const again = await openStream(t.url, laptop, 8);
    await eventually(
      async () => stream.state.ended,
      (ended) => ended,
      5_000,
    );
    expect(t.mailbox.openStreams()).toBe(1);
    again.close();
  });

  it('a stream with a wrong token is refused; an unpaired device’s stream ends', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    const office = await t.pairNew('Office PC');
    const refused = await fetch(`${t.url}/mailbox/stream`, { headers: { authorization: `Bearer ${'y'.repeat(43)}` } });
    expect(refused.status).toBe(401);
    const stream = await openStream(t.url, laptop);
    await t.device(office.token).send('DELETE', `/mailbox/devices/${laptop.deviceId}`, {});
    await eventually(
      async () => stream.state.ended,
      (ended) => ended,
      5_000,
    );
  });

  it('confirm: a device’s boxes go at once; a delivery is forgotten once every device confirmed it', async () => {
    const t = await mailbox();
    const laptop = await t.pair(t.mailbox.pairingCode!, 'Laptop').then((p) => p.device);
    const office = await t.pairNew('Office PC');
    for (let i = 1; i <= 4; i++) await t.push(message(`93${i}`, `to confirm ${i}`), laptop);
    const boxesOf = (seq: number) =>
      (t.mailbox.store.db.prepare('SELECT count(*) AS n FROM boxes WHERE seq = ?').get(seq) as { n: number }).n;

    expect(await t.device(laptop.token).confirm(3)).toMatchObject({ status: 200, body: { confirmed: 3 } });
    expect((await t.collect(laptop)).map((c) => c.seq)).toEqual([4]);
    expect((await t.collect(office)).map((c) => c.seq)).toEqual([1, 2, 3, 4]);
    expect([1, 2, 3, 4].map(boxesOf)).toEqual([1, 1, 1, 2]);

    expect(await t.device(office.token).confirm(2)).toMatchObject({ body: { confirmed: 2 } });
    // Nothing of 1 and 2 is left that anyone could open.
    expect([1, 2, 3, 4].map(boxesOf)).toEqual([0, 0, 1, 2]);
    // A position never goes back, and never past the last delivery.
    expect(await t.device(office.token).confirm(1)).toMatchObject({ body: { confirmed: 2 } });
    expect(await t.device(office.token).confirm(99)).toMatchObject({ body: { confirmed: 4 } });
    expect(await t.device(laptop.token).confirm(4)).toMatchObject({ body: { confirmed: 4 } });
    expect(t.mailbox.store.db.prepare('SELECT count(*) AS n FROM boxes').get()).toEqual({ n: 0 });
    // A new push after the confirmations still reaches both.
    await t.push(message('935', 'after'), office);
    expect((await t.collect(laptop, 4)).map((c) => c.seq)).toEqual([5]);
    expect((await t.collect(office, 4)).map((c) => c.seq)).toEqual([5]);
    expect(await t.device(laptop.token).send('POST', '/mailbox/confirm', { upTo: 'x' })).toMatchObject({
      status: 400,
      body: { field: 'upTo' },
    });
  });

  it('retention: a delivery nobody collected is forgotten after the retention, the sweep on its own clock', async () => {
    let clock = 1_800_000_000_000;
    const day = 24 * 60 * 60 * 1000;
    const t = await mailbox({ now: () => clock, retentionDays: 2, sweepEveryMs: 50 });
    const laptop = await t.pair(t.mailbox.pairingCode!).then((p) => p.device);
    await t.push(message('941', 'old words'), laptop);
    clock += day;
    await t.push(message('942', 'newer words'), laptop);
    clock += day + 1;
    // The first is now older than two days: the sweep (every 50 ms here) forgets it, and only it.
    const left = await eventually(
      async () => (await t.collect(laptop)).map((c) => c.seq),
      (seqs) => seqs.length === 1,
      5_000,
    );
    expect(left).toEqual([2]);
    expect(t.mailbox.store.db.prepare('SELECT seq FROM deliveries').all()).toEqual([{ seq: 2 }]);
    // The owner shortens it to one day: the second goes too.
    await t.device(laptop.token).send('PUT', '/mailbox/settings', { retentionDays: 1 });
    expect(await t.collect(laptop)).toEqual([]);
  });
});
