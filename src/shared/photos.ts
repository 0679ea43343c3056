import { z } from 'zod';
import type { AppError } from './result';
import { hotelIdSchema, idSchema, tooLong } from './su/common';
import { defineSlice } from './contractSlice';

// The Photos tab of the Property screen: a local photo library per property and room, uploaded to Su by URL (Su
// fetches each image itself, so the app serves the upload copy at an unguessable public address while Su fetches
// it), assigned to the property and its rooms, and reconciled with what Su holds.

/** The longest edge of the upload copy: big enough for every channel's listing photos, small enough to fetch fast. */
export const UPLOAD_LONG_EDGE = 2560;
/** The largest file the library takes in (a phone's RAW/HEIC can be large; anything above is refused). */
export const MAX_PHOTO_BYTES = 40 * 1024 * 1024;
/** One chunk of a file sent from the renderer to the core (each call stays well under the contract's limit). */
export const PHOTO_CHUNK_BYTES = 128 * 1024;

const OUTSIDE_BASE64 = /[^A-Za-z0-9+/=]/;
/**
 * Whether `text` is base64 (RFC 4648's alphabet, no line breaks), with at most two `=` and only at its end. The one
 * regex `^[A-Za-z0-9+/]*={0,2}$` took 1.8 ms over a chunk of 128 KiB, the largest part of the core's longest tasks
 * while photos were added (a CPU profile of bench:photos); a search for a character outside the alphabet and a look
 * for the first `=` take 0.4 ms.
 */
export function isBase64(text: string): boolean {
  if (OUTSIDE_BASE64.test(text)) return false;
  const padding = text.indexOf('=');
  if (padding === -1) return true;
  const tail = text.length - padding;
  return tail === 1 || (tail === 2 && text.endsWith('=='));
}

/** Where a photo is assigned: the property, and/or rooms by the owner's room id (from Rooms & rate plans). */
export interface PhotoAssignments {
  property: boolean;
  rooms: string[];
}

/** What Su has of a photo: from the create call to Su serving its own copy. */
export interface PhotoUpload {
  /**
   * - `queued`/`sending`/`failed`/`sent`: the create call in the outbox (failed: with Su's reason, or the outcome
   *   unknown);
   * - `fetching`: Su confirmed; the app waits for Su to fetch the photo and checks Su's copy;
   * - `held`: Su's copy (`suUrl`) answers with the image;
   * - `not-fetched`: Su's copy did not answer with the image within a few minutes (see `problem`).
   */
  state: 'queued' | 'sending' | 'failed' | 'fetching' | 'held' | 'not-fetched' | 'discarded';
  outboxId: number | null;
  error: AppError | null;
  /** When the upload was started (epoch ms). */
  queuedAt: number;
  /** Su's copy of the image, once Su confirmed the create. */
  suUrl: string | null;
  /** When Su fetched the photo from this computer, if it did (epoch ms). */
  fetchedAt: number | null;
  /** Why Su's copy is not there, in plain words (`not-fetched`), or null. */
  problem: string | null;
}

/** The state of one assignment at Su (the association call). */
export interface PhotoAssociation {
  /** The owner's room id, or null for the property. */
  roomId: string | null;
  state: 'local' | 'queued' | 'sending' | 'sent' | 'failed' | 'discarded';
  outboxId: number | null;
  error: AppError | null;
}

/** A channel rule a photo does not meet, for the mark on its thumbnail. */
export interface PhotoMark {
  channel: 'Booking.com' | 'Airbnb';
  /** "Too small for Booking.com (under 300×300): it would be refused." */
  message: string;
  /** True when the channel refuses it; false when it only falls short of a recommendation. */
  refused: boolean;
}

/** One photo of the library. */
export interface Photo {
  id: number;
  hotelId: string;
  /** The app's stable id for Su (`pms_imageid`): sending it again replaces that image, never adds another. */
  pmsImageId: string;
  /** Su's required `name`. */
  caption: string;
  /** The file name the owner added, for recognising it. */
  fileName: string;
  /** The upload copy (JPEG, orientation applied, no metadata): what Su fetches. */
  width: number;
  height: number;
  bytes: number;
  /** The original as added: its format and whether metadata (location, camera) was removed from the upload copy. */
  original: { format: string; width: number; height: number; bytes: number; hadLocation: boolean };
  assignments: PhotoAssignments;
  addedAt: number;
  /** Null until the owner uploads it. */
  upload: PhotoUpload | null;
  associations: PhotoAssociation[];
  marks: PhotoMark[];
}

/** What is missing for one channel, for the property or one room: a short list of sentences. */
export interface PhotoCheck {
  /** The owner's room id, or null for the property. */
  roomId: string | null;
  channel: 'Booking.com' | 'Airbnb';
  ok: boolean;
  /** "Add 3 more photos (Airbnb needs at least 7).", "2 photos are under 1024×683 (Booking.com recommends more)." */
  missing: string[];
}

/** An image as Su holds it (retrieve), also one added elsewhere. */
export interface SuImage {
  imageId: number;
  /** The app's id when it came from this library (or another system's), else null. */
  pmsImageId: string | null;
  name: string;
  suUrl: string;
  sourceUrl: string;
  associated: boolean;
  /** The library photo it is, when it is one. */
  photoId: number | null;
}

/** How Su can reach this computer to fetch photos. */
export interface PhotoReach {
  /** The public base the media addresses are made from (the tunnel, the owner's https address, or the demo's loopback). */
  baseUrl: string | null;
  /** Why Su cannot reach this computer, in one sentence, when `baseUrl` is null. */
  reason: string | null;
}

export interface PhotosView {
  hotelId: string;
  photos: Photo[];
  checks: PhotoCheck[];
  reach: PhotoReach;
  /** What Su held at the last reconcile (retrieve), or null before the first; with when, and why it failed. */
  atSu: { images: SuImage[]; checkedAt: number } | null;
  atSuError: AppError | null;
}

// Any property id is taken here; Su's image calls take at most 20 characters, and an upload of a longer one stops with that reason.
const hotel = hotelIdSchema(64);
const captionSchema = z
  .string({ message: 'A caption is required: Su needs a name for every photo.' })
  .trim()
  .min(1, 'A caption is required: Su needs a name for every photo.')
  .max(200, tooLong('The caption', 200));
const roomsSchema = z.array(idSchema('The room id')).max(100);

export const photosMethods = {
  'photos.list': z.object({ hotelId: hotel }).strict(),
  /** Starts adding a file: the core answers an id to send its bytes to, in chunks. */
  'photos.addStart': z
    .object({
      hotelId: hotel,
      fileName: z.string().trim().min(1).max(255),
      bytes: z
        .number()
        .int()
        .positive('The file is empty.')
        .max(MAX_PHOTO_BYTES, `The file is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`),
      /** Where the photo goes at once (the room filter in use when it was dropped). */
      assignments: z
        .object({ property: z.boolean(), rooms: roomsSchema })
        .strict()
        .default({ property: true, rooms: [] }),
    })
    .strict(),
  'photos.addChunk': z
    .object({
      uploadId: z.string().regex(/^[0-9a-f]{32}$/),
      offset: z.number().int().nonnegative(),
      /**
       * At most PHOTO_CHUNK_BYTES bytes: as bytes (the app's page sends them so: over Electron's IPC as they are, in
       * browser mode as a call's body of its own, `CALL_BYTES_TYPE`), or as base64 in a JSON call.
       */
      data: z.union([
        z
          .custom<Uint8Array>((value) => value instanceof Uint8Array)
          .refine((bytes) => bytes.byteLength <= PHOTO_CHUNK_BYTES, `At most ${PHOTO_CHUNK_BYTES} bytes.`),
        z
          .string()
          .max(Math.ceil(PHOTO_CHUNK_BYTES / 3) * 4 + 4)
          .refine(isBase64, 'Not base64.'),
      ]),
    })
    .strict(),
  /** Reads the file (size, orientation, metadata), makes the upload copy and the thumbnail; refuses what it cannot read. */
  'photos.addFinish': z.object({ uploadId: z.string().regex(/^[0-9a-f]{32}$/) }).strict(),
  'photos.update': z
    .object({
      id: z.number().int().positive(),
      caption: captionSchema.optional(),
      assignments: z.object({ property: z.boolean(), rooms: roomsSchema }).strict().optional(),
    })
    .strict(),
  /** Takes a photo out of the library (Su keeps its copy: the contract cannot remove an image). */
  'photos.remove': z.object({ id: z.number().int().positive() }).strict(),
  /** A small JPEG of a library photo, as a data: URL. */
  'photos.thumbnail': z.object({ id: z.number().int().positive() }).strict(),
  /** A small JPEG of an image Su holds, fetched by the core from its su_url, as a data: URL. */
  'photos.suThumbnail': z.object({ hotelId: hotel, imageId: z.number().int().nonnegative() }).strict(),
  /**
   * Uploads the photos (all not yet at Su, or those given) and their assignments, through the outbox: create in
   * batches, then associate to the property and each room.
   */
  'photos.upload': z.object({ hotelId: hotel, ids: z.array(z.number().int().positive()).max(500).optional() }).strict(),
  /** Asks Su what it holds (retrieve) and matches it with the library. */
  'photos.reconcile': z.object({ hotelId: hotel }).strict(),
} as const;

export interface PhotosResults {
  'photos.list': PhotosView;
  'photos.addStart': { uploadId: string };
  'photos.addChunk': { received: number };
  'photos.addFinish': Photo;
  'photos.update': Photo;
  'photos.remove': { removed: boolean; heldAtSu: boolean };
  'photos.thumbnail': { dataUrl: string };
  'photos.suThumbnail': { dataUrl: string };
  'photos.upload': { queued: number; reach: PhotoReach };
  'photos.reconcile': PhotosView;
}

export interface PhotosEvents {
  /** Something about this property's photos changed (added, an upload moved on, Su fetched one). */
  'photos.changed': { hotelId: string };
}

// ── Channel rules (what Booking.com and Airbnb accept for photos) ──

/** Booking.com refuses photos under 300×300 and recommends at least 1024×683; Airbnb needs 7 JPEGs of 800×500. */
export const PHOTO_RULES = {
  booking: { minWidth: 300, minHeight: 300, recommendedWidth: 1024, recommendedHeight: 683 },
  airbnb: { minWidth: 800, minHeight: 500, minCount: 7 },
} as const;

/** Whether a photo meets a minimum in either orientation (a portrait 683×1024 is as good as 1024×683). */
const fits = (w: number, h: number, minW: number, minH: number) => (w >= minW && h >= minH) || (w >= minH && h >= minW);

/** The marks a photo carries on its thumbnail. */
export function photoMarks(photo: { width: number; height: number }): PhotoMark[] {
  const { width: w, height: h } = photo;
  const b = PHOTO_RULES.booking;
  const a = PHOTO_RULES.airbnb;
  const marks: PhotoMark[] = [];
  if (w < b.minWidth || h < b.minHeight)
    marks.push({
      channel: 'Booking.com',
      refused: true,
      message: `Too small for Booking.com (${w}×${h}, under ${b.minWidth}×${b.minHeight}): it would be refused.`,
    });
  else if (!fits(w, h, b.recommendedWidth, b.recommendedHeight))
    marks.push({
      channel: 'Booking.com',
      refused: false,
      message: `Smaller than Booking.com recommends (${w}×${h}, under ${b.recommendedWidth}×${b.recommendedHeight}).`,
    });
  if (!fits(w, h, a.minWidth, a.minHeight))
    marks.push({
      channel: 'Airbnb',
      refused: true,
      message: `Too small for Airbnb (${w}×${h}, under ${a.minWidth}×${a.minHeight}).`,
    });
  return marks;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Per channel, what is missing for the property (all its photos) and for each room (its assigned photos). */
export function photoChecks(
  photos: { width: number; height: number; assignments: PhotoAssignments }[],
  roomIds: string[],
): PhotoCheck[] {
  const checks: PhotoCheck[] = [];
  const scopes: (string | null)[] = [null, ...roomIds];
  for (const roomId of scopes) {
    const set = roomId === null ? photos : photos.filter((p) => p.assignments.rooms.includes(roomId));
    const bookingMissing: string[] = [];
    const refused = set.filter((p) => photoMarks(p).some((m) => m.channel === 'Booking.com' && m.refused)).length;
    const small = set.filter((p) => photoMarks(p).some((m) => m.channel === 'Booking.com' && !m.refused)).length;
    if (set.length === 0)
      bookingMissing.push(roomId === null ? 'Add photos of the property.' : 'Assign photos to this room.');
    if (refused)
      bookingMissing.push(`${plural(refused, 'photo is', 'photos are')} under 300×300: Booking.com refuses them.`);
    if (small)
      bookingMissing.push(`${plural(small, 'photo is', 'photos are')} under 1024×683: Booking.com recommends larger.`);
    checks.push({ roomId, channel: 'Booking.com', ok: bookingMissing.length === 0, missing: bookingMissing });

    // Airbnb lists the whole property: the count applies to the property, the size to every photo.
    const airbnbMissing: string[] = [];
    const good = set.filter((p) => fits(p.width, p.height, PHOTO_RULES.airbnb.minWidth, PHOTO_RULES.airbnb.minHeight));
    if (roomId === null && good.length < PHOTO_RULES.airbnb.minCount)
      airbnbMissing.push(
        `Add ${plural(PHOTO_RULES.airbnb.minCount - good.length, 'more photo')} of at least 800×500 (Airbnb needs ${PHOTO_RULES.airbnb.minCount}).`,
      );
    if (roomId !== null && set.length === 0) airbnbMissing.push('Assign photos to this room.');
    if (set.length > good.length)
      airbnbMissing.push(
        `${plural(set.length - good.length, 'photo is', 'photos are')} under 800×500: Airbnb refuses them.`,
      );
    checks.push({ roomId, channel: 'Airbnb', ok: airbnbMissing.length === 0, missing: airbnbMissing });
  }
  return checks;
}

/** The photos slice of the contract (listed in contract.ts). */
export const photosContract = defineSlice<PhotosResults, PhotosEvents>()(photosMethods, ['photos.changed']);
