import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator } from '../../src/emulator/emulator';
import { startListener } from '../../src/main/intake/listener';
import { indexPendingMessages } from '../../src/main/inbox/messageIndex';
import { fixtureText } from '../support/fixtures';
import { tempDir } from '../support/tempDir';
import { PUSH_PASSWORD, PUSH_USER, startPushTarget } from '../support/pushTarget';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import type { IngestResult } from '../../src/main/intake/ingest';
import type { FiledMessage } from '../../src/main/inbox/fileMessage';

/** The id of the message a delivery filed. */
const messageIdOf = (result: IngestResult): number => (result.filed as FiledMessage).messageId;

const message244 = () => JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
const review19 = () => JSON.parse(fixtureText('push-review-19.json')) as Record<string, unknown>;
const legacy = {
  channel_id: '244',
  hotelcode: 'IK-DEMO-001',
  bookingid: 'HMABC123',
  review: {
    action: 'review_published',
    reviewid: 'RV-1',
    reviewer_role: 'guest',
    public_review: 'Spotless and quiet',
    private_feedback: 'More towels',
    submitted: true,
  },
};

let t: Awaited<ReturnType<typeof startPushTarget>>;
beforeEach(async () => {
  t = await startPushTarget();
});
afterEach(() => t.stop());

describe('the partner endpoint acknowledges only what it stored', () => {
  it('a guest message is stored with its thread and acknowledged with both status keys', async () => {
    const response = await t.post(message244());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'Success', Status: 'Success' });
    const thread = t.database.db
      .prepare('SELECT channel, thread_key, unread, needs_reply, guest, booking FROM threads')
      .get() as Record<string, string>;
    expect(thread).toMatchObject({ channel: '244', thread_key: '991462322', unread: 1, needs_reply: 1 });
    expect(JSON.parse(thread.guest!)).toMatchObject({ firstName: 'Chris', location: 'England, United Kingdom' });
    expect(JSON.parse(thread.booking!)).toMatchObject({
      nights: 4,
      confirmationCode: 'ABCAJKYSJ8',
      listingName: 'Modern housewith Parking',
    });
    expect(t.database.db.prepare('SELECT author, body FROM messages').all()).toEqual([
      { author: 'guest', body: 'Hello, How are you? How acan we help you.?' },
    ]);
    // Its text waits, stored with it, for the search index's next batch (messageIndex.ts), which finds it then.
    const indexed = () =>
      t.database.db.prepare("SELECT rowid & 1 AS odd FROM thread_search WHERE thread_search MATCH 'acan'").all();
    expect(t.database.db.prepare('SELECT count(*) AS n FROM message_text_pending').get()).toEqual({ n: 1 });
    expect(indexed()).toHaveLength(0);
    expect(indexPendingMessages(t.database.db)).toEqual({ messages: 1, threads: 1 });
    expect(indexed()).toHaveLength(1);
  });

  it('a current review and a legacy review are stored as reviews', async () => {
    expect((await t.post(review19())).status).toBe(200);
    expect((await t.post(legacy)).status).toBe(200);
    const rows = t.database.db.prepare('SELECT kind, channel, provider_review_id FROM reviews ORDER BY id').all();
    expect(rows).toEqual([
      { kind: 'current', channel: '19', provider_review_id: '19_HJDHDH' },
      { kind: 'legacy', channel: '244', provider_review_id: 'RV-1' },
    ]);
  });

  it('every push is logged raw, exactly as received', async () => {
    const raw = JSON.stringify(message244(), null, 3);
    await t.post(raw);
    expect(t.database.db.prepare('SELECT body, kind, outcome FROM push_log').get()).toEqual({
      body: raw,
      kind: 'message',
      outcome: 'stored',
    });
  });
});

describe('duplicates and order', () => {
  it('a repost is acknowledged and stored once', async () => {
    for (let i = 0; i < 3; i++) expect((await t.post(message244())).status).toBe(200);
    expect(t.count('messages')).toBe(1);
    expect(t.count('push_log')).toBe(3);
    expect(
      t.database.db
        .prepare('SELECT outcome FROM push_log ORDER BY id')
        .all()
        .map((r) => (r as { outcome: string }).outcome),
    ).toEqual(['stored', 'duplicate', 'duplicate']);
  });

  it('ten identical pushes at once: ten acknowledgements, one message, one unread', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.post(message244())));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(t.count('messages')).toBe(1);
    expect(t.database.db.prepare('SELECT unread FROM threads').get()).toEqual({ unread: 1 });
  });

  it('the same review pushed again with an older status does not overwrite the newer one', async () => {
    await t.post({ ...review19(), review_status: 'published' });
    await t.post({ ...review19(), review_status: 'created' });
    const detail = JSON.parse((t.database.db.prepare('SELECT detail FROM reviews').get() as { detail: string }).detail);
    expect(detail.status).toBe('published');
  });

  it('a message for an unknown thread creates it; later details complete it without erasing', async () => {
    const bare = {
      message: 'Is parking free?',
      guestid: 'g1',
      bookingid: 'B-77',
      listingid: 'L1',
      bookingflag: 'B',
      messageid: 'm-1',
      channel_id: '19',
      threadid: 'B-77',
    };
    await t.post(bare);
    await t.post({ ...bare, messageid: 'm-2', message: 'Thanks!', hotelid: 'IK-DEMO-001' });
    const thread = t.database.db.prepare('SELECT hotel_id, unread, last_preview FROM threads').get();
    expect(thread).toEqual({ hotel_id: 'IK-DEMO-001', unread: 2, last_preview: 'Thanks!' });
  });

  it('a host echo (message_type property) is stored as the owner’s own and needs no reply', async () => {
    await t.post({ ...message244(), messageid: 'echo-1', message_type: 'property', message: 'See you soon' });
    expect(t.database.db.prepare('SELECT author FROM messages').get()).toEqual({ author: 'host' });
    expect(t.database.db.prepare('SELECT unread, needs_reply FROM threads').get()).toEqual({
      unread: 0,
      needs_reply: 0,
    });
  });
});

describe('bad input is kept, never lost', () => {
  it('JSON that fits no kind is quarantined and acknowledged', async () => {
    const response = await t.post({ hello: 'world' });
    expect(response.status).toBe(200);
    expect(t.count('quarantine')).toBe(1);
    expect(t.database.db.prepare('SELECT outcome, body FROM push_log').get()).toEqual({
      outcome: 'quarantined',
      body: '{"hello":"world"}',
    });
  });

  it('a message missing required fields is quarantined with the reason', async () => {
    const { messageid: _drop, ...noId } = message244();
    await t.post(noId);
    expect((t.database.db.prepare('SELECT reason FROM quarantine').get() as { reason: string }).reason).toMatch(
      /messageid/,
    );
  });

  it('a body that is not JSON gets 400 and is still logged', async () => {
    const response = await t.post('{"message": "cut off', { 'content-type': 'text/plain' });
    expect(response.status).toBe(400);
    expect(t.database.db.prepare('SELECT outcome, body FROM push_log').get()).toEqual({
      outcome: 'not-json',
      body: '{"message": "cut off',
    });
  });

  it('a body over the limit gets 413 and nothing is stored', async () => {
    const big = { ...message244(), message: 'x'.repeat(1024 * 1024 + 10) };
    expect((await t.post(big)).status).toBe(413);
    expect(t.count('push_log')).toBe(0);
  });
});

describe('authentication before anything else', () => {
  it.each([
    ['no credentials', {}],
    ['a wrong password', { authorization: `Basic ${Buffer.from(`${PUSH_USER}:nope`).toString('base64')}` }],
    ['a wrong user', { authorization: `Basic ${Buffer.from(`x:${PUSH_PASSWORD}`).toString('base64')}` }],
    ['a malformed header', { authorization: 'Basic !!!' }],
    ['another scheme', { authorization: 'Bearer abc' }],
  ])('%s: 401, and nothing reaches the database', async (_name, headers) => {
    const response = await fetch(t.receiver.localUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(message244()),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Basic');
    expect(t.count('push_log')).toBe(0);
  });

  it('a wrong password is refused before the body is read (a huge body is not even accepted)', async () => {
    const response = await fetch(t.receiver.localUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic eDp5' },
      body: 'x'.repeat(5 * 1024 * 1024),
    });
    expect(response.status).toBe(401);
  });
});

describe('bounded and loopback only', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(t.receiver.app.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('failed logins are throttled, so guessing the password is slowed; the right password is still served', async () => {
    await t.stop();
    t = await startPushTarget({ limits: { failedPerClient: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await t.post(message244(), {
            authorization: `Basic ${Buffer.from(`${PUSH_USER}:guess-${i}`).toString('base64')}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // A request with valid credentials is never throttled: a flood of failed logins must not drop Su's pushes.
    expect((await t.post(message244())).status).toBe(200);
  });

  it('a port already in use is a clear error naming the port field', async () => {
    await expect(
      startListener({
        database: t.database,
        filers: INBOX_FILERS,
        port: t.receiver.port,
        credentials: () => [{ username: 'a', password: 'b' }],
      }),
    ).rejects.toMatchObject({ error: { code: 'port_in_use', field: 'pushPort' } });
  });

  it('notifications run only once the push is committed, outside the request, with what was stored', async () => {
    await t.stop();
    const seenAtCallback: unknown[] = [];
    t = await startPushTarget({
      onIngested: (result) => {
        // A second connection reading the file sees the row: it was committed before the callback ran.
        const reader = openAppDatabase(t.database.path);
        seenAtCallback.push(reader.db.prepare('SELECT id FROM messages WHERE id = ?').get(messageIdOf(result)));
        reader.close();
      },
    });
    const response = await t.post(message244());
    expect(response.status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expect(seenAtCallback).toEqual([{ id: expect.any(Number) }]);
  });
});

describe('a write that fails is not acknowledged', () => {
  it('answers 503 so the provider reposts, and accepts the repost once writing works again', async () => {
    t.database.db.exec('PRAGMA query_only = ON');
    const refused = await t.post(message244());
    expect(refused.status).toBe(503);
    t.database.db.exec('PRAGMA query_only = OFF');
    expect(t.count('push_log')).toBe(0);
    expect((await t.post(message244())).status).toBe(200);
    expect(t.count('messages')).toBe(1);
  });
});

describe('pushes from the emulator', () => {
  it('messages on 244, 19 and 9, a current review and a legacy review are each acknowledged on the first attempt', async () => {
    const emulator = await startEmulator();
    try {
      const control = createEmulatorControl(emulator);
      await control.setPartner({ url: t.receiver.localUrl, username: PUSH_USER, password: PUSH_PASSWORD });
      const outcomes = [
        await control.push({ kind: 'message', channel: '244' }),
        await control.push({ kind: 'message', channel: '19' }),
        await control.push({ kind: 'message', channel: '9' }),
        await control.push({ kind: 'review', channel: '19' }),
        await control.push({ kind: 'legacy-review', channel: '244' }),
      ];
      expect(outcomes.map((o) => [o.acknowledged, o.attempts.length])).toEqual(Array(5).fill([true, 1]));
      expect(t.count('messages')).toBe(3);
      expect(t.count('reviews')).toBe(2);
      expect(t.count('quarantine')).toBe(0);
      const threads = t.database.db.prepare('SELECT channel FROM threads ORDER BY channel').all();
      expect(threads).toEqual([{ channel: '19' }, { channel: '244' }, { channel: '9' }]);
    } finally {
      await emulator.close();
    }
  });
});

describe('legacy reviews and bookings', () => {
  it('a legacy review in a thread without a booking (flag T) is not taken as from a guest with a booking', async () => {
    await t.post({
      ...legacy,
      bookingflag: 'T',
      bookingid: 'THREAD-1',
      review: { ...legacy.review, reviewid: 'RV-T' },
    });
    await t.post({
      ...legacy,
      bookingflag: 'B',
      bookingid: 'HM-BOOKED',
      review: { ...legacy.review, reviewid: 'RV-B' },
    });
    const rows = t.database.db.prepare('SELECT provider_review_id, detail FROM reviews ORDER BY id').all() as {
      provider_review_id: string;
      detail: string;
    }[];
    expect(rows.map((r) => [r.provider_review_id, JSON.parse(r.detail).bookingId])).toEqual([
      ['RV-T', null],
      ['RV-B', 'HM-BOOKED'],
    ]);
  });
});

describe('late and partial reposts', () => {
  it('a repost of an early inquiry message does not turn a booked thread back into an inquiry', async () => {
    const inquiry = {
      ...message244(),
      messageid: 'early',
      bookingflag: 'T',
      bookingid: '991462322',
      booking_details: null,
    };
    const booked = { ...message244(), messageid: 'later', bookingflag: 'B' };
    await t.post(inquiry);
    await t.post(booked);
    await t.post(inquiry);
    expect(t.database.db.prepare('SELECT booking_flag, booking_id FROM threads').get()).toEqual({
      booking_flag: 'B',
      booking_id: 'ABCAJKYSJ8',
    });
  });

  it('a legacy review event that adds the public text is stored, keeping what earlier events said', async () => {
    await t.post({
      ...legacy,
      review: { action: 'review_submitted', reviewid: 'RV-9', reviewer_role: 'guest', private_feedback: 'More towels' },
    });
    await t.post({
      ...legacy,
      review: { action: 'review_published', reviewid: 'RV-9', public_review: 'Lovely stay, very clean' },
    });
    const detail = JSON.parse((t.database.db.prepare('SELECT detail FROM reviews').get() as { detail: string }).detail);
    expect(detail).toMatchObject({
      action: 'review_published',
      publicReview: 'Lovely stay, very clean',
      privateFeedback: 'More towels',
      reviewerRole: 'guest',
    });
    expect(
      t.database.db.prepare("SELECT count(*) AS n FROM search_index WHERE search_index MATCH 'lovely'").get(),
    ).toEqual({ n: 1 });
  });

  it('a current review whose eligibility changes at the same status is updated', async () => {
    await t.post({ ...review19(), is_eligible_to_respond: true });
    await t.post({ ...review19(), is_eligible_to_respond: 'N' });
    const detail = JSON.parse((t.database.db.prepare('SELECT detail FROM reviews').get() as { detail: string }).detail);
    expect(detail.eligibleToReply).toBe(false);
  });
});

describe('credentials withdrawn while a delivery is on its way', () => {
  it('a delivery whose credentials stop working before its body is in is refused and filed nowhere', async () => {
    const dir = tempDir('innkeeper-withdrawn-');
    const database = openAppDatabase(join(dir.path, 'innkeeper.db'));
    // As the built-in demo provider's own credentials, withdrawn the moment the owner leaves the demo.
    let accepted = [{ username: 'innkeeper-demo', password: 'demo-only-password-123', source: 'demo' as const }];
    const receiver = await startListener({ database, filers: INBOX_FILERS, port: 0, credentials: () => accepted });
    try {
      const body = JSON.stringify(message244());
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(receiver.localUrl, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from('innkeeper-demo:demo-only-password-123').toString('base64')}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        });
        request.on('response', (response) => resolve(response.statusCode!));
        request.on('error', reject);
        // The headers (and the credentials in them) arrive, then the credentials are withdrawn, then the body.
        request.write(body.slice(0, 10));
        setTimeout(() => {
          accepted = [];
          request.end(body.slice(10));
        }, 200);
      });
      expect(status).toBe(401);
      expect(database.db.prepare('SELECT count(*) AS n FROM push_log').get()).toEqual({ n: 0 });
    } finally {
      await receiver.close();
      database.close();
      dir.remove();
    }
  });
});
