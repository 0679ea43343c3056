import type { Database } from '../db/database';
import type { Outbox } from '../outbox/outbox';
import { PHOTO_KINDS, photosKey, type PhotoAssociatePayload, type PhotoCreatePayload, type PhotoKinds } from './kinds';
import type { PhotoFiles } from './library';
import type { MediaLinks } from './media';
import type { MailboxMedia } from './photosService';
import type { PhotoRow } from './views';

/**
 * Removing a photo from the library (photosService's `remove`): its public links and its copies at the mailbox go, what
 * was queued for it alone is discarded, and its rows and files are deleted. Says whether Su still holds a copy.
 */
export function createPhotoRemoval(deps: {
  database: Database;
  outbox: Outbox<PhotoKinds>;
  files: PhotoFiles;
  media: MediaLinks;
  mailbox?: () => MailboxMedia | null;
  changed: (hotelId: string) => void;
  row: (id: number) => PhotoRow | undefined;
  latestUpload: (photoId: number) => { state: string } | null;
}) {
  const { database, outbox, files, media, row, latestUpload } = deps;
  const { db } = database;
  return function remove(id: number): { removed: boolean; heldAtSu: boolean } {
    const r = row(id);
    if (!r) return { removed: false, heldAtSu: false };
    const heldAtSu = latestUpload(id)?.state === 'sent';
    media.revoke(id);
    // Its copies at the mailbox go too (else they would answer until their day is over).
    const mailbox = deps.mailbox?.() ?? null;
    for (const link of media.toClearAtMailbox().filter((l) => l.photoId === id))
      void mailbox?.remove(link.name).catch(() => undefined);
    // What was queued for this photo alone goes nowhere now: discarded, so it never blocks the property's queue
    // (an item shared with other photos sends only theirs).
    const key = photosKey(r.hotel_id);
    // Newest first: discarding an item never lets a later item of this photo start in between.
    for (const item of outbox.pending().reverse()) {
      if (item.entityKey !== key || (item.state !== 'queued' && item.state !== 'failed')) continue;
      const p = item.payload as Partial<PhotoCreatePayload & PhotoAssociatePayload>;
      const others =
        item.kind === PHOTO_KINDS.create
          ? (p.photoIds ?? []).filter((other) => other !== id)
          : (p.pmsImageIds ?? []).filter((pms) => pms !== r.pms_image_id);
      if (others.length === 0) outbox.discard(item.id);
    }
    database.transaction(() => {
      db.prepare('DELETE FROM photo_associations WHERE photo_id = ?').run(id);
      db.prepare('DELETE FROM photo_uploads WHERE photo_id = ?').run(id);
      db.prepare('DELETE FROM media_links WHERE photo_id = ?').run(id);
      db.prepare('DELETE FROM photos WHERE id = ?').run(id);
    });
    files.remove(id);
    deps.changed(r.hotel_id);
    return { removed: true, heldAtSu };
  };
}
