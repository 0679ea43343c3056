import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { Database } from '../../src/main/db/database';
import { MIGRATIONS } from '../../src/main/schema';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import {
  createMessageIndexer,
  INDEX_BATCH,
  INDEX_DELAY_MS,
  indexPendingMessages,
  MAX_INDEX_DELAY_MS,
  nextIndexDelay,
} from '../../src/main/inbox/messageIndex';
import { ID_MASK } from '../../src/main/inbox/threadWords';
import { fileDelivery } from '../../src/main/intake/ingest';
import { threadQuerySchema } from '../../src/shared/inbox';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { fixtureText } from '../support/fixtures';
import { tempDir } from '../support/tempDir';
import { openDatabase } from '../../src/main/db/database';
import { openAppDatabase } from '../../src/main/schema';
import { INBOX_FILERS } from '../../src/main/inbox/feature';
import type { IngestResult } from '../../src/main/intake/ingest';
import type { FiledMessage } from '../../src/main/inbox/fileMessage';

/** The message a delivery filed, and its conversation. */
const filedOf = (result: IngestResult): FiledMessage => result.filed as FiledMessage;
const messageIdOf = (result: IngestResult): number => filedOf(result).messageId;
const threadOf = (result: IngestResult): number => filedOf(result).threadId;

// Issue 15: a message's text is indexed for search in a batch after its push was acknowledged, not in the push's
// own transaction. What must hold: nothing stored is ever left out of the index (a crash between included), a
// search always finds every message stored, and an edit or removal before the batch is what gets indexed. Since
// issue 27 the index has one row per conversation (thread_search), written again in the batch after a change.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real database file in a temp folder; `reopen()` closes it and opens the same file, as the next start does. */
function store() {
  const dir = tempDir('innkeeper-index-');
  const path = join(dir.path, 'innkeeper.db');
  const state = { database: openAppDatabase(path) as Database };
  cleanups.push(() => {
    state.database.close();
    dir.remove();
  });
  const db = () => state.database.db;
  return {
    state,
    path,
    db,
    /** Files a guest message as a push is filed (its own transaction); `thread` is its conversation's key. */
    file(id: string, text: string, thread = id) {
      const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
      return fileDelivery(
        state.database,
        INBOX_FILERS,
        JSON.stringify({ ...body, messageid: id, threadid: thread, message: text }),
        Date.now(),
      );
    },
    waiting: () => (db().prepare('SELECT count(*) AS n FROM message_text_pending').get() as { n: number }).n,
    waitingThreads: () => (db().prepare('SELECT count(*) AS n FROM thread_search_pending').get() as { n: number }).n,
    /** The conversations the index itself finds `word` in (no search code between), newest first. */
    indexed: (word: string) =>
      (
        db()
          .prepare(`SELECT rowid & ${ID_MASK} AS id FROM thread_search WHERE thread_search MATCH ? ORDER BY rowid DESC`)
          .all(word) as { id: number }[]
      ).map((r) => r.id),
    search: (text: string) =>
      createInboxQueries(db())
        .threads(threadQuerySchema.parse({ search: text }))
        .threads.map((t) => t.id),
    reopen() {
      state.database.close();
      state.database = openAppDatabase(path);
    },
  };
}

describe('new messages are indexed after their pushes', () => {
  it('over the push endpoint: the next batch indexes the message by itself', async () => {
    const t = await startTestCore();
    cleanups.push(() => t.stop());
    const { call } = contractClient(() => t.core.dispatcher);
    const waiting = t.core.db.db.prepare(
      'SELECT (SELECT count(*) FROM message_text_pending) + (SELECT count(*) FROM thread_search_pending) AS n',
    );
    const indexed = t.core.db.db.prepare(
      `SELECT rowid & ${ID_MASK} AS id FROM thread_search WHERE thread_search MATCH 'wheelchair'`,
    );
    // The emulator posts to the core's listener over loopback and waits for the acknowledgement.
    await createEmulatorControl(t.emulator()).push({
      kind: 'message',
      channel: '19',
      bookingid: '4055555555',
      message: 'Is the entrance wheelchair accessible?',
    });
    // Acknowledged with its text waiting (pushReceiver.test shows it, on a listener without the indexer); the
    // batch comes by itself, with no search to set it off.
    await eventually(
      async () => (waiting.get() as { n: number }).n,
      (n) => n === 0,
    );
    expect(indexed.all()).toHaveLength(1);
    expect((await call('inbox.threads', { search: 'wheelchair' })).total).toBe(1);
  });

  it('a search straight after a push indexes what waits first, and finds it', () => {
    const s = store();
    s.file('9600000001', 'Can we check in at midnight?');
    s.file('9600000002', 'Is there a crib?');
    expect(s.waiting()).toBe(2);
    expect(s.search('midnight')).toHaveLength(1);
    expect(s.waiting()).toBe(0);
    expect(s.indexed('crib')).toHaveLength(1);
  });

  it('what a crash left waiting is indexed at the next start', async () => {
    const s = store();
    const filed = s.file('9600000011', 'We arrive by ferry.');
    s.reopen(); // no batch ran: the process died after the acknowledgement
    expect(s.waiting()).toBe(1);
    const indexer = createMessageIndexer(s.db(), 20);
    cleanups.push(() => indexer.stop());
    await eventually(
      async () => s.waiting(),
      (n) => n === 0,
    );
    expect(s.indexed('ferry')).toEqual([threadOf(filed)]);
  });

  it('a message edited or removed before its batch is indexed as it is then, or not at all', () => {
    const s = store();
    const edited = s.file('9600000021', 'Draft text');
    const removed = s.file('9600000022', 'Gone before indexing');
    const kept = s.file('9600000023', 'Indexed first, removed after');
    s.db().prepare('UPDATE messages SET body = ? WHERE id = ?').run('Final wording', messageIdOf(edited));
    s.db().prepare('DELETE FROM messages WHERE id = ?').run(messageIdOf(removed));
    expect(s.waiting()).toBe(2);
    expect(indexPendingMessages(s.db()).messages).toBe(2);
    expect(s.waitingThreads()).toBe(0);
    expect(s.indexed('final')).toEqual([threadOf(edited)]);
    expect(s.indexed('draft')).toEqual([]);
    expect(s.indexed('gone')).toEqual([]);
    // Once indexed, an edit or a removal has its conversation's row written again from its messages: in the next
    // batch, or by a search first.
    s.db().prepare('UPDATE messages SET body = ? WHERE id = ?').run('Wording changed again', messageIdOf(edited));
    s.db().prepare('DELETE FROM messages WHERE id = ?').run(messageIdOf(kept));
    expect(s.waitingThreads()).toBe(2);
    expect(s.search('final')).toEqual([]);
    expect(s.indexed('final')).toEqual([]);
    expect(s.indexed('again')).toEqual([threadOf(edited)]);
    expect(s.indexed('indexed')).toEqual([]);
    s.db().exec("INSERT INTO thread_search (thread_search) VALUES ('integrity-check')");
  });

  it('a batch is all or nothing: when it fails, the index is unchanged and the messages still wait', () => {
    const s = store();
    s.file('9600000031', 'Late check-out possible?');
    s.db().exec(
      `CREATE TEMP TRIGGER refuse BEFORE DELETE ON message_text_pending BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`,
    );
    expect(() => indexPendingMessages(s.db())).toThrow(/disk full/);
    expect(s.indexed('late')).toEqual([]);
    expect(s.waiting()).toBe(1);
    // The search still answers (without the waiting message), and says nothing was lost.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(s.search('late')).toEqual([]);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/Could not index the newest messages.*disk full/));
    logged.mockRestore();
    s.db().exec('DROP TRIGGER temp.refuse');
    expect(s.search('late')).toHaveLength(1);
  });

  it('indexes the oldest first, at most a batch per transaction', () => {
    const s = store();
    const threads = ['a', 'b', 'c'].map((x, i) => threadOf(s.file(`960000004${i}`, `Question ${x}word`)));
    expect(indexPendingMessages(s.db(), 2).messages).toBe(2);
    expect([...s.indexed('aword'), ...s.indexed('bword'), ...s.indexed('cword')]).toEqual(threads.slice(0, 2));
    expect(indexPendingMessages(s.db(), INDEX_BATCH).messages).toBe(1);
    expect(s.indexed('cword')).toEqual([threads[2]]);
    expect(indexPendingMessages(s.db())).toEqual({ messages: 0, threads: 0 });
  });

  it('a batch writes at most so many conversations: the messages of others wait for the next', () => {
    const s = store();
    const threads = ['a', 'b', 'c'].map((x, i) => threadOf(s.file(`960000007${i}`, `Question ${x}word`)));
    s.file('9600000079', 'Another aword question', 'T-a'); // a new conversation too: the limit holds it back
    expect(indexPendingMessages(s.db(), INDEX_BATCH, 2)).toEqual({ messages: 2, threads: 0 });
    expect(s.waiting()).toBe(2);
    expect(s.indexed('aword')).toEqual([threads[0]]);
    expect(indexPendingMessages(s.db(), INDEX_BATCH, 2)).toEqual({ messages: 2, threads: 0 });
    // Then the four conversations marked when they were filed, two at a time.
    expect(indexPendingMessages(s.db(), INDEX_BATCH, 2)).toEqual({ messages: 0, threads: 2 });
    expect(indexPendingMessages(s.db(), INDEX_BATCH, 2)).toEqual({ messages: 0, threads: 2 });
    expect(s.waitingThreads()).toBe(0);
    expect(s.search('aword')).toHaveLength(2);
  });

  it('a conversation moves to the top of a search when a message comes, and keeps the words it had', () => {
    const s = store();
    const older = threadOf(s.file('9600000061', 'Is parking free?', 'T-older'));
    const newer = threadOf(s.file('9600000062', 'Where do we park?', 'T-newer'));
    expect(s.search('park')).toEqual([newer, older]);
    s.file('9600000063', 'And is there a sauna?', 'T-older');
    expect(s.search('park')).toEqual([older, newer]);
    expect(s.search('parking sauna')).toEqual([older]);
    expect(s.indexed('park*')).toEqual([older, newer]); // the index's own order is the list's
  });

  it('a conversation of many messages keeps one row, of its distinct words: a new message adds only its own', () => {
    const s = store();
    for (let i = 0; i < 300; i++)
      s.file(`96000010${String(i).padStart(2, '0')}`, `Is the pool open today? (${i % 3})`, 'T-busy');
    expect(indexPendingMessages(s.db()).messages).toBe(300);
    const words = () =>
      (s.db().prepare('SELECT words FROM thread_words').all() as { words: string }[]).map((r) => r.words.split(' '));
    expect(words()).toEqual([['Is', 'the', 'pool', 'open', 'today', '0', '1', '2']]);
    s.file('9600001999', 'Thanks, see you at the pool!', 'T-busy');
    expect(s.search('thanks pool')).toHaveLength(1);
    expect(words()[0]).toEqual(['Is', 'the', 'pool', 'open', 'today', '0', '1', '2', 'Thanks', 'see', 'you', 'at']);
    expect(s.db().prepare('SELECT count(*) AS n FROM thread_search').get()).toEqual({ n: 1 });
  });
});

describe('an inbox indexed before this change', () => {
  it('has every conversation indexed again from its messages after the update, a batch at a time', () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const path = join(dir.path, 'innkeeper.db');
    const old = openDatabase(
      path,
      MIGRATIONS.filter((m) => m.version <= 19),
    );
    const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
    const file = (database: Database, id: string, thread: string, message: string) =>
      threadOf(
        fileDelivery(
          database,
          INBOX_FILERS,
          JSON.stringify({ ...body, messageid: id, threadid: thread, message }),
          Date.now(),
        ),
      );
    const first = file(old, '9600000051', 'T-1', 'Indexed the old way');
    file(old, '9600000052', 'T-1', 'A second question');
    const second = file(old, '9600000053', 'T-2', 'Another old conversation');
    old.close();

    const database = openAppDatabase(path);
    cleanups.push(() => database.close());
    const waiting = database.db.prepare(
      'SELECT (SELECT count(*) FROM message_text_pending) AS messages, (SELECT count(*) FROM thread_search_pending) AS threads',
    );
    expect(waiting.get()).toEqual({ messages: 0, threads: 2 });
    expect(
      database.db.prepare("SELECT name FROM sqlite_schema WHERE name IN ('message_text', 'thread_facts')").all(),
    ).toEqual([]);
    expect(indexPendingMessages(database.db, INDEX_BATCH, 1)).toEqual({ messages: 0, threads: 1 });
    expect(indexPendingMessages(database.db, INDEX_BATCH, 1)).toEqual({ messages: 0, threads: 1 });
    expect(waiting.get()).toEqual({ messages: 0, threads: 0 });
    const search = (text: string) =>
      createInboxQueries(database.db)
        .threads(threadQuerySchema.parse({ search: text }))
        .threads.map((t) => t.id);
    expect(search('old')).toEqual([second, first]);
    expect(search('second question')).toEqual([first]);
    file(database, '9600000054', 'T-2', 'New way');
    expect(waiting.get()).toEqual({ messages: 1, threads: 1 });
    expect(search('new old')).toEqual([second]);
  });
});

describe('the indexer while deliveries keep coming', () => {
  it('waits nine times its last run’s work, between its own delay and 5 s', () => {
    expect(nextIndexDelay(0)).toBe(INDEX_DELAY_MS);
    expect(nextIndexDelay(10)).toBe(INDEX_DELAY_MS); // 90 ms of waiting would be less than the delay
    expect(nextIndexDelay(100)).toBe(900);
    expect(nextIndexDelay(2000)).toBe(MAX_INDEX_DELAY_MS);
    expect(nextIndexDelay(30, 20)).toBe(270);
  });
});
