import { DatabaseSync } from 'node:sqlite';
import { closeSync, chmodSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { sealDelivery, type SealedBox } from '../receiving/sealing';
import type { SealedDelivery } from '../receiving/mailboxProtocol';
import { lockFolder } from './folderLock';

/**
 * The mailbox's store: one SQLite file (node:sqlite) in the data folder, WAL, synchronous=FULL, the folder 0700 and
 * every file 0600. It holds, in clear, only what the mailbox needs to hand deliveries over: each delivery's sequence
 * number, when it arrived, its size and a digest of its bytes (to recognise a repost). The delivery itself is kept
 * only as boxes sealed to each paired device's public key (sealing.ts), sealed in memory before anything is written.
 */
export const DB_FILE = 'mailbox.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS devices (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  public_key TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  push_user TEXT NOT NULL,
  push_salt TEXT NOT NULL,
  push_password_hash TEXT NOT NULL,
  paired_at INTEGER NOT NULL,
  last_seen_at INTEGER,
  confirmed_seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at INTEGER NOT NULL,
  size INTEGER NOT NULL,
  digest TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_by_digest ON deliveries (digest);
CREATE INDEX IF NOT EXISTS deliveries_by_time ON deliveries (received_at);
CREATE TABLE IF NOT EXISTS boxes (
  device_id TEXT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL REFERENCES deliveries (seq) ON DELETE CASCADE,
  box TEXT NOT NULL,
  PRIMARY KEY (device_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS boxes_by_seq ON boxes (seq);
CREATE TABLE IF NOT EXISTS pairing (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  code_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS uptime (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  up_from INTEGER NOT NULL,
  up_to INTEGER,
  beat_at INTEGER NOT NULL
);
`;

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface DeviceRow {
  id: string;
  name: string;
  publicKey: string;
  pairedAt: number;
  lastSeenAt: number | null;
  confirmedSeq: number;
}

/** A delivery as the listener hands it over: the exact bytes (after content decoding), only ever in memory. */
export interface IncomingDelivery {
  raw: Buffer;
  receivedAt: number;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const passwordHash = (salt: string, password: string) =>
  createHmac('sha256', Buffer.from(salt, 'base64url')).update(password, 'utf8').digest();

/** The folder is the owner's only; a file created in it is 0600 from its first byte (SQLite gives -wal/-shm its mode). */
function prepareFolder(dir: string, file: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  closeSync(openSync(file, 'a', 0o600));
  ownerOnly(file);
}

function ownerOnly(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      if (lstatSync(file + suffix).isFile()) chmodSync(file + suffix, 0o600);
    } catch {
      // Not there (yet).
    }
  }
}

export interface StoreOptions {
  now?: () => number;
  /**
   * Takes the folder's lock (the running mailbox does: two mailboxes never share a folder). The CLI's `pair` does
   * not: it writes a pairing code into the file the running mailbox reads.
   */
  lock?: boolean;
}

export function openMailboxStore(dataDir: string, options: StoreOptions = {}) {
  const now = options.now ?? Date.now;
  const path = join(dataDir, DB_FILE);
  prepareFolder(dataDir, path);
  const unlock = options.lock ? lockFolder(dataDir) : () => {};
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    // Temporary tables and sort files in memory, never in a file of their own.
    db.exec('PRAGMA temp_store = MEMORY');
    // A damaged file is not written to (nor acknowledged into): the owner moves it aside or restores a backup.
    const problems = (db.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[])
      .map((r) => r.quick_check)
      .filter((r) => r !== 'ok');
    if (problems.length > 0)
      throw new Error(
        `--data: the mailbox's file ${path} is damaged (SQLite: ${problems.join('; ')}); move it aside or put back a backup, then start again.`,
      );
    db.exec(SCHEMA);
    ownerOnly(path);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Not open.
    }
    unlock();
    throw error;
  }

  const transaction = <T>(fn: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // The original error is the one that counts.
        }
      }
      throw error;
    }
  };

  const getMeta = (key: string) =>
    (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  const setMeta = (key: string, value: string) =>
    db
      .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  const retentionDays = () => Number(getMeta('retention_days') ?? DEFAULT_RETENTION_DAYS);
  let mailboxId: string;
  try {
    mailboxId =
      getMeta('mailbox_id') ??
      transaction(() => {
        const id = randomUUID();
        setMeta('mailbox_id', id);
        return id;
      });
  } catch (error) {
    // A file that cannot be written (read-only, a full disk): the folder is given back, the error said.
    db.close();
    unlock();
    throw error;
  }

  const deviceRows = () =>
    db
      .prepare(
        'SELECT id, name, public_key AS publicKey, paired_at AS pairedAt, last_seen_at AS lastSeenAt, confirmed_seq AS confirmedSeq FROM devices ORDER BY paired_at, id',
      )
      .all() as unknown as DeviceRow[];

  /** The push credentials and tokens, read once per change (the listener checks them on every request). */
  interface Credentials {
    id: string;
    userDigest: Buffer;
    salt: string;
    passwordHash: Buffer;
    tokenHash: Buffer;
  }
  let credentials: Credentials[] | null = null;
  const loadCredentials = (): Credentials[] =>
    (credentials ??= (
      db.prepare('SELECT id, push_user, push_salt, push_password_hash, token_hash FROM devices').all() as {
        id: string;
        push_user: string;
        push_salt: string;
        push_password_hash: string;
        token_hash: string;
      }[]
    ).map((row) => ({
      id: row.id,
      userDigest: createHash('sha256').update(row.push_user, 'utf8').digest(),
      salt: row.push_salt,
      passwordHash: Buffer.from(row.push_password_hash, 'hex'),
      tokenHash: Buffer.from(row.token_hash, 'hex'),
    })));

  return {
    db,
    path,
    mailboxId,
    now,
    transaction,

    retentionDays,
    setRetentionDays(days: number): void {
      transaction(() => setMeta('retention_days', String(days)));
    },

    devices: deviceRows,

    /** Adds a device; its token and push password are kept as hashes only. Called inside the pairing's transaction. */
    addDevice(device: { name: string; publicKey: string; pushUser: string; pushPassword: string }) {
      const id = randomUUID();
      const token = randomBytes(32).toString('base64url');
      const salt = randomBytes(16).toString('base64url');
      db.prepare(
        `INSERT INTO devices (id, name, public_key, token_hash, push_user, push_salt, push_password_hash, paired_at, confirmed_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) FROM deliveries))`,
      ).run(
        id,
        device.name,
        device.publicKey,
        sha256(token),
        device.pushUser,
        salt,
        passwordHash(salt, device.pushPassword).toString('hex'),
        now(),
      );
      credentials = null;
      return { id, token };
    },

    /** Unpairs a device: its credentials go, and every box sealed for it (ON DELETE CASCADE). */
    removeDevice(id: string): boolean {
      const removed = transaction(() => db.prepare('DELETE FROM devices WHERE id = ?').run(id).changes > 0);
      credentials = null;
      return removed;
    },

    /** The device a bearer token belongs to, or null (SECURITY: every device's hash compared, timing-safe). */
    deviceOfToken(token: string | null): string | null {
      const hash = createHash('sha256')
        .update(token ?? '', 'utf8')
        .digest();
      let found: string | null = null;
      for (const device of loadCredentials()) {
        if (timingSafeEqual(hash, device.tokenHash) && token !== null && !found) found = device.id;
      }
      return found;
    },

    /**
     * Whether Basic credentials are any paired device's push credentials. SECURITY: user names compared as SHA-256
     * digests, passwords as HMAC-SHA256 with each device's salt, every comparison timing-safe and always run.
     */
    pushCredentialsMatch(user: string, password: string): boolean {
      const userDigest = createHash('sha256').update(user, 'utf8').digest();
      let matched = false;
      for (const device of loadCredentials()) {
        const userOk = timingSafeEqual(userDigest, device.userDigest);
        const passwordOk = timingSafeEqual(passwordHash(device.salt, password), device.passwordHash);
        if (userOk && passwordOk) matched = true;
      }
      return matched;
    },

    /** Notes that a device was heard from (at most once a minute per device, to spare the disk). */
    seen(deviceId: string): void {
      db.prepare('UPDATE devices SET last_seen_at = ? WHERE id = ? AND coalesce(last_seen_at, 0) < ?').run(
        now(),
        deviceId,
        now() - 60_000,
      );
    },

    /**
     * Stores a group of deliveries in ONE transaction (one sync to disk for the group): each sealed to every paired
     * device in memory, then written; a repost of the same bytes keeps its first sequence number. Answers each
     * delivery's sequence number. Throws when the store cannot write (nothing of the group is stored).
     */
    storeDeliveries(batch: readonly IncomingDelivery[]): { seq: number; duplicate: boolean }[] {
      return transaction(() => {
        const devices = deviceRows();
        const findDigest = db.prepare('SELECT seq FROM deliveries WHERE digest = ? ORDER BY seq LIMIT 1');
        const insert = db.prepare('INSERT INTO deliveries (received_at, size, digest) VALUES (?, ?, ?)');
        const insertBox = db.prepare('INSERT INTO boxes (device_id, seq, box) VALUES (?, ?, ?)');
        return batch.map((delivery) => {
          const digest = sha256(delivery.raw);
          const known = findDigest.get(digest) as { seq: number } | undefined;
          if (known) return { seq: known.seq, duplicate: true };
          const seq = Number(insert.run(delivery.receivedAt, delivery.raw.length, digest).lastInsertRowid);
          for (const device of devices) {
            insertBox.run(device.id, seq, JSON.stringify(sealDelivery(delivery, seq, device.publicKey)));
          }
          return { seq, duplicate: false };
        });
      });
    },

    /** This device's deliveries after `after`, in order: at most `limit`, and whether more wait. */
    deliveriesFor(deviceId: string, after: number, limit: number): { deliveries: SealedDelivery[]; more: boolean } {
      const rows = db
        .prepare(
          `SELECT d.seq, d.received_at AS receivedAt, d.size, b.box FROM boxes b JOIN deliveries d ON d.seq = b.seq
           WHERE b.device_id = ? AND b.seq > ? ORDER BY b.seq LIMIT ?`,
        )
        .all(deviceId, after, limit + 1) as { seq: number; receivedAt: number; size: number; box: string }[];
      const more = rows.length > limit;
      return {
        deliveries: rows.slice(0, limit).map((r) => ({
          seq: r.seq,
          receivedAt: r.receivedAt,
          size: r.size,
          box: JSON.parse(r.box) as SealedBox,
        })),
        more,
      };
    },

    /** Deliveries waiting for this device (sealed for it, not confirmed). */
    waiting(deviceId: string): number {
      return (db.prepare('SELECT count(*) AS n FROM boxes WHERE device_id = ?').get(deviceId) as { n: number }).n;
    },

    lastDeliveryAt(): number | null {
      return (db.prepare('SELECT max(received_at) AS at FROM deliveries').get() as { at: number | null }).at;
    },

    /**
     * The device filed everything up to `upTo`: its boxes up to there are deleted at once (a delivery is forgotten
     * once every paired device confirmed it: then no box of it is left). Answers the device's position.
     */
    confirm(deviceId: string, upTo: number): number {
      return transaction(() => {
        // Never past the last delivery received: a later one is not filed yet, whatever the device says.
        const last = (
          db.prepare("SELECT coalesce(max(seq), 0) AS n FROM sqlite_sequence WHERE name = 'deliveries'").get() as {
            n: number;
          }
        ).n;
        db.prepare('UPDATE devices SET confirmed_seq = max(confirmed_seq, ?) WHERE id = ?').run(
          Math.min(upTo, last),
          deviceId,
        );
        db.prepare('DELETE FROM boxes WHERE device_id = ? AND seq <= ?').run(deviceId, Math.min(upTo, last));
        return (db.prepare('SELECT confirmed_seq AS n FROM devices WHERE id = ?').get(deviceId) as { n: number }).n;
      });
    },

    /**
     * Retention: every delivery older than the retention goes, boxes and all. What remains of a delivery every
     * device confirmed is its clear bookkeeping (sequence number, time, size, digest), kept until the retention
     * ends so that a repost of it is still recognised.
     */
    sweep(): number {
      const before = now() - retentionDays() * DAY_MS;
      return transaction(() => Number(db.prepare('DELETE FROM deliveries WHERE received_at < ?').run(before).changes));
    },

    /** The pairing code waiting, if any (its hash only). */
    pairingRow() {
      return db.prepare('SELECT code_hash AS codeHash, expires_at AS expiresAt, failures FROM pairing').get() as
        { codeHash: string; expiresAt: number; failures: number } | undefined;
    },

    /** The folder is given back (closing the file, releasing the lock). */
    close(): void {
      try {
        db.close();
      } finally {
        unlock();
      }
    },
  };
}
export type MailboxStore = ReturnType<typeof openMailboxStore>;

export const hashPairingCode = (code: string) => sha256(`innkeeper-pairing:${code}`);
