import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { CHECK_TIMING } from '../../src/main/payments/checks';
import {
  createPaymentsPoller,
  createPaymentsService,
  type PaymentsService,
} from '../../src/main/payments/paymentsService';
import { createProviderClient } from '../../src/main/provider/client';
import { partnerEntrySchema, cardLinkInputSchema, type PaymentLinkEntry } from '../../src/shared/payments';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { startClientOnEmulator } from '../support/clientOnEmulator';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

// The payments service on a real SQLite file, against the emulator over loopback, with the clock in the test's
// hands: the status is followed with backoff until it is final, and an unreachable host leaves a draft.

let su: Awaited<ReturnType<typeof startClientOnEmulator>>;
let dir: ReturnType<typeof tempDir>;
let database: Database;
let clock: number;
let host: () => ReturnType<typeof createProviderClient>['payments'];
let paid: PaymentLinkEntry[][];
let service: PaymentsService;
let cutter: Server | null = null;
let active: string;

/** The emulator's payment host, held at a gate: each call waits until the test opens it. */
function gatedHost() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const real = su.client.payments;
  const held =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      await gate;
      return call(...args);
    };
  return {
    open,
    host: {
      createPartner: held(real.createPartner),
      createPaymentLink: held(real.createPaymentLink),
      createWidgetLink: held(real.createWidgetLink),
      transactionStatus: held(real.transactionStatus),
    },
  };
}

/** A payment-host client on an address: nothing listening (refused), or a server that hangs up (no answer). */
const clientAt = (tokenBaseUrl: string) =>
  createProviderClient({
    mainBaseUrl: tokenBaseUrl,
    tokenBaseUrl,
    tokens: { getToken: async () => 'unused', invalidate: () => undefined } as never,
    credentials: {
      facilityAppId: '',
      facilityApiKey: null,
      notificationUser: '',
      notificationPassword: null,
      paymentApiName: DEMO_CREDENTIALS.paymentApiName,
      paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
    },
  }).payments;

const link = (input: Record<string, unknown>) =>
  service.createLink(cardLinkInputSchema.parse({ hotelId: 'H1', currency_code: 'EUR', amount: '45.50', ...input }));

beforeEach(async () => {
  su = await startClientOnEmulator();
  dir = tempDir();
  database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  clock = Date.parse('2026-11-23T10:00:00Z');
  host = () => su.client.payments;
  paid = [];
  // The emulator on loopback answers http links, which only the built-in demo provider may hand out.
  active = 'demo';
  service = createPaymentsService({
    database,
    now: () => clock,
    provider: () => active,
    host: () => host(),
    properties: () => [{ hotelId: 'H1', name: 'Harbour View' }],
    hostReady: () => ({ ready: true, message: null }),
    changed: (list) => paid.push(list),
  });
  service.enterPartner(partnerEntrySchema.parse({ hotelId: 'H1', partner_id: 'IK-PARTNER-01', currency_code: 'EUR' }));
});
afterEach(async () => {
  await service.settle();
  database.close();
  dir.remove();
  await su.close();
  await new Promise((resolve) => (cutter ? cutter.close(resolve) : resolve(null)));
  cutter = null;
});

describe('following a link’s status', () => {
  it('asks after 10 s, then doubling, until the host says it was paid; then never again', async () => {
    const { link: made } = await link({ order_id: 'B-1' });
    const t0 = clock;
    expect(made.nextCheckAt).toBe(t0 + 10_000);
    clock = t0 + 9_999;
    expect(await service.checkDue()).toBe(0);

    const checks: number[] = [];
    for (let i = 0; i < 4; i++) {
      clock = service.list().links[0]!.nextCheckAt!;
      checks.push(clock - t0);
      expect(await service.checkDue()).toBe(1);
      expect(service.list().links[0]).toMatchObject({ status: 'requested', hostStatus: 'Pending' });
    }
    // 10 s after the link, then 20, 40, 80 s apart.
    expect(checks).toEqual([10_000, 30_000, 70_000, 150_000]);
    expect(service.list().links[0]!.nextCheckAt! - clock).toBe(160_000);

    // The host cannot be reached for a while: the link keeps its status, the reason is kept, the wait grows.
    host = () => clientAt('http://127.0.0.1:1');
    clock = service.list().links[0]!.nextCheckAt!;
    await service.checkDue();
    const offline = service.list().links[0]!;
    expect(offline).toMatchObject({ status: 'requested', checkError: expect.objectContaining({ code: 'network' }) });
    expect(offline.nextCheckAt! - clock).toBe(320_000);

    host = () => su.client.payments;
    await su.control.completeTransaction(made.transactionId!);
    clock = offline.nextCheckAt!;
    await service.checkDue();
    const done = service.list().links[0]!;
    expect(done).toMatchObject({ status: 'paid', nextCheckAt: null, settledAt: clock, checkError: null });
    expect(paid.flat().map((l) => l.id)).toEqual([made.id]);
    clock += 3_600_000;
    expect(await service.checkDue()).toBe(0);
  });

  it('waits at most 15 minutes between checks, and stops by itself after 30 days', async () => {
    const { link: made } = await link({ order_id: 'B-2' });
    database.db.prepare('UPDATE payment_links SET check_attempts = 12 WHERE id = ?').run(made.id);
    clock = made.nextCheckAt!;
    await service.checkDue();
    expect(service.list().links[0]!.nextCheckAt! - clock).toBe(CHECK_TIMING.longestMs);
    clock = made.requestedAt! + CHECK_TIMING.followForMs + 1;
    database.db.prepare('UPDATE payment_links SET next_check_at = ? WHERE id = ?').run(clock, made.id);
    await service.checkDue();
    expect(service.list().links[0]).toMatchObject({ status: 'requested', nextCheckAt: null });
    // Check now still asks.
    expect((await service.checkNow(made.id)).lastCheckedAt).toBe(clock);
  });
});

describe('the background checks', () => {
  it('run a round only when a link is due, not every few seconds; a new link times the next one', async () => {
    // The same ledger on the real clock, the first check 300 ms after a link is made (10 s in use).
    const firstMs = CHECK_TIMING.firstMs;
    CHECK_TIMING.firstMs = 300;
    const live = createPaymentsService({
      database,
      now: Date.now,
      provider: () => active,
      host: () => su.client.payments,
      properties: () => [{ hotelId: 'H1', name: 'Harbour View' }],
      hostReady: () => ({ ready: true, message: null }),
      changed: () => undefined,
    });
    let rounds = 0;
    const counted = { ...live, checkDue: () => ((rounds += 1), live.checkDue()) };
    // Rounds at least 20 ms apart: polled, that would be about 25 in the half second below.
    const poller = createPaymentsPoller(counted, 20);
    try {
      poller.start();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Nothing followed: the round at the start, then none.
      expect(rounds).toBe(1);

      const { link: made } = await live.createLink(
        cardLinkInputSchema.parse({ hotelId: 'H1', currency_code: 'EUR', amount: '12.00', order_id: 'POLL-1' }),
      );
      expect(made.status).toBe('requested');
      // Asked when due (300 ms), by the poller alone.
      const checked = await eventually(
        async () => live.list().links.find((l) => l.id === made.id)!,
        (l) => l.lastCheckedAt !== null,
        5_000,
      );
      expect(checked).toMatchObject({ status: 'requested', hostStatus: 'Pending' });
      expect(rounds).toBeLessThanOrEqual(3);

      // Paid at the host: the next check (600 ms later) files it, and nothing is followed any more.
      await su.control.completeTransaction(made.transactionId!);
      await eventually(
        async () => live.list().links.find((l) => l.id === made.id)!,
        (l) => l.status === 'paid',
        5_000,
      );
      const after = rounds;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(rounds).toBe(after);
    } finally {
      CHECK_TIMING.firstMs = firstMs;
      await poller.stop();
    }
  });
});

describe('when the host cannot be reached', () => {
  it('keeps the link as a draft with what was typed, and creates it from the draft once the host is back', async () => {
    host = () => clientAt('http://127.0.0.1:1');
    const offline = await link({
      amount: '45,5',
      order_id: 'OFF-1',
      forWhom: 'Anna',
      customer_email: 'anna@example.com',
    });
    expect(offline.error).toMatchObject({ code: 'network', retryable: true });
    expect(offline.link).toMatchObject({ status: 'draft', outcomeUnknown: false, amount: '45.50' });
    // Kept as typed ("45,5"); read as 45.50 for the ledger.
    expect(offline.link.typed).toMatchObject({
      amount: '45,5',
      order_id: 'OFF-1',
      forWhom: 'Anna',
      customer_email: 'anna@example.com',
    });
    // It was never sent, so nothing holds its order id: another link may use it.
    expect(offline.link.outcomeUnknown).toBe(false);

    host = () => su.client.payments;
    const back = await link({
      order_id: 'OFF-1',
      forWhom: 'Anna',
      customer_email: 'anna@example.com',
      draftId: offline.link.id,
    });
    expect(back.link).toMatchObject({ id: offline.link.id, status: 'requested', error: null });
    expect(service.list().links).toHaveLength(1);
  });

  it('a request cut without an answer may have made the link: the draft says so, and the host refuses it twice', async () => {
    // Passes the request to the emulator, then hangs up before the answer comes back.
    cutter = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        void fetch(`${su.emulator.tokenUrl}${request.url}`, {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }).finally(() => response.socket?.destroy());
      });
    });
    await new Promise<void>((resolve) => cutter!.listen(0, '127.0.0.1', resolve));
    host = () => clientAt(`http://127.0.0.1:${(cutter!.address() as AddressInfo).port}`);
    const cut = await link({ order_id: 'CUT-1' });
    expect(cut.error).toMatchObject({ outcomeUnknown: true });
    expect(cut.link).toMatchObject({ status: 'draft', outcomeUnknown: true });
    // It did arrive: the host holds order CUT-1, so creating it again is refused, under the order id.
    host = () => su.client.payments;
    const again = await link({ order_id: 'CUT-1', draftId: cut.link.id });
    expect(again.error?.fields?.order_id).toMatch(/already used/);
    // And the app's own check counts it as used for any other link.
    const other = await link({ order_id: 'CUT-1' });
    expect(other.error?.fields?.order_id).toMatch(/already used by the link of/);
  });
});

describe('at the same time', () => {
  it('a draft being created cannot be created again, saved over or deleted; the host is asked once', async () => {
    const gated = gatedHost();
    host = () => gated.host;
    const draft = service.saveDraft({ kind: 'card', hotelId: 'H1', typed: { amount: '10', currency_code: 'EUR' } });
    const first = link({ amount: '10.00', order_id: 'O2', draftId: draft.id });
    // While the request is out, the draft says it may have reached the host (a crash now keeps that).
    expect(service.list().links[0]).toMatchObject({ status: 'draft', outcomeUnknown: true });
    await expect(link({ amount: '999', order_id: 'O3', draftId: draft.id })).rejects.toThrow(/being created/);
    expect(() => service.saveDraft({ id: draft.id, kind: 'card', hotelId: 'H1', typed: { order_id: 'ZZ' } })).toThrow(
      /being created/,
    );
    expect(() => service.deleteDraft(draft.id)).toThrow(/being created/);
    // A new link with the same order id: it may be in use already, so it is refused here.
    const same = await link({ amount: '20', order_id: 'O2' });
    expect(same.error?.fields?.order_id).toMatch(/already used/);
    gated.open();
    const made = await first;
    expect(made.link).toMatchObject({
      id: draft.id,
      status: 'requested',
      amount: '10.00',
      orderId: 'O2',
      outcomeUnknown: false,
    });
    expect((await su.requestsTo('/service/api/paycard')).map((r) => (r.body as { order_id: string }).order_id)).toEqual(
      ['O2'],
    );
  });

  it('a link made while the owner switches provider stays with the provider it was made on', async () => {
    const gated = gatedHost();
    host = () => gated.host;
    const pending = link({ order_id: 'SW-1' });
    active = 'sandbox';
    gated.open();
    const made = await pending;
    expect(made.error).toBeNull();
    expect(made.link.status).toBe('requested');
    expect(service.list().links).toEqual([]);
    active = 'demo';
    expect(service.list().links.map((l) => [l.orderId, l.status])).toEqual([['SW-1', 'requested']]);
  });

  it('paid is final: a later answer about another transaction id does not take it back', async () => {
    const { link: made } = await link({ order_id: 'P-1' });
    await su.control.completeTransaction(made.transactionId!);
    expect((await service.checkNow(made.id)).status).toBe('paid');
    const after = await service.setTransaction(made.id, 'TXN-WRONG');
    expect(after).toMatchObject({ status: 'paid', paidAmount: '45.50' });
    expect(after.checkError?.message).toMatch(/invalid/);
    expect(paid.flat()).toHaveLength(1);
  });

  it('a transaction id entered while a check of the old one is out: the old answer is not filed, the new id is asked', async () => {
    const { link: made } = await link({ order_id: 'T-1' });
    const other = await link({ order_id: 'T-2' });
    await su.control.completeTransaction(other.link.transactionId!);
    const gated = gatedHost();
    host = () => gated.host;
    const oldCheck = service.checkNow(made.id);
    const entering = service.setTransaction(made.id, other.link.transactionId!);
    host = () => su.client.payments;
    gated.open();
    await oldCheck;
    const entered = await entering;
    expect(entered).toMatchObject({
      transactionId: other.link.transactionId,
      transactionSource: 'owner',
      status: 'paid',
    });
  });
});
