import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { Database } from '../../src/main/db/database';
import { createNoticesService, NOTICE_TIMING, safeActionUrl } from '../../src/main/notices/noticesService';
import type { ContractEvents } from '../../src/shared/contract';
import type { Notice } from '../../src/shared/notices';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { connectionFeature } from '../../src/main/connection/feature';

// Airbnb notices fetched from the demo provider's emulator (Su's notificationAB) into a real SQLite file.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const control = () => createEmulatorControl(ctx!.emulator());
const HARBOUR = 'IK-DEMO-001';

beforeEach(async () => {
  ctx = await startTestCore();
  await eventually(
    () => call('rates.properties', {}),
    (p) => p.length >= 2,
  );
});
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});

describe('through the core', () => {
  it('fetches each property’s notices once, keeps them deduplicated, and tells the renderer what is new', async () => {
    const events: ContractEvents['notices.changed'][] = [];
    ctx!.core.events.on('notices.changed', (e) => events.push(e));
    const first = await call('notices.checkNow', { hotelId: HARBOUR });
    expect(first.notices.map((n) => n.notificationId).sort()).toEqual(['ntf-1001', 'ntf-1002']);
    expect(first.accounts.map((a) => [a.accountId, a.ok])).toEqual([
      ['80412233', true],
      ['80412290', true],
    ]);
    expect(first.notices[0]).toMatchObject({ hotelId: HARBOUR, accountId: '80412233', seenAt: null });
    // Listed again by Su: still one row each.
    const again = await call('notices.checkNow', { hotelId: HARBOUR });
    expect(again.notices.map((n) => n.id).sort()).toEqual(first.notices.map((n) => n.id).sort());

    await control().notifications({
      hotelid: HARBOUR,
      account: '80412290',
      notification: {
        notification_id: 'ntf-new',
        notification_type: 'PAYOUT',
        title: 'Payout on hold',
        cta_url: 'https://www.airbnb.com/users/payout_methods',
      },
    });
    events.length = 0;
    const third = await call('notices.checkNow', { hotelId: HARBOUR });
    expect(third.notices.filter((n) => n.notificationId === 'ntf-new')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      added: [expect.objectContaining({ notificationId: 'ntf-new', title: 'Payout on hold' })],
    });
    const unseen = third.unseen;

    const opened = third.notices.find((n) => n.notificationId === 'ntf-new')!;
    expect(await call('notices.open', { id: opened.id })).toEqual({
      url: 'https://www.airbnb.com/users/payout_methods',
    });
    expect((await call('notices.list', {})).unseen).toBe(unseen - 1);
    expect(await call('notices.markSeen', { hotelId: HARBOUR })).toMatchObject({ unseen: expect.any(Number) });
    expect((await call('notices.list', { hotelId: HARBOUR })).notices.every((n) => n.seenAt !== null)).toBe(true);
  });

  it('a failing account is shown on that account; the others still arrive', async () => {
    await control().notifications({ hotelid: HARBOUR, account: '80412290', failure: 'Airbnb account disconnected' });
    const view = await call('notices.checkNow', { hotelId: HARBOUR });
    expect(view.accounts).toEqual([
      expect.objectContaining({ accountId: '80412233', ok: true, message: null }),
      expect.objectContaining({ accountId: '80412290', ok: false, message: 'Airbnb account disconnected' }),
    ]);
    expect(view.notices.length).toBeGreaterThanOrEqual(2);
    expect(view.checks[0]).toMatchObject({ hotelId: HARBOUR, error: null, lastOkAt: expect.any(Number) });
  });

  it('a notice added from the demo controls is there when the delivery answers, with a badge count', async () => {
    await call('notices.checkNow', {});
    const before = (await call('notices.list', {})).unseen;
    const result = await call('demo.deliver', { kind: 'notice', hotelId: HARBOUR });
    expect(result).toMatchObject({ acknowledged: true, summary: expect.stringMatching(/Harbour View Guesthouse/) });
    expect((await call('notices.list', {})).unseen).toBe(before + 1);
  });

  it('only properties with Airbnb are checked', async () => {
    await call('rates.saveSetup', { hotelId: 'NO-AIRBNB', name: 'Town House', channels: ['19'], rooms: [] });
    expect((await call('notices.list', {})).hotelIds).not.toContain('NO-AIRBNB');
    expect(await dispatch('notices.checkNow', { hotelId: 'NO-AIRBNB' })).toMatchObject({
      ok: false,
      error: { field: 'hotelId', message: expect.stringMatching(/no Airbnb channel/) },
    });
  });
});

describe('the schedule', () => {
  let dir: ReturnType<typeof tempDir>;
  let database: Database;
  beforeEach(() => {
    dir = tempDir();
    database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  });
  afterEach(() => {
    database.close();
    dir.remove();
  });

  it('waits longer after each failure, checks one property at a time, and is back on time after a success', async () => {
    let clock = 1_000_000;
    const hotels = [HARBOUR, 'NOPE-1'];
    let inFlight = 0;
    let most = 0;
    let offline = false;
    const provider = ctx!.core.use(connectionFeature).connection.provider();
    const service = createNoticesService({
      database,
      now: () => clock,
      properties: () => hotels,
      provider: () => 'demo',
      offline: () => offline,
      fetch: async (hotelId) => {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          return await provider.notifications.fetch({ hotelid: hotelId });
        } finally {
          inFlight--;
        }
      },
    });
    expect(await service.checkDue()).toBe(2);
    expect(most).toBe(1);
    const checks = () => Object.fromEntries(service.list().checks.map((c) => [c.hotelId, c]));
    // Su's whole-call failure for an unknown property (code 400), with when it last worked (never).
    expect(checks()['NOPE-1']).toMatchObject({
      lastOkAt: null,
      error: { providerCode: '400' },
      nextAt: clock + NOTICE_TIMING.everyMs,
    });
    expect(checks()[HARBOUR]).toMatchObject({ lastOkAt: clock, error: null, nextAt: clock + NOTICE_TIMING.everyMs });

    clock += NOTICE_TIMING.everyMs;
    expect(await service.checkDue()).toBe(2);
    expect(checks()['NOPE-1']!.nextAt).toBe(clock + 2 * NOTICE_TIMING.everyMs);
    clock += NOTICE_TIMING.everyMs;
    // Only the one that works is due now; the failing one waits twice as long.
    expect(await service.checkDue()).toBe(1);
    for (let i = 0; i < 8; i++) {
      clock = checks()['NOPE-1']!.nextAt!;
      await service.checkDue();
    }
    expect(checks()['NOPE-1']!.nextAt! - clock).toBe(NOTICE_TIMING.maxBackoffMs);
    // While Su is known to be unreachable nothing is tried, and nothing counts as a failure.
    offline = true;
    clock += 24 * 3600_000;
    const tried = checks()[HARBOUR]!.lastTriedAt;
    expect(await service.checkDue()).toBe(0);
    expect(checks()[HARBOUR]!.lastTriedAt).toBe(tried);
    offline = false;
    expect(await service.checkDue()).toBe(2);
    // Checked over and over: the two notices are still two rows.
    expect(service.list(HARBOUR).notices).toHaveLength(2);
  });

  it('offers a call to action only as an https address', () => {
    expect(safeActionUrl('https://www.airbnb.com/verify')).toBe('https://www.airbnb.com/verify');
    for (const bad of [
      'javascript:alert(1)',
      'http://www.airbnb.com/x',
      '/hosting',
      'https://user:pw@evil.example/',
      '',
    ])
      expect(safeActionUrl(bad)).toBeNull();
  });
});

export type { Notice };
