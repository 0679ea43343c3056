import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { exifHasLocation } from '../../src/main/photos/exifLocation';
import { exifBombJpeg } from '../support/hostileImages';

/** The EXIF block sharp reads from a JPEG made with these EXIF IFDs. */
async function exifOf(exif: Record<string, Record<string, string>>): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#abc' } })
    .withExif(exif)
    .jpeg()
    .toBuffer();
  return (await sharp(jpeg).metadata()).exif!;
}

const GPS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '55/1 40/1 47/1',
  GPSLongitudeRef: 'E',
  GPSLongitude: '12/1 35/1 26/1',
};

/** A big-endian (Motorola) TIFF block by hand: IFD0 with the GPS pointer, a GPS IFD with a latitude of 3 RATIONALs. */
function bigEndianWithLatitude(valueAt = 50): Buffer {
  const b = Buffer.alloc(80);
  b.write('MM', 0, 'latin1');
  b.writeUInt16BE(42, 2);
  b.writeUInt32BE(8, 4);
  b.writeUInt16BE(1, 8); // IFD0: one entry
  b.writeUInt16BE(0x8825, 10);
  b.writeUInt16BE(4, 12);
  b.writeUInt32BE(1, 14);
  b.writeUInt32BE(26, 18); // the GPS IFD's offset
  b.writeUInt16BE(1, 26); // GPS IFD: one entry
  b.writeUInt16BE(2, 28); // GPSLatitude
  b.writeUInt16BE(5, 30); // RATIONAL
  b.writeUInt32BE(3, 32);
  b.writeUInt32BE(valueAt, 36);
  return b;
}

describe('whether a photo carries a location', () => {
  it("finds a phone photo's GPS latitude and longitude, with or without the Exif header", async () => {
    const exif = await exifOf({ IFD0: { Make: 'PhoneMaker' }, IFD3: GPS });
    expect(exif.subarray(0, 6).toString('latin1')).toBe('Exif\0\0');
    expect(exifHasLocation(exif)).toBe(true);
    expect(exifHasLocation(exif.subarray(6))).toBe(true);
    expect(exifHasLocation(bigEndianWithLatitude())).toBe(true);
  });

  it('no GPS IFD, or one with only the hemisphere and no coordinates, is no location', async () => {
    expect(exifHasLocation(await exifOf({ IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' } }))).toBe(false);
    expect(exifHasLocation(await exifOf({ IFD3: { GPSLatitudeRef: 'N', GPSLongitudeRef: 'E' } }))).toBe(false);
    expect(exifHasLocation(undefined)).toBe(false);
  });

  it('a block that breaks off, points outside itself or is not EXIF reads as no location, without throwing', async () => {
    // Cut off byte by byte: no location until a coordinate's bytes are all in, then found from there on.
    const exif = await exifOf({ IFD3: GPS });
    const found = Array.from({ length: exif.length + 1 }, (_, cut) => exifHasLocation(exif.subarray(0, cut)));
    const from = found.indexOf(true);
    expect(from).toBeGreaterThan(30);
    expect(found.slice(from).every(Boolean)).toBe(true);
    // The latitude's three RATIONALs (24 bytes) said to lie past the block's end.
    expect(exifHasLocation(bigEndianWithLatitude(60))).toBe(false);
    expect(exifHasLocation(bigEndianWithLatitude(0xffff_fff0))).toBe(false);
    expect(exifHasLocation(Buffer.from('Exif\0\0not a TIFF header at all', 'latin1'))).toBe(false);
  });

  it('thousands of entries claiming gigabytes each are passed over, latitude and longitude among them', async () => {
    const exif = (await sharp(await exifBombJpeg()).metadata()).exif!;
    expect(exif.length).toBeGreaterThan(60_000);
    expect(exifHasLocation(exif)).toBe(false);
  });
});
