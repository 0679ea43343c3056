// What the core asks of the image reader (imageWorker.ts, in its own process) and what it answers.

/** Add a file: check it, make the upload copy (JPEG, upright, long edge capped, no metadata) and a thumbnail. */
export interface ImportJob {
  kind: 'import';
  /** The file as it arrived, on disk. */
  path: string;
  /** The upload copy's and the thumbnail's long edge at most, in pixels. */
  longEdge: number;
  thumbEdge: number;
}

/** A small upright JPEG of an image (one Su holds). */
export interface ThumbnailJob {
  kind: 'thumbnail';
  bytes: Uint8Array;
  edge: number;
}

/** A JPEG of a drawing of the app's own (the demo's photos at Su): never a file from outside. */
export interface DrawJob {
  kind: 'draw';
  svg: string;
}

export type ImageJob = ImportJob | ThumbnailJob | DrawJob;

/** Why the reader refused a file it could read safely; the core says it in the owner's words. */
export type ImageRefusal =
  /** Not an image the reader knows (or not an image at all). */
  | { why: 'unknown' }
  /** An image, but of a kind that is not a photo (SVG drawings, PDF pages, …). */
  | { why: 'not_a_photo'; format: string }
  /** More pixels than any camera makes. */
  | { why: 'too_many_pixels'; format: string; width: number; height: number }
  /** A layout that is read whole at once (progressive JPEG, interlaced PNG, WebP, …) and would need too much memory. */
  | { why: 'too_much_memory'; format: string; width: number; height: number; bytes: number }
  /** Its header read, its pixels did not (damaged, cut off, or a codec the reader lacks, like HEIC's HEVC). */
  | { why: 'undecodable'; format: string };

export interface ImportedImage {
  format: string;
  /** As it stands (EXIF orientation applied). */
  width: number;
  height: number;
  hadLocation: boolean;
  copy: { data: Uint8Array; width: number; height: number };
  thumb: Uint8Array;
}

export type ImportAnswer = { ok: true; image: ImportedImage } | { ok: false; refusal: ImageRefusal };
export type ThumbnailAnswer = { ok: true; jpeg: Uint8Array } | { ok: false; refusal: ImageRefusal };
export type DrawAnswer = { ok: true; jpeg: Uint8Array } | { ok: false; error: string };

/**
 * The most pixels a photo may have: 200 megapixels, the largest phone cameras' (16,320×12,240). Above it nothing is
 * decoded (sharp's own limit is 268 megapixels, 16,383²).
 */
export const MAX_PIXELS = 200_000_000;

/**
 * The most memory reading one image whole may take. Baseline JPEGs (phones' and cameras') and plain PNGs are read a
 * strip at a time and need little whatever their size; progressive JPEGs, interlaced PNGs and the other formats are
 * held whole while they are read: a 2 MB progressive JPEG of 200 megapixels took 1.3 GB.
 */
export const MAX_READING_BYTES = 192 * 1024 * 1024;

/** What sharp's `metadata()` tells of an image, as far as the cost of reading it goes. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  channels: number;
  depth: string;
  isProgressive: boolean;
  chromaSubsampling?: string | undefined;
}

/** About how many bytes reading the image takes at once: 0 for the layouts read a strip at a time. */
export function readingBytes(header: ImageHeader): number {
  const pixels = header.width * header.height;
  const sample = /short/.test(header.depth) ? 2 : /int|float/.test(header.depth) ? 4 : 1;
  if (header.format === 'jpeg') {
    if (!header.isProgressive) return 0;
    // Every coefficient of every component is kept (2 bytes each): 3 per pixel at 4:2:0, 6 at 4:4:4.
    const full = header.chromaSubsampling?.startsWith('4:4:4') ?? true;
    return pixels * header.channels * 2 * (full ? 1 : 0.5);
  }
  if (header.format === 'png' && !header.isProgressive) return 0;
  // Decoded whole: at least four channels (RGBA) for the formats that decode so.
  return pixels * Math.max(header.channels, header.format === 'png' ? 1 : 4) * sample;
}

/** The first refusal that the image's header alone calls for, or null. */
export function refusalByHeader(header: ImageHeader): ImageRefusal | null {
  const { format, width, height } = header;
  if (!['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif'].includes(format)) return { why: 'not_a_photo', format };
  if (width * height > MAX_PIXELS) return { why: 'too_many_pixels', format, width, height };
  const bytes = readingBytes(header);
  if (bytes > MAX_READING_BYTES) return { why: 'too_much_memory', format, width, height, bytes };
  return null;
}
