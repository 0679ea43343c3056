import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isBase64, PHOTO_CHUNK_BYTES, photosMethods } from '../../src/shared/photos';

// A photo reaches the core in chunks of base64 (photos.addChunk): the contract refuses a chunk that is not base64,
// naming the field, and checks it without a regex over the whole chunk (bench:photos).

const chunk = (data: string) =>
  photosMethods['photos.addChunk'].safeParse({ uploadId: 'a'.repeat(32), offset: 0, data });

describe('a chunk of a photo in base64', () => {
  it('takes base64 of every length, padded or not', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 1000, PHOTO_CHUNK_BYTES]) {
      const text = randomBytes(n).toString('base64');
      expect(isBase64(text), `${n} bytes`).toBe(true);
      expect(chunk(text).success).toBe(true);
    }
    expect(isBase64('+/+/')).toBe(true);
    expect(isBase64('QQ==')).toBe(true);
    expect(isBase64('QUE=')).toBe(true);
  });

  it('refuses other characters, and padding anywhere but at the end or of more than two', () => {
    for (const text of [
      'QQ-_',
      'QUJD RA==',
      'QUJD\nRA==',
      'é',
      'QQ===',
      'Q=Q=',
      '=QQQ',
      'QQ=A',
      'QU=J',
      '%QUJ',
      'QUJ\0',
    ]) {
      expect(isBase64(text), text).toBe(false);
      const result = chunk(text);
      expect(result.success).toBe(false);
      expect(result.error!.issues).toEqual([expect.objectContaining({ path: ['data'], message: 'Not base64.' })]);
    }
  });
});
