import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/main/db/database';
import { openAppDatabase } from '../../src/main/schema';
import { createRateSetups } from '../../src/main/rates/setups';
import { tempDir } from '../support/tempDir';

// Stored setups are checked against the schema once per stored text (setups.ts): what each read returns must
// still be the stored setup as it is now, completed with the schema's defaults, and each caller's own copy.
let database: Database;
afterEach(() => database?.close());

const stored = (hotelId: string, setup: object) =>
  database.db
    .prepare(
      `INSERT INTO rate_setups (hotel_id, setup, created_at, updated_at) VALUES (?, ?, 1, 1)
       ON CONFLICT (hotel_id) DO UPDATE SET setup = excluded.setup`,
    )
    .run(hotelId, JSON.stringify(setup));

describe('reading the stored property setups', () => {
  it('completes an older setup with the defaults, sees every change of the stored text, and hands out copies', () => {
    database = openAppDatabase(join(tempDir('innkeeper-setups-read-').path, 'innkeeper.db'));
    const setups = createRateSetups(database, () => 1);
    // As an older version stored it: no names, no week prices.
    stored('H1', {
      hotelId: 'H1',
      channels: ['244'],
      rooms: [{ id: 'R1', inventory: 2, rates: [{ id: 'BAR', price: 80 }] }],
    });
    const [first] = setups.all();
    expect(first?.rooms[0]).toMatchObject({
      id: 'R1',
      name: '',
      inventory: 2,
      rates: [{ id: 'BAR', name: '', price: 80 }],
    });

    // A caller changing what it got changes nothing for the next one.
    first!.rooms[0]!.inventory = 99;
    first!.rooms.push({ ...first!.rooms[0]!, id: 'R2' });
    expect(setups.all()[0]?.rooms).toHaveLength(1);
    expect(setups.get('H1')?.rooms[0]?.inventory).toBe(2);

    // The stored text changed behind the reader's back (another screen saved it): read anew.
    stored('H1', { hotelId: 'H1', channels: ['244'], rooms: [{ id: 'R1', name: 'Garden', inventory: 3, rates: [] }] });
    expect(setups.get('H1')?.rooms[0]).toMatchObject({ name: 'Garden', inventory: 3, rates: [] });
    expect(setups.all().map((s) => s.rooms[0]?.name)).toEqual(['Garden']);

    // Saved through the service, and removed.
    setups.save({ hotelId: 'H2', channels: ['19'], rooms: [{ id: 'R9', inventory: 1, rates: [] }] } as never);
    expect(setups.all().map((s) => s.hotelId)).toEqual(['H1', 'H2']);
    setups.remove('H1');
    expect(setups.all().map((s) => s.hotelId)).toEqual(['H2']);
    expect(setups.get('H1')).toBeNull();
  });
});
