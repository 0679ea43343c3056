import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, localToday } from '@shared/dates';
import type { RateDraft, RatePreview } from '@shared/rates';
import type { RuleEdit } from '@shared/ratesComposer';
import type { PropertySetup } from '@shared/rateSetups';
import { ok } from '@shared/result';
import { useRatesStore } from '@renderer/features/rates/ratesStore';
import { installFakeApi, settle } from './fakeApi';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: 'Harbour View',
  channels: ['244', '19'],
  rooms: [{ id: 'DBL', name: 'Double', inventory: 4, rates: [{ id: 'BAR', name: 'Best', price: 120 }] }],
};

/** A price rule on one channel, `inDays` days from today (past days are dropped before saving). */
const edit = (inDays: number, value: number): RuleEdit => {
  const day = addDays(localToday(), inDays);
  return {
    target: { level: 'rate', roomId: 'DBL', rateId: 'BAR' },
    from: day,
    to: day,
    channels: ['19'],
    rule: { type: 'Fixed', value },
  };
};

const draft = (name: string, edits: RuleEdit[]): RateDraft => ({ name, edits, updatedAt: 1 });

const preview = (name: string): RatePreview => ({
  name,
  request: {},
  fingerprint: name,
  days: [],
  summary: { changedDays: 1, channelChanges: 1, closes: false },
  warnings: [],
  large: false,
  firstPush: [],
});

/** The rates store with property H1 open (an empty draft), over a core that answers everything but drafts and previews at once. */
async function openProperty() {
  const core = installFakeApi({
    'rates.properties': () => ok([setup]),
    'rates.book': () => ok({ book: {}, pending: [], confirmed: {} }),
    'rates.history': () => ok([]),
    'rates.saveDraft': () => ok(draft('', [])),
  });
  const rates = useRatesStore();
  const opening = rates.loadProperties();
  await settle();
  core.pending('rates.draft')[0]!.answer(ok(draft('', [])));
  await opening;
  expect(rates.hotelId).toBe('H1');
  return { core, rates };
}

describe('the rates store shows the newest answer', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('keeps the newest preview when an older one answers last', async () => {
    const { core, rates } = await openProperty();
    void rates.addEdit(edit(3, 100));
    await settle();
    void rates.refreshPreview();
    await settle();
    const [older, newer] = core.pending('rates.preview');
    expect(newer).toBeDefined();

    newer!.answer(ok(preview('newer')));
    await settle();
    older!.answer(ok(preview('older')));
    await settle();

    expect(rates.preview?.name).toBe('newer');
  });

  it('shows no preview once the draft is emptied, even if a preview asked for before answers after', async () => {
    const { core, rates } = await openProperty();
    void rates.addEdit(edit(3, 100));
    await settle();
    core.pending('rates.preview')[0]!.answer(ok(preview('first')));
    await settle();
    expect(rates.preview?.name).toBe('first');

    void rates.refreshPreview();
    await settle();
    await rates.discardDraft();
    expect(rates.preview).toBeNull();
    core.pending('rates.preview')[0]!.answer(ok(preview('for the old draft')));
    await settle();

    expect(rates.draft.edits).toEqual([]);
    expect(rates.preview).toBeNull();
  });

  it('keeps the draft of the newest reload when an older reload answers last', async () => {
    const { core, rates } = await openProperty();
    rates.listen();
    // A push moves on (queued, then sent): each step reloads the draft.
    core.emit('rates.changed', { hotelId: 'H1' });
    core.emit('rates.changed', { hotelId: 'H1' });
    await settle();
    const [older, newer] = core.pending('rates.draft');

    newer!.answer(ok(draft('After the push', [])));
    await settle();
    older!.answer(ok(draft('Before the push', [edit(2, 90)])));
    await settle();

    expect(rates.draft.name).toBe('After the push');
    expect(rates.draft.edits).toEqual([]);
  });

  it('keeps the owner’s change when a reload that started before it answers', async () => {
    const { core, rates } = await openProperty();
    rates.listen();
    core.emit('rates.changed', { hotelId: 'H1' });
    await settle();
    const local = edit(4, 150);
    void rates.addEdit(local);
    await settle();

    core.pending('rates.draft')[0]!.answer(ok(draft('From before the change', [])));
    await settle();

    expect(rates.draft.edits).toEqual([local]);
    expect(rates.draft.name).toBe('');
  });

  it('keeps a new name that is still waiting to be saved when a reload answers', async () => {
    const { core, rates } = await openProperty();
    rates.listen();
    rates.rename('Autumn prices');
    core.emit('rates.changed', { hotelId: 'H1' });
    await settle();

    core.pending('rates.draft')[0]!.answer(ok(draft('Old name', [])));
    await settle();
    expect(rates.draft.name).toBe('Autumn prices');
    await rates.flushName();
  });
});

describe('a revert in the rates store', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('is previewed first, and sends the fingerprint of the preview the owner looked at (and the confirmation)', async () => {
    const { core, rates } = await openProperty();
    const preparing = rates.previewRevert(7);
    await settle();
    const [asked] = core.pending('rates.revertPreview');
    expect(asked!.args).toEqual({ pushId: 7 });
    asked!.answer(ok({ ...preview('Revert of “Spring”'), fingerprint: 'f'.repeat(64), keptLater: 1, past: 0 }));
    await preparing;
    expect(rates.revertPreview).toMatchObject({ name: 'Revert of “Spring”', keptLater: 1 });

    const reverting = rates.revert(7, true);
    await settle();
    const [sent] = core.pending('rates.revert');
    expect(sent!.args).toEqual({ pushId: 7, confirmed: true, fingerprint: 'f'.repeat(64) });
    sent!.answer(ok({ pushId: 8, keptLater: 1, past: 0 }));
    expect(await reverting).toBe('Revert queued. 1 channel rule changed again by a later push stays as it is.');
  });

  it('without a preview of that push, previews first and sends nothing', async () => {
    const { core, rates } = await openProperty();
    // A preview of another push does not count.
    const other = rates.previewRevert(3);
    await settle();
    core
      .pending('rates.revertPreview')[0]!
      .answer(ok({ ...preview('other'), fingerprint: 'e'.repeat(64), keptLater: 0, past: 0 }));
    await other;

    const reverting = rates.revert(7, true);
    await settle();
    const asked = core.pending('rates.revertPreview');
    expect(asked.at(-1)!.args).toEqual({ pushId: 7 });
    asked.at(-1)!.answer(ok({ ...preview('Revert of “Spring”'), fingerprint: 'f'.repeat(64), keptLater: 0, past: 0 }));
    expect(await reverting).toMatchObject({ code: 'preview_stale' });
    expect(core.pending('rates.revert')).toEqual([]);
    expect(rates.revertPreview).toMatchObject({ name: 'Revert of “Spring”' });

    // Now that it was shown, the revert goes out with its fingerprint.
    const again = rates.revert(7, false);
    await settle();
    expect(core.pending('rates.revert')[0]!.args).toEqual({ pushId: 7, confirmed: false, fingerprint: 'f'.repeat(64) });
    core.pending('rates.revert')[0]!.answer(ok({ pushId: 8, keptLater: 0, past: 0 }));
    expect(await again).toBe('Revert queued.');
  });

  it('shows why a revert cannot be previewed, and an older preview never replaces a newer one', async () => {
    const { core, rates } = await openProperty();
    void rates.previewRevert(1);
    void rates.previewRevert(2);
    await settle();
    const [first, second] = core.pending('rates.revertPreview');
    second!.answer({ ok: false, error: { code: 'invalid_state', message: 'Nothing to revert.', retryable: false } });
    await settle();
    first!.answer(ok({ ...preview('old'), keptLater: 0, past: 0 }));
    await settle();
    expect(rates.revertPreview).toBeNull();
    expect(rates.revertPreviewError?.message).toBe('Nothing to revert.');
  });
});
