import { afterEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { openDatabase } from '../../src/main/db/database';
import { MIGRATIONS } from '../../src/main/schema';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import { indexBeforeSearch } from '../../src/main/inbox/messageIndex';
import { ID_MASK } from '../../src/main/inbox/threadWords';
import { threadQuerySchema } from '../../src/shared/inbox';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

// Issue 15, search in a blink: what a conversation or review is about (guest names, booking numbers, confirmation
// codes, property names) is in full-text indexes kept current, and a message's text is found by thread from the
// index alone (since issue 27, one row per conversation: its messages' words and its facts with their suffixes). These tests look in the indexes themselves (found THROUGH the index, not by a scan) and
// through the contract, on a real core and emulator.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const core = () => ctx!;
const { call } = contractClient(() => core().core.dispatcher);
const control = () => createEmulatorControl(core().emulator());
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});

/**
 * The conversations whose row in the search index (thread_search, one per conversation) finds `part` as the start
 * of one of its words: of a word of its messages, or of any suffix of what it is about. What waits is indexed first,
 * as a search does.
 */
const factsHit = (part: string) => {
  const db = core().core.db.db;
  indexBeforeSearch(db);
  return (
    db
      .prepare(`SELECT rowid & ${ID_MASK} AS id FROM thread_search WHERE thread_search MATCH ? ORDER BY rowid DESC`)
      .all(`"${part}"*`) as { id: number }[]
  ).map((r) => r.id);
};

const found = async (search: string) => (await call('inbox.threads', { search })).threads.map((t) => t.id);

async function nameProperty(hotelId: string, name: string) {
  const setup = (await call('rates.properties')).find((s) => s.hotelId === hotelId) ?? {
    hotelId,
    channels: ['19'],
    rooms: [],
  };
  await call('rates.saveSetup', { ...setup, name });
}

/** An Airbnb guest by the name given, in the thread given. */
const airbnbGuest = (threadid: string, firstName: string, message: string, extra: Record<string, unknown> = {}) =>
  control().push({
    kind: 'message',
    channel: '244',
    threadid,
    hotelid: 'IK-DEMO-001',
    message,
    guestid: '7001',
    user_details: {
      roles: [{ role: 'guest', user_ids: [7001] }],
      users: [{ id: 7001, first_name: firstName, location: 'Oslo, Norway', preferred_locale: 'nb' }],
    },
    ...extra,
  });

describe('the facts are found through the index', () => {
  it('a guest name, a booking number and a property name', async () => {
    ctx = await startTestCore();
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await control().push({
      kind: 'message',
      channel: '19',
      hotelid: 'IK-DEMO-002',
      bookingid: '4012345678',
      threadid: '4012345678',
      message: 'Is there a lift?',
    });
    await airbnbGuest('880001', 'Zoë', 'Hello from Oslo');
    const [loft, zoe] = [(await found('4012345678'))[0]!, (await found('zoë'))[0]!];
    expect(loft).not.toBe(zoe);

    expect(factsHit('23456')).toEqual([loft]); // any part of a booking number
    expect(factsHit('canal')).toEqual([loft]);
    expect(factsHit('zoe')).toEqual([zoe]); // without case or accents
    expect(await found('CANAL')).toEqual([loft]);
    expect(await found('zoe')).toEqual([zoe]);
    expect(await found('ZOË oslo')).toEqual([zoe]); // a fact and a word of a message
    expect(await found('loft oslo')).toEqual([]);
    // Parts of 1 or 2 characters too: every suffix of a fact is in the index, found by its start.
    expect(await found('lo')).toEqual([loft]);
    expect(await found('zo')).toEqual([zoe]);
    // Without accents, as every other word: Ë is any e of what they are about (IK-DEMO-002's too).
    expect(await found('Ë')).toEqual(await found('e'));
    expect(await found('Ë')).toContain(zoe);
  });

  it('a review by its guest, booking number and property', async () => {
    ctx = await startTestCore();
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await control().push({
      kind: 'review',
      channel: '19',
      hotel_id: 'IK-DEMO-002',
      channel_booking_id: '4077777777',
      review_title: 'Spotless flat',
    });
    const review = (await call('inbox.reviews'))[0]!;
    const inIndex = (part: string) =>
      core().core.db.db.prepare('SELECT rowid AS id FROM review_facts WHERE review_facts MATCH ?').all(`"${part}"`);
    expect(inIndex('7777777')).toEqual([{ id: review.id }]);
    expect(inIndex('canal loft')).toEqual([{ id: review.id }]);
    const ids = async (search: string) => (await call('inbox.reviews', { search })).map((r) => r.id);
    expect(await ids('77777')).toEqual([review.id]);
    expect(await ids('LOFT spotless')).toEqual([review.id]);
    expect(await ids('lo')).toEqual([review.id]);
    expect(await ids('loft nowhere')).toEqual([]);
  });
});

describe('the index follows every change', () => {
  it('a property renamed, set up no more, or named for the first time', async () => {
    ctx = await startTestCore();
    await nameProperty('IK-DEMO-002', 'Canal Loft');
    await control().push({ kind: 'message', channel: '19', hotelid: 'IK-DEMO-002', message: 'Is there a lift?' });
    await control().push({ kind: 'review', channel: '19', hotel_id: 'IK-DEMO-002' });
    const [thread] = await found('canal');
    const review = (await call('inbox.reviews'))[0]!.id;
    expect(thread).toBeDefined();

    await nameProperty('IK-DEMO-002', 'Harbour Studio');
    expect(await found('harbour')).toEqual([thread]);
    expect(await found('canal')).toEqual([]);
    expect((await call('inbox.reviews', { search: 'harbour' })).map((r) => r.id)).toEqual([review]);
    expect(await call('inbox.reviews', { search: 'canal' })).toEqual([]);

    // Saving the setup without a new name changes nothing in the index.
    await nameProperty('IK-DEMO-002', 'Harbour Studio');
    expect(await found('harbour')).toEqual([thread]);

    await call('rates.removeSetup', { hotelId: 'IK-DEMO-002' });
    expect(await found('harbour')).toEqual([]);
    expect(await found('IK-DEMO-002')).toEqual([thread]); // the hotel id is still what it is about

    await nameProperty('IK-DEMO-002', 'Mill Cottage');
    expect(await found('cottage')).toEqual([thread]);
  });

  it('a later push brings the guest’s name and a confirmation code to a conversation', async () => {
    ctx = await startTestCore();
    await control().push({
      kind: 'message',
      channel: '244',
      threadid: '880002',
      hotelid: 'IK-DEMO-001',
      message: 'Is the sauna open?',
      guestid: '7002',
      user_details: { roles: [], users: [] },
      booking_details: {},
    });
    const [thread] = await found('sauna');
    expect(await found('Ingrid')).toEqual([]);
    await airbnbGuest('880002', 'Ingrid', 'We booked!', {
      booking_details: { reservation_confirmation_code: 'HMZX42QP7R', listing_name: 'Fjord cabin' },
    });
    expect(await found('ingrid')).toEqual([thread]);
    expect(await found('zx42qp')).toEqual([thread]);
    expect(await found('fjord')).toEqual([thread]);
    expect(factsHit('ingrid')).toEqual([thread]);
  });

  it('a reply is found by its text, and by its new text once it changes', async () => {
    ctx = await startTestCore();
    await control().push({ kind: 'message', channel: '19', bookingid: '4099999999', message: 'Can we bring a dog?' });
    const [thread] = await found('4099999999');
    const sent = await call('inbox.sendReply', { threadId: thread!, body: 'Dogs are welcome here.' });
    expect(await found('welcome')).toEqual([thread]);
    const reply = sent.messages.find((m) => m.body === 'Dogs are welcome here.')!;
    // As an edited reply is written (replyService.editReply): its text replaced in place.
    core().core.db.db.prepare('UPDATE messages SET body = ? WHERE id = ?').run('Pets stay outside, sorry.', reply.id);
    expect(await found('welcome')).toEqual([]);
    expect(await found('pets')).toEqual([thread]);
  });
});

describe('an inbox filed before the indexes existed', () => {
  it('is indexed when the app is updated: messages, facts and reviews found as before', () => {
    const dir = tempDir();
    try {
      const path = `${dir.path}/innkeeper.db`;
      // As the app before issue 15 filed them (schema 13): message and review texts in search_index.
      const old = openDatabase(
        path,
        MIGRATIONS.filter((m) => m.version <= 13),
      );
      old.db.exec(`
        INSERT INTO rate_setups (hotel_id, setup, created_at, updated_at)
          VALUES ('IK-DEMO-002', '{"hotelId":"IK-DEMO-002","name":"Canal Loft"}', 0, 0);
        INSERT INTO threads (id, channel, thread_key, hotel_id, booking_id, guest, booking, last_message_at, updated_at)
          VALUES (1, '244', 't1', 'IK-DEMO-002', 'HMABC', '{"firstName":"Chris"}', '{"confirmationCode":"HMQ7T2X9LB"}', 1, 1),
                 (2, '19', '4012345678', 'IK-DEMO-001', '4012345678', NULL, NULL, 2, 2);
        INSERT INTO messages (id, thread_id, channel, author, body, sent_at) VALUES
          (1, 1, '244', 'guest', 'Is breakfast included?', 1), (2, 2, '19', 'guest', 'Where is the key box?', 2);
        INSERT INTO search_index (text, source, ref) VALUES
          ('Is breakfast included?', 'message', 1), ('Where is the key box?', 'message', 2), ('Spotless flat', 'review', 1);
        INSERT INTO reviews (id, kind, channel, provider_review_id, hotel_id, detail, received_at)
          VALUES (1, 'current', '19', '19_R1', 'IK-DEMO-001', '{"bookingId":"4077777777","title":"Spotless flat"}', 1);
      `);
      old.close();

      const database = openAppDatabase(path);
      try {
        const queries = createInboxQueries(database.db);
        const threads = (search: string) =>
          queries.threads(threadQuerySchema.parse({ search })).threads.map((t) => t.id);
        expect(threads('breakf')).toEqual([1]);
        expect(threads('key')).toEqual([2]);
        expect(threads('chris')).toEqual([1]);
        expect(threads('q7t2')).toEqual([1]);
        expect(threads('canal')).toEqual([1]);
        expect(threads('40123')).toEqual([2]);
        expect(threads('b')).toEqual([2, 1]); // breakfast, box: newest first
        const reviews = (search: string) => queries.reviews({ search }).map((r) => r.id);
        expect(reviews('spotless')).toEqual([1]);
        expect(reviews('4077777777')).toEqual([1]);
        // search_index keeps the reviews' texts only now.
        expect(database.db.prepare('SELECT DISTINCT source FROM search_index').all()).toEqual([{ source: 'review' }]);
      } finally {
        database.close();
      }
    } finally {
      dir.remove();
    }
  });
});
