import type { DatabaseSync } from 'node:sqlite';
import type { UploadRow } from './views';
import { MEDIA_TTL_MS, type MediaLinks } from './media';

/** How long the app waits for Su's copy of an uploaded photo to answer before saying Su could not fetch it. */
export const VERIFY_WITHIN_MS = 3 * 60_000;
/** A copy Su has not served in time is looked at again this often (for the day its address stays open). */
const FAILED_EVERY_MS = 60_000;

/**
 * Whether Su's copies of uploaded photos answer: each pending one at every round until it does or its time is up
 * (then it is marked failed, with what to do), and a failed one once a minute while its address stays open (a Su
 * that fetches late is still seen). `nextAt` says when a round has something to do, so that the checks run only then.
 */
export function createPhotoVerification(deps: {
  db: DatabaseSync;
  now: () => number;
  media: MediaLinks;
  /** Reads an address of Su's (its copy of an image); null when it does not answer with an image. */
  fetchImage: (url: string) => Promise<Buffer | null>;
}) {
  const { db, now, media } = deps;
  /** When the failed copies were last looked at. */
  let failedLookedAt = Number.NEGATIVE_INFINITY;
  /** Failed copies are looked at while their upload is younger than this. */
  const failedSince = () => now() - MEDIA_TTL_MS + VERIFY_WITHIN_MS;

  return {
    /** Checks Su's copies that are still unconfirmed; answers the properties whose photos changed. */
    async verify(): Promise<string[]> {
      const lookAtFailed = now() - failedLookedAt >= FAILED_EVERY_MS;
      if (lookAtFailed) failedLookedAt = now();
      const unconfirmed = db
        .prepare(
          `SELECT u.*, p.hotel_id FROM photo_uploads u JOIN photos p ON p.id = u.photo_id
           WHERE u.verified = 'pending' OR (? AND u.verified = 'failed' AND u.verify_until > ?) ORDER BY u.id`,
        )
        .all(lookAtFailed ? 1 : 0, failedSince()) as (UploadRow & { hotel_id: string })[];
      const touched = new Set<string>();
      for (const u of unconfirmed) {
        const copy = u.su_url ? await deps.fetchImage(u.su_url) : null;
        if (copy) {
          db.prepare(`UPDATE photo_uploads SET verified = 'ok', problem = NULL WHERE id = ?`).run(u.id);
          media.revoke(u.photo_id);
          touched.add(u.hotel_id);
        } else if (u.verified === 'pending' && now() >= (u.verify_until ?? 0)) {
          const fetchedAt = media.fetchedAt(u.photo_id);
          const problem = !u.su_url
            ? 'Su confirmed the upload but gave no address of its copy: upload it again.'
            : media.atMailbox(u.photo_id)
              ? 'Su’s copy does not answer with the image (Su fetches it from your mailbox): check that the mailbox is running, then upload it again.'
              : fetchedAt
                ? 'Su fetched it from this computer, but its copy does not answer with the image: upload it again.'
                : 'Su never fetched it from this computer: check that the address Su reaches (the tunnel, or your own address, under Connection) is up, then upload it again.';
          // The address stays open (a day at most): a Su that fetches late still finds the photo, and is seen.
          db.prepare(`UPDATE photo_uploads SET verified = 'failed', problem = ? WHERE id = ?`).run(problem, u.id);
          touched.add(u.hotel_id);
        }
      }
      return [...touched];
    },

    /** When a round has a copy to look at (epoch ms): now while one is pending, else the next look at failed ones. */
    nextAt(): number | null {
      if (db.prepare(`SELECT 1 FROM photo_uploads WHERE verified = 'pending' LIMIT 1`).get()) return now();
      const failed = db
        .prepare(`SELECT 1 FROM photo_uploads WHERE verified = 'failed' AND verify_until > ? LIMIT 1`)
        .get(failedSince());
      return failed ? failedLookedAt + FAILED_EVERY_MS : null;
    },
  };
}
