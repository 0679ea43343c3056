/** GPSInfo: IFD0's pointer to the GPS IFD. */
const GPS_IFD_POINTER = 0x8825;
/** GPSLatitude and GPSLongitude in the GPS IFD (their Ref tags, 1 and 3, say only N/S or E/W). */
const LATITUDE = 2;
const LONGITUDE = 4;
/** The size of one value of each TIFF type (1 BYTE … 12 DOUBLE); 0 for a type that does not exist. */
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

/**
 * Whether a file's EXIF block (as sharp's `metadata().exif` gives it, with or without its `Exif\0\0` header) holds a
 * location: a latitude or a longitude in its GPS IFD whose value is within the block. Owners' home addresses leak
 * through them, so the owner is told a photo had one (the upload copy never carries any metadata).
 *
 * Reads only what it needs, within the block: IFD0's entries (at most what fits in the block) for the GPS IFD's
 * offset, then the GPS IFD's entries. No value is read or copied, so an entry that claims gigabytes costs nothing
 * (a general EXIF reader allocated by such claims: a 95 KB JPEG held the core ~14 s and took it to 3.5 GB).
 * A block that is not EXIF, or breaks off, holds no location.
 */
export function exifHasLocation(exif: Uint8Array | undefined): boolean {
  if (!exif) return false;
  const view = new DataView(exif.buffer, exif.byteOffset, exif.byteLength);
  const header = exif.length >= 6 && String.fromCharCode(...exif.subarray(0, 6)) === 'Exif\0\0' ? 6 : 0;
  const size = exif.length - header;
  if (size < 8) return false;
  const order = String.fromCharCode(exif[header]!, exif[header + 1]!);
  if (order !== 'II' && order !== 'MM') return false;
  const little = order === 'II';
  // Offsets count from the TIFF header; whatever lies outside the block reads as nothing.
  const u16 = (at: number) => (at >= 0 && at + 2 <= size ? view.getUint16(header + at, little) : null);
  const u32 = (at: number) => (at >= 0 && at + 4 <= size ? view.getUint32(header + at, little) : null);
  if (u16(2) !== 42) return false;

  /** The entries of the IFD at `at` that fit in the block, one at a time. */
  function* entries(at: number | null) {
    const count = at === null ? null : u16(at);
    if (at === null || count === null) return;
    const fits = Math.min(count, Math.floor((size - at - 2) / 12));
    for (let i = 0; i < fits; i++) {
      const entry = at + 2 + i * 12;
      yield { tag: u16(entry)!, type: u16(entry + 2)!, count: u32(entry + 4)!, value: entry + 8 };
    }
  }

  let gps: number | null = null;
  for (const e of entries(u32(4))) if (e.tag === GPS_IFD_POINTER && e.count === 1) gps = u32(e.value);
  if (gps === null) return false;
  for (const e of entries(gps)) {
    if (e.tag !== LATITUDE && e.tag !== LONGITUDE) continue;
    const bytes = (TYPE_SIZES[e.type] ?? 0) * e.count;
    if (bytes === 0) continue;
    // Up to 4 bytes sit in the entry itself; more lie at the offset it holds, which must be within the block.
    const at = bytes <= 4 ? e.value : u32(e.value);
    if (at !== null && at + bytes <= size) return true;
  }
  return false;
}
