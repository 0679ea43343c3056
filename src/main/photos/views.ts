import {
  photoMarks,
  type Photo,
  type PhotoAssignments,
  type PhotoAssociation,
  type PhotosView,
  type PhotoUpload,
  type SuImage,
} from '../../shared/photos';
import { AppFailure, type AppError } from '../../shared/result';
import type { Database } from '../db/database';
import type { MediaLinks } from './media';

// How the library's rows read as the Photos tab shows them: each photo with its upload and links at the provider in
// use, and what Su held at the last reconcile.

export type PhotoRow = {
  id: number;
  hotel_id: string;
  pms_image_id: string;
  caption: string;
  file_name: string;
  width: number;
  height: number;
  bytes: number;
  original: string;
  property: number;
  rooms: string;
  added_at: number;
};
export type UploadRow = {
  id: number;
  photo_id: number;
  outbox_id: number;
  queued_at: number;
  su_url: string | null;
  fetched_at: number | null;
  verified: string | null;
  verify_until: number | null;
  problem: string | null;
  state: string;
  last_error: string | null;
};

export function createPhotoViews(deps: { database: Database; media: MediaLinks; provider: () => string }) {
  const { media, provider } = deps;
  const { db } = deps.database;

  const row = (id: number) => db.prepare('SELECT * FROM photos WHERE id = ?').get(id) as PhotoRow | undefined;
  const must = (id: number) => {
    const r = row(id);
    if (!r) throw new AppFailure({ code: 'not_found', message: 'This photo is no longer in the library.' });
    return r;
  };

  function latestUpload(photoId: number): UploadRow | null {
    return (
      (db
        .prepare(
          `SELECT u.*, o.state, o.last_error FROM photo_uploads u JOIN outbox o ON o.id = u.outbox_id
           WHERE u.photo_id = ? AND u.provider = ? ORDER BY u.id DESC LIMIT 1`,
        )
        .get(photoId, provider()) as UploadRow | undefined) ?? null
    );
  }

  function uploadOf(r: PhotoRow): PhotoUpload | null {
    const u = latestUpload(r.id);
    if (!u) return null;
    const error = u.last_error ? (JSON.parse(u.last_error) as AppError) : null;
    const state: PhotoUpload['state'] =
      u.state === 'sent'
        ? u.verified === 'ok'
          ? 'held'
          : u.verified === 'failed'
            ? 'not-fetched'
            : 'fetching'
        : (u.state as PhotoUpload['state']);
    return {
      state,
      outboxId: u.outbox_id,
      error,
      queuedAt: u.queued_at,
      suUrl: u.su_url,
      fetchedAt: media.fetchedAt(r.id),
      problem: u.problem,
    };
  }

  function associationsOf(r: PhotoRow, assignments: PhotoAssignments): PhotoAssociation[] {
    const targets: (string | null)[] = [...(assignments.property ? [null] : []), ...assignments.rooms];
    return targets.map((roomId) => {
      const a = db
        .prepare(
          `SELECT a.outbox_id, o.state, o.last_error FROM photo_associations a JOIN outbox o ON o.id = a.outbox_id
           WHERE a.photo_id = ? AND a.provider = ? AND a.room_id = ? ORDER BY a.id DESC LIMIT 1`,
        )
        .get(r.id, provider(), roomId ?? '') as
        { outbox_id: number; state: string; last_error: string | null } | undefined;
      return {
        roomId,
        state: (a?.state ?? 'local') as PhotoAssociation['state'],
        outboxId: a?.outbox_id ?? null,
        error: a?.last_error ? (JSON.parse(a.last_error) as AppError) : null,
      };
    });
  }

  function toPhoto(r: PhotoRow): Photo {
    const assignments = { property: r.property === 1, rooms: JSON.parse(r.rooms) as string[] };
    return {
      id: r.id,
      hotelId: r.hotel_id,
      pmsImageId: r.pms_image_id,
      caption: r.caption,
      fileName: r.file_name,
      width: r.width,
      height: r.height,
      bytes: r.bytes,
      original: JSON.parse(r.original) as Photo['original'],
      assignments,
      addedAt: r.added_at,
      upload: uploadOf(r),
      associations: associationsOf(r, assignments),
      marks: photoMarks(r),
    };
  }

  function atSu(hotelId: string): Pick<PhotosView, 'atSu' | 'atSuError'> {
    const cached = db
      .prepare('SELECT images, checked_at, error FROM photo_su_images WHERE provider = ? AND hotel_id = ?')
      .get(provider(), hotelId) as { images: string; checked_at: number; error: string | null } | undefined;
    if (!cached) return { atSu: null, atSuError: null };
    return {
      atSu: cached.images ? { images: JSON.parse(cached.images) as SuImage[], checkedAt: cached.checked_at } : null,
      atSuError: cached.error ? (JSON.parse(cached.error) as AppError) : null,
    };
  }

  return { row, must, latestUpload, associationsOf, toPhoto, atSu };
}
