import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { Database } from '../../src/main/db/database';
import { MIGRATIONS } from '../../src/main/schema';
import { createInboxQueries } from '../../src/main/inbox/inboxQueries';
import { createMessageIndexer, INDEX_BATCH, indexPendingMessages } from '../../src/main/inbox/messageIndex';
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

/** The id of the message a delivery filed. */
const messageIdOf = (result: IngestResult): number => (result.filed as FiledMessage).messageId;

// Issue 15: a message's text is indexed for search in a batch after its push was acknowledged, not in the push's
// own transaction. What must hold: nothing stored is ever left out of the index (a crash between included), a
// search always finds every message stored, and an edit or removal before the batch is what gets indexed.

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
    /** Files a guest message as a push is filed (its own transaction). */
    file(id: string, text: string) {
      const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
      return fileDelivery(
        state.database,
        INBOX_FILERS,
        JSON.stringify({ ...body, messageid: id, message: text }),
        Date.now(),
      );
    },
    waiting: () => (db().prepare('SELECT count(*) AS n FROM message_text_pending').get() as { n: number }).n,
    /** The message ids the index itself finds `word` in (no search code between). */
    indexed: (word: string) =>
      (
        db().prepare('SELECT rowid & 4294967295 AS id FROM message_text WHERE message_text MATCH ?').all(word) as {
          id: number;
        }[]
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
    const waiting = t.core.db.db.prepare('SELECT count(*) AS n FROM message_text_pending');
    const indexed = t.core.db.db.prepare("SELECT rowid FROM message_text WHERE message_text MATCH 'wheelchair'");
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
    expect(s.indexed('ferry')).toEqual([messageIdOf(filed)]);
  });

  it('a message edited or removed before its batch is indexed as it is then, or not at all', () => {
    const s = store();
    const edited = messageIdOf(s.file('9600000021', 'Draft text'));
    const removed = messageIdOf(s.file('9600000022', 'Gone before indexing'));
    const kept = messageIdOf(s.file('9600000023', 'Indexed first, removed after'));
    s.db().prepare('UPDATE messages SET body = ? WHERE id = ?').run('Final wording', edited);
    s.db().prepare('DELETE FROM messages WHERE id = ?').run(removed);
    expect(s.waiting()).toBe(2);
    expect(indexPendingMessages(s.db())).toBe(2);
    expect(s.indexed('final')).toEqual([edited]);
    expect(s.indexed('draft')).toEqual([]);
    expect(s.indexed('gone')).toEqual([]);
    // Once indexed, an edit or a removal changes the index at once, as before.
    s.db().prepare('UPDATE messages SET body = ? WHERE id = ?').run('Wording changed again', edited);
    s.db().prepare('DELETE FROM messages WHERE id = ?').run(kept);
    expect(s.indexed('final')).toEqual([]);
    expect(s.indexed('again')).toEqual([edited]);
    expect(s.indexed('indexed')).toEqual([]);
    s.db().exec("INSERT INTO message_text (message_text) VALUES ('integrity-check')");
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
    const ids = ['a', 'b', 'c'].map((x, i) => messageIdOf(s.file(`960000004${i}`, `Question ${x}word`)));
    expect(indexPendingMessages(s.db(), 2)).toBe(2);
    expect([...s.indexed('aword'), ...s.indexed('bword'), ...s.indexed('cword')]).toEqual(ids.slice(0, 2));
    expect(indexPendingMessages(s.db(), INDEX_BATCH)).toBe(1);
    expect(indexPendingMessages(s.db())).toBe(0);
  });
});

describe('an inbox indexed before this change', () => {
  it('keeps its index when the app is updated: nothing to index again, new messages wait', () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const path = join(dir.path, 'innkeeper.db');
    const old = openDatabase(
      path,
      MIGRATIONS.filter((m) => m.version <= 14),
    );
    const body = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
    fileDelivery(
      old,
      INBOX_FILERS,
      JSON.stringify({ ...body, messageid: '9600000051', message: 'Indexed the old way' }),
      Date.now(),
    );
    old.close();
    const database = openAppDatabase(path);
    cleanups.push(() => database.close());
    const waiting = database.db.prepare('SELECT count(*) AS n FROM message_text_pending');
    expect(waiting.get()).toEqual({ n: 0 });
    expect(database.db.prepare("SELECT rowid FROM message_text WHERE message_text MATCH 'old'").all()).toHaveLength(1);
    fileDelivery(
      database,
      INBOX_FILERS,
      JSON.stringify({ ...body, messageid: '9600000052', message: 'New way' }),
      Date.now(),
    );
    expect(waiting.get()).toEqual({ n: 1 });
  });
});
