import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/main/db/database';
import { CHECK_TIMING } from '../../src/main/payments/checks';
import { createPaymentsService, type PaymentsService } from '../../src/main/payments/paymentsService';
import { createProviderClient } from '../../src/main/provider/client';
import { partnerEntrySchema, cardLinkInputSchema, type PaymentLinkEntry } from '../../src/shared/payments';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { startClientOnEmulator } from '../support/clientOnEmulator';
import { tempDir } from '../support/tempDir';

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
  database = openDatabase(join(dir.path, 'innkeeper.db'));
  clock = Date.parse('2026-11-23T10:00:00Z');
  host = () => su.client.payments;
  paid = [];
  service = createPaymentsService({
    database,
    now: () => clock,
    provider: () => 'sandbox',
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

describe('when the host cannot be reached', () => {
  it('keeps the link as a draft with what was typed, and creates it from the draft once the host is back', async () => {
    host = () => clientAt('http://127.0.0.1:1');
    const offline = await link({ order_id: 'OFF-1', forWhom: 'Anna', customer_email: 'anna@example.com' });
    expect(offline.error).toMatchObject({ code: 'network', retryable: true });
    expect(offline.link).toMatchObject({ status: 'draft', outcomeUnknown: false, amount: '45.50' });
    expect(offline.link.typed).toMatchObject({
      amount: '45.50',
      order_id: 'OFF-1',
      forWhom: 'Anna',
      customer_email: 'anna@example.com',
    });
    expect((await su.requestsTo('/service/api/paycard')).length).toBe(0);

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
