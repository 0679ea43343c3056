import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_READING_BYTES } from '../../src/main/photos/imageJobs';
import { createImageReader, ImageReadFailure, type ImageReader } from '../../src/main/photos/imageReader';
import { createPhotoFiles } from '../../src/main/photos/library';
import { tempDir } from '../support/tempDir';

// The image reader in real processes on real files: what it refuses from the header alone, and how a file that runs
// out of time or memory, or whose process is killed, is refused while the reader goes on.

const dir = tempDir('innkeeper-image-reader-');
const file = (name: string) => join(dir.path, name);
const job = (name: string) => ({ path: file(name), longEdge: 2560, thumbEdge: 480 });
const readers: ImageReader[] = [];
const reader = (options: Parameters<typeof createImageReader>[0] = {}) => {
  const r = createImageReader(options);
  readers.push(r);
  return r;
};
/** This process's reader processes that run (zombies have no command line), from /proc (Linux). */
const readerProcesses = () =>
  readdirSync('/proc/self/task')
    .flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
    .map(Number)
    .filter((pid) => alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('imageWorker'));
const alive = (pid: number) => {
  try {
    return existsSync(`/proc/${pid}`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== '';
  } catch {
    return false;
  }
};
const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#6a8caf' } });

beforeAll(async () => {
  writeFileSync(file('photo.jpg'), await solid(1200, 800).jpeg().toBuffer());
  // 6000×6000 progressive at 4:4:4: every coefficient kept while it is read, 216 MB (3 components × 2 bytes).
  writeFileSync(
    file('progressive.jpg'),
    await solid(6000, 6000).jpeg({ progressive: true, chromaSubsampling: '4:4:4' }).toBuffer(),
  );
  // The same pixels as an ordinary JPEG are read a strip at a time.
  writeFileSync(file('baseline.jpg'), await solid(6000, 6000).jpeg({ chromaSubsampling: '4:4:4' }).toBuffer());
  writeFileSync(
    file('drawing.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300"/></svg>',
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
  dir.remove();
});

describe('the image reader', () => {
  it('makes the upload copy and thumbnail of a photo, one file after another', async () => {
    const r = reader();
    for (let i = 0; i < 2; i++) {
      const answer = await r.importPhoto(job('photo.jpg'));
      expect(answer).toMatchObject({
        ok: true,
        image: { format: 'jpeg', width: 1200, height: 800, hadLocation: false },
      });
      if (!answer.ok) continue;
      expect((await sharp(answer.image.copy.data).metadata()).width).toBe(1200);
      expect((await sharp(answer.image.thumb).metadata()).width).toBe(480);
    }
  });

  it('draws an SVG of the app’s own (the demo’s photos at Su) as a JPEG, and says why one cannot be drawn', async () => {
    const r = reader();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#9cc7e8"/></svg>';
    const jpeg = await r.draw(svg);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 200 });
    await expect(r.draw('<svg')).rejects.toThrow(/the drawing could not be made: /);
    // The reader goes on after a drawing it could not make.
    expect((await r.importPhoto(job('photo.jpg'))).ok).toBe(true);
  });

  it('refuses by the header what would take too much memory or is no photo, and reads the same pixels stored plainly', async () => {
    const r = reader();
    expect(await r.importPhoto(job('progressive.jpg'))).toEqual({
      ok: false,
      refusal: { why: 'too_much_memory', format: 'jpeg', width: 6000, height: 6000, bytes: 216_000_000 },
    });
    expect(216_000_000).toBeGreaterThan(MAX_READING_BYTES);
    expect(await r.importPhoto(job('baseline.jpg'))).toMatchObject({
      ok: true,
      image: { width: 6000, height: 6000, copy: { width: 2560, height: 2560 } },
    });
    expect(await r.importPhoto(job('drawing.svg'))).toEqual({
      ok: false,
      refusal: { why: 'not_a_photo', format: 'svg' },
    });
  });

  it('a file that runs past its deadline is refused with the reason, and the files after it are answered', async () => {
    // A deadline shorter than a process takes to start: no file can make it, and none waits for ever.
    const before = readerProcesses();
    const r = reader({ deadlineMs: 20 });
    const late = await Promise.all(
      [1, 2, 3].map(() => r.importPhoto(job('photo.jpg')).catch((error: unknown) => error)),
    );
    for (const failure of late) {
      expect(failure).toBeInstanceOf(ImageReadFailure);
      expect((failure as ImageReadFailure).message).toBe(
        'the image could not be read safely: reading it took longer than 0.02 seconds',
      );
    }
    // Each late file's process was killed (SIGKILL), none is left reading.
    await vi.waitFor(() => expect(readerProcesses().filter((pid) => !before.includes(pid))).toEqual([]), {
      timeout: 5_000,
      interval: 20,
    });
    // With the ordinary deadline the same file reads fine.
    expect(await reader().importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
  });

  it('a reader process that runs out of memory costs that file a refusal, and the core goes on', async () => {
    // 8 MB of heap is less than the process needs to load its code.
    const r = reader({ heapMb: 8 });
    const failed = await r.importPhoto(job('photo.jpg')).catch((error: unknown) => error);
    expect((failed as ImageReadFailure).reason).toBe('reading it needed more memory than a photo does');
    expect(await reader().importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
  });

  it('the core process never maps sharp or libvips: a photo is read in a process of its own', async () => {
    // A process of its own (this one loaded sharp to draw the test files) imports a photo with two readers in turn,
    // then reads its own memory map: no libvips, and sharp is not among its modules.
    const readerUrl = pathToFileURL(join(import.meta.dirname, '../../src/main/photos/imageReader.ts')).href;
    const script = `
      import { readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      const { createImageReader } = await import(${JSON.stringify(readerUrl)});
      const job = { path: ${JSON.stringify(file('photo.jpg'))}, longEdge: 2560, thumbEdge: 480 };
      const answers = [];
      for (let i = 0; i < 2; i++) {
        const r = createImageReader({ idleMs: 10 });
        answers.push((await r.importPhoto(job)).ok);
        await r.close();
      }
      const onCore = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('sharp'));
      const vips = readFileSync('/proc/self/maps', 'utf8').split('\\n').filter((l) => /libvips|sharp/.test(l));
      console.log(JSON.stringify({ answers, onCore, vips }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: join(import.meta.dirname, '../..'), timeout: 60_000 },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ answers: [true, true], onCore: [], vips: [] });
  });

  it('the reader process runs below normal priority, every thread of it, and the core stays at its own', async () => {
    /** The nice value of each thread of a process, from /proc (field 19 of a thread's stat). */
    const niceOf = (pid: number | 'self') =>
      readdirSync(`/proc/${pid}/task`).map((task) =>
        Number(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
      );
    const before = readerProcesses();
    const own = niceOf('self');
    const r = reader();
    // After a photo: the threads that decoded it (the pool's, libvips's) were started by then.
    expect(await r.importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
    const [pid] = readerProcesses().filter((p) => !before.includes(p));
    const threads = niceOf(pid!);
    expect(threads.length).toBeGreaterThan(4);
    expect(threads.filter((nice) => nice < 10)).toEqual([]);
    // This process (the core's, here) keeps its priority: only the reader's own threads were lowered.
    expect(niceOf('self')[0]).toBe(own[0]);
  });

  it('the reader process ends after its idle time, and the next file starts a new one', async () => {
    const before = readerProcesses();
    const r = reader({ idleMs: 300 });
    expect(await r.importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
    const first = readerProcesses().filter((pid) => !before.includes(pid));
    expect(first).toHaveLength(1);
    // Its memory goes back to the system with it.
    await vi.waitFor(() => expect(alive(first[0]!)).toBe(false), { timeout: 5_000, interval: 50 });
    expect(await r.importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
    const second = readerProcesses().filter((pid) => !before.includes(pid));
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);
  });

  it('a reader process killed while its file is read refuses that one file, and the next file is read', async () => {
    const before = readerProcesses();
    const r = reader();
    const reading = r.importPhoto(job('baseline.jpg')).catch((error: unknown) => error);
    const started = await vi.waitFor(
      () => {
        const pids = readerProcesses().filter((pid) => !before.includes(pid));
        expect(pids).toHaveLength(1);
        return pids[0]!;
      },
      { timeout: 10_000, interval: 5 },
    );
    process.kill(started, 'SIGKILL');
    expect(((await reading) as ImageReadFailure).reason).toBe('the reader stopped');
    expect(await r.importPhoto(job('photo.jpg'))).toMatchObject({ ok: true });
    const now = readerProcesses().filter((pid) => !before.includes(pid));
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(started);
  });

  it('closing refuses the files still waiting', async () => {
    const r = createImageReader();
    const waiting = [r.importPhoto(job('photo.jpg')), r.importPhoto(job('photo.jpg'))].map((p) =>
      p.then(
        () => 'read',
        (error: unknown) => (error as ImageReadFailure).reason,
      ),
    );
    await r.close();
    expect(await Promise.all(waiting)).toEqual(['Innkeeper is closing', 'Innkeeper is closing']);
    await expect(r.importPhoto(job('photo.jpg'))).rejects.toThrow('Innkeeper is closing');
  });

  it('the library tells the owner why a file was not added, and nothing is left of it', async () => {
    /** Adds a file as the contract does (one chunk here) and answers the owner's message. */
    const add = async (files: ReturnType<typeof createPhotoFiles>, name: string) => {
      const bytes = readFileSync(file(name));
      const id = files.start(name, bytes.length, {});
      files.chunk(id, 0, bytes.toString('base64'));
      return files.finish(id).then(
        async ({ save }) => {
          await save(1);
          return 'added';
        },
        (error: unknown) => (error as Error).message,
      );
    };
    const data = tempDir('innkeeper-image-library-');
    try {
      expect(await add(createPhotoFiles(data.path, reader({ deadlineMs: 20 })), 'photo.jpg')).toBe(
        '“photo.jpg” was not added: this image could not be read safely (reading it took longer than 0.02 seconds).',
      );
      const files = createPhotoFiles(data.path, reader());
      expect(await add(files, 'progressive.jpg')).toBe(
        '“progressive.jpg” was not added: as a progressive JPEG of 6000×6000 pixels it needs 206 MB of memory to read (at most 192 MB). Add it as an ordinary JPEG, or a smaller copy of it.',
      );
      expect(await add(files, 'drawing.svg')).toBe(
        '“drawing.svg” was not added: it is not a photo (its format is SVG): add it as JPEG, PNG or WebP.',
      );
      expect(await add(files, 'photo.jpg')).toBe('added');
      expect(readdirSync(join(data.path, 'photos', 'incoming'))).toEqual([]);
      // The original was moved in as it arrived, never read into the core's memory and written again.
      expect(readFileSync(join(data.path, 'photos', '1-original')).equals(readFileSync(file('photo.jpg')))).toBe(true);
      expect(statSync(join(data.path, 'photos', '1-original')).mode & 0o777).toBe(0o600);
      // Read, but not added after all (the photo's row could not be written): nothing is left of it either.
      const bytes = readFileSync(file('photo.jpg'));
      const second = files.start('photo.jpg', bytes.length, {});
      files.chunk(second, 0, bytes.toString('base64'));
      (await files.finish(second)).discard();
      expect(readdirSync(join(data.path, 'photos', 'incoming'))).toEqual([]);
    } finally {
      data.remove();
    }
  });
});
