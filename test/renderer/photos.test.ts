import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PHOTO_BYTES, PHOTO_CHUNK_BYTES, photoMarks, photosMethods, type Photo } from '@shared/photos';
import { fail, ok } from '@shared/result';
import { usePhotoAddsStore } from '@renderer/features/property/photos/photoAddsStore';
import { chunkRanges, refuseBeforeSending } from '@renderer/features/property/photos/photoFiles';
import {
  assignmentsFor,
  associationWords,
  checkGroups,
  checksByScope,
  filterPhotos,
  formatWhen,
  uploadWords,
} from '@renderer/features/property/photos/photoWords';
import { THUMB_WAIT_MS, usePhotosStore } from '@renderer/features/property/photos/photosStore';
import { installFakeApi, settle } from './fakeApi';
import { photo, upload, view } from './photoFixtures';

/** A file whose bytes count 0, 1, 2 … 255, 0, 1 … so that every chunk's place can be checked. */
function countingFile(size: number, name = 'IMG_0002.jpg', type = 'image/jpeg') {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  return { file: new File([bytes], name, { type }), bytes };
}

beforeEach(() => setActivePinia(createPinia()));

describe('sending a file in chunks', () => {
  it('cuts a file into chunks of at most PHOTO_CHUNK_BYTES, in order, with nothing left out', () => {
    const size = PHOTO_CHUNK_BYTES * 2 + 17;
    const ranges = chunkRanges(size);
    expect(ranges.map((r) => r.offset)).toEqual([0, PHOTO_CHUNK_BYTES, PHOTO_CHUNK_BYTES * 2]);
    expect(ranges.at(-1)!.end).toBe(size);
    expect(chunkRanges(PHOTO_CHUNK_BYTES)).toHaveLength(1);
  });

  it('a full chunk of bytes is within what the contract takes, and a byte more is not', () => {
    const chunk = (data: Uint8Array) =>
      photosMethods['photos.addChunk'].safeParse({ uploadId: 'a'.repeat(32), offset: 0, data });
    expect(chunk(new Uint8Array(PHOTO_CHUNK_BYTES).fill(255)).success).toBe(true);
    expect(chunk(new Uint8Array(PHOTO_CHUNK_BYTES + 1)).error!.issues).toEqual([
      expect.objectContaining({ path: ['data'], message: `At most ${PHOTO_CHUNK_BYTES} bytes.` }),
    ]);
  });

  it('sends start → every chunk at its offset → finish, and the photo appears in the grid', async () => {
    const core = installFakeApi({ 'photos.list': () => ok(view({ photos: [] })) });
    const photos = usePhotosStore();
    const adds = usePhotoAddsStore();
    await photos.open('H1');
    const size = PHOTO_CHUNK_BYTES * 2 + 1000;
    const { file, bytes } = countingFile(size);

    adds.add('H1', [file], assignmentsFor({ kind: 'room', roomId: 'DBL' }));
    await settle();
    const [start] = core.pending('photos.addStart');
    expect(start!.args).toEqual({
      hotelId: 'H1',
      fileName: 'IMG_0002.jpg',
      bytes: size,
      assignments: { property: false, rooms: ['DBL'] },
    });
    expect(adds.adds[0]).toMatchObject({ state: 'sending', sent: 0 });
    start!.answer(ok({ uploadId: 'f'.repeat(32) }));

    const received = new Uint8Array(size);
    for (let i = 0; i < 3; i++) {
      await settle();
      await settle();
      const [chunk] = core.pending('photos.addChunk');
      const args = chunk!.args as { uploadId: string; offset: number; data: Uint8Array };
      expect(photosMethods['photos.addChunk'].safeParse(args).success).toBe(true);
      expect(args.data).toBeInstanceOf(Uint8Array); // the bytes as they are: no base64
      expect(args.offset).toBe(i * PHOTO_CHUNK_BYTES);
      received.set(args.data, args.offset);
      chunk!.answer(ok({ received: args.offset + args.data.length }));
      await settle();
      expect(adds.adds[0]!.sent).toBe(Math.min((i + 1) * PHOTO_CHUNK_BYTES, size));
    }
    expect(received).toEqual(bytes);

    await settle();
    const [finish] = core.pending('photos.addFinish');
    expect(finish!.args).toEqual({ uploadId: 'f'.repeat(32) });
    expect(adds.adds[0]!.state).toBe('reading');
    finish!.answer(ok(photo({ id: 9, fileName: 'IMG_0002.jpg' })));
    await settle();
    expect(adds.adds).toEqual([]);
    expect(photos.photos.map((p) => p.id)).toEqual([9]);
  });

  it('refuses before sending a file larger than the library takes, naming it; the others still go', async () => {
    const core = installFakeApi();
    const adds = usePhotoAddsStore();
    const big = new File([new Uint8Array(10)], 'panorama.tif', { type: 'image/tiff' });
    Object.defineProperty(big, 'size', { value: MAX_PHOTO_BYTES + 1.5 * 1024 * 1024 });
    const pdf = new File([new Uint8Array(10)], 'menu.pdf', { type: 'application/pdf' });
    adds.add('H1', [big, pdf, countingFile(10).file], { property: true, rooms: [] });
    await settle();
    expect(adds.adds.map((a) => a.state)).toEqual(['failed', 'failed', 'sending']);
    expect(adds.adds[0]!.error).toBe('“panorama.tif” is too large (41.5 MB): the library takes photos up to 40 MB.');
    expect(adds.adds[1]!.error).toContain('“menu.pdf” is not an image');
    expect(core.pending('photos.addStart')).toHaveLength(1);
    expect(refuseBeforeSending({ name: 'IMG_1.HEIC', size: 5, type: '' })).toBeNull();
  });

  it('keeps a file the core cannot read listed with the core’s reason, and goes on with the next one', async () => {
    const core = installFakeApi({
      'photos.list': () => ok(view({ photos: [] })),
      'photos.addStart': () => ok({ uploadId: 'a'.repeat(32) }),
      'photos.addChunk': () => ok({ received: 1 }),
    });
    await usePhotosStore().open('H1');
    const adds = usePhotoAddsStore();
    adds.add('H1', [countingFile(10, 'IMG_1.HEIC', '').file, countingFile(10, 'b.jpg').file], {
      property: true,
      rooms: [],
    });
    for (let i = 0; i < 5 && core.pending('photos.addFinish').length === 0; i++) await settle();
    core
      .pending('photos.addFinish')[0]!
      .answer(fail({ code: 'validation', message: 'HEIC photos cannot be read on this computer: export it as JPEG.' }));
    for (let i = 0; i < 5 && core.pending('photos.addFinish').length === 0; i++) await settle();
    expect(adds.adds[0]).toMatchObject({
      fileName: 'IMG_1.HEIC',
      state: 'failed',
      error: 'HEIC photos cannot be read on this computer: export it as JPEG.',
    });
    expect(adds.adds[1]!.state).toBe('reading');
    adds.dismiss(adds.adds[0]!.key);
    expect(adds.adds.map((a) => a.fileName)).toEqual(['b.jpg']);
  });

  it('takes a waiting file off at once, and stops one being sent after its current chunk', async () => {
    const core = installFakeApi({ 'photos.addStart': () => ok({ uploadId: 'a'.repeat(32) }) });
    const adds = usePhotoAddsStore();
    adds.add('H1', [countingFile(PHOTO_CHUNK_BYTES * 3).file, countingFile(10, 'second.jpg').file], {
      property: true,
      rooms: [],
    });
    await settle();
    await settle();
    adds.cancel(adds.adds[1]!.key);
    adds.cancel(adds.adds[0]!.key);
    expect(adds.adds).toHaveLength(1);
    core.pending('photos.addChunk')[0]!.answer(ok({ received: PHOTO_CHUNK_BYTES }));
    await settle();
    await settle();
    expect(adds.adds).toEqual([]);
    expect(core.pending('photos.addChunk')).toHaveLength(0);
  });
});

describe('an upload’s state in the owner’s words', () => {
  it('says what each state means', () => {
    expect(uploadWords(null).label).toBe('Not at Su yet');
    expect(uploadWords(upload({ state: 'queued' }))).toMatchObject({
      label: 'Queued',
      detail: 'Waits until Su is reachable.',
    });
    expect(uploadWords(upload({ state: 'sending' })).label).toBe('Sending to Su…');
    expect(uploadWords(upload({ state: 'fetching' })).label).toBe('Su is fetching it…');
    expect(uploadWords(upload({ state: 'held' })).label).toBe('At Su');
    const failed = uploadWords(
      upload({ state: 'failed', error: { code: '497', message: 'The image URL is not reachable.' } }),
    );
    expect(failed).toMatchObject({ label: 'Not sent', detail: 'The image URL is not reachable.', tone: 'danger' });
    const notFetched = uploadWords(upload({ state: 'not-fetched', problem: 'Su’s copy answered 404.' }));
    expect(notFetched).toMatchObject({ label: 'Su could not fetch this photo', detail: 'Su’s copy answered 404.' });
  });

  it('says when Su fetched it, as a time of day today', () => {
    const at = new Date();
    at.setHours(14, 2, 0, 0);
    const words = uploadWords(upload({ state: 'fetching', fetchedAt: at.getTime() }), at.getTime());
    const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at);
    expect(words.label).toBe(`Su fetched it at ${time}`);
    expect(formatWhen(at.getTime() - 3 * 86_400_000, at.getTime())).not.toBe(
      new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at),
    );
  });

  it('an upload whose outcome is unknown says that retrying is safe, and why', () => {
    const words = uploadWords(
      upload({ state: 'failed', error: { code: 'timeout', message: 'Su did not answer.', outcomeUnknown: true } }),
    );
    expect(words.tone).toBe('unsure');
    expect(words.detail).toContain('Su did not answer.');
    expect(words.detail).toContain('Retrying is safe');
    expect(words.detail).toContain('replaces that image instead of adding another');
    expect(associationWords({ roomId: 'DBL', state: 'sent', outboxId: 3, error: null }).label).toBe('linked at Su');
  });
});

describe('the grid’s filter and the checks', () => {
  const photos = [
    photo({ id: 1, assignments: { property: true, rooms: [] } }),
    photo({ id: 2, assignments: { property: false, rooms: ['DBL'] } }),
    photo({ id: 3, assignments: { property: true, rooms: ['DBL', 'TWN'] } }),
    photo({ id: 4, assignments: { property: false, rooms: [] } }),
  ];
  const ids = (list: Photo[]) => list.map((p) => p.id);

  it('shows all, the property’s, or one room’s photos; a photo added goes where the filter is', () => {
    expect(ids(filterPhotos(photos, { kind: 'all' }))).toEqual([1, 2, 3, 4]);
    expect(ids(filterPhotos(photos, { kind: 'property' }))).toEqual([1, 3]);
    expect(ids(filterPhotos(photos, { kind: 'room', roomId: 'DBL' }))).toEqual([2, 3]);
    expect(assignmentsFor({ kind: 'all' })).toEqual({ property: true, rooms: [] });
    expect(assignmentsFor({ kind: 'property' })).toEqual({ property: true, rooms: [] });
  });

  it('says each thing a scope misses once, under every channel that misses it, then the channels that miss nothing', () => {
    const groups = checkGroups([
      { roomId: null, channel: 'Booking.com', ok: false, missing: ['Assign photos.', 'Too small.'] },
      { roomId: null, channel: 'Airbnb', ok: false, missing: ['Assign photos.', 'Add 3 more.', 'Under 800×500.'] },
      { roomId: null, channel: 'Booking.com', ok: true, missing: [] },
    ]);
    expect(groups).toEqual([
      { channels: ['Booking.com', 'Airbnb'], texts: ['Assign photos.'] },
      { channels: ['Booking.com'], texts: ['Too small.'] },
      { channels: ['Airbnb'], texts: ['Add 3 more.', 'Under 800×500.'] },
      { channels: ['Booking.com'], texts: [] },
    ]);
  });

  it('groups the checks by scope, the property first', () => {
    const scopes = checksByScope([
      { roomId: 'DBL', channel: 'Booking.com', ok: true, missing: [] },
      { roomId: null, channel: 'Booking.com', ok: false, missing: ['Add photos of the property.'] },
      { roomId: null, channel: 'Airbnb', ok: true, missing: [] },
    ]);
    expect(scopes.map((s) => [s.roomId, s.checks.map((c) => c.channel)])).toEqual([
      [null, ['Booking.com', 'Airbnb']],
      ['DBL', ['Booking.com']],
    ]);
  });
});

describe('the photos store', () => {
  it('uploads exactly the photos not yet at Su, and takes the reach the core answers', async () => {
    const calls: unknown[] = [];
    installFakeApi({
      'photos.list': () =>
        ok(
          view({
            photos: [
              photo({ id: 1 }),
              photo({ id: 2, upload: upload({ state: 'held' }) }),
              photo({ id: 3, upload: upload({ state: 'discarded' }) }),
              photo({ id: 4, upload: upload({ state: 'failed' }) }),
            ],
          }),
        ),
      'photos.upload': (args: unknown) => (
        calls.push(args),
        ok({ queued: 2, reach: { baseUrl: 'http://x', reason: null } })
      ),
    });
    const photos = usePhotosStore();
    await photos.open('H1');
    expect(photos.toUpload.map((p) => p.id)).toEqual([1, 3]);
    expect(await photos.upload()).toBeNull();
    expect(await photos.upload([2])).toBeNull();
    expect(calls).toEqual([
      { hotelId: 'H1', ids: [1, 3] },
      { hotelId: 'H1', ids: [2] },
    ]);
  });

  it('refuses an empty caption with the contract’s words, without calling the core', async () => {
    const core = installFakeApi({ 'photos.list': () => ok(view()) });
    const photos = usePhotosStore();
    await photos.open('H1');
    const error = await photos.update(1, { caption: '   ' });
    expect(error).toMatchObject({
      field: 'caption',
      message: 'A caption is required: Su needs a name for every photo.',
    });
    expect(core.pending('photos.update')).toHaveLength(0);
  });

  it('saves a caption and the assignments; the checks are read again after an assignment', async () => {
    let lists = 0;
    installFakeApi({
      'photos.list': () => (lists++, ok(view())),
      'photos.update': (args: never) => {
        const a = args as { caption?: string; assignments?: Photo['assignments'] };
        return ok(photo({ caption: a.caption ?? 'Sea view', assignments: a.assignments ?? photo().assignments }));
      },
    });
    const photos = usePhotosStore();
    await photos.open('H1');
    expect(await photos.update(1, { caption: 'Balcony at dusk' })).toBeNull();
    expect(photos.photos[0]!.caption).toBe('Balcony at dusk');
    expect(lists).toBe(1);
    expect(await photos.update(1, { assignments: { property: false, rooms: ['DBL'] } })).toBeNull();
    await settle();
    expect(lists).toBe(2);
  });

  it('after removing a photo Su holds, says that Su keeps its copy', async () => {
    installFakeApi({
      'photos.list': () => ok(view({ photos: [] })),
      'photos.remove': () => ok({ removed: true, heldAtSu: true }),
    });
    const photos = usePhotosStore();
    await photos.open('H1');
    photos.replace(photo({ id: 1, caption: 'Old lobby' }));
    expect(await photos.remove(1)).toBeNull();
    expect(photos.removed).toEqual({ caption: 'Old lobby', heldAtSu: true });
  });

  it('retries or discards an upload through the outbox by its outbox id, then reads the view again', async () => {
    const decided: unknown[] = [];
    let lists = 0;
    const status = { pending: 0, failed: 0, paused: null } as never;
    installFakeApi({
      'photos.list': () => (lists++, ok(view())),
      'outbox.retry': (args: never) => (decided.push(['retry', args]), ok(status)),
      'outbox.discard': (args: never) => (decided.push(['discard', args]), ok(status)),
    });
    const photos = usePhotosStore();
    await photos.open('H1');
    expect(await photos.decide('retry', 7)).toBeNull();
    expect(await photos.decide('discard', 8)).toBeNull();
    expect(decided).toEqual([
      ['retry', { id: 7 }],
      ['discard', { id: 8 }],
    ]);
    expect(lists).toBe(3);
  });

  it('asks Su what it holds by itself once for a property never checked, so the images there show at once', async () => {
    const core = installFakeApi({ 'photos.list': () => ok(view({ atSu: null })) });
    const photos = usePhotosStore();
    await photos.open('H1');
    await photos.open('H1');
    expect(core.pending('photos.reconcile').map((c) => c.args)).toEqual([{ hotelId: 'H1' }]);
    const held = { images: [], checkedAt: 1 };
    core.pending('photos.reconcile')[0]!.answer(ok(view({ atSu: held })));
    await settle();
    expect(photos.view?.atSu).toEqual(held);
  });

  it('follows photos.changed for the property on screen only', async () => {
    let lists = 0;
    const core = installFakeApi({ 'photos.list': () => (lists++, ok(view())) });
    const photos = usePhotosStore();
    photos.listen();
    await photos.open('H1');
    core.emit('photos.changed', { hotelId: 'H2' });
    core.emit('photos.changed', { hotelId: 'H1' });
    await settle();
    expect(lists).toBe(2);
  });

  it('loads a thumbnail once and keeps it; one that failed is asked for again when the property is opened again', async () => {
    let asked = 0;
    let works = false;
    installFakeApi({
      'photos.list': () => ok(view()),
      'photos.thumbnail': () => (
        asked++,
        works ? ok({ dataUrl: 'data:image/jpeg;base64,AA==' }) : fail({ code: 'internal', message: 'gone' })
      ),
    });
    const photos = usePhotosStore();
    await photos.open('H1');
    await photos.thumbnail(1);
    await photos.thumbnail(1);
    expect(photos.thumbs.get(1)).toEqual({ state: 'failed', message: 'gone' });
    works = true;
    await photos.open('H1');
    await photos.thumbnail(1);
    await photos.thumbnail(1);
    expect(photos.thumbs.get(1)).toEqual({ state: 'ready', url: 'data:image/jpeg;base64,AA==' });
    expect(asked).toBe(2);
  });

  it('the marks come from the contract’s own rules', () => {
    expect(photoMarks({ width: 200, height: 150 }).map((m) => [m.channel, m.refused])).toEqual([
      ['Booking.com', true],
      ['Airbnb', true],
    ]);
  });
});

describe('thumbnails', () => {
  it('one whose answer never comes ends as a thumbnail that says so, after THUMB_WAIT_MS', async () => {
    vi.useFakeTimers();
    try {
      installFakeApi({ 'photos.list': () => ok(view({ photos: [] })) });
      const photos = usePhotosStore();
      await photos.open('H1');
      const loading = photos.suThumbnail(9);
      expect(photos.suThumb(9)).toEqual({ state: 'loading' });
      await vi.advanceTimersByTimeAsync(THUMB_WAIT_MS);
      await loading;
      expect(photos.suThumb(9)).toMatchObject({
        state: 'failed',
        message: expect.stringContaining('did not come in time'),
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
