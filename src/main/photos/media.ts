import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';

/** A caption as the file name of its media address (Su may show the URL's last part somewhere). */
export const mediaName = (caption: string) =>
  `${
    caption
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase() || 'photo'
  }.jpg`;

/** How long a media address answers at most (Su fetches within minutes; a day covers an outage in between). */
export const MEDIA_TTL_MS = 24 * 3600_000;

/**
 * The unguessable public addresses Su fetches photos from: `/media/<128-bit random hex>/<name>.jpg` on the intake's
 * listener, the only address this computer exposes. Each answers GET and HEAD with one upload copy and nothing else
 * (no listing, no other paths), until it is revoked (Su has its copy, or the upload was settled) or a day passed.
 * Every fetch is recorded, so the owner sees when Su fetched a photo.
 */
export function createMediaLinks(deps: {
  database: Database;
  now: () => number;
  /** The upload copy of a photo on disk. */
  file: (photoId: number) => string;
  /** Told when Su fetched a photo (the first fetch of a link and every later one). */
  onFetched?: (photoId: number) => void;
}) {
  const { db } = deps.database;

  function issue(photoId: number): string {
    const token = randomBytes(16).toString('hex');
    const at = deps.now();
    db.prepare('INSERT INTO media_links (token, photo_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
      token,
      photoId,
      at,
      at + MEDIA_TTL_MS,
    );
    return token;
  }

  /** The photo a token serves now, or null (unknown, revoked, expired, or served by the mailbox instead). */
  function resolve(token: string): number | null {
    if (!/^[0-9a-f]{32}$/.test(token)) return null;
    const row = db
      .prepare(
        'SELECT photo_id FROM media_links WHERE token = ? AND revoked_at IS NULL AND expires_at > ? AND mailbox_name IS NULL',
      )
      .get(token, deps.now()) as { photo_id: number } | undefined;
    return row?.photo_id ?? null;
  }

  return {
    issue,
    resolve,
    /**
     * An address served by the owner's mailbox instead of this computer: its row (so that it is revoked and deleted
     * there like any other) and the name the photo gets at the mailbox (`<random>-<caption>.jpg`).
     */
    issueAtMailbox(photoId: number, fileName: string): { token: string; name: string } {
      const token = issue(photoId);
      const name = `${token.slice(0, 12)}-${fileName}`;
      db.prepare('UPDATE media_links SET mailbox_name = ? WHERE token = ?').run(name, token);
      return { token, name };
    },
    /** Addresses at the mailbox to delete there: revoked or past their day, and not deleted yet. */
    toClearAtMailbox(): { token: string; name: string; photoId: number }[] {
      return db
        .prepare(
          `SELECT token, mailbox_name AS name, photo_id AS photoId FROM media_links
           WHERE mailbox_name IS NOT NULL AND mailbox_cleared_at IS NULL AND (revoked_at IS NOT NULL OR expires_at <= ?)`,
        )
        .all(deps.now()) as { token: string; name: string; photoId: number }[];
    },
    /** The mailbox no longer serves this address (deleted there, or this computer was unpaired from it). */
    clearedAtMailbox(token: string): void {
      db.prepare('UPDATE media_links SET mailbox_cleared_at = ? WHERE token = ?').run(deps.now(), token);
    },
    /** Whether the photo's latest address was served by the mailbox (this computer does not see Su fetch it). */
    atMailbox(photoId: number): boolean {
      const row = db
        .prepare('SELECT mailbox_name FROM media_links WHERE photo_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
        .get(photoId) as { mailbox_name: string | null } | undefined;
      return row?.mailbox_name != null;
    },
    /** Revokes every address of a photo (Su has its copy, or the photo left the library). */
    revoke(photoId: number): void {
      db.prepare('UPDATE media_links SET revoked_at = ? WHERE photo_id = ? AND revoked_at IS NULL').run(
        deps.now(),
        photoId,
      );
    },
    /** When Su last fetched the photo through one of its addresses, or null. */
    fetchedAt(photoId: number): number | null {
      const row = db.prepare('SELECT max(fetched_at) AS at FROM media_links WHERE photo_id = ?').get(photoId) as {
        at: number | null;
      };
      return row.at;
    },
    /** Registers `GET|HEAD /media/:token/:name` on the listener: public (no credentials), one file per address. */
    routes(app: FastifyInstance): void {
      app.route({
        method: ['GET', 'HEAD'],
        url: '/media/:token/:name',
        config: { public: true },
        handler: async (request, reply) => {
          const { token, name } = request.params as { token: string; name: string };
          const photoId = resolve(token);
          if (photoId === null || !/^[A-Za-z0-9._-]{1,120}\.jpg$/.test(name))
            return reply.code(404).header('cache-control', 'no-store').send('Not found');
          const path = deps.file(photoId);
          let size: number;
          try {
            size = statSync(path).size;
          } catch {
            return reply.code(404).header('cache-control', 'no-store').send('Not found');
          }
          if (request.method === 'GET') {
            db.prepare('UPDATE media_links SET fetched_at = ?, fetches = fetches + 1 WHERE token = ?').run(
              deps.now(),
              token,
            );
            deps.onFetched?.(photoId);
          }
          reply
            .type('image/jpeg')
            .header('content-length', size)
            .header('cache-control', 'no-store')
            .header('x-content-type-options', 'nosniff');
          return request.method === 'HEAD' ? reply.send() : reply.send(createReadStream(path));
        },
      });
    },
  };
}

export type MediaLinks = ReturnType<typeof createMediaLinks>;
