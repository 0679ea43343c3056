import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Image files made to hurt whatever reads them: each is small on disk and claims far more than it holds.

/**
 * A valid small JPEG whose APP1 Exif block holds as many IFD entries as fit in it (about 5,400), each claiming about
 * 4 GB of data it does not have: half in IFD0, half in a GPS IFD that IFD0 points to (so a reader that only looks for
 * the location meets them too). Its pixels decode fine.
 */
export async function exifBombJpeg(): Promise<Buffer> {
  const pixels = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a6' } })
    .jpeg()
    .toBuffer();
  // A segment's length field counts itself: at most 65,535, so the Exif block's body is at most 65,533 bytes.
  const room = 65_533 - 6 /* Exif\0\0 */ - 8 /* TIFF header */ - 2 * (2 + 4); /* two IFDs' count and next offset */
  const total = Math.floor(room / 12);
  const inGps = Math.floor(total / 2);
  const inIfd0 = total - inGps;
  const tiff = Buffer.alloc(8 + 2 * 6 + total * 12);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const gpsAt = 8 + 2 + inIfd0 * 12 + 4;
  /** Writes an IFD of `count` entries at `at`; `entry(i)` gives each one's tag, and the type sets the claim. */
  const ifd = (at: number, count: number, entry: (i: number) => { tag: number; pointer?: number }) => {
    tiff.writeUInt16LE(count, at);
    for (let i = 0; i < count; i++) {
      const e = entry(i);
      const p = at + 2 + i * 12;
      tiff.writeUInt16LE(e.tag, p);
      if (e.pointer !== undefined) {
        tiff.writeUInt16LE(4, p + 2); // LONG
        tiff.writeUInt32LE(1, p + 4);
        tiff.writeUInt32LE(e.pointer, p + 8);
        continue;
      }
      // BYTE, SHORT, LONG, RATIONAL in turn, each with a count that makes about 4 GB.
      const [type, size] = (
        [
          [1, 1],
          [3, 2],
          [4, 4],
          [5, 8],
        ] as const
      )[i % 4]!;
      tiff.writeUInt16LE(type, p + 2);
      tiff.writeUInt32LE(Math.floor(0xffff_ffff / size), p + 4);
      tiff.writeUInt32LE(8, p + 8);
    }
    tiff.writeUInt32LE(0, at + 2 + count * 12);
  };
  // IFD0: the GPS pointer among ascending tags; the GPS IFD: latitude and longitude tags (1 to 4) among them.
  ifd(8, inIfd0, (i) => (i === 0 ? { tag: 0x8825, pointer: gpsAt } : { tag: 0x9000 + i }));
  ifd(gpsAt, inGps, (i) => ({ tag: 1 + i }));
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([pixels.subarray(0, 2), segment, body, pixels.subarray(2)]);
}

/** A valid PNG of `edge`×`edge` black-and-white pixels (1 bit each): a few tens of kilobytes on disk. */
export function hugePng(edge: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(edge, 0);
  header.writeUInt32BE(edge, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter byte 0, then edge/8 bytes of white.
  const row = Buffer.alloc(1 + Math.ceil(edge / 8), 0xff);
  row[0] = 0;
  const rows = Buffer.concat(Array.from({ length: edge }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The first half of a 3000×2000 photo-like JPEG (noise, so it cannot be guessed from its start). */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await sharp(randomBytes(3000 * 2000 * 3), { raw: { width: 3000, height: 2000, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return whole.subarray(0, Math.floor(whole.length / 2));
}
