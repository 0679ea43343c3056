import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { createEventBus } from '../../src/main/gateway/events';
import type { InboxCounts, NewMessageEvent } from '../../src/shared/inbox';
import { createDeliveryWriter } from '../../src/main/intake/listener';
import { intakeHandlers } from '../../src/main/intake/handlers';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import { createInboxNews } from '../../src/main/inbox/news';
import type { FiledMessage } from '../../src/main/inbox/fileMessage';
import { createCoreBus } from '../../src/main/bus';
import { createFiledNews } from '../../src/main/intake/filedNews';
import type { IntakeService } from '../../src/main/intake/intakeService';
import type { IntakeStatus } from '../../src/shared/intake';
import { StoreUnavailable, type IngestResult, type PendingDelivery } from '../../src/main/intake/ingest';
import { fixtureText } from '../support/fixtures';
import { startPushTarget } from '../support/pushTarget';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';

/** A guest message with its own message id, so that each is a new message. */
function message(id: string, text = `Message ${id}`): string {
  const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
  return JSON.stringify({ ...body, messageid: id, message: text });
}
const push = (raw: string | Uint8Array, source: 'demo' | null = null): PendingDelivery => ({
  raw,
  now: Date.now(),
  source,
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real database file in a temp folder, its transactions counted (each is one BEGIN IMMEDIATE … COMMIT). */
function store() {
  const dir = tempDir('innkeeper-group-');
  const database: Database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  cleanups.push(() => {
    database.close();
    dir.remove();
  });
  const transactions = vi.spyOn(database, 'transaction');
  const count = (table: string) => (database.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { database, transactions, count };
}

/** Every submission's outcome, without throwing: the result, or the error it was refused with. */
const settle = (submissions: Promise<IngestResult>[]) =>
  Promise.all(
    submissions.map((p) =>
      p.then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      ),
    ),
  );

describe('pushes are acknowledged in groups', () => {
  it('a lone push is committed at once, in a transaction of its own, and answered', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    const transactions = vi.spyOn(t.database, 'transaction');
    expect((await t.post(message('9500000001'))).status).toBe(200);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(t.receiver.writes()).toEqual({ groups: 1, deliveries: 1, largest: 1 });
    expect(t.count('messages')).toBe(1);
    // The next one does not wait for company either: its own transaction again.
    expect((await t.post(message('9500000002'))).status).toBe(200);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(t.receiver.writes()).toEqual({ groups: 2, deliveries: 2, largest: 1 });
  });

  it('pushes that arrive together share one commit; those that come after it form the next', async () => {
    const { database, transactions, count } = store();
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const first = await settle([1, 2, 3, 4].map((i) => writer.submit(push(message(`950000010${i}`)))));
    expect(first.every((o) => 'result' in o && o.result.outcome === 'stored')).toBe(true);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(count('messages')).toBe(4);
    const second = await settle([5, 6].map((i) => writer.submit(push(message(`950000010${i}`)))));
    expect(second.every((o) => 'result' in o && o.result.outcome === 'stored')).toBe(true);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(writer.stats()).toEqual({ groups: 2, deliveries: 6, largest: 4 });
  });

  it('a group with a bad payload, a duplicate and good ones: each filed as if alone, in one transaction', async () => {
    const { database, transactions, count } = store();
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(message('9500000203'))]);
    const bodies: PendingDelivery[] = [
      push(message('9500000201', 'First')),
      push(JSON.stringify({ event: 'booking_modified' })),
      push(message('9500000201', 'First')),
      push('{"not json'),
      push(bom),
      push(message('9500000204', 'From the demo'), 'demo'),
    ];
    const outcomes = await settle(bodies.map((b) => writer.submit(b)));
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(outcomes.map((o) => ('result' in o ? [o.result.outcome, o.result.httpStatus] : 'error'))).toEqual([
      ['stored', 200],
      ['quarantined', 200],
      ['duplicate', 200],
      ['not-json', 400],
      ['stored', 200],
      ['stored', 200],
    ]);
    expect(count('messages')).toBe(3);
    expect(count('quarantine')).toBe(1);
    // Every push's bytes are in the log, in order, byte for byte, with its source.
    const log = database.db.prepare('SELECT body, outcome, source FROM push_log ORDER BY id').all() as {
      body: string | Uint8Array;
      outcome: string;
      source: string | null;
    }[];
    expect(log.map((r) => r.outcome)).toEqual(['stored', 'quarantined', 'duplicate', 'not-json', 'stored', 'stored']);
    expect(log.map((r) => Buffer.from(r.body))).toEqual(bodies.map((b) => Buffer.from(b.raw)));
    expect(log.map((r) => r.source)).toEqual([null, null, null, null, null, 'demo']);
  });

  it('a push that fails on its own is rolled back alone (5xx for it); the rest of its group is stored', async () => {
    const { database, transactions, count } = store();
    // A failure that is not the store's: SQLite refuses this one push's log row (as a bug in filing it would).
    database.db.exec(
      "CREATE TRIGGER refuse_one BEFORE INSERT ON push_log WHEN NEW.body LIKE '%9500000302%' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END",
    );
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const outcomes = await settle(
      ['9500000301', '9500000302', '9500000303'].map((id) => writer.submit(push(message(id)))),
    );
    expect(transactions).toHaveBeenCalledTimes(1);
    expect('result' in outcomes[0]! && outcomes[0].result.outcome).toBe('stored');
    expect(outcomes[1]).toMatchObject({ error: { message: expect.stringMatching(/refused for the test/) } });
    expect('result' in outcomes[2]! && outcomes[2].result.outcome).toBe('stored');
    expect(database.db.prepare('SELECT provider_message_id AS id FROM messages ORDER BY id').all()).toEqual([
      { id: '9500000301' },
      { id: '9500000303' },
    ]);
    expect(count('push_log')).toBe(2);
    expect(database.health.problem()).toBeNull();
  });

  it('a push whose storing fails on its own is quarantined; the rest of its group is stored, in one transaction', async () => {
    const { database, transactions, count } = store();
    // Not the store's fault: SQLite refuses this one message row (as a bug in storing it would).
    database.db.exec(
      "CREATE TRIGGER refuse_one BEFORE INSERT ON messages WHEN NEW.provider_message_id = '9500000352' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END",
    );
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const outcomes = await settle(
      ['9500000351', '9500000352', '9500000353'].map((id) => writer.submit(push(message(id)))),
    );
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(writer.stats()).toMatchObject({ groups: 1, largest: 3 });
    expect(outcomes.map((o) => 'result' in o && o.result.outcome)).toEqual(['stored', 'quarantined', 'stored']);
    expect(outcomes[1]).toMatchObject({
      result: { reason: expect.stringMatching(/could not file this message: .*refused for the test/) },
    });
    expect(database.db.prepare('SELECT provider_message_id AS id FROM messages ORDER BY id').all()).toEqual([
      { id: '9500000351' },
      { id: '9500000353' },
    ]);
    // Each push logged once, with what became of it (the group's first, quick attempt left nothing behind).
    expect(database.db.prepare('SELECT outcome FROM push_log ORDER BY id').all()).toEqual([
      { outcome: 'stored' },
      { outcome: 'quarantined' },
      { outcome: 'stored' },
    ]);
    expect(count('quarantine')).toBe(1);
    expect(count('message_text_pending')).toBe(2); // the texts to index: the failed push's is not among them
  });

  it('a store fault mid-group refuses every push of the group and keeps none of it', async () => {
    const { database, count } = store();
    const { db } = database;
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    expect(await writer.submit(push(message('9500000400')))).toMatchObject({ outcome: 'stored' });
    // Free pages for small pushes, and the file may not grow any more (as on a full disk): a big one cannot fit.
    db.exec('CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (zeroblob(16000)); DROP TABLE filler');
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    const small1 = message('9500000401', 'Small one');
    const big = message('9500000402', 'x'.repeat(40_000));
    const small2 = message('9500000403', 'Small two');

    const outcomes = await settle([small1, big, small2].map((b) => writer.submit(push(b))));
    expect(writer.stats().largest).toBe(3);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ error: { errcode: 13 } });
    expect(count('messages')).toBe(1);
    expect(count('push_log')).toBe(1);
    expect(count('quarantine')).toBe(0);
    expect(database.health.problem()).toMatchObject({ kind: 'cannot-write', reason: expect.stringMatching(/full/) });

    // The small ones fit under the same cap: the group failed at the big one, and the first was rolled back with it.
    const again = await settle([small1, small2].map((b) => writer.submit(push(b))));
    expect(again.map((o) => 'result' in o && o.result.outcome)).toEqual(['stored', 'stored']);
    expect(db.prepare('SELECT provider_message_id AS id FROM messages ORDER BY provider_message_id').all()).toEqual([
      { id: '9500000400' },
      { id: '9500000401' },
      { id: '9500000403' },
    ]);
    expect(database.health.problem()).toBeNull();
  });

  it('a damaged store refuses the whole group before writing anything', async () => {
    const { database, transactions, count } = store();
    database.health.markDamaged('the data file failed its integrity check (test)');
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const outcomes = await settle(['9500000501', '9500000502'].map((id) => writer.submit(push(message(id)))));
    for (const outcome of outcomes) expect('error' in outcome && outcome.error).toBeInstanceOf(StoreUnavailable);
    expect(transactions).not.toHaveBeenCalled();
    expect(count('push_log')).toBe(0);
  });

  it('over HTTP, pushes sent at once are each answered after being stored, and each notified once after', async () => {
    const t = await startPushTarget();
    cleanups.push(() => t.stop());
    const ids = Array.from({ length: 24 }, (_, i) => `95000006${String(i).padStart(2, '0')}`);
    const statuses = await Promise.all(ids.map((id) => t.post(message(id)).then((r) => r.status)));
    expect(statuses).toEqual(ids.map(() => 200));
    expect(t.count('messages')).toBe(24);
    expect(t.receiver.writes().deliveries).toBe(24);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.ingested.map((r) => r.outcome)).toEqual(ids.map(() => 'stored'));
  });

  it('pushes quarantined together tell the screen once: the listener status is read once per group, not per push', async () => {
    const events = createEventBus();
    let reads = 0;
    // The intake service's one member the handlers use after a delivery (the status counts how often it is read).
    const intake = {
      status: () => {
        reads += 1;
        return { quarantined: reads } as unknown as IntakeStatus;
      },
    } as unknown as IntakeService;
    const told: IntakeStatus[] = [];
    events.on('intake.changed', (status) => told.push(status));
    const { changed } = intakeHandlers({ intake, events });
    const { afterFiled: afterPush } = createFiledNews({ bus: createCoreBus(), quarantined: () => changed() });
    const filed = (outcome: IngestResult['outcome']): IngestResult => ({
      httpStatus: 200,
      outcome,
      kind: 'message',
      pushLogId: 1,
    });
    // One group's acknowledgements: each push's afterPush runs in the same turn of the event loop.
    for (const outcome of ['stored', 'quarantined', 'duplicate', 'quarantined'] as const) afterPush(filed(outcome));
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toHaveLength(1);
    expect(reads).toBe(1);
    // Stored or duplicate pushes change nothing the listener's status shows (its quarantine count): not told.
    afterPush(filed('duplicate'));
    afterPush(filed('stored'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toHaveLength(1);
    expect(reads).toBe(1);
    afterPush(filed('quarantined'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toHaveLength(2);
  });

  it('pushes filed together tell the inbox once: counts read once, each conversation named once, each guest message notified', async () => {
    const { database } = store();
    const events = createEventBus();
    const inbox = createInboxQueries(database.db);
    let countReads = 0;
    const counts = inbox.counts.bind(inbox);
    inbox.counts = () => {
      countReads += 1;
      return counts();
    };
    const notified: NewMessageEvent[] = [];
    const unread: number[] = [];
    const news = createInboxNews({
      inbox,
      events,
      notifier: { newMessage: (m) => notified.push(m), unreadCount: (n) => unread.push(n) },
    });
    // As in the core: the intake tells the bus of each group filed, the inbox hears it.
    const bus = createCoreBus();
    bus.on('deliveriesFiled', (results) => news.afterDeliveries(results));
    const filedNews = createFiledNews({ bus, quarantined: () => {} });
    const changes: { threadId: number | null; reviewId: number | null; counts: InboxCounts }[] = [];
    const told: NewMessageEvent[] = [];
    events.on('inbox.changed', (change) => changes.push(change));
    events.on('inbox.newMessage', (m) => told.push(m));

    const other = JSON.stringify({ ...JSON.parse(message('9500000802', 'Second thread')), threadid: 'other-thread' });
    const writer = createDeliveryWriter(database, INBOX_FILERS);
    const outcomes = await settle(
      [message('9500000801', 'First'), other, message('9500000803', 'Third, same thread as the first')].map((b) =>
        writer.submit(push(b)),
      ),
    );
    expect(writer.stats().groups).toBe(1);
    for (const outcome of outcomes) if ('result' in outcome) filedNews.afterFiled(outcome.result);
    expect(changes).toHaveLength(0); // told in the next turn, with the rest of its group
    await new Promise((resolve) => setImmediate(resolve));

    expect(countReads).toBe(1);
    const [first, second] = outcomes.map((o) => ('result' in o ? (o.result.filed as FiledMessage).threadId : 0));
    expect(changes.map((c) => c.threadId)).toEqual([first, second]);
    for (const change of changes) expect(change.counts).toMatchObject({ unreadThreads: 2, unreadReviews: 0 });
    expect(unread).toEqual([2]);
    // Each guest message notified with its own words and who wrote it, in the order they came.
    const expected = [
      { threadId: first, channelName: 'Airbnb', guestName: 'Chris', preview: 'First' },
      { threadId: second, channelName: 'Airbnb', guestName: 'Chris', preview: 'Second thread' },
      { threadId: first, channelName: 'Airbnb', guestName: 'Chris', preview: 'Third, same thread as the first' },
    ];
    expect(told).toEqual(expected);
    expect(notified).toEqual(expected);

    // Once the core closes, news still to come is dropped (its database is about to close).
    const again = outcomes[0]!;
    if ('result' in again) filedNews.afterFiled(again.result);
    filedNews.stop();
    news.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(countReads).toBe(1);
  });
});
