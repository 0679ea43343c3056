import { AppFailure } from '../../shared/result';
import { propertySetupSchema, type PropertySetup, type PropertySetupInput } from '../../shared/rateSetups';
import { targetKey, type RuleEdit } from '../../shared/ratesComposer';
import { channelName } from '../../shared/channels';
import { validationError } from '../../shared/validation';
import type { Database } from '../db/database';

/**
 * The rooms, rate plans, channels and base figures the owner entered per property (Su has no API that lists
 * them). Nothing here is sent to Su.
 */
/** A stored setup, with the defaults of fields added since it was saved (week prices, currency). */
const read = (json: string): PropertySetup => {
  const parsed = propertySetupSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : (JSON.parse(json) as PropertySetup);
};

export function createRateSetups(database: Database, now: () => number) {
  const { db } = database;
  // Each stored setup as last checked, by its exact text: checking a setup against the schema on every read took
  // most of `rates.properties` with many properties (bench/RESULTS.md, "Scale"). A changed text is checked again.
  // Kept as the checked setup's JSON, so every caller gets its own copy at the cost of a JSON.parse (a
  // structuredClone took ten times as long).
  const checked = new Map<string, string>();
  const readCached = (json: string): PropertySetup => {
    let text = checked.get(json);
    if (text === undefined) {
      if (checked.size >= 1_000) checked.clear();
      text = JSON.stringify(read(json));
      checked.set(json, text);
    }
    return JSON.parse(text) as PropertySetup;
  };
  const get = (hotelId: string): PropertySetup | null => {
    const row = db.prepare('SELECT setup FROM rate_setups WHERE hotel_id = ?').get(hotelId) as
      { setup: string } | undefined;
    return row ? readCached(row.setup) : null;
  };
  return {
    get,
    all(): PropertySetup[] {
      const rows = db.prepare('SELECT setup FROM rate_setups ORDER BY created_at, hotel_id').all() as {
        setup: string;
      }[];
      // Texts no longer stored are forgotten: the cache never holds more than the table.
      const stored = new Set(rows.map((r) => r.setup));
      for (const json of checked.keys()) if (!stored.has(json)) checked.delete(json);
      return rows.map((r) => readCached(r.setup));
    },
    save(input: PropertySetupInput): PropertySetup {
      const parsed = propertySetupSchema.safeParse(input);
      if (!parsed.success) throw new AppFailure(validationError(parsed.error));
      const at = now();
      db.prepare(
        `INSERT INTO rate_setups (hotel_id, setup, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (hotel_id) DO UPDATE SET setup = excluded.setup, updated_at = excluded.updated_at`,
      ).run(parsed.data.hotelId, JSON.stringify(parsed.data), at, at);
      return parsed.data;
    },
    remove(hotelId: string): void {
      db.prepare('DELETE FROM rate_setups WHERE hotel_id = ?').run(hotelId);
    },
    /**
     * Refuses edits that name a room, rate plan or channel no longer in the property's setup: the calendar cannot
     * show them, so they must not go out unseen. A property never set up is not checked.
     */
    checkEdits(hotelId: string, edits: readonly RuleEdit[]): void {
      const setup = get(hotelId);
      if (!setup) return;
      const targets = new Set(
        setup.rooms.flatMap((room) => [
          targetKey({ level: 'inventory', roomId: room.id }),
          ...room.rates.map((rate) => targetKey({ level: 'rate', roomId: room.id, rateId: rate.id })),
        ]),
      );
      edits.forEach((edit, i) => {
        const t = edit.target;
        const what = t.level === 'inventory' ? `room ${t.roomId}` : `rate plan ${t.rateId} of room ${t.roomId}`;
        const missing = !targets.has(targetKey(t))
          ? what
          : edit.channels.filter((c) => !setup.channels.includes(c)).map(channelName)[0];
        if (missing)
          throw new AppFailure({
            code: 'validation',
            field: `edits.${i}`,
            message: `Edit ${i + 1} of the draft changes ${missing}, which is no longer in Rooms & rate plans: remove that edit, or add it back there.`,
            retryable: false,
          });
      });
    },
  };
}
