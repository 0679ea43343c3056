import { MAX_PHOTO_BYTES, PHOTO_CHUNK_BYTES } from '@shared/photos';

/** The file picker's filter: every image the browser knows, and HEIC/HEIF, which it often does not label. */
export const PHOTO_ACCEPT = 'image/*,.heic,.heif';

const IMAGE_NAME = /\.(jpe?g|png|webp|gif|tiff?|bmp|avif|heic|heif|dng)$/i;
const MB = 1024 * 1024;

/** "3.4 MB", "820 KB": a file's size as an owner reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Why a file is refused before any of it is sent, naming the file, or null. Too large, empty, or plainly not an
 * image (a PDF, a video); whether an image can be read (HEIC without a decoder, a broken file) is the core's to say.
 */
export function refuseBeforeSending(file: { name: string; size: number; type: string }): string | null {
  if (file.size > MAX_PHOTO_BYTES)
    return `“${file.name}” is too large (${(file.size / MB).toFixed(1)} MB): the library takes photos up to ${MAX_PHOTO_BYTES / MB} MB.`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.type && !file.type.startsWith('image/') && !IMAGE_NAME.test(file.name))
    return `“${file.name}” is not an image: add photos (JPEG, PNG, WebP or HEIC).`;
  return null;
}

/** Where each chunk of a file of `size` bytes starts and ends: at most PHOTO_CHUNK_BYTES each, in order. */
export function chunkRanges(size: number, chunk = PHOTO_CHUNK_BYTES): { offset: number; end: number }[] {
  const ranges: { offset: number; end: number }[] = [];
  for (let offset = 0; offset < size; offset += chunk) ranges.push({ offset, end: Math.min(offset + chunk, size) });
  return ranges;
}

/**
 * The bytes of one chunk of a file (read only when it is its turn, so a 40 MB file is never held whole), sent as they
 * are: over Electron's IPC, and in browser mode as the call's body.
 */
export async function readChunk(file: Blob, range: { offset: number; end: number }): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await file.slice(range.offset, range.end).arrayBuffer());
}

/** The image files among what was pasted or dropped (a copied image arrives as a file named "image.png"). */
export function imageFiles(list: FileList | File[] | null | undefined): File[] {
  return [...(list ?? [])].filter((f) => f.type.startsWith('image/') || IMAGE_NAME.test(f.name) || f.type === '');
}
