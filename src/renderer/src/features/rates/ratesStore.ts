import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { localToday } from '@shared/dates';
import {
  dropPastDays,
  type RateBookView,
  type RatePreview,
  type RatePushRecord,
  type RateRevertPreview,
} from '@shared/rates';
import type { RuleEdit } from '@shared/ratesComposer';
import { type PropertySetup, type PropertySetupInput } from '@shared/rateSetups';
import type { AppError } from '@shared/result';
import { api, callOnce } from '@renderer/api';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { latestOnly } from '@renderer/lib/latestOnly';

import { RATES_PROPERTY_KEY as PROPERTY_KEY } from './ratesProperty';
/** How long the draft's name waits after the last keystroke before it is saved. */
const NAME_DELAY_MS = 500;

export interface Draft {
  name: string;
  edits: RuleEdit[];
}

/**
 * The Rates screen: the properties the owner set up, and for the one on screen what Su holds (the book), the
 * draft, its preview and the push history. The draft is saved at every change, so a restart finds it.
 */
export const useRatesStore = defineStore('rates', () => {
  const properties = shallowRef<PropertySetup[] | null>(null);
  const propertiesError = shallowRef<AppError | null>(null);
  const hotelId = ref<string | null>(localStorage.getItem(PROPERTY_KEY));
  const property = computed(() => properties.value?.find((p) => p.hotelId === hotelId.value) ?? null);

  const book = shallowRef<RateBookView | null>(null);
  const bookError = shallowRef<AppError | null>(null);
  const draft = shallowRef<Draft>({ name: '', edits: [] });
  const draftState = ref<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const draftError = shallowRef<AppError | null>(null);
  const preview = shallowRef<RatePreview | null>(null);
  const previewError = shallowRef<AppError | null>(null);
  const history = shallowRef<RatePushRecord[] | null>(null);
  const historyError = shallowRef<AppError | null>(null);
  /** The push (or revert) started from this screen, whose progress the pending bar reports. */
  const lastPushId = ref<number | null>(null);
  const lastPush = computed(() => history.value?.find((p) => p.id === lastPushId.value) ?? null);

  // ---- properties ------------------------------------------------------------------------------------------------
  let loadingProperties: Promise<void> | null = null;
  /**
   * Reads the properties and opens one (everything is read again: pushes may have moved on while another screen was
   * open). A load already under way is joined, not asked again: a new tab's first screen starts it before the view
   * mounts (shell/firstScreen.ts), and the view asks once mounted.
   */
  function loadProperties(): Promise<void> {
    return (loadingProperties ??= readProperties().finally(() => (loadingProperties = null)));
  }

  async function readProperties() {
    // The property on screen last time is read at once, beside the list: the calendar of an owner coming back has
    // its data after one round trip, not two. Should it be gone, open() below shows another (these answers are
    // dropped).
    const remembered = hotelId.value;
    const early = remembered ? readOpened(remembered) : null;
    const result = await callOnce('rates.properties', {});
    if (!result.ok) return void (propertiesError.value = result.error);
    propertiesError.value = null;
    properties.value = result.value;
    const keep = result.value.some((p) => p.hotelId === hotelId.value);
    if (keep && early && hotelId.value === remembered) return void (await early);
    await open(keep ? hotelId.value : (result.value[0]?.hotelId ?? null));
  }

  /** What the screen shows of a property: its book, history and draft. */
  const readOpened = (id: string) => Promise.all([loadBook(id), loadHistory(id), reloadDraft(id)]);

  /** Shows a property: its book, draft, preview and history. */
  async function open(id: string | null, reload = true) {
    if (id === hotelId.value && !reload) return;
    if (id !== hotelId.value) {
      await flushName();
      book.value = null;
      history.value = null;
      preview.value = null;
      draft.value = { name: '', edits: [] };
      draftState.value = 'idle';
      draftError.value = null;
      lastPushId.value = null;
    }
    hotelId.value = id;
    if (id) localStorage.setItem(PROPERTY_KEY, id);
    if (id) await readOpened(id);
  }

  async function saveSetup(input: PropertySetupInput): Promise<AppError | null> {
    const result = await api['rates.saveSetup'](input);
    if (!result.ok) return result.error;
    properties.value = result.value;
    await open(input.hotelId, false);
    return null;
  }

  async function removeSetup(id: string): Promise<AppError | null> {
    const result = await api['rates.removeSetup']({ hotelId: id });
    if (!result.ok) return result.error;
    properties.value = result.value;
    if (hotelId.value === id) await open(result.value[0]?.hotelId ?? null);
    return null;
  }

  // ---- what Su holds, and the history -----------------------------------------------------------------------
  async function loadBook(id: string) {
    const result = await callOnce('rates.book', { hotelId: id });
    if (id !== hotelId.value) return;
    if (result.ok) book.value = result.value;
    bookError.value = result.ok ? null : result.error;
  }

  async function loadHistory(id: string) {
    const result = await callOnce('rates.history', { hotelId: id });
    if (id !== hotelId.value) return;
    if (result.ok) history.value = result.value;
    historyError.value = result.ok ? null : result.error;
  }

  // Each saved change asks for a preview: only the newest one counts, and emptying the draft outdates any on its way.
  const previewLoads = latestOnly();
  async function refreshPreview(id: string) {
    const isNewest = previewLoads();
    if (draft.value.edits.length === 0) {
      preview.value = null;
      previewError.value = null;
      return;
    }
    const result = await api['rates.preview']({ hotelId: id });
    if (id !== hotelId.value || !isNewest()) return; // another property, or a newer preview is on its way
    if (result.ok) preview.value = result.value;
    previewError.value = result.ok ? null : result.error;
  }

  // ---- the draft ---------------------------------------------------------------------------------------------------
  // Saves go one at a time and in order; each sends the whole draft as it was when the change was made.
  let chain: Promise<void> = Promise.resolve();
  let nameTimer: ReturnType<typeof setTimeout> | null = null;

  function persist(): Promise<void> {
    const id = hotelId.value;
    if (!id) return chain;
    const snapshot = draft.value;
    draftState.value = 'saving';
    chain = chain.then(async () => {
      // Past midnight, yesterday's days cannot be saved (nor sent): they are left out.
      const edits = dropPastDays(snapshot.edits, localToday());
      const result = await api['rates.saveDraft']({ hotelId: id, name: snapshot.name, edits });
      if (id !== hotelId.value || draft.value !== snapshot) return; // a newer change is on its way
      draftState.value = result.ok ? 'saved' : 'failed';
      draftError.value = result.ok ? null : result.error;
      if (result.ok) await refreshPreview(id);
    });
    return chain;
  }

  // Loads overlap (a push moves through queued, sending, sent in quick succession): only the newest one counts,
  // and none that started before the owner's latest change.
  const draftLoads = latestOnly();
  let localChanges = 0;

  async function reloadDraft(id: string) {
    const isNewest = draftLoads();
    const changes = localChanges;
    await chain;
    const result = await callOnce('rates.draft', { hotelId: id });
    // Stale if another property is on screen, a newer load started, the owner changed the draft meanwhile, or a
    // rename is still waiting to be saved.
    if (id !== hotelId.value || !isNewest() || changes !== localChanges || nameTimer) return;
    if (!result.ok) {
      draftState.value = 'failed';
      draftError.value = result.error;
      return;
    }
    // The core hands the draft back without days that have passed.
    draft.value = { name: result.value.name, edits: result.value.edits as RuleEdit[] };
    await refreshPreview(id);
  }

  function addEdit(edit: RuleEdit): Promise<void> {
    localChanges++;
    draft.value = { ...draft.value, edits: [...draft.value.edits, edit] };
    return persist();
  }

  function removeEdit(index: number): Promise<void> {
    localChanges++;
    draft.value = { ...draft.value, edits: draft.value.edits.filter((_, i) => i !== index) };
    return persist();
  }

  /** Renames the draft; saved once typing pauses. */
  function rename(name: string) {
    localChanges++;
    draft.value = { ...draft.value, name };
    if (nameTimer) clearTimeout(nameTimer);
    draftState.value = 'saving';
    nameTimer = setTimeout(() => void flushName(), NAME_DELAY_MS);
  }

  function flushName(): Promise<void> {
    if (!nameTimer) return chain;
    clearTimeout(nameTimer);
    nameTimer = null;
    return persist();
  }

  function discardDraft(): Promise<void> {
    localChanges++;
    if (nameTimer) clearTimeout(nameTimer);
    nameTimer = null;
    draft.value = { name: '', edits: [] };
    return persist();
  }

  // ---- push, revert, and decisions about a push that failed ---------------------------------------------------
  /** Said when a push or revert is asked for before its preview was shown: the preview is loaded, nothing is sent. */
  const notPreviewed: AppError = {
    code: 'preview_stale',
    message: 'Look at the preview first: nothing was sent.',
    retryable: false,
  };

  async function afterPush(id: string, pushId: number) {
    lastPushId.value = pushId;
    await Promise.all([loadBook(id), loadHistory(id)]);
    await refreshPreview(id);
  }

  async function push(confirmed: boolean): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id) return null;
    await flushName();
    // Only what the owner previewed may go out: the core refuses if the request is no longer that one. With no
    // preview shown yet, it is loaded first and nothing is sent until the owner looked at it.
    const fingerprint = preview.value?.fingerprint;
    if (!fingerprint) {
      await refreshPreview(id);
      return previewError.value ?? notPreviewed;
    }
    const result = await api['rates.push']({ hotelId: id, confirmed, fingerprint });
    if (!result.ok) return result.error;
    await afterPush(id, result.value.pushId);
    return null;
  }

  // ---- revert: previewed and confirmed like a push ----------------------------------------------------------------
  const revertPreview = shallowRef<RateRevertPreview | null>(null);
  const revertPreviewError = shallowRef<AppError | null>(null);
  /** The push whose revert `revertPreview` shows. */
  let revertPreviewOf: number | null = null;
  const revertLoads = latestOnly();

  /** What reverting the push would send, for the preview dialog. */
  async function previewRevert(pushId: number): Promise<void> {
    const isNewest = revertLoads();
    revertPreview.value = null;
    revertPreviewError.value = null;
    revertPreviewOf = null;
    const result = await api['rates.revertPreview']({ pushId });
    if (!isNewest()) return;
    if (result.ok) {
      revertPreview.value = result.value;
      revertPreviewOf = pushId;
    } else revertPreviewError.value = result.error;
  }

  /**
   * Queues the revert the owner previewed (the core refuses if it would now send something else); says what was
   * queued, or returns the error.
   */
  async function revert(pushId: number, confirmed = false): Promise<AppError | string | null> {
    const id = hotelId.value;
    if (!id) return null;
    // Never without its preview: with none shown for this push, it is loaded first and nothing is sent yet.
    const fingerprint = revertPreviewOf === pushId ? revertPreview.value?.fingerprint : undefined;
    if (!fingerprint) {
      await previewRevert(pushId);
      return revertPreviewError.value ?? notPreviewed;
    }
    const result = await api['rates.revert']({ pushId, confirmed, fingerprint });
    if (!result.ok) return result.error;
    await afterPush(id, result.value.pushId);
    const { keptLater, past } = result.value;
    return [
      'Revert queued.',
      keptLater
        ? `${keptLater} channel rule${keptLater === 1 ? ' changed again by a later push stays as it is' : 's changed again by later pushes stay as they are'}.`
        : '',
      past ? `Days that have passed are left out.` : '',
    ]
      .filter(Boolean)
      .join(' ');
  }

  async function decide(decision: 'retry' | 'discard' | 'markSent', record: RatePushRecord): Promise<AppError | null> {
    const error = await useOutboxStore()[decision](record.outboxId);
    if (hotelId.value) await refresh(hotelId.value);
    return error;
  }

  /** Everything that a push's progress changes. */
  async function refresh(id: string) {
    await Promise.all([loadBook(id), loadHistory(id), reloadDraft(id)]);
  }

  /** Follows the core's `rates.changed` events; returns the function that stops. */
  function listen(): () => void {
    return api.on('rates.changed', (change) => {
      if (change.hotelId === hotelId.value) void refresh(change.hotelId);
    });
  }

  return {
    properties,
    propertiesError,
    hotelId,
    property,
    loadProperties,
    open,
    saveSetup,
    removeSetup,
    book,
    bookError,
    draft,
    draftState,
    draftError,
    preview,
    previewError,
    history,
    historyError,
    lastPushId,
    lastPush,
    addEdit,
    removeEdit,
    rename,
    flushName,
    discardDraft,
    refreshPreview: () => (hotelId.value ? refreshPreview(hotelId.value) : Promise.resolve()),
    push,
    revertPreview,
    revertPreviewError,
    previewRevert,
    revert,
    retry: (record: RatePushRecord) => decide('retry', record),
    discard: (record: RatePushRecord) => decide('discard', record),
    markSent: (record: RatePushRecord) => decide('markSent', record),
    dismissPush: () => (lastPushId.value = null),
    listen,
  };
});
