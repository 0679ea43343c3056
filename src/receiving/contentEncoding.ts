import { promisify } from 'node:util';
import { gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';

/** The compressions a delivery may come in (`Content-Encoding`), besides none. */
export type BodyEncoding = 'gzip' | 'deflate';

/** What the listener says it takes, in a 415's `Accept-Encoding`. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate';

/**
 * The compressions of a `Content-Encoding` header, in the order the sender applied them ([] for none or `identity`);
 * null when one is not known (answered 415 before the body is read).
 */
export function bodyEncodings(header: string | string[] | undefined): BodyEncoding[] | null {
  if (header === undefined) return [];
  const names = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  const encodings: BodyEncoding[] = [];
  for (const name of names) {
    if (name === 'gzip' || name === 'x-gzip') encodings.push('gzip');
    else if (name === 'deflate') encodings.push('deflate');
    else return null;
  }
  // A sender compresses once; a long list is a way to make the listener work, not a delivery.
  return encodings.length <= 2 ? encodings : null;
}

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);
const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);

/** What decoding a body gave: its bytes, or why not. */
export type DecodedBody = { body: Buffer } | { tooLarge: true } | { unreadable: string };

/**
 * Undoes the compressions (the last applied first), on zlib's threads, never producing more than `limit` bytes: zlib
 * stops as soon as the output passes it (`maxOutputLength`), so a small body that would inflate to gigabytes (a
 * decompression bomb) costs at most `limit` bytes of memory and is answered 413. "deflate" is zlib's format as HTTP
 * says; a raw deflate stream, which some senders use, is read too.
 */
export async function decodeBody(
  body: Buffer,
  encodings: readonly BodyEncoding[],
  limit: number,
): Promise<DecodedBody> {
  const options: ZlibOptions = { maxOutputLength: limit };
  let bytes = body;
  try {
    for (const encoding of [...encodings].reverse()) {
      if (encoding === 'gzip') bytes = await gunzipAsync(bytes, options);
      else
        bytes = await inflateAsync(bytes, options).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'Z_DATA_ERROR') throw error;
          return inflateRawAsync(bytes, options);
        });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { tooLarge: true };
    return { unreadable: (error as Error).message };
  }
  return { body: bytes };
}
