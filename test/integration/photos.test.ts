import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { Photo } from '../../src/shared/photos';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { addPhotoFile } from '../support/photoFile';

// The photo library on real files and SQLite, served to the demo provider's emulator over real loopback HTTP.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const control = () => createEmulatorControl(ctx!.emulator());
const HOTEL = 'IK-DEMO-001';

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

/** Adds a file the way the renderer does: in chunks of at most PHOTO_CHUNK_BYTES. */
const addFile = (fileName: string, bytes: Buffer, assignments = { property: true, rooms: [] as string[] }) =>
  addPhotoFile({ call, dispatch }, HOTEL, fileName, bytes, assignments);

const photo = (width: number, height: number, colour = '#6a8caf') =>
  sharp({ create: { width, height, channels: 3, background: colour } });

/** A phone photo: sideways in its pixels with EXIF orientation 6, and a GPS location. */
const phonePhoto = () =>
  photo(1800, 1200)
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '55/1 40/1 47/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '12/1 35/1 26/1',
      },
    })
    .jpeg()
    .toBuffer();

describe('the library', () => {
  it('keeps a copy, applies the orientation, and uploads a JPEG without location or any metadata', async () => {
    const original = await phonePhoto();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const added = await addFile('garden_view.jpg', original);
    expect(added.ok).toBe(true);
    const p = (added as { value: Photo }).value;
    expect(p).toMatchObject({
      caption: 'garden view',
      fileName: 'garden_view.jpg',
      // Orientation 6: the photo stands upright in the upload copy.
      width: 1200,
      height: 1800,
      original: { format: 'jpeg', width: 1200, height: 1800, hadLocation: true },
      assignments: { property: true, rooms: [] },
      upload: null,
      marks: [],
    });
    const copy = readFileSync(join(ctx!.dataDir, 'photos', `${p.id}.jpg`));
    const meta = await sharp(copy).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200, height: 1800 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(copy.includes(Buffer.from('PhoneMaker'))).toBe(false);
    // The original is kept as added (the owner may delete theirs).
    expect(readFileSync(join(ctx!.dataDir, 'photos', `${p.id}-original`)).equals(original)).toBe(true);
    expect((await call('photos.thumbnail', { id: p.id })).dataUrl).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('caps the long edge of the upload copy and marks what a channel refuses', async () => {
    const big = (await addFile('wide.png', await photo(5000, 2000).png().toBuffer())) as { value: Photo };
    expect(big.value).toMatchObject({ width: 2560, height: 1024, original: { format: 'png', width: 5000 } });
    const small = (await addFile('tiny.jpg', await photo(280, 200).jpeg().toBuffer())) as { value: Photo };
    expect(small.value.marks.map((m) => [m.channel, m.refused])).toEqual([
      ['Booking.com', true],
      ['Airbnb', true],
    ]);
    const view = await call('photos.list', { hotelId: HOTEL });
    const property = view.checks.filter((c) => c.roomId === null);
    expect(property.find((c) => c.channel === 'Airbnb')!.missing).toEqual([
      'Add 6 more photos of at least 800×500 (Airbnb needs 7).',
      '1 photo is under 800×500: Airbnb refuses them.',
    ]);
    expect(property.find((c) => c.channel === 'Booking.com')!.missing).toEqual([
      '1 photo is under 300×300: Booking.com refuses them.',
    ]);
  });

  it('a file that is not a photo gets a clear message and is not added', async () => {
    const result = await addFile('notes.jpg', Buffer.from('These are not the pixels you are looking for.'));
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^“notes\.jpg” was not added: /) },
    });
    const broken = (await photo(900, 600).jpeg().toBuffer()).subarray(0, 400);
    expect(await addFile('broken.jpg', broken)).toMatchObject({ ok: false });
    // An iPhone photo, where no HEVC decoder is at hand: the owner is told how to get a JPEG.
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(400, 7)]);
    expect(await addFile('IMG_2031.HEIC', heic)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/HEIC photos .* Most Compatible/) },
    });
    expect((await call('photos.list', { hotelId: HOTEL })).photos).toEqual([]);
  });
});

describe('getting photos to Su', () => {
  it('the demo fetches the upload copy from the listener, re-hosts it, and it is assigned to a room', async () => {
    const dbl = (await addFile('room.jpg', await phonePhoto(), { property: false, rooms: ['DBL'] })) as {
      value: Photo;
    };
    const house = (await addFile('house.jpg', await photo(1600, 1000).jpeg().toBuffer())) as { value: Photo };
    expect((await call('photos.list', { hotelId: HOTEL })).reach.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await call('photos.upload', { hotelId: HOTEL })).toMatchObject({ queued: 2 });
    const view = await eventually(
      () => call('photos.list', { hotelId: HOTEL }),
      (v) => v.photos.every((p) => p.upload?.state === 'held' && p.associations.every((a) => a.state === 'sent')),
    );
    for (const p of view.photos) expect(p.upload).toMatchObject({ state: 'held', fetchedAt: expect.any(Number) });

    // The bytes Su serves at su_url are the upload copy's, byte for byte.
    for (const p of [dbl.value, house.value]) {
      const suUrl = view.photos.find((v) => v.id === p.id)!.upload!.suUrl!;
      const served = Buffer.from(await (await fetch(suUrl)).arrayBuffer());
      expect(served.equals(readFileSync(join(ctx!.dataDir, 'photos', `${p.id}.jpg`)))).toBe(true);
    }
    const content = (await control().content(HOTEL)).images as {
      pms_imageid: string;
      property: boolean;
      rooms: string[];
    }[];
    expect(content.find((i) => i.pms_imageid === dbl.value.pmsImageId)).toMatchObject({
      property: false,
      rooms: ['DBL'],
    });
    expect(content.find((i) => i.pms_imageid === house.value.pmsImageId)).toMatchObject({ property: true, rooms: [] });

    // What Su holds: the demo's own three, and these two as this library's.
    const atSu = (await call('photos.reconcile', { hotelId: HOTEL })).atSu!.images;
    expect(atSu).toHaveLength(5);
    expect(
      atSu
        .filter((i) => i.photoId !== null)
        .map((i) => i.photoId)
        .sort(),
    ).toEqual([dbl.value.id, house.value.id].sort());
    const elsewhere = atSu.find((i) => i.photoId === null)!;
    expect((await call('photos.suThumbnail', { hotelId: HOTEL, imageId: elsewhere.imageId })).dataUrl).toMatch(
      /^data:image\/jpeg;base64,/,
    );
    // Uploading again queues nothing: both are held.
    expect(await call('photos.upload', { hotelId: HOTEL })).toMatchObject({ queued: 0 });
    // Su has its copies: the addresses it fetched them from are closed.
    const { db } = ctx!.core.db;
    const links = db.prepare('SELECT token, revoked_at FROM media_links').all() as {
      token: string;
      revoked_at: number | null;
    }[];
    expect(links.length).toBeGreaterThanOrEqual(2);
    const listener = (await call('intake.status', {})).localUrl!.replace(/\/push$/, '');
    for (const link of links) {
      expect(link.revoked_at).not.toBeNull();
      expect((await fetch(`${listener}/media/${link.token}/room.jpg`)).status).toBe(404);
    }

    // A room assigned afterwards gets its link only: no second create of a photo Su holds.
    await call('photos.update', { id: house.value.id, assignments: { property: true, rooms: ['TWN'] } });
    expect(await call('photos.upload', { hotelId: HOTEL, ids: [house.value.id] })).toMatchObject({ queued: 1 });
    await eventually(
      () => call('photos.list', { hotelId: HOTEL }),
      (v) => v.photos.find((p) => p.id === house.value.id)!.associations.every((a) => a.state === 'sent'),
    );
    const creates = db.prepare('SELECT count(*) AS n FROM photo_uploads WHERE photo_id = ?').get(house.value.id) as {
      n: number;
    };
    expect(creates.n).toBe(1);
    const after = (await control().content(HOTEL)).images as { pms_imageid: string; rooms: string[] }[];
    expect(after.find((i) => i.pms_imageid === house.value.pmsImageId)!.rooms).toEqual(['TWN']);
  });

  it('a photo removed while its upload waits takes its queued work with it, and a create cannot be marked sent', async () => {
    await call('connection.save', {
      environment: 'sandbox',
      mainBaseUrl: 'https://su.invalid/SUAPI',
      tokenBaseUrl: 'https://token.invalid',
      domain: 'x.example',
    });
    const gone = (await addFile('gone.jpg', await photo(1200, 800).jpeg().toBuffer())) as { value: Photo };
    const kept = (await addFile('kept.jpg', await photo(1200, 800, '#222222').jpeg().toBuffer())) as { value: Photo };
    await call('photos.upload', { hotelId: HOTEL, ids: [gone.value.id] });
    await call('photos.upload', { hotelId: HOTEL, ids: [kept.value.id] });
    const states = () =>
      ctx!.core.db.db
        .prepare(`SELECT kind, state, payload FROM outbox WHERE entity_key = 'photos:${HOTEL}' ORDER BY id`)
        .all() as {
        kind: string;
        state: string;
        payload: string;
      }[];
    expect(states().map((i) => i.kind)).toEqual(['photo-create', 'photo-associate', 'photo-create', 'photo-associate']);
    expect(await call('photos.remove', { id: gone.value.id })).toEqual({ removed: true, heldAtSu: false });
    // The removed photo's create and link are discarded; the other photo's work still waits.
    expect(states().map((i) => i.state)).toEqual([
      'discarded',
      'discarded',
      expect.stringMatching(/queued|sending|failed/),
      expect.stringMatching(/queued|sending|failed/),
    ]);
    const create = ctx!.core.db.db
      .prepare(`SELECT id FROM outbox WHERE kind = 'photo-create' ORDER BY id DESC`)
      .get() as { id: number };
    ctx!.core.db.db
      .prepare(
        `UPDATE outbox SET state = 'failed', last_error = '{"code":"timeout","message":"x","outcomeUnknown":true}' WHERE id = ?`,
      )
      .run(create.id);
    expect(await dispatch('outbox.markSent', { id: create.id })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/Upload the photo again instead/) },
    });
  });

  it('the media address serves exactly one file, to GET and HEAD, and nothing once revoked', async () => {
    const added = (await addFile('yard.jpg', await photo(1200, 800).jpeg().toBuffer())) as { value: Photo };
    const listener = (await call('intake.status', {})).localUrl!.replace(/\/push$/, '');
    const token = issueToken(added.value.id);
    const url = `${listener}/media/${token}/yard.jpg`;
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    const body = Buffer.from(await got.arrayBuffer());
    expect(body.equals(readFileSync(join(ctx!.dataDir, 'photos', `${added.value.id}.jpg`)))).toBe(true);
    expect(Number(got.headers.get('content-length'))).toBe(body.length);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(body.length);
    for (const other of [
      `${listener}/media/${token}`,
      `${listener}/media/${token}/yard.png`,
      `${listener}/media/${'0'.repeat(32)}/yard.jpg`,
      `${listener}/media/${token}/..%2F..%2Finnkeeper.db`,
      `${listener}/media/..%2F${token}/yard.jpg`,
      `${listener}/media/`,
      `${listener}/photos/${added.value.id}.jpg`,
    ])
      expect((await fetch(other)).status, other).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).not.toBe(200);
    // The push endpoint itself still wants credentials.
    expect((await fetch(`${listener}/push`, { method: 'POST', body: '{}' })).status).toBe(401);
    ctx!.core.db.db.prepare('UPDATE media_links SET revoked_at = 1').run();
    expect((await fetch(url)).status).toBe(404);
  });

  it('without a public address, the upload says why Su cannot reach this computer', async () => {
    await call('connection.save', {
      environment: 'sandbox',
      mainBaseUrl: 'https://a.example/SUAPI',
      tokenBaseUrl: 'https://b.example',
      domain: 'x.example',
    });
    const view = await call('photos.list', { hotelId: HOTEL });
    expect(view.reach).toEqual({ baseUrl: null, reason: expect.stringMatching(/no public address/) });
  });
});

/** A media address for a photo, as the create sender makes one. */
function issueToken(photoId: number): string {
  const token = 'ab'.repeat(16);
  ctx!.core.db.db
    .prepare('INSERT INTO media_links (token, photo_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .run(token, photoId, Date.now(), Date.now() + 3600_000);
  return token;
}
