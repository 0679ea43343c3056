import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { detailsFormOf, type DetailsForm, type FacilityEntry } from '../../src/shared/property';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// The Property feature end to end inside the core: drafts on a real SQLite file, pushes through the real outbox to
// the demo provider's emulator (the oracle), whose stored record and facilities the tests compare.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const control = () => createEmulatorControl(ctx!.emulator());
const sentTo = async (path: string) =>
  (await control().requests()).filter((r) => r.path.endsWith(path)).map((r) => r.body as Record<string, unknown>);

const LOFT = 'IK-DEMO-002';
const HARBOUR = 'IK-DEMO-001';

/** The demo enters its own records and facilities when it starts; the tests begin once Su confirmed them. */
async function demoSettled() {
  for (const hotelId of [HARBOUR, LOFT])
    await eventually(
      () => call('property.history', { hotelId }),
      (h) => h.length >= 3 && h.every((p) => p.state === 'sent'),
    );
}

beforeEach(async () => {
  ctx = await startTestCore();
  await demoSettled();
});
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});

async function sendDetails(hotelId: string) {
  const preview = await call('property.preview', { section: 'details', hotelId });
  expect(preview.problems).toEqual({});
  const { pushId } = await call('property.send', {
    section: 'details',
    hotelId,
    roomId: null,
    fingerprint: preview.fingerprint!,
  });
  const push = await eventually(
    async () => (await call('property.history', { hotelId })).find((p) => p.id === pushId)!,
    (p) => p.state !== 'queued' && p.state !== 'sending',
  );
  return { preview, push };
}

describe('details', () => {
  it('the demo’s record is what Su holds: confirmed, with Su’s answer in the history', async () => {
    const view = await call('property.details', { hotelId: HARBOUR });
    expect(view.record).toMatchObject({ property_name: 'Harbour View Guesthouse', hotel_id: HARBOUR });
    expect(view.hasDraft).toBe(false);
    const content = await control().content(HARBOUR);
    expect(content.propertyRecord).toEqual(view.record);
    const [first] = (await call('property.history', { hotelId: HARBOUR })).filter((p) => p.section === 'details');
    expect(first!.answer).toMatchObject({ message: 'Property updated successfully', propertyId: '7741203' });
    // Su answered with the Booking.com id, which the facility set needs.
    expect((await call('property.facilities', { hotelId: HARBOUR, roomId: null })).channelIds.channelHotelId).toBe(
      '7741203',
    );
  });

  it('a draft keeps what was typed, mistakes included, and names each mistake by its field', async () => {
    await control().clearRequests();
    const view = await call('property.details', { hotelId: LOFT });
    const typed: DetailsForm = {
      ...view.form,
      property_name: 'Loft 東京',
      'position.latitude': '95',
      'check_in.from': '15:15',
      room_count: 'two',
      'physical_address.country_code': '',
    };
    const saved = await call('property.saveDetailsDraft', { hotelId: LOFT, form: typed });
    expect(saved.form).toEqual(typed);
    expect(saved.hasDraft).toBe(true);
    const preview = await call('property.preview', { section: 'details', hotelId: LOFT });
    expect(preview.request).toBeNull();
    expect(Object.keys(preview.problems).sort()).toEqual(
      ['check_in.from', 'physical_address.country_code', 'position.latitude', 'property_name', 'room_count'].sort(),
    );
    expect(preview.problems.property_name).toMatch(/ideographs/);
    const refused = await dispatch('property.send', {
      section: 'details',
      hotelId: LOFT,
      fingerprint: '0'.repeat(64),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation', fields: preview.problems } });
    // Nothing went to Su.
    expect((await sentTo('/bdc/property/update')).length).toBe(0);
  });

  it('sends the complete record each time, shows the change field by field, and reverts through the same path', async () => {
    await control().clearRequests();
    const before = await call('property.details', { hotelId: LOFT });
    await call('property.saveDetailsDraft', {
      hotelId: LOFT,
      form: { ...before.form, 'check_in.until': '23:30', floor_count: '2' },
    });
    const { preview, push } = await sendDetails(LOFT);
    expect(preview.changes).toEqual([
      { path: 'check_in.until', label: 'Check-in until', before: '20:00', after: '23:30' },
      { path: 'floor_count', label: 'Floors', before: '1', after: '2' },
    ]);
    expect(push).toMatchObject({ state: 'sent', answer: { message: 'Property updated successfully' } });
    const [sent] = await sentTo('/bdc/property/update');
    // The whole record, not the two fields: Su replaces what it holds.
    expect(sent).toEqual(preview.request);
    expect(sent).toMatchObject({ legal_entity_id: 'LE-40021', physical_address: { city_name: 'Copenhagen' } });
    expect((await control().content(LOFT)).propertyRecord).toEqual(preview.request);
    const after = await call('property.details', { hotelId: LOFT });
    expect(after.hasDraft).toBe(false);
    expect(after.form['check_in.until']).toBe('23:30');

    // Revert: the earlier record becomes the draft; the preview shows the way back, and sending it restores it.
    const first = (await call('property.history', { hotelId: LOFT })).find(
      (p) => p.section === 'details' && p.id !== push.id,
    )!;
    // Over changes not yet sent, a revert asks first.
    await call('property.saveDetailsDraft', { hotelId: LOFT, form: { ...after.form, stars: '2' } });
    expect(await dispatch('property.revert', { pushId: first.id })).toMatchObject({
      ok: false,
      error: { code: 'draft_exists' },
    });
    expect((await call('property.details', { hotelId: LOFT })).form.stars).toBe('2');
    expect(await call('property.revert', { pushId: first.id, replaceDraft: true })).toEqual({
      section: 'details',
      hotelId: LOFT,
      roomId: null,
    });
    const reverted = await sendDetails(LOFT);
    expect(reverted.preview.changes.map((c) => [c.path, c.after])).toEqual([
      ['check_in.until', '20:00'],
      ['floor_count', '1'],
    ]);
    expect(reverted.push.reverts).toBe(first.id);
    // What Su holds now is the revert; the pushes before it are not.
    const details = (await call('property.history', { hotelId: LOFT })).filter((p) => p.section === 'details');
    expect(details.filter((p) => p.current).map((p) => p.id)).toEqual([reverted.push.id]);
    expect((await control().content(LOFT)).propertyRecord).toEqual(first.request);
    expect(detailsFormOf((await call('property.details', { hotelId: LOFT })).record!)['floor_count']).toBe('1');

    // A revert edited before sending is a change of its own, no longer "the revert of" that push.
    await call('property.revert', { pushId: push.id, replaceDraft: true });
    const edited = await call('property.details', { hotelId: LOFT });
    await call('property.saveDetailsDraft', { hotelId: LOFT, form: { ...edited.form, floor_count: '3' } });
    expect((await sendDetails(LOFT)).push.reverts).toBeNull();
  });

  it('a refusal by Su names the field: a legal entity without a valid contract', async () => {
    const view = await call('property.details', { hotelId: LOFT });
    await call('property.saveDetailsDraft', { hotelId: LOFT, form: { ...view.form, legal_entity_id: 'LE-99999' } });
    const { push } = await sendDetails(LOFT);
    expect(push.state).toBe('failed');
    expect(push.error).toMatchObject({ field: 'legal_entity_id', message: expect.stringMatching(/valid contract/) });
    // The record is still what Su holds, the draft is kept, and a second send waits for this one to be settled.
    const now = await call('property.details', { hotelId: LOFT });
    expect(now.record!.legal_entity_id).toBe('LE-40021');
    expect(now.form.legal_entity_id).toBe('LE-99999');
    expect(now.pending?.id).toBe(push.id);
    const preview = await call('property.preview', { section: 'details', hotelId: LOFT });
    expect(
      await dispatch('property.send', { section: 'details', hotelId: LOFT, fingerprint: preview.fingerprint! }),
    ).toMatchObject({ ok: false, error: { message: expect.stringMatching(/retry it or discard it/) } });
    // A refused change cannot be marked as sent (it would become the record of what Su holds).
    expect(await dispatch('outbox.markSent', { id: push.outboxId })).toMatchObject({ ok: false });
  });
});

describe('facilities', () => {
  const parking = (key: string, name: string, instanceId: string | null = null): FacilityEntry => ({
    facilityId: '2',
    isAvailable: true,
    instances: [
      {
        key,
        instanceId,
        details: {
          parking_details: { name, parking_location: 'NEARBY', parking_reservation: 'NOT_NEEDED' },
          payment_details: { charge_mode: 'FREE' },
        },
      },
    ],
  });

  async function sendFacilities(roomId: string | null, confirmed: boolean) {
    const preview = await call('property.preview', { section: 'facilities', hotelId: LOFT, roomId });
    const result = await dispatch('property.send', {
      section: 'facilities',
      hotelId: LOFT,
      roomId,
      fingerprint: preview.fingerprint ?? '0'.repeat(64),
      confirmed,
    });
    return { preview, result };
  }
  const settled = () =>
    eventually(
      () => call('property.history', { hotelId: LOFT }),
      (h) => h.every((p) => p.state !== 'queued' && p.state !== 'sending'),
    );

  it('a new instance is created once, only after the owner confirms it, and is never created again by accident', async () => {
    const view = await call('property.facilities', { hotelId: LOFT, roomId: 'LOFT' });
    expect(view.channelIds.rooms).toEqual({ LOFT: '880241701' });
    const draft = [...view.draft, parking('p1', 'Street parking')];
    await call('property.saveFacilitiesDraft', { hotelId: LOFT, roomId: 'LOFT', draft });

    const unconfirmed = await sendFacilities('LOFT', false);
    expect(unconfirmed.preview.creates).toEqual([
      { facilityId: '2', key: 'p1', what: 'a new Parking instance (“Street parking”)' },
    ]);
    expect(unconfirmed.result).toMatchObject({ ok: false, error: { code: 'confirm_required' } });
    expect((await sentTo('/bdc/facilities/set')).filter((b) => b.channel_room_id === '880241701')).toHaveLength(1);

    const confirmed = await sendFacilities('LOFT', true);
    expect(confirmed.result.ok).toBe(true);
    expect(confirmed.preview.request).toEqual({
      hotel_id: LOFT,
      channel_hotel_id: '8802417',
      channel_room_id: '880241701',
      facilities: [
        {
          facility_id: '2',
          is_available: true,
          instances: [
            {
              parking_details: {
                name: 'Street parking',
                parking_location: 'NEARBY',
                parking_reservation: 'NOT_NEEDED',
              },
              payment_details: { charge_mode: 'FREE' },
            },
          ],
        },
      ],
    });
    await settled();
    const atSu = async () =>
      (
        (await control().content(LOFT)).facilities.rooms.LOFT as {
          facility_id: string;
          instances: { instance_id: string; parking_details: { name: string } }[];
        }[]
      ).find((f) => f.facility_id === '2')!.instances;
    expect(await atSu()).toHaveLength(1);
    const record = await call('property.facilities', { hotelId: LOFT, roomId: 'LOFT' });
    const created = record.record.find((f) => f.facilityId === '2')!.instances[0]!;
    expect(created).toMatchObject({ key: 'p1', instanceId: null, createdAt: expect.any(Number) });
    expect(record.hasDraft).toBe(false);

    // Nothing changed: nothing to send (and nothing created again).
    expect(
      (await call('property.preview', { section: 'facilities', hotelId: LOFT, roomId: 'LOFT' })).request,
    ).toBeNull();

    // Changed without Su's id: refused by the instance's id field, never sent as a second instance.
    const renamed = record.draft.map((f) => (f.facilityId === '2' ? parking('p1', 'Street parking (free)') : f));
    await call('property.saveFacilitiesDraft', { hotelId: LOFT, roomId: 'LOFT', draft: renamed });
    const blocked = await sendFacilities('LOFT', true);
    const at = renamed.findIndex((f) => f.facilityId === '2');
    expect(blocked.preview.problems[`${at}.instances.0.instanceId`]).toMatch(/would create a second one/);
    expect(blocked.result).toMatchObject({ ok: false, error: { field: `${at}.instances.0.instanceId` } });

    // With the id from the extranet it is an update of that instance.
    const instance_id = (await atSu())[0]!.instance_id;
    const withId = record.draft.map((f) =>
      f.facilityId === '2' ? parking('p1', 'Street parking (free)', instance_id) : f,
    );
    await call('property.saveFacilitiesDraft', { hotelId: LOFT, roomId: 'LOFT', draft: withId });
    const updated = await sendFacilities('LOFT', false);
    expect(updated.preview.creates).toEqual([]);
    expect(updated.result.ok).toBe(true);
    await settled();
    expect(await atSu()).toEqual([
      expect.objectContaining({
        instance_id,
        parking_details: expect.objectContaining({ name: 'Street parking (free)' }),
      }),
    ]);
  });

  it('a value outside the contract’s list is refused before sending, by its place in the draft', async () => {
    const view = await call('property.facilities', { hotelId: LOFT, roomId: null });
    const bad: FacilityEntry = {
      facilityId: '433',
      isAvailable: true,
      instances: [
        {
          key: 'pool',
          instanceId: null,
          details: { swimming_pool_details: { name: 'Roof', swimming_pool_type: 'ROOFTOP' } },
        },
      ],
    };
    await call('property.saveFacilitiesDraft', { hotelId: LOFT, roomId: null, draft: [...view.draft, bad] });
    const preview = await call('property.preview', { section: 'facilities', hotelId: LOFT, roomId: null });
    const at = view.draft.length;
    expect(preview.problems[`${at}.instances.0.details.swimming_pool_details.swimming_pool_type`]).toMatch(
      /Indoor, Outdoor/,
    );
    expect(preview.fingerprint).toBeNull();
  });

  it('without the Booking.com ids nothing is sent, and the preview says which id is missing', async () => {
    await call('property.saveChannelIds', { hotelId: LOFT, channelHotelId: null, rooms: {} });
    const view = await call('property.facilities', { hotelId: LOFT, roomId: 'LOFT' });
    await call('property.saveFacilitiesDraft', {
      hotelId: LOFT,
      roomId: 'LOFT',
      draft: [...view.draft, { facilityId: '91', isAvailable: true, instances: [] }],
    });
    const preview = await call('property.preview', { section: 'facilities', hotelId: LOFT, roomId: 'LOFT' });
    expect(Object.keys(preview.problems).sort()).toEqual(['channelHotelId', 'rooms.LOFT']);
  });

  it('Su’s 573 (no channel mapping) fails the push and keeps the draft', async () => {
    await call('property.saveChannelIds', { hotelId: LOFT, channelHotelId: '1111111', rooms: {} });
    const view = await call('property.facilities', { hotelId: LOFT, roomId: null });
    await call('property.saveFacilitiesDraft', {
      hotelId: LOFT,
      roomId: null,
      draft: [...view.draft, { facilityId: '91', isAvailable: true, instances: [] }],
    });
    const { result } = await sendFacilities(null, false);
    expect(result.ok).toBe(true);
    const [push] = await settled();
    expect(push).toMatchObject({ state: 'failed', error: { providerCode: '573', field: 'channel_hotel_id' } });
    expect((await call('property.facilities', { hotelId: LOFT, roomId: null })).hasDraft).toBe(true);
  });
});

describe('a value Su does not accept', () => {
  it('Su’s deserialization message shows by the value in the draft it names', async () => {
    const view = await call('property.facilities', { hotelId: LOFT, roomId: null });
    const valet: FacilityEntry = {
      facilityId: '2',
      isAvailable: true,
      instances: [
        {
          key: 'valet',
          instanceId: null,
          // An access the contract does not list ("others: not shown"): the app lets Su judge it.
          details: {
            parking_details: { name: 'Valet', parking_access: 'VALET_ONLY' },
            payment_details: { charge_mode: 'PAID' },
          },
        },
      ],
    };
    const draft = [...view.draft, valet];
    await call('property.saveFacilitiesDraft', { hotelId: LOFT, roomId: null, draft });
    const preview = await call('property.preview', { section: 'facilities', hotelId: LOFT, roomId: null });
    expect(preview.problems).toEqual({});
    await call('property.send', {
      section: 'facilities',
      hotelId: LOFT,
      roomId: null,
      fingerprint: preview.fingerprint!,
      confirmed: true,
    });
    const [push] = await eventually(
      () => call('property.history', { hotelId: LOFT }),
      (h) => h[0]!.state === 'failed',
    );
    const field = `${draft.length - 1}.instances.0.details.parking_details.parking_access`;
    expect(push!.error).toMatchObject({ field, message: expect.stringMatching(/ONLY_GUESTS, GENERAL_PUBLIC/) });
    expect(push!.error!.fields).toEqual({ [field]: push!.error!.message });
  });
});

describe('a restart', () => {
  it('a push Su confirmed just before the app stopped is in the record at start, and its draft is done', async () => {
    const view = await call('property.details', { hotelId: LOFT });
    const typed = { ...view.form, stars: '4' };
    await call('property.saveDetailsDraft', { hotelId: LOFT, form: typed });
    const { push } = await sendDetails(LOFT);
    expect(push.state).toBe('sent');
    // As if the app had stopped between the outbox's commit of "sent" and the record's: the old record, the draft
    // the push was made from, no answer recorded.
    const { db } = ctx!.core.db;
    const { draft_revision } = db.prepare('SELECT draft_revision FROM property_pushes WHERE id = ?').get(push.id) as {
      draft_revision: number;
    };
    db.prepare('UPDATE property_pushes SET applied_at = NULL, answer = NULL WHERE id = ?').run(push.id);
    db.prepare(
      `UPDATE property_records SET record = ? WHERE provider = 'demo' AND hotel_id = ? AND scope = 'details'`,
    ).run(JSON.stringify(view.record), LOFT);
    db.prepare(
      `INSERT INTO property_drafts (provider, hotel_id, scope, draft, revision, updated_at) VALUES ('demo', ?, 'details', ?, ?, 0)`,
    ).run(LOFT, JSON.stringify({ value: typed, reverts: null }), draft_revision);
    const dataDir = ctx!.dataDir;
    await ctx!.core.close();
    ctx = await startTestCore({ dataDir });
    const after = await call('property.details', { hotelId: LOFT });
    expect(after.record!.stars).toBe('4');
    expect(after.hasDraft).toBe(false);
    expect((await call('property.history', { hotelId: LOFT })).find((p) => p.id === push.id)!.answer).not.toBeNull();

    // A draft typed now survives the next restart as typed, mistakes included.
    await call('property.saveDetailsDraft', { hotelId: LOFT, form: { ...after.form, room_count: '1x' } });
    await ctx!.core.close();
    ctx = await startTestCore({ dataDir });
    expect((await call('property.details', { hotelId: LOFT })).form.room_count).toBe('1x');
  });
});

describe('per provider', () => {
  it('the demo’s record, facilities and notices stay with the demo when the owner moves to sandbox', async () => {
    await call('notices.checkNow', { hotelId: HARBOUR });
    expect((await call('notices.list', {})).unseen).toBeGreaterThan(0);
    await call('connection.save', {
      environment: 'sandbox',
      mainBaseUrl: 'https://a.example/SUAPI',
      tokenBaseUrl: 'https://b.example',
      domain: 'x.example',
    });
    // The same property id on another provider starts with nothing: what the demo holds is not what Su holds.
    const details = await call('property.details', { hotelId: HARBOUR });
    expect(details.record).toBeNull();
    expect(await call('property.history', { hotelId: HARBOUR })).toEqual([]);
    expect(
      (await call('property.facilities', { hotelId: HARBOUR, roomId: null })).channelIds.channelHotelId,
    ).toBeNull();
    expect((await call('notices.list', {})).unseen).toBe(0);
    await call('connection.save', { environment: 'demo', domain: 'demo.innkeeper.test' });
    expect((await call('property.details', { hotelId: HARBOUR })).record).not.toBeNull();
    expect((await call('notices.list', {})).unseen).toBeGreaterThan(0);
  });
});
