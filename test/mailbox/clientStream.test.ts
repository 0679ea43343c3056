import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MailboxRefusal, MailboxUnreachable, mailboxClient } from '../../src/main/mailbox/mailboxClient';
import type { SealedDelivery } from '../../src/receiving/mailboxProtocol';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { startTestMailbox } from '../support/mailboxHarness';

// The computer's side of the mailbox's live stream (mailboxClient.stream), read with node:http rather than fetch
// (fetch's body timeout woke the idle core twice a second: bench/RESULTS.md, idle), against a real mailbox and
// against servers that answer as no mailbox does, all over loopback.

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

/** A server on 127.0.0.1 that answers every request with `answer`. */
async function answering(answer: (response: ServerResponse) => void): Promise<string> {
  const server = createServer((_request, response) => answer(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What reading the stream at `url` ends with: resolved, or the error it rejected with. */
const outcome = (url: string, signal = new AbortController().signal) =>
  mailboxClient(url, 'token')
    .stream(
      0,
      signal,
      () => {},
      () => {},
    )
    .then(
      () => 'ended',
      (error: unknown) => error,
    );

describe("the computer's reading of the mailbox's live stream", () => {
  it('gets each delivery pushed to the mailbox while it reads, and every ping counts as a sign of life', async () => {
    // Not with fetch: its body timeout keeps undici's timer waking the core every 499 ms while the stream is open.
    const fetched = vi.spyOn(globalThis, 'fetch');
    cleanups.push(() => fetched.mockRestore());
    const t = await startTestMailbox({ pingMs: 100 });
    cleanups.push(() => t.stop());
    const device = await t.pairNew();
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const got: SealedDelivery[] = [];
    let alive = 0;
    const reading = mailboxClient(t.url, device.token).stream(
      0,
      controller.signal,
      (delivery) => got.push(delivery),
      () => (alive += 1),
    );
    reading.catch(() => {});
    const message = JSON.stringify({ ...JSON.parse(fixtureText('push-message-244.json')), messageid: 'stream-1' });
    expect((await t.push(message, device)).status).toBe(200);
    expect(
      await eventually(
        async () => got.map((d) => d.seq),
        (seqs) => seqs.length > 0,
      ),
    ).toEqual([1]);
    // Opened, the delivery, and the pings every 100 ms.
    expect(
      await eventually(
        async () => alive,
        (n) => n >= 4,
      ),
    ).toBeGreaterThanOrEqual(4);
    controller.abort();
    await expect(reading).rejects.toThrow(/abort/i);
    expect(fetched.mock.calls.filter(([url]) => String(url).includes('/mailbox/stream'))).toEqual([]);
  });

  it('a refusal from the mailbox is a refusal, with its status and code', async () => {
    const url = await answering((response) =>
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'unauthorized', message: 'This device is not paired.' })),
    );
    const error = await outcome(url);
    expect(error).toBeInstanceOf(MailboxRefusal);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('a redirect, a web page or an answer that is not a stream are not a mailbox (and a redirect is not followed)', async () => {
    let followed = 0;
    const elsewhere = await answering((response) => {
      followed += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: ping\ndata: {}\n\n');
    });
    for (const answer of [
      (r: ServerResponse) => r.writeHead(302, { location: `${elsewhere}/mailbox/stream` }).end(),
      (r: ServerResponse) => r.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'),
      (r: ServerResponse) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"confirmed":1}'),
    ]) {
      const error = await outcome(await answering(answer));
      expect(error).toBeInstanceOf(MailboxUnreachable);
      expect(error).toMatchObject({ notAMailbox: true });
    }
    expect(followed).toBe(0);
  });

  it('nothing listening, or the connection cut mid-stream, is unreachable and says so', async () => {
    const closed = await answering(() => {});
    const port = new URL(closed).port;
    await cleanups.pop()!(); // closeAllConnections
    await cleanups.pop()!(); // close: nothing listens on the port now
    const refused = await outcome(`http://127.0.0.1:${port}`);
    expect(refused).toBeInstanceOf(MailboxUnreachable);
    expect(String((refused as Error).message)).toMatch(/connection refused/);

    const cut = await answering((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: ping\ndata: {}\n\n');
      setTimeout(() => response.socket?.destroy(), 50);
    });
    const error = await outcome(cut);
    expect(error).toBeInstanceOf(MailboxUnreachable);
    expect(String((error as Error).message)).toMatch(/connection was cut/);
  });

  it('a stream the mailbox ends is read to its end', async () => {
    const url = await answering((response) =>
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: ping\ndata: {}\n\n'),
    );
    expect(await outcome(url)).toBe('ended');
  });
});
