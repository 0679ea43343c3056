import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { MAX_PIXELS, MAX_READING_BYTES, type ImageRefusal, type ImportAnswer } from './imageJobs';
import { ImageReadFailure, type ImageReader } from './imageReader';
import { MAX_PHOTO_BYTES, UPLOAD_LONG_EDGE } from '../../shared/photos';
import { AppFailure, ErrorCode } from '../../shared/result';

/** What an added file became: the upload copy's size, and what the original was. */
export interface ImportedPhoto {
  width: number;
  height: number;
  bytes: number;
  original: { format: string; width: number; height: number; bytes: number; hadLocation: boolean };
}

const THUMB_EDGE = 480;

const HEIC_ADVICE =
  'HEIC photos (the iPhone’s format) cannot be read here. Add it as JPEG: on the iPhone, Settings › Camera › Formats › Most Compatible, or export it as JPEG.';

/** An HEIC/HEIF file, by its ISO box brand (`ftypheic`, `ftypmif1`, …) or, failing that, its name. */
function isHeic(bytes: Buffer, fileName: string): boolean {
  const brand = bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp' ? bytes.toString('latin1', 8, 12) : '';
  return (
    ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand) || /\.hei[cf]$/i.test(fileName)
  );
}

/** The first `length` bytes of a file (a format's signature), without reading the rest. */
function headOf(path: string, length = 12): Buffer {
  const head = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

const unreadable = (fileName: string, why: string) =>
  new AppFailure({
    code: ErrorCode.Validation,
    message: `“${fileName}” was not added: ${why}`,
    field: 'file',
    retryable: false,
  });

const MB = 1024 * 1024;

/** A format's name as owners see it on files. */
const FORMAT_NAMES: Record<string, string> = { jpeg: 'JPEG', webp: 'WebP', heif: 'HEIF/AVIF' };
const formatName = (format: string) => FORMAT_NAMES[format] ?? format.toUpperCase();

/** What the owner reads when the reader refused a file, in their words: what the file is, and what to do. */
function refusalText(refusal: ImageRefusal, head: Buffer, fileName: string): string {
  switch (refusal.why) {
    case 'unknown':
      return isHeic(head, fileName)
        ? HEIC_ADVICE
        : 'it is not an image Innkeeper can read (a broken file, or not a photo).';
    case 'not_a_photo':
      return `it is not a photo (its format is ${formatName(refusal.format)}): add it as JPEG, PNG or WebP.`;
    case 'too_many_pixels': {
      const mp = Math.round((refusal.width * refusal.height) / 1e6);
      return `it is ${refusal.width}×${refusal.height} pixels (${mp} megapixels), more than any camera makes: Innkeeper takes photos of up to ${MAX_PIXELS / 1e6} megapixels. Add a smaller copy of it.`;
    }
    case 'too_much_memory': {
      const layout =
        refusal.format === 'jpeg'
          ? 'a progressive JPEG'
          : refusal.format === 'png'
            ? 'an interlaced PNG'
            : `a ${formatName(refusal.format)} image`;
      return `as ${layout} of ${refusal.width}×${refusal.height} pixels it needs ${Math.ceil(refusal.bytes / MB)} MB of memory to read (at most ${MAX_READING_BYTES / MB} MB). Add it as an ordinary JPEG, or a smaller copy of it.`;
    }
    case 'undecodable':
      return refusal.format === 'heif' || isHeic(head, fileName)
        ? HEIC_ADVICE
        : `its ${formatName(refusal.format)} data cannot be decoded (the file may be damaged).`;
  }
}

/**
 * The photo files in the data folder: the original as added (the owner may move or delete theirs), the upload copy
 * (JPEG, EXIF orientation applied, long edge capped, every metadata block removed: what Su fetches) and a thumbnail.
 * Files arrive in chunks (the contract carries at most a few hundred kilobytes per call).
 */
export function createPhotoFiles(dataDir: string, reader: ImageReader) {
  const root = join(dataDir, 'photos');
  const incoming = join(root, 'incoming');
  const uploads = new Map<
    string,
    { fileName: string; bytes: number; received: number; meta: unknown; touchedAt: number }
  >();
  /** Drops a file on its way in (finished, refused, or abandoned). */
  const drop = (uploadId: string) => {
    uploads.delete(uploadId);
    rmSync(join(incoming, uploadId), { force: true });
  };
  /** Files nobody sent a part of for 10 minutes were abandoned (a closed window, a cancelled add). */
  const sweep = () => {
    const stale = Date.now() - 10 * 60_000;
    for (const [id, upload] of uploads) if (upload.touchedAt < stale) drop(id);
  };
  // Files half sent when the app last stopped cannot be finished (their chunks' state was in memory).
  rmSync(incoming, { recursive: true, force: true });

  const paths = (id: number) => ({
    original: join(root, `${id}-original`),
    upload: join(root, `${id}.jpg`),
    thumb: join(root, `${id}-thumb.jpg`),
  });

  return {
    paths,
    /** A new file on its way in; `meta` is kept for `finish`. */
    start(fileName: string, bytes: number, meta: unknown): string {
      if (bytes > MAX_PHOTO_BYTES) throw unreadable(fileName, `it is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`);
      sweep();
      mkdirSync(incoming, { recursive: true, mode: 0o700 });
      const id = randomBytes(16).toString('hex');
      writeFileSync(join(incoming, id), Buffer.alloc(0), { mode: 0o600 });
      uploads.set(id, { fileName, bytes, received: 0, meta, touchedAt: Date.now() });
      return id;
    },
    /** Appends one chunk; chunks come in order (the offset must be what arrived so far). Answers the running total. */
    chunk(uploadId: string, offset: number, bytes: string | Uint8Array): number {
      const upload = uploads.get(uploadId);
      if (!upload)
        throw new AppFailure({ code: 'not_found', message: 'This file is no longer being added: add it again.' });
      if (offset !== upload.received) {
        drop(uploadId);
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: `Part of “${upload.fileName}” went missing on its way (expected byte ${upload.received}, got ${offset}): add it again.`,
        });
      }
      // Bytes as they came (the app's page), or base64 (a JSON call).
      const data = typeof bytes === 'string' ? Buffer.from(bytes, 'base64') : bytes;
      if (upload.received + data.length > upload.bytes) {
        drop(uploadId);
        throw new AppFailure({ code: ErrorCode.Validation, message: `“${upload.fileName}” is longer than announced.` });
      }
      upload.touchedAt = Date.now();
      appendFileSync(join(incoming, uploadId), data);
      upload.received += data.length;
      return upload.received;
    },
    /**
     * Reads the arrived file, makes the copies under `id`; throws a clear message for a file that is not a photo. The
     * original is never read into the core's memory: it stays where its chunks arrived until `save` moves it into the
     * library, or `discard` removes it (a file of 8 MB read here and written again was garbage the core kept until its
     * next full collection, which an idle core does not make).
     */
    async finish(uploadId: string): Promise<{
      fileName: string;
      meta: unknown;
      imported: ImportedPhoto;
      /** Moves the original in, writes the upload copy and the thumbnail, all under the library's id for the photo. */
      save: (id: number) => Promise<void>;
      /** The photo is not added after all: its original goes. */
      discard: () => void;
    }> {
      const upload = uploads.get(uploadId);
      if (!upload)
        throw new AppFailure({ code: 'not_found', message: 'This file is no longer being added: add it again.' });
      uploads.delete(uploadId);
      const staged = join(incoming, uploadId);
      const kept = `${staged}.added`;
      try {
        if (upload.received !== upload.bytes)
          throw unreadable(upload.fileName, `only ${upload.received} of its ${upload.bytes} bytes arrived.`);
        // The file is read in the reader's process, never here: see imageReader.ts.
        let answer: ImportAnswer;
        try {
          answer = await reader.importPhoto({ path: staged, longEdge: UPLOAD_LONG_EDGE, thumbEdge: THUMB_EDGE });
        } catch (error) {
          if (error instanceof ImageReadFailure)
            throw unreadable(upload.fileName, `this image could not be read safely (${error.reason}).`);
          throw error;
        }
        if (!answer.ok) throw unreadable(upload.fileName, refusalText(answer.refusal, headOf(staged), upload.fileName));
        const { image } = answer;
        renameSync(staged, kept);
        const save = async (id: number) => {
          const p = paths(id);
          mkdirSync(root, { recursive: true, mode: 0o700 });
          renameSync(kept, p.original); // owner-only since its first chunk
          writeFileSync(p.upload, image.copy.data, { mode: 0o600 });
          writeFileSync(p.thumb, image.thumb, { mode: 0o600 });
        };
        return {
          save,
          discard: () => rmSync(kept, { force: true }),
          fileName: upload.fileName,
          meta: upload.meta,
          imported: {
            width: image.copy.width,
            height: image.copy.height,
            bytes: image.copy.data.length,
            original: {
              format: image.format,
              width: image.width,
              height: image.height,
              bytes: upload.bytes, // all of them arrived (checked above)
              hadLocation: image.hadLocation,
            },
          },
        };
      } finally {
        rmSync(staged, { force: true });
      }
    },
    thumbnail: (id: number) => readFileSync(paths(id).thumb),
    uploadCopy: (id: number) => ({ path: paths(id).upload, bytes: statSync(paths(id).upload).size }),
    remove(id: number): void {
      for (const path of Object.values(paths(id))) rmSync(path, { force: true });
    },
  };
}

export type PhotoFiles = ReturnType<typeof createPhotoFiles>;
