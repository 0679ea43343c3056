import { randomBytes } from 'node:crypto';
import {
  photoChecks,
  type Photo,
  type PhotoAssignments,
  type PhotoReach,
  type PhotosView,
  type SuImage,
} from '../../shared/photos';
import { AppFailure, ErrorCode } from '../../shared/result';
import type { ImageAssociate, ImageCreate } from '../../shared/su/images';
import type { Database } from '../db/database';
import { redactJson, secretsOfDatabase } from '../gateway/secretLeaks';
import type { Outbox } from '../outbox/outbox';
import type { OutboxItem } from '../outbox/types';
import type { CreatedImage, ProviderImage } from '../provider/endpoints/images';
import type { PhotoFiles } from './library';
import { readFileSync } from 'node:fs';
import { createPhotoViews, type PhotoRow } from './views';
import { mediaName, type MediaLinks } from './media';
import { createPhotoVerification, VERIFY_WITHIN_MS } from './verification';
import { PHOTO_KINDS, photosKey, type PhotoAssociatePayload, type PhotoCreatePayload, type PhotoKinds } from './kinds';
import { createPhotoRemoval } from './removal';

export { PHOTO_KINDS, photosKey, type PhotoAssociatePayload, type PhotoCreatePayload, type PhotoKinds } from './kinds';

/** The owner's mailbox as the photos use it (src/main/mailbox): it keeps a photo and answers its public address. */
export interface MailboxMedia {
  /** The mailbox's address (shown as where Su fetches photos from). */
  url: string;
  put(name: string, bytes: Buffer): Promise<string>;
  remove(name: string): Promise<void>;
}

/** Images per create call. */
const BATCH = 20;

/**
 * The photo library and its way to Su: photos are files of this computer; Su fetches each from a public address the
 * app serves while it waits (see media.ts), through the durable outbox (create in batches, then associate with the
 * property and each room), and the app checks that Su's copy really answers.
 */
export function createPhotosService(deps: {
  database: Database;
  outbox: Outbox<PhotoKinds>;
  now: () => number;
  files: PhotoFiles;
  media: MediaLinks;
  /** The provider in use: uploads and what Su holds are per provider. */
  provider: () => string;
  /** How Su reaches this computer now. */
  reach: () => PhotoReach;
  /** The owner's room ids of a property (Rooms & rate plans). */
  roomsOf: (hotelId: string) => string[];
  /** Endpoint 11 for the provider in use. */
  retrieve: (hotelId: string) => Promise<ProviderImage[]>;
  /** Reads an address of Su's (its copy of an image); null when it does not answer with an image. */
  fetchImage: (url: string) => Promise<Buffer | null>;
  changed: (hotelId: string) => void;
  /** The owner's paired mailbox, which serves the photos to Su instead of this computer; null without one. */
  mailbox?: () => MailboxMedia | null;
}) {
  const { database, outbox, now, files, media, provider } = deps;
  const { db } = database;

  const { row, must, latestUpload, associationsOf, toPhoto, atSu } = createPhotoViews({ database, media, provider });
  const verification = createPhotoVerification({ db, now, media, fetchImage: deps.fetchImage });
  const remove = createPhotoRemoval({ ...deps, row, latestUpload });

  function list(hotelId: string): PhotosView {
    const photos = (db.prepare('SELECT * FROM photos WHERE hotel_id = ? ORDER BY id').all(hotelId) as PhotoRow[]).map(
      toPhoto,
    );
    return {
      hotelId,
      photos,
      checks: photoChecks(photos, deps.roomsOf(hotelId)),
      reach: deps.reach(),
      ...atSu(hotelId),
    };
  }

  /** Which photos of an upload still need Su: none queued or held for the provider in use. */
  const needsUpload = (r: PhotoRow) => {
    const u = latestUpload(r.id);
    return !u || u.state === 'discarded' || u.verified === 'failed';
  };

  return {
    list,
    toPhoto: (id: number) => toPhoto(must(id)),

    /** A file arrived whole: the library takes it (or says why not: nothing is added then). */
    async add(uploadId: string): Promise<Photo> {
      const { fileName, meta, imported, save, discard } = await files.finish(uploadId);
      const { hotelId, assignments } = meta as { hotelId: string; assignments: PhotoAssignments };
      const caption =
        fileName
          .replace(/\.[A-Za-z0-9]{2,5}$/, '')
          .replace(/[_-]+/g, ' ')
          .trim()
          .slice(0, 200) || 'Photo';
      let id: number;
      try {
        id = Number(
          db
            .prepare(
              `INSERT INTO photos (hotel_id, pms_image_id, caption, file_name, width, height, bytes, original, property, rooms, added_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              hotelId,
              `ik-${randomBytes(8).toString('hex')}`,
              caption,
              fileName.slice(0, 255),
              imported.width,
              imported.height,
              imported.bytes,
              JSON.stringify(imported.original),
              assignments.property ? 1 : 0,
              JSON.stringify([...new Set(assignments.rooms)]),
              now(),
            ).lastInsertRowid,
        );
      } catch (error) {
        discard();
        throw error;
      }
      try {
        await save(id);
      } catch (error) {
        db.prepare('DELETE FROM photos WHERE id = ?').run(id);
        files.remove(id);
        discard();
        throw error;
      }
      deps.changed(hotelId);
      return toPhoto(must(id));
    },

    update(id: number, patch: { caption?: string | undefined; assignments?: PhotoAssignments | undefined }): Photo {
      const r = must(id);
      if (patch.caption !== undefined) db.prepare('UPDATE photos SET caption = ? WHERE id = ?').run(patch.caption, id);
      if (patch.assignments)
        db.prepare('UPDATE photos SET property = ?, rooms = ? WHERE id = ?').run(
          patch.assignments.property ? 1 : 0,
          JSON.stringify([...new Set(patch.assignments.rooms)]),
          id,
        );
      deps.changed(r.hotel_id);
      return toPhoto(must(id));
    },

    remove,

    thumbnail: (id: number) => ({
      dataUrl: `data:image/jpeg;base64,${files.thumbnail(must(id).id).toString('base64')}`,
    }),

    /**
     * Queues the upload: creates in batches, then one association per target, all under the property's entity so
     * they go out in that order. Photos already queued or held are left alone unless named.
     */
    upload(hotelId: string, ids?: number[]): { queued: number; reach: PhotoReach } {
      const chosen = (
        db.prepare('SELECT * FROM photos WHERE hotel_id = ? ORDER BY id').all(hotelId) as PhotoRow[]
      ).filter((r) => !ids || ids.includes(r.id));
      // A create only for a photo Su does not have (or whose copy never answered): never a second one while the
      // first is on its way; a photo Su holds gets only the links it lacks.
      const creates = chosen.filter(needsUpload);
      const missing = creates.filter((r) => !r.caption.trim());
      if (missing.length)
        throw new AppFailure({
          code: ErrorCode.Validation,
          message: `Give ${missing.length === 1 ? 'this photo' : `these ${missing.length} photos`} a caption first: Su needs a name for every photo.`,
          field: 'caption',
        });
      const links = new Map<string, PhotoRow[]>();
      for (const r of chosen) {
        const created = creates.includes(r);
        const targets = [...(r.property ? [''] : []), ...(JSON.parse(r.rooms) as string[])];
        for (const target of targets) {
          const state = created
            ? 'local'
            : associationsOf(r, { property: target === '', rooms: target ? [target] : [] })[0]?.state;
          if (created || state === 'local' || state === 'discarded')
            links.set(target, [...(links.get(target) ?? []), r]);
        }
      }
      if (creates.length === 0 && links.size === 0) return { queued: 0, reach: deps.reach() };
      const key = photosKey(hotelId);
      database.transaction(() => {
        for (let i = 0; i < creates.length; i += BATCH) {
          const batch = creates.slice(i, i + BATCH);
          const item = outbox.enqueue(PHOTO_KINDS.create, key, {
            hotelId,
            photoIds: batch.map((r) => r.id),
            pmsImageIds: batch.map((r) => r.pms_image_id),
          });
          for (const r of batch)
            db.prepare('INSERT INTO photo_uploads (photo_id, provider, outbox_id, queued_at) VALUES (?, ?, ?, ?)').run(
              r.id,
              provider(),
              item.id,
              now(),
            );
        }
        for (const [roomId, photos] of links) {
          const item = outbox.enqueue(PHOTO_KINDS.associate, key, {
            hotelId,
            roomId: roomId || null,
            pmsImageIds: photos.map((p) => p.pms_image_id),
          });
          for (const p of photos)
            db.prepare(
              'INSERT INTO photo_associations (photo_id, provider, room_id, outbox_id) VALUES (?, ?, ?, ?)',
            ).run(p.id, provider(), roomId, item.id);
        }
      });
      deps.changed(hotelId);
      return { queued: new Set([...creates, ...[...links.values()].flat()]).size, reach: deps.reach() };
    },

    /**
     * The create request for a queued batch, made at send time from the public address in use then: with a mailbox
     * paired, each upload copy is handed to the mailbox first, and Su fetches it there.
     */
    async createRequest(payload: PhotoCreatePayload): Promise<ImageCreate | null> {
      const mailbox = deps.mailbox?.() ?? null;
      const base = mailbox ? mailbox.url : deps.reach().baseUrl;
      if (!base)
        throw new AppFailure({
          code: 'no_public_address',
          message: `Su cannot fetch the photos: ${deps.reach().reason ?? 'this computer has no public address.'} They go out once it has one.`,
          retryable: true,
        });
      // Only the photos this item was queued for, still in the library, of this property.
      const rows = payload.photoIds
        .map(row)
        .filter(
          (r): r is PhotoRow =>
            r !== undefined &&
            r.hotel_id === payload.hotelId &&
            (!payload.pmsImageIds || payload.pmsImageIds.includes(r.pms_image_id)),
        );
      // Removed from the library meanwhile: nothing is left to send.
      if (rows.length === 0) return null;
      const images: ImageCreate['images'] = [];
      for (const r of rows) {
        let url: string;
        if (mailbox) {
          // The row first: an address the mailbox took is deleted there in any case (revoked below, or in a day).
          const link = media.issueAtMailbox(r.id, mediaName(r.caption));
          try {
            url = await mailbox.put(link.name, readFileSync(files.paths(r.id).upload));
          } catch (error) {
            // None of this batch goes to Su now: the addresses the mailbox took for it are deleted there.
            for (const done of rows.slice(0, rows.indexOf(r) + 1)) media.revoke(done.id);
            throw new AppFailure({
              code: 'mailbox_unreachable',
              message: `Su cannot fetch the photos: your mailbox did not take “${r.caption}” (${error instanceof Error ? error.message : String(error)}). They go out once it does.`,
              retryable: true,
            });
          }
        } else url = `${base}/media/${media.issue(r.id)}/${mediaName(r.caption)}`;
        images.push({ url, name: r.caption, pms_imageid: r.pms_image_id });
      }
      return { hotelid: payload.hotelId, proppmsid: payload.hotelId, images };
    },

    associateRequest(payload: PhotoAssociatePayload): ImageAssociate | null {
      const still = payload.pmsImageIds.filter(
        (pms) =>
          db.prepare('SELECT 1 FROM photos WHERE pms_image_id = ? AND hotel_id = ?').get(pms, payload.hotelId) !==
          undefined,
      );
      if (still.length === 0) return null;
      return {
        hotelid: payload.hotelId,
        ...(payload.roomId ? { roomid: payload.roomId } : {}),
        images: still.map((pms) => ({ pms_imageid: pms })),
      };
    },

    /** A create Su confirmed: each photo's su_url, and the check that Su's copy answers starts. */
    onOutboxChange(item: OutboxItem): string | null {
      const payload = item.payload as PhotoCreatePayload | PhotoAssociatePayload;
      if (item.kind === PHOTO_KINDS.create) {
        const { photoIds } = payload as PhotoCreatePayload;
        if (item.state === 'sent') {
          const created = (Array.isArray(item.result) ? item.result : []) as CreatedImage[];
          for (const photoId of photoIds) {
            const r = row(photoId);
            const result = r ? created.find((c) => c.ownImageId === r.pms_image_id) : undefined;
            db.prepare(
              `UPDATE photo_uploads SET su_url = ?, verified = 'pending', verify_until = ? WHERE outbox_id = ? AND photo_id = ?`,
            ).run(result?.providerUrl ?? null, now() + VERIFY_WITHIN_MS, item.id, photoId);
          }
        }
        // Settled without Su: the addresses are closed.
        if (item.state === 'discarded' || (item.state === 'failed' && !item.lastError?.outcomeUnknown))
          for (const photoId of photoIds) media.revoke(photoId);
      }
      return payload.hotelId;
    },

    ...verification,

    /** A create marked as sent by the owner would leave no address of Su's copy: upload it again instead. */
    markSentRefusal(item: OutboxItem): string | null {
      return item.kind === PHOTO_KINDS.create
        ? 'Upload the photo again instead: sending it again is safe, its id replaces the image at Su rather than adding one.'
        : null;
    },

    /** Asks Su what it holds (endpoint 11) and matches it with the library by the photos' own ids. */
    async reconcile(hotelId: string): Promise<PhotosView> {
      try {
        const held = await deps.retrieve(hotelId);
        const mine = new Map(
          (
            db.prepare('SELECT id, pms_image_id FROM photos WHERE hotel_id = ?').all(hotelId) as {
              id: number;
              pms_image_id: string;
            }[]
          ).map((p) => [p.pms_image_id, p.id]),
        );
        const images: SuImage[] = held.map((i) => ({
          imageId: i.imageId,
          pmsImageId: i.ownImageId,
          name: i.name,
          suUrl: i.providerUrl,
          sourceUrl: i.sourceUrl,
          associated: i.associated,
          photoId: i.ownImageId ? (mine.get(i.ownImageId) ?? null) : null,
        }));
        db.prepare(
          `INSERT INTO photo_su_images (provider, hotel_id, images, checked_at, error) VALUES (?, ?, ?, ?, NULL)
           ON CONFLICT (provider, hotel_id) DO UPDATE SET images = excluded.images, checked_at = excluded.checked_at, error = NULL`,
        ).run(provider(), hotelId, JSON.stringify(images), now());
      } catch (error) {
        if (!(error instanceof AppFailure)) throw error;
        db.prepare(
          `INSERT INTO photo_su_images (provider, hotel_id, images, checked_at, error) VALUES (?, ?, '', ?, ?)
           ON CONFLICT (provider, hotel_id) DO UPDATE SET error = excluded.error`,
        ).run(provider(), hotelId, now(), redactJson(JSON.stringify(error.error), secretsOfDatabase(db)));
      }
      return list(hotelId);
    },

    /**
     * The provider answers at `to` now instead of one of the `from` origins (the demo's port was taken at its start):
     * the addresses of its copies kept here (each upload's, and those of the last check of what it holds) move there.
     */
    moveAddresses(provider: string, from: string[], to: string): void {
      database.transaction(() => {
        for (const origin of from) {
          db.prepare(
            `UPDATE photo_uploads SET su_url = :to || substr(su_url, length(:from) + 1)
             WHERE provider = :provider AND substr(su_url, 1, length(:from) + 1) = :from || '/'`,
          ).run({ provider, from: origin, to });
          // The list is JSON: each address is a string that starts with the origin.
          db.prepare(
            `UPDATE photo_su_images SET images = replace(images, '"' || :from || '/', '"' || :to || '/')
             WHERE provider = :provider`,
          ).run({ provider, from: origin, to });
        }
      });
    },

    /** Su's copy of an image as a small JPEG, fetched by the core (the renderer loads no remote images). */
    async suImage(hotelId: string, imageId: number): Promise<Buffer> {
      const known = atSu(hotelId).atSu?.images.find((i) => i.imageId === imageId);
      const copy = known ? await deps.fetchImage(known.suUrl) : null;
      if (!copy)
        throw new AppFailure({
          code: 'not_found',
          message: known
            ? 'Su’s copy of this image does not answer, so there is no preview. Check what Su holds to ask again.'
            : 'Check what Su holds first.',
        });
      return copy;
    },
  };
}

export type PhotosService = ReturnType<typeof createPhotosService>;
