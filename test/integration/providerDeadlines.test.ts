import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIdFromDomain } from '../../src/shared/clientId';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { cardLinkInputSchema, partnerEntrySchema } from '../../src/shared/payments';
import type { Database } from '../../src/main/db/database';
import { createPaymentsService } from '../../src/main/payments/paymentsService';
import { fetchImageBytes } from '../../src/main/photos/reach';
import { issueToken } from '../../src/main/provider/auth';
import { createProviderClient } from '../../src/main/provider/client';
import { createHostClient, PROVIDER_LIMITS } from '../../src/main/provider/http';
import { createTokenManager } from '../../src/main/provider/tokenManager';
import { openAppDatabase } from '../../src/main/schema';
import { failureOf } from '../support/clientOnEmulator';
import { startHostileProvider, type HostileMove } from '../support/hostileProvider';
import { databaseFile, replyOutbox, startRestartableEmulator, until } from '../support/outboxHarness';
import { tempDir } from '../support/tempDir';

// A provider that sends its headers and then one byte every 2 s, for ever (a hostile provider on 127.0.0.1, in
// front of the emulator): every call Innkeeper makes ends by its deadline with "the provider did not finish
// answering", the outbox goes on with the other items, and a trickling token host holds nothing for good. The
// deadline here is a few seconds so the tests stay fast; the default is checked to be at most a minute.

/** The deadline the tests give their clients: longer than one 2 s trickle step, so the trickle alone is not it. */
const DEADLINE = 3_000;
/** How long a test waits for anything, so a call that hangs fails the test instead of holding it. */
const BOUNDED = 25_000;

const reply = (bookingid: string, message = `Hello ${bookingid}`) => ({
  hotelid: 'IK-DEMO-001',
  channelcode: '19' as const,
  message,
  bookingid,
});

let su: Awaited<ReturnType<typeof startRestartableEmulator>>;
let hostile: Awaited<ReturnType<typeof startHostileProvider>> | null = null;
let file: ReturnType<typeof databaseFile>;
let database: Database;
/** What the hostile provider does with each request (passes it to the emulator unless a test says otherwise). */
let move: (request: { method: string; path: string; body: string }) => HostileMove;

beforeEach(async () => {
  su = await startRestartableEmulator();
  move = () => 'forward';
  hostile = await startHostileProvider({ upstream: new URL(su.mainUrl).origin, move: (r) => move(r) });
  file = databaseFile();
  database = file.open();
});
afterEach(async () => {
  if (database.db.isOpen) database.close();
  file.remove();
  await hostile?.close();
  hostile = null;
  await su.close();
});

/** `url` (the emulator's main or token host) at the hostile provider's address, same path. */
const viaHostile = (url: string) => `${hostile!.url}${new URL(url).pathname}`;

/**
 * The real provider client with the demo credentials: calls and token requests both through the hostile provider,
 * the token request's deadline shorter than a call's, as in the app.
 */
function clientThroughHostile(deadlineMs = DEADLINE) {
  const issuer = createHostClient(
    viaHostile(su.mainUrl),
    (deadlineMs * PROVIDER_LIMITS.tokenDeadlineMs) / PROVIDER_LIMITS.deadlineMs,
  );
  const tokens = createTokenManager({
    environment: 'sandbox',
    issue: () =>
      issueToken(issuer, {
        clientId: clientIdFromDomain(DEMO_CREDENTIALS.domain),
        clientSecret: DEMO_CREDENTIALS.clientSecret,
      }),
  });
  return createProviderClient({
    mainBaseUrl: viaHostile(su.mainUrl),
    tokenBaseUrl: viaHostile(su.tokenUrl),
    tokens,
    timeoutMs: deadlineMs,
    credentials: {
      facilityAppId: DEMO_CREDENTIALS.facilityAppId,
      facilityApiKey: DEMO_CREDENTIALS.facilityApiKey,
      notificationUser: DEMO_CREDENTIALS.notificationUser,
      notificationPassword: DEMO_CREDENTIALS.notificationPassword,
      paymentApiName: DEMO_CREDENTIALS.paymentApiName,
      paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
    },
  });
}

const accepted = async () => (await su.requestsTo('/messagingAB')).filter((r) => r.status === 200);
const sentTexts = async () => (await accepted()).map((r) => (r.body as { message: string }).message);

describe('a provider that never finishes its answer', () => {
  it('the default deadline of every call is at most a minute, and the answer is capped', () => {
    expect(PROVIDER_LIMITS.deadlineMs).toBeGreaterThan(0);
    expect(PROVIDER_LIMITS.deadlineMs).toBeLessThanOrEqual(60_000);
    expect(PROVIDER_LIMITS.tokenDeadlineMs).toBeLessThan(PROVIDER_LIMITS.deadlineMs);
    expect(PROVIDER_LIMITS.maxAnswerBytes).toBeLessThanOrEqual(10 * 1024 * 1024);
  });

  it(
    'payments.createLink through the service: fails by its deadline, the draft kept as "maybe made"',
    async () => {
      move = (r) => (r.path.endsWith('/service/api/paycard') ? 'trickle' : 'forward');
      const client = clientThroughHostile();
      const dir = tempDir();
      const db = openAppDatabase(join(dir.path, 'innkeeper.db'));
      try {
        const service = createPaymentsService({
          database: db,
          now: () => Date.now(),
          provider: () => 'sandbox',
          host: () => client.payments,
          properties: () => [{ hotelId: 'H1', name: 'Harbour View' }],
          hostReady: () => ({ ready: true, message: null }),
          changed: () => undefined,
        });
        service.enterPartner(
          partnerEntrySchema.parse({ hotelId: 'H1', partner_id: 'IK-PARTNER-01', currency_code: 'EUR' }),
        );
        const started = Date.now();
        const made = await service.createLink(
          cardLinkInputSchema.parse({ hotelId: 'H1', currency_code: 'EUR', amount: '45.50', order_id: 'SLOW-1' }),
        );
        const took = Date.now() - started;
        expect(made.error).toMatchObject({ code: 'timeout', retryable: true, outcomeUnknown: true });
        expect(made.error?.message).toMatch(/the provider did not finish answering within 3 s/);
        // The deadline, not the trickle's gaps, ended it: neither much sooner nor much later.
        expect(took).toBeGreaterThanOrEqual(DEADLINE - 100);
        expect(took).toBeLessThan(DEADLINE + 10_000);
        expect(made.link).toMatchObject({ status: 'draft', outcomeUnknown: true, url: null });
        await service.settle();
      } finally {
        db.close();
        dir.remove();
      }
    },
    BOUNDED,
  );

  it(
    'a reply whose answer trickles stops as "may have arrived" by its deadline; the other threads go on',
    async () => {
      move = (r) => (r.path.endsWith('/messagingAB') && r.body.includes('STUCK') ? 'trickle' : 'forward');
      const client = clientThroughHostile();
      // One send at a time: without a deadline the stuck reply would hold the whole queue.
      const { outbox } = replyOutbox(database, () => client, { maxInFlight: 1 });
      const stuck = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'STUCK reply'));
      const behind = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'after the stuck one'));
      const aside = outbox.enqueue('message-reply', 'thread:2', reply('B2', 'another guest'));
      outbox.start();
      const started = Date.now();
      await outbox.kick();
      expect(Date.now() - started).toBeLessThan(DEADLINE + 10_000);

      // The request reached Su and an answer began: it may have arrived, so it is never sent again by itself.
      expect(outbox.get(stuck.id)).toMatchObject({
        state: 'failed',
        attempts: 1,
        lastError: { code: 'timeout', retryable: true, outcomeUnknown: true },
      });
      expect(outbox.get(stuck.id)?.lastError?.message).toMatch(/did not finish answering/);
      // The other guest's reply went; the one behind the stuck reply keeps its place in its thread.
      expect(outbox.get(aside.id)?.state).toBe('sent');
      expect(outbox.get(behind.id)?.state).toBe('queued');
      expect(await sentTexts()).toEqual(['another guest']);
    },
    BOUNDED,
  );

  it(
    'with room for several sends, the other thread’s reply goes while the stuck one is still waiting',
    async () => {
      move = (r) => (r.path.endsWith('/messagingAB') && r.body.includes('STUCK') ? 'trickle' : 'forward');
      const client = clientThroughHostile();
      const { outbox } = replyOutbox(database, () => client);
      const stuck = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'STUCK reply'));
      const aside = outbox.enqueue('message-reply', 'thread:2', reply('B2', 'another guest'));
      outbox.start();
      const kicked = outbox.kick();
      await until(() => outbox.get(aside.id)?.state === 'sent', BOUNDED);
      expect(outbox.get(stuck.id)?.state).toBe('sending');
      await kicked;
      expect(outbox.get(stuck.id)).toMatchObject({ state: 'failed', lastError: { code: 'timeout' } });
    },
    BOUNDED,
  );

  it(
    'a trickling token host fails the token request by its deadline; the replies wait and go once it answers',
    async () => {
      let tokenHostStuck = true;
      move = (r) => (r.path.endsWith('/generate-access-token') && tokenHostStuck ? 'trickle' : 'forward');
      const client = clientThroughHostile();
      const { outbox, clock } = replyOutbox(database, () => client);
      const first = outbox.enqueue('message-reply', 'thread:1', reply('B1', 'first guest'));
      const second = outbox.enqueue('message-reply', 'thread:2', reply('B2', 'second guest'));
      outbox.start();
      const started = Date.now();
      await outbox.kick();
      // Both replies waited on the one token request, and both were let go by its deadline.
      expect(Date.now() - started).toBeLessThan(DEADLINE + 10_000);
      expect(hostile!.seen().filter((s) => s.path.endsWith('/generate-access-token'))).toHaveLength(1);
      for (const item of [first, second]) {
        const now = outbox.get(item.id)!;
        // Nothing left for Su without a token: queued again to try later, not stopped as "may have arrived".
        expect(now).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 'timeout', retryable: true } });
        expect(now.lastError?.outcomeUnknown).toBeFalsy();
        expect(now.lastError?.message).toMatch(/Getting an access token failed: the provider did not finish answering/);
      }
      expect(await accepted()).toHaveLength(0);

      tokenHostStuck = false;
      clock.advance(10 * 60_000);
      await outbox.kick();
      expect(outbox.get(first.id)?.state).toBe('sent');
      expect(outbox.get(second.id)?.state).toBe('sent');
      expect((await sentTexts()).sort()).toEqual(['first guest', 'second guest']);
    },
    BOUNDED,
  );

  it(
    'a call waiting for a token shares its deadline: it is let go even when the token manager never answers',
    async () => {
      const client = createProviderClient({
        mainBaseUrl: viaHostile(su.mainUrl),
        tokenBaseUrl: viaHostile(su.tokenUrl),
        // A token source that never settles (whatever the reason): the call's own deadline still ends the wait.
        tokens: {
          environment: 'sandbox',
          getToken: () => new Promise<string>(() => undefined),
          invalidate: () => undefined,
          expiresAt: () => null,
        },
        timeoutMs: DEADLINE,
        credentials: {
          facilityAppId: '',
          facilityApiKey: null,
          notificationUser: '',
          notificationPassword: null,
          paymentApiName: '',
          paymentApiKey: null,
        },
      });
      const error = await failureOf(client.messages.reply(reply('B1')));
      expect(error).toMatchObject({ code: 'timeout', retryable: true });
      expect(error.outcomeUnknown).toBeFalsy();
      expect(error.message).toMatch(/did not finish answering/);
      expect(hostile!.seen()).toHaveLength(0);
    },
    BOUNDED,
  );
});

describe('an answer larger than the cap', () => {
  it(
    'is refused with a clear error, at the default cap',
    async () => {
      move = (r) =>
        r.path.endsWith('/service/api/paycard') ? { huge: PROVIDER_LIMITS.maxAnswerBytes + 1024 * 1024 } : 'forward';
      const client = clientThroughHostile(20_000);
      const error = await failureOf(
        client.payments.createPaymentLink({
          partner_id: 'IK-PARTNER-01',
          amount: '45.50',
          currency_code: 'EUR',
          order_id: 'HUGE-1',
        }),
      );
      expect(error).toMatchObject({ code: 'provider', outcomeUnknown: true });
      expect(error.message).toMatch(/the provider’s answer was larger than 10 MB/);
    },
    BOUNDED,
  );
});

describe('a photo read back from Su’s address', () => {
  /**
   * A server that answers an image: up to `total` bytes as fast as it can, then (never ending) one byte every 2 s.
   */
  async function imageServer(total: number) {
    let written = 0;
    const sockets = new Set<Socket>();
    const timers = new Set<ReturnType<typeof setInterval>>();
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(Math.min(total, 64 * 1024), 0xff);
      const pump = () => {
        while (written < total && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        const timer = setInterval(() => response.write(chunk.subarray(0, 1)), 2_000);
        timers.add(timer);
        response.on('close', () => clearInterval(timer));
      };
      pump();
    });
    server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/su-images/1.jpg`,
      written: () => written,
      close: () =>
        new Promise<void>((resolve) => {
          for (const t of timers) clearInterval(t);
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }

  it(
    'stops reading at the cap instead of taking in whatever is sent',
    async () => {
      const server = await imageServer(200 * 1024 * 1024);
      try {
        expect(await fetchImageBytes(server.url, { deadlineMs: 10_000, maxBytes: 1024 * 1024 })).toBeNull();
        // What the server got out before the reader hung up: the cap and what the sockets buffer, not 200 MB.
        expect(server.written()).toBeLessThan(48 * 1024 * 1024);
      } finally {
        await server.close();
      }
    },
    BOUNDED,
  );

  it(
    'a trickling image answer ends by the deadline',
    async () => {
      const server = await imageServer(1024);
      try {
        const started = Date.now();
        expect(await fetchImageBytes(server.url, { deadlineMs: DEADLINE, maxBytes: 1024 * 1024 })).toBeNull();
        expect(Date.now() - started).toBeLessThan(DEADLINE + 10_000);
      } finally {
        await server.close();
      }
    },
    BOUNDED,
  );
});
