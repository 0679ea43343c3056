import { randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorText } from '../shared/result';
import {
  MEDIA_MAX_BYTES,
  MEDIA_NAME_PATTERN,
  MEDIA_TTL_MS,
  type MailboxErrorAnswer,
  type MediaAnswer,
} from '../receiving/mailboxProtocol';
import type { MailboxStore } from './store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS media (
  token TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  UNIQUE (device_id, name)
);
`;

const TOKEN = /^[0-9a-f]{32}$/;

/**
 * Photos Su fetches: a paired computer hands over the upload copy of a photo, and the mailbox serves it at an
 * unguessable public address (`/media/<128-bit random hex>/<name>`) until that computer deletes it (Su's copy
 * answers) or a day has passed, exactly as the desktop's own listener does without a mailbox.
 *
 * The photos are kept as they came, NOT sealed: unlike a guest's words they are meant to be public (Su fetches them
 * over the internet and shows them on the booking sites), and the mailbox must hand them to Su itself. Each is a
 * file of its own in `<data>/media/` (folder 0700, files 0600), forgotten with its address.
 */
export function createMediaShelf(store: MailboxStore, dataDir: string) {
  const { db, now } = store;
  db.exec(SCHEMA);
  const folder = join(dataDir, 'media');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const fileOf = (token: string) => join(folder, token);
  const drop = (token: string) => rmSync(fileOf(token), { force: true });

  return {
    /** Keeps a device's photo under its name (a photo of the same name is replaced) and answers its token. */
    put(deviceId: string, name: string, bytes: Buffer): { token: string; expiresAt: number } {
      const token = randomBytes(16).toString('hex');
      const at = now();
      const expiresAt = at + MEDIA_TTL_MS;
      // The file first, whole, then its row: an address never answers a file half written.
      writeFileSync(fileOf(token), bytes, { mode: 0o600, flag: 'wx' });
      let replaced: { token: string } | undefined;
      try {
        replaced = store.transaction(() => {
          const earlier = db.prepare('SELECT token FROM media WHERE device_id = ? AND name = ?').get(deviceId, name) as
            { token: string } | undefined;
          if (earlier) db.prepare('DELETE FROM media WHERE token = ?').run(earlier.token);
          db.prepare(
            'INSERT INTO media (token, device_id, name, size, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
          ).run(token, deviceId, name, bytes.length, at, expiresAt);
          return earlier;
        });
      } catch (error) {
        drop(token);
        throw error;
      }
      if (replaced) drop(replaced.token);
      return { token, expiresAt };
    },

    /** Deletes a device's photo: its address answers 404 from now on. False when it had none of that name. */
    remove(deviceId: string, name: string): boolean {
      const row = store.transaction(() => {
        const found = db.prepare('SELECT token FROM media WHERE device_id = ? AND name = ?').get(deviceId, name) as
          { token: string } | undefined;
        if (found) db.prepare('DELETE FROM media WHERE token = ?').run(found.token);
        return found;
      });
      if (row) drop(row.token);
      return row !== undefined;
    },

    /** The file a public address serves now, or null (unknown, deleted, expired, or its computer unpaired). */
    served(token: string): { path: string; size: number; name: string } | null {
      if (!TOKEN.test(token)) return null;
      const row = db.prepare('SELECT name, size FROM media WHERE token = ? AND expires_at > ?').get(token, now()) as
        { name: string; size: number } | undefined;
      return row ? { path: fileOf(token), size: row.size, name: row.name } : null;
    },

    /** Forgets what expired, and every file left without an address (its computer unpaired, a crash mid-way). */
    sweep(): number {
      const expired = store.transaction(() => {
        const rows = db.prepare('SELECT token FROM media WHERE expires_at <= ?').all(now()) as { token: string }[];
        db.prepare('DELETE FROM media WHERE expires_at <= ?').run(now());
        return rows;
      });
      const kept = new Set((db.prepare('SELECT token FROM media').all() as { token: string }[]).map((r) => r.token));
      let removed = 0;
      for (const file of readdirSync(folder))
        if (!kept.has(file)) {
          rmSync(join(folder, file), { force: true });
          removed++;
        }
      return Math.max(removed, expired.length);
    },
  };
}

export type MediaShelf = ReturnType<typeof createMediaShelf>;

/** Where Su reaches this mailbox: `--public-url`, else how the computer reached it (Caddy: X-Forwarded-Proto). */
export type PublicBase = (request: FastifyRequest) => string;

const fail = (reply: FastifyReply, status: number, answer: MailboxErrorAnswer) =>
  reply.code(status).header('cache-control', 'no-store').send(answer);

/**
 * `PUT /mailbox/media/:name` (a paired computer: the photo's bytes → `{ url, expiresAt }`), `DELETE
 * /mailbox/media/:name`, and the public `GET|HEAD /media/:token/:name` Su fetches from.
 */
export function mediaRoutes(
  app: FastifyInstance,
  ctx: {
    shelf: MediaShelf;
    publicBase: PublicBase;
    deviceOf(request: FastifyRequest): string | null;
    access: { device: Record<string, unknown> };
  },
): void {
  const { shelf } = ctx;
  const device = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const id = ctx.deviceOf(request);
    if (id === null)
      void fail(reply.header('WWW-Authenticate', 'Bearer realm="Innkeeper mailbox"'), 401, {
        error: 'unauthorized',
        message: 'This computer is not paired with the mailbox (its device credential is wrong or was revoked).',
      });
    return id;
  };
  const badName = (reply: FastifyReply) =>
    fail(reply, 400, {
      error: 'invalid',
      message: 'name: letters, digits, dots, dashes and underscores only (at most 120)',
      field: 'name',
    });

  app.put(
    '/mailbox/media/:name',
    // The listener refuses a larger body (413) from its declared length, before reading it.
    { config: ctx.access.device, bodyLimit: MEDIA_MAX_BYTES },
    async (request, reply) => {
      const id = device(request, reply);
      if (id === null) return reply;
      const { name } = request.params as { name: string };
      if (!MEDIA_NAME_PATTERN.test(name)) return badName(reply);
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (bytes.length === 0)
        return fail(reply, 400, { error: 'invalid', message: 'body: the photo’s bytes are missing', field: 'body' });
      let kept;
      try {
        kept = shelf.put(id, name, bytes);
      } catch (error) {
        console.error(`mailbox: a photo could not be kept: ${errorText(error)}`);
        return fail(reply.header('Retry-After', '60'), 503, {
          error: 'store_unavailable',
          message: 'The mailbox cannot write to its disk right now; try again later.',
        });
      }
      const answer: MediaAnswer = {
        url: `${ctx.publicBase(request)}/media/${kept.token}/${encodeURIComponent(name)}`,
        expiresAt: kept.expiresAt,
      };
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );

  app.delete('/mailbox/media/:name', { config: ctx.access.device }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const { name } = request.params as { name: string };
    if (!MEDIA_NAME_PATTERN.test(name)) return badName(reply);
    // Deleted already (or expired and swept): the same outcome, so a repeated delete is not an error.
    return reply.header('cache-control', 'no-store').send({ deleted: shelf.remove(id, name) });
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const { token } = request.params as { token: string };
    const found = shelf.served(token);
    let size = 0;
    try {
      size = found ? statSync(found.path).size : 0;
    } catch {
      // Swept meanwhile.
    }
    if (!found || size === 0) return reply.code(404).header('cache-control', 'no-store').send('Not found');
    reply
      .type('image/jpeg')
      .header('content-length', size)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    return request.method === 'HEAD' ? reply.send() : reply.send(createReadStream(found.path));
  };
  app.route({ method: ['GET', 'HEAD'], url: '/media/:token', config: { public: true }, handler: serve });
  app.route({ method: ['GET', 'HEAD'], url: '/media/:token/:name', config: { public: true }, handler: serve });
}
