import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { detailsFormOf, type PropertyPreview, type PropertyPush } from '@shared/property';
import { fail, ok } from '@shared/result';
import { useDetailsStore } from '@renderer/features/property/details/detailsStore';
import { installFakeApi, settle } from './fakeApi';
import { detailsRecord, detailsView } from './propertyFixtures';

const record = detailsRecord;
const view = detailsView;

const preview = (fingerprint: string): PropertyPreview => ({
  request: { ...record, property_name: 'Harbour House' },
  changes: [{ path: 'property_name', label: 'Property name', before: 'Harbour View', after: 'Harbour House' }],
  problems: {},
  creates: [],
  fingerprint,
});

const push = (over: Partial<PropertyPush>): PropertyPush => ({
  id: 7,
  section: 'details',
  roomId: null,
  createdAt: 1,
  appliedAt: null,
  state: 'queued',
  outboxId: 70,
  error: null,
  answer: null,
  request: record,
  changes: [],
  reverts: null,
  current: false,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  setActivePinia(createPinia());
});

describe('the details store', () => {
  it('saves the form exactly as typed, also when it is not valid, and checks every field live', async () => {
    const core = installFakeApi({ 'property.details': () => ok(view()) });
    const details = useDetailsStore();
    await details.open('H1');
    expect(details.form.property_name).toBe('Harbour View');
    expect(details.changed).toBe(false);
    expect(details.errors).toEqual({});

    details.set('room_count', '12a');
    details.set('property_name', '港湾ホテル');
    expect(details.changed).toBe(true);
    expect(details.saveState).toBe('saving');
    // Each field's problem, by the schema the client uses, next to that field.
    expect(details.errors.room_count).toMatch(/number/i);
    expect(details.errors.property_name).toMatch(/ideographs/);

    const saving = details.flush();
    await settle();
    const [call] = core.pending('property.saveDetailsDraft');
    expect(call?.args).toEqual({
      hotelId: 'H1',
      form: expect.objectContaining({ room_count: '12a', property_name: '港湾ホテル' }),
    });
    call!.answer(ok(view({ form: { ...detailsFormOf(record), room_count: '12a' }, hasDraft: true })));
    await saving;
    expect(details.saveState).toBe('saved');
    // What the owner typed stays on screen: the answer does not overwrite it.
    expect(details.form.property_name).toBe('港湾ホテル');
  });

  it('shows a blank required field’s problem only once it was touched or the owner asked for a preview', async () => {
    installFakeApi({
      'property.details': () =>
        ok(view({ record: null, confirmedAt: null, form: { ...detailsFormOf(record), legal_entity_id: '' } })),
    });
    const details = useDetailsStore();
    await details.open('H1');
    expect(details.errors.legal_entity_id).toBeUndefined();
    details.touch('legal_entity_id');
    expect(details.errors.legal_entity_id).toMatch(/required/);
  });

  it('keeps what the owner typed when a reload that started before answers', async () => {
    const core = installFakeApi({ 'property.saveDetailsDraft': () => ok(view()) });
    const details = useDetailsStore();
    const opening = details.open('H1');
    await settle();
    core.pending('property.details')[0]!.answer(ok(view()));
    await opening;

    const reload = details.load();
    await settle();
    details.set('physical_address.city_name', 'Bristol');
    core.pending('property.details')[0]!.answer(ok(view()));
    await reload;
    expect(details.form['physical_address.city_name']).toBe('Bristol');
  });

  it('sends with the fingerprint of the preview the owner saw, and reloads the push’s state', async () => {
    let pending: PropertyPush | null = null;
    const core = installFakeApi({
      'property.details': () => ok(view({ pending })),
      'property.saveDetailsDraft': () => ok(view({ hasDraft: true })),
      'property.preview': () => ok(preview('a'.repeat(64))),
    });
    const details = useDetailsStore();
    await details.open('H1');
    details.set('property_name', 'Harbour House');
    details.openPreview();
    expect(details.dialogOpen).toBe(true);
    await details.refreshPreview();
    expect(details.preview?.changes[0]?.after).toBe('Harbour House');

    const sending = details.send();
    await settle();
    const [call] = core.pending('property.send');
    expect(call?.args).toEqual({
      section: 'details',
      hotelId: 'H1',
      roomId: null,
      fingerprint: 'a'.repeat(64),
      confirmed: false,
    });
    pending = push({ state: 'queued' });
    call!.answer(ok({ pushId: 7 }));
    expect(await sending).toBeNull();
    expect(details.pending?.state).toBe('queued');
  });

  it('draws the preview again when the draft changed after it (a stale preview is never sent)', async () => {
    let previews = 0;
    installFakeApi({
      'property.details': () => ok(view()),
      'property.preview': () => ok(preview(String(++previews).repeat(64))),
      'property.send': () => fail({ code: 'preview_stale', message: 'The draft changed after the preview.' }),
    });
    const details = useDetailsStore();
    await details.open('H1');
    await details.refreshPreview();
    const error = await details.send();
    expect(error?.code).toBe('preview_stale');
    expect(details.preview?.fingerprint).toBe('2'.repeat(64));
  });

  it('puts Su’s refusal next to the field it names, until the owner edits that field', async () => {
    installFakeApi({
      'property.details': () =>
        ok(
          view({
            pending: push({
              state: 'failed',
              error: {
                code: 'provider',
                message: 'physical_address.city_name : City is unknown',
                field: 'physical_address.city_name',
                providerCode: '925',
              },
            }),
          }),
        ),
      'property.saveDetailsDraft': () => ok(view()),
    });
    const details = useDetailsStore();
    await details.open('H1');
    expect(details.errors['physical_address.city_name']).toBe('physical_address.city_name : City is unknown');
    details.set('physical_address.city_name', 'Londres');
    expect(details.errors['physical_address.city_name']).toBeUndefined();
    await settle();
  });
});
