import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { createMediaLinks } from '../../src/main/photos/media';
import { fetchImageBytes } from '../../src/main/photos/reach';
import { createPhotoVerification, VERIFY_WITHIN_MS } from '../../src/main/photos/verification';
import { openAppDatabase } from '../../src/main/schema';
import sharp from 'sharp';
import { tempDir } from '../support/tempDir';

// Whether Su's copies of uploaded photos answer, on a real SQLite file, against "Su's copies" served over loopback,
// with the clock in the test's hands: a pending copy is looked at every round, a failed one once a minute, and
// nextAt says when a round has anything to do (the photos' background checks run only then).

let dir: ReturnType<typeof tempDir>;
let database: Database;
let clock: number;
let server: Server;
let base: string;
/** Whether "Su's copy" answers with the image, and how often it was asked. */
const su = { answers: false, asked: 0 };

beforeEach(async () => {
  dir = tempDir();
  database = openAppDatabase(join(dir.path, 'innkeeper.db'));
  clock = Date.parse('2026-11-29T10:00:00Z');
  su.answers = false;
  su.asked = 0;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
    .jpeg()
    .toBuffer();
  server = createServer((_request, response) => {
    su.asked += 1;
    if (!su.answers) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length }).end(jpeg);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  database.close();
  dir.remove();
  await new Promise((resolve) => server.close(resolve));
});

/** A photo of property H1 uploaded now, its copy at Su's address. */
function uploaded(): number {
  const { db } = database;
  const photo = Number(
    db
      .prepare(
        `INSERT INTO photos (hotel_id, pms_image_id, caption, file_name, width, height, bytes, original, added_at)
         VALUES ('H1', 'IMG-1', 'Pool', 'pool.jpg', 800, 600, 1000, 'pool.jpg', ?)`,
      )
      .run(clock).lastInsertRowid,
  );
  const outbox = Number(
    db
      .prepare(
        `INSERT INTO outbox (entity_key, kind, payload, state, next_attempt_at, created_at, updated_at)
         VALUES ('photos:H1', 'photo-create', '{}', 'sent', ?, ?, ?)`,
      )
      .run(clock, clock, clock).lastInsertRowid,
  );
  db.prepare(
    `INSERT INTO photo_uploads (photo_id, provider, outbox_id, queued_at, su_url, verified, verify_until)
     VALUES (?, 'demo', ?, ?, ?, 'pending', ?)`,
  ).run(photo, outbox, clock, `${base}/copy/IMG-1.jpg`, clock + VERIFY_WITHIN_MS);
  return photo;
}

const uploadState = () =>
  database.db.prepare('SELECT verified, problem FROM photo_uploads').get() as {
    verified: string;
    problem: string | null;
  };

function verification() {
  const media = createMediaLinks({ database, now: () => clock, file: () => join(dir.path, 'none.jpg') });
  return createPhotoVerification({ db: database.db, now: () => clock, media, fetchImage: fetchImageBytes });
}

describe("checking Su's copies", () => {
  it('nothing uploaded: no round has anything to do', async () => {
    const v = verification();
    expect(v.nextAt()).toBeNull();
    expect(await v.verify()).toEqual([]);
    expect(su.asked).toBe(0);
  });

  it('a pending copy is due at once and looked at every round until it answers; then nothing is due', async () => {
    const v = verification();
    uploaded();
    expect(v.nextAt()).toBe(clock);
    expect(await v.verify()).toEqual([]);
    clock += 5_000;
    expect(await v.verify()).toEqual([]);
    expect(su.asked).toBe(2);
    expect(uploadState()).toEqual({ verified: 'pending', problem: null });
    su.answers = true;
    clock += 5_000;
    expect(await v.verify()).toEqual(['H1']);
    expect(uploadState()).toEqual({ verified: 'ok', problem: null });
    expect(v.nextAt()).toBeNull();
  });

  it('one not answering in time is marked failed with what to do, then looked at once a minute until it answers', async () => {
    const v = verification();
    uploaded();
    clock += VERIFY_WITHIN_MS;
    expect(await v.verify()).toEqual(['H1']);
    expect(uploadState()).toEqual({
      verified: 'failed',
      problem:
        'Su never fetched it from this computer: check that the address Su reaches (the tunnel, or your own address, under Connection) is up, then upload it again.',
    });
    const markedAt = clock;
    // The next look at it: a minute after the last.
    expect(v.nextAt()).toBe(markedAt + 60_000);
    clock += 30_000;
    await v.verify();
    expect(su.asked).toBe(1);
    clock = markedAt + 60_000;
    await v.verify();
    expect(su.asked).toBe(2);
    expect(v.nextAt()).toBe(clock + 60_000);
    // Su fetched late: seen at the next look.
    su.answers = true;
    clock += 60_000;
    expect(await v.verify()).toEqual(['H1']);
    expect(uploadState()).toEqual({ verified: 'ok', problem: null });
    expect(v.nextAt()).toBeNull();
  });

  it('a failed copy is no longer looked at once its address has closed (a day after the upload)', async () => {
    const v = verification();
    uploaded();
    clock += VERIFY_WITHIN_MS;
    await v.verify();
    clock += 24 * 3_600_000;
    expect(v.nextAt()).toBeNull();
    const asked = su.asked;
    await v.verify();
    expect(su.asked).toBe(asked);
  });
});
