import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ChannelRule, RuleCalendar } from './calendar';
import type { EmulatedProperty, PaymentPartner } from './seed';
import type { EmulatorState, IdKind, PushedReview, StoredFacility, StoredImage, Transaction } from './state';

/**
 * The emulator's state kept in a file (option `stateFile`; the app's demo provider uses it, `npm run emulator` and
 * the tests stay in memory): everything Su would still hold after a restart — properties and their notices, property
 * records, facilities, inventory and rate rules, images with Su's copies of their bytes, payment partners and
 * transactions, the reviews it pushed, tokens and the id counters. Not kept: the request log and push outcomes (a
 * diagnostic record of one run), where pushes go (the app says it again at each start), the clock offset.
 *
 * One SQLite file: the state as one JSON row, each image copy as a blob written once. Every write is one transaction,
 * so a process killed in the middle of one leaves the state before it, whole.
 */

/** The JSON row, version 1. Maps are kept as lists of entries, Sets as lists. */
interface Snapshot {
  version: 1;
  counters: Record<IdKind, number>;
  tokens: [string, { expiresAt: number }][];
  issued: [string, number[]][];
  properties: EmulatedProperty[];
  facilities: [string, [string, StoredFacility][]][];
  propertyRecords: [string, Record<string, unknown>][];
  images: [string, SavedImage[]][];
  inventoryRules: [string, SavedCalendar][];
  rateRules: [string, SavedCalendar][];
  partners: PaymentPartner[];
  transactions: Transaction[];
  orderIds: string[];
  reviews: [string, PushedReview][];
}
type SavedCalendar = [string, [string, ChannelRule][]][];
type SavedImage = Omit<StoredImage, 'rooms' | 'fetch'> & {
  rooms: string[];
  fetch?: Omit<NonNullable<StoredImage['fetch']>, 'bytes'> & { kept: boolean };
};

const saveCalendar = (c: RuleCalendar): SavedCalendar => [...c].map(([date, rules]) => [date, [...rules]]);
const loadCalendar = (c: SavedCalendar): RuleCalendar => new Map(c.map(([date, rules]) => [date, new Map(rules)]));

function snapshotOf(state: EmulatorState): Snapshot {
  return {
    version: 1,
    counters: { ...state.counters },
    tokens: [...state.tokens],
    issued: [...state.issued],
    properties: state.properties,
    facilities: [...state.facilities].map(([key, set]) => [key, [...set]]),
    propertyRecords: [...state.propertyRecords],
    images: [...state.images].map(([hotelid, images]) => [
      hotelid,
      images.map(({ rooms, fetch, ...image }) => {
        const saved: SavedImage = { ...image, rooms: [...rooms] };
        if (fetch) {
          const { bytes, ...rest } = fetch;
          saved.fetch = { ...rest, kept: bytes !== null };
        }
        return saved;
      }),
    ]),
    inventoryRules: [...state.inventoryRules].map(([key, c]) => [key, saveCalendar(c)]),
    rateRules: [...state.rateRules].map(([key, c]) => [key, saveCalendar(c)]),
    partners: [...state.partners.values()],
    transactions: [...state.transactions.values()],
    orderIds: [...state.orderIds],
    reviews: [...state.reviews],
  };
}

/** Puts a snapshot into a new state (its seeded world replaced), with the image copies read by `bytesOf`. */
function restore(state: EmulatorState, s: Snapshot, bytesOf: (imageid: number) => Buffer | null): void {
  state.counters = { ...state.counters, ...s.counters };
  state.tokens = new Map(s.tokens);
  state.issued = new Map(s.issued);
  state.properties = s.properties;
  state.facilities = new Map(s.facilities.map(([key, set]) => [key, new Map(set)]));
  state.propertyRecords = new Map(s.propertyRecords);
  state.images = new Map(
    s.images.map(([hotelid, images]) => [
      hotelid,
      images.map(({ rooms, fetch, ...image }): StoredImage => {
        const restored: StoredImage = { ...image, rooms: new Set(rooms) };
        if (!fetch) return restored;
        const { kept, ...rest } = fetch;
        const bytes = kept ? bytesOf(image.imageid) : null;
        // A copy that was fetched yet is not in the file any more is lost: said as a fetch that failed.
        restored.fetch =
          kept && !bytes
            ? { ...rest, state: 'failed', error: 'Su’s copy was lost', bytes: null, contentType: null }
            : { ...rest, bytes };
        return restored;
      }),
    ]),
  );
  state.inventoryRules = new Map(s.inventoryRules.map(([key, c]) => [key, loadCalendar(c)]));
  state.rateRules = new Map(s.rateRules.map(([key, c]) => [key, loadCalendar(c)]));
  state.partners = new Map(s.partners.map((p) => [p.partner_id, p]));
  state.transactions = new Map(s.transactions.map((t) => [t.transaction_id, t]));
  state.orderIds = new Set(s.orderIds);
  state.reviews = new Map(s.reviews);
}

/** A state file, open: `restore` fills a new state from it (false when it holds none yet), `save` writes one. */
export interface StateFile {
  restore(state: EmulatorState): boolean;
  save(state: EmulatorState): void;
  close(): void;
}

export function openStateFile(file: string): StateFile {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(file);
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL, saved_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS image_copies (imageid INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
  `);
  const readState = db.prepare('SELECT json FROM state WHERE id = 1');
  const writeState = db.prepare(
    'INSERT INTO state (id, json, saved_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at',
  );
  const readCopy = db.prepare('SELECT bytes FROM image_copies WHERE imageid = ?');
  const writeCopy = db.prepare(
    'INSERT INTO image_copies (imageid, bytes) VALUES (?, ?) ON CONFLICT (imageid) DO UPDATE SET bytes = excluded.bytes',
  );
  const copyIds = db.prepare('SELECT imageid FROM image_copies');
  const dropCopy = db.prepare('DELETE FROM image_copies WHERE imageid = ?');
  /** The copies already in the file (each written once: a Buffer is never changed in place). */
  const written = new WeakSet<Buffer>();
  let last = '';

  return {
    restore(state) {
      const row = readState.get() as { json: string } | undefined;
      if (!row) return false;
      const snapshot = JSON.parse(row.json) as Snapshot;
      if (snapshot.version !== 1) return false;
      restore(state, snapshot, (imageid) => {
        const copy = readCopy.get(imageid) as { bytes: Uint8Array } | undefined;
        if (!copy) return null;
        const bytes = Buffer.from(copy.bytes);
        written.add(bytes);
        return bytes;
      });
      last = row.json;
      return true;
    },
    save(state) {
      const json = JSON.stringify(snapshotOf(state));
      const images = [...state.images.values()].flat();
      const copies = images.filter((i) => i.fetch?.bytes && !written.has(i.fetch.bytes));
      if (json === last && copies.length === 0) return;
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const image of copies) writeCopy.run(image.imageid, image.fetch!.bytes!);
        const held = new Set(images.filter((i) => i.fetch?.bytes).map((i) => i.imageid));
        for (const { imageid } of copyIds.all() as { imageid: number }[]) if (!held.has(imageid)) dropCopy.run(imageid);
        writeState.run(json, Date.now());
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
      for (const image of copies) written.add(image.fetch!.bytes!);
      last = json;
    },
    close: () => db.close(),
  };
}
