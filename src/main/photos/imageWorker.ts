// The image reader's process (forked by imageReader.ts): every image file that arrives from outside (an owner's
// photo, an image Su holds) is decoded here, never in the core's process. Each job gets one answer; a job that fails
// here in a way it cannot answer (memory, a crash) ends this process, and the core refuses that one file.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { exifHasLocation } from './exifLocation';
import {
  MAX_PIXELS,
  refusalByHeader,
  type DrawAnswer,
  type DrawJob,
  type ImageJob,
  type ImportAnswer,
  type ImportJob,
  type ThumbnailAnswer,
  type ThumbnailJob,
} from './imageJobs';
import { readBelowNormalPriority } from './readerPriority';

// Below normal priority, every thread of it: the core's calls and pushes come first (readerPriority.ts).
readBelowNormalPriority();

// No cache of decoded images (each file is read once) and one libvips thread per image: the core keeps a core of
// the two a small computer has.
sharp.cache(false);
sharp.concurrency(1);

/** sharp's options for a file from outside: no more pixels than a photo has; damaged or cut-off data fails. */
const untrusted = { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true } as const;

/**
 * The header says whether the image may be read at all; nothing else is decoded before it passed. (It is read
 * without the pixel limit, which would refuse a file too large without saying how large.)
 */
async function header(input: Buffer) {
  try {
    return await sharp(input, { ...untrusted, limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
}

async function importPhoto(job: ImportJob): Promise<ImportAnswer> {
  const input = readFileSync(job.path);
  const meta = await header(input);
  if (!meta) return { ok: false, refusal: { why: 'unknown' } };
  const refusal = refusalByHeader(meta);
  if (refusal) return { ok: false, refusal };
  try {
    const copy = await sharp(input, untrusted)
      .rotate()
      .resize({ width: job.longEdge, height: job.longEdge, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(copy.data)
      .resize({ width: job.thumbEdge, height: job.thumbEdge, fit: 'inside' })
      .jpeg({ quality: 72 })
      .toBuffer();
    return {
      ok: true,
      image: {
        format: meta.format,
        width: meta.autoOrient.width,
        height: meta.autoOrient.height,
        hadLocation: exifHasLocation(meta.exif),
        copy: { data: copy.data, width: copy.info.width, height: copy.info.height },
        thumb,
      },
    };
  } catch {
    return { ok: false, refusal: { why: 'undecodable', format: meta.format } };
  }
}

async function thumbnail(job: ThumbnailJob): Promise<ThumbnailAnswer> {
  const input = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const meta = await header(input);
  if (!meta) return { ok: false, refusal: { why: 'unknown' } };
  const refusal = refusalByHeader(meta);
  if (refusal) return { ok: false, refusal };
  try {
    const jpeg = await sharp(input, untrusted)
      .rotate()
      .resize({ width: job.edge, height: job.edge, fit: 'inside' })
      .jpeg({ quality: 72 })
      .toBuffer();
    return { ok: true, jpeg };
  } catch {
    return { ok: false, refusal: { why: 'undecodable', format: meta.format } };
  }
}

/** A drawing of the app's own (not a file from outside: none of the limits above apply). */
async function draw(job: DrawJob): Promise<DrawAnswer> {
  try {
    return { ok: true, jpeg: await sharp(Buffer.from(job.svg)).jpeg({ quality: 80 }).toBuffer() };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

/** Electron's utility process talks through `process.parentPort`; a Node child process through `process.send`. */
const parentPort = (
  process as NodeJS.Process & {
    parentPort?: { on(event: 'message', fn: (e: { data: unknown }) => void): void; postMessage(m: unknown): void };
  }
).parentPort;
const reply = (message: unknown) => (parentPort ? parentPort.postMessage(message) : process.send!(message));

async function answer({ id, job }: { id: number; job: ImageJob }) {
  // The answer's bytes are copied to the core over the channel: a few MB at most.
  const answered =
    job.kind === 'import' ? await importPhoto(job) : job.kind === 'thumbnail' ? await thumbnail(job) : await draw(job);
  reply({ id, answer: answered });
}

if (parentPort) parentPort.on('message', (e) => void answer(e.data as { id: number; job: ImageJob }));
else {
  process.on('message', (m: { id: number; job: ImageJob }) => void answer(m));
  // The core gone (its channel closed), this process has nothing left to do. (Electron ends a utility process
  // with the app.)
  process.on('disconnect', () => process.exit(0));
}

// sharp is loaded (by the imports above) and jobs are listened for: the core sends the first file now.
reply({ ready: true });
