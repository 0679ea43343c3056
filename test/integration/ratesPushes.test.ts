import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { createOutbox } from '../../src/main/outbox/outbox';
import { ratesSender } from '../../src/main/rates/pushes';
import { createRatesService, RATES_KIND, type RatesKinds } from '../../src/main/rates/ratesService';
import type { InvRateControl } from '../../src/shared/su/inventory';
import { AppFailure } from '../../src/shared/result';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

// The rates service on a real SQLite file and a real outbox, with a sender the test answers for Su: it decides
// when a push is confirmed, and what day it is when the push goes out.

const HOTEL = 'IK-TEST-1';
const TODAY = '2030-03-10';
const BAR = { level: 'rate', roomId: 'DBL', rateId: 'BAR' } as const;
const fixed = (value: number, from = TODAY, to = from) => ({
  target: BAR,
  from,
  to,
  channels: ['19'],
  rule: { type: 'Fixed' as const, value },
});

let dir: ReturnType<typeof tempDir>;
let database: Database;
let stops: (() => Promise<void>)[] = [];
/** What the sender received; `answer()` confirms the oldest waiting one. */
let received: InvRateControl[];
let waiting: (() => void)[];
let clock: { today: string };
/** While true, Su answers "busy, try again" (the push waits and is retried). */
let busy: boolean;

function start() {
  // As in the core: the outbox's kinds are a live record, the rates kind added once the service exists.
  const kinds = {} as RatesKinds;
  const outbox = createOutbox({
    db: database,
    now: Date.now,
    random: Math.random,
    backoff: { baseMs: 40, capMs: 80 },
    kinds,
  });
  const service = createRatesService({ database, outbox, now: Date.now, today: () => clock.today });
  kinds[RATES_KIND] = service.outboxKind(
    ratesSender(
      async (request) => {
        if (busy) throw new AppFailure({ code: 'server', message: 'Su is busy.', retryable: true });
        return new Promise((resolve) => {
          received.push(request);
          waiting.push(() => resolve({ Success: 'Success' }));
        });
      },
      () => clock.today,
    ),
    () => {},
  );
  service.recover();
  outbox.start();
  stops.push(() => outbox.stop());
  return { service, outbox };
}

const answer = () => waiting.shift()!();
const historyOf = (service: ReturnType<typeof createRatesService>) => service.history(HOTEL);

beforeEach(() => {
  dir = tempDir();
  database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  received = [];
  waiting = [];
  clock = { today: TODAY };
  busy = false;
  stops = [];
});
afterEach(async () => {
  for (const stop of stops) await stop();
  database.close();
  dir.remove();
});

describe('a rates push and its draft', () => {
  it('Su’s confirmation clears the draft revision the push was made from, never one edited since', async () => {
    const { service } = start();
    service.saveDraft({ hotelId: HOTEL, name: 'March', edits: [fixed(90)] });
    const first = service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => received.length,
      (n) => n === 1,
    );
    // Edited while Su has not answered yet: the confirmation of the first push must not take this away.
    service.saveDraft({ hotelId: HOTEL, name: 'March, more', edits: [fixed(90), fixed(95, '2030-03-11')] });
    answer();
    await eventually(
      async () => historyOf(service).find((p) => p.id === first.pushId)!,
      (p) => p.appliedAt !== null,
    );
    expect(service.draft(HOTEL)).toMatchObject({ name: 'March, more' });

    const second = service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => received.length,
      (n) => n === 2,
    );
    answer();
    await eventually(
      async () => historyOf(service).find((p) => p.id === second.pushId)!,
      (p) => p.appliedAt !== null,
    );
    expect(service.draft(HOTEL)).toEqual({ name: '', edits: [], updatedAt: null });
  });

  it('a push that waited overnight sends only the days to come; one with no day left fails, saying why', async () => {
    const { service } = start();
    service.saveDraft({ hotelId: HOTEL, edits: [fixed(90, TODAY, '2030-03-12')] });
    service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => received.length,
      (n) => n === 1,
    );
    answer();
    await eventually(
      async () => historyOf(service)[0]!,
      (p) => p.appliedAt !== null,
    );

    // Queued on the 10th for the 11th and 12th while Su is busy, sent on the 12th: only the 12th goes out.
    service.saveDraft({ hotelId: HOTEL, edits: [fixed(70, '2030-03-11', '2030-03-12')] });
    busy = true;
    const { pushId } = service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => historyOf(service)[0]!,
      (p) => p.id === pushId && p.state === 'queued' && p.error !== null,
    );
    clock.today = '2030-03-12';
    busy = false;
    await eventually(
      async () => received.length,
      (n) => n === 2,
    );
    expect(received[1]!.ratecontrol![0]!.date).toEqual([
      { from: '2030-03-12', to: '2030-03-12', OTARule: [{ OTACode: [19], rule: { type: 'Fixed', value: '70' } }] },
    ]);
    answer();
    await eventually(
      async () => historyOf(service).find((p) => p.id === pushId)!,
      (p) => p.appliedAt !== null,
    );

    // No day left by the time Su answers: nothing is sent, and the push says so.
    clock.today = '2030-03-12';
    service.saveDraft({ hotelId: HOTEL, edits: [fixed(60, '2030-03-12', '2030-03-13')] });
    busy = true;
    const late = service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => historyOf(service)[0]!,
      (p) => p.id === late.pushId && p.error !== null,
    );
    clock.today = '2030-03-14';
    busy = false;
    const failed = await eventually(
      async () => historyOf(service).find((p) => p.id === late.pushId)!,
      (p) => p.state === 'failed',
    );
    expect(failed.error?.message).toBe('Every day of this push has passed, so nothing was sent to Su. Discard it.');
    expect(received).toHaveLength(2);
  });

  it('a push Su confirmed just before the app stopped is in the record when it starts again', async () => {
    const { service } = start();
    service.saveDraft({ hotelId: HOTEL, edits: [fixed(90)] });
    const { pushId } = service.push(HOTEL, false, service.preview(HOTEL).fingerprint);
    await eventually(
      async () => received.length,
      (n) => n === 1,
    );
    answer();
    await eventually(
      async () => historyOf(service)[0]!,
      (p) => p.appliedAt !== null,
    );
    // As if the app had stopped between the outbox's commit of "sent" and the record's.
    database.db.prepare('UPDATE rate_pushes SET applied_at = NULL WHERE id = ?').run(pushId);
    database.db.prepare('DELETE FROM rate_rules').run();
    for (const stop of stops.splice(0)) await stop();

    const again = start().service;
    expect(again.book(HOTEL).book).toEqual({ 'rate:DBL:BAR': { [TODAY]: { '19': { type: 'Fixed', value: 90 } } } });
    expect(again.history(HOTEL)[0]!.appliedAt).not.toBeNull();
  });
});
