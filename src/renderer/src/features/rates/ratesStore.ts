import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { localToday } from '@shared/dates';
import { dropPastDays, type RateBookView, type RatePushRecord } from '@shared/rates';
import type { RuleEdit } from '@shared/ratesComposer';
import { type PropertySetup, type PropertySetupInput } from '@shared/rateSetups';
import type { AppError } from '@shared/result';
import { api, callOnce } from '@renderer/api';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { latestOnly } from '@renderer/lib/latestOnly';
import { createDraftSaver } from '@renderer/ui/reviewedChange/draftSaver';
import { createSendFlow, failed, NOT_PREVIEWED } from '@renderer/ui/reviewedChange/sendFlow';
import type { Decision } from '@renderer/ui/reviewedChange/types';

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
  const history = shallowRef<RatePushRecord[] | null>(null);
  const historyError = shallowRef<AppError | null>(null);

  // The draft is saved at every change (a rename once typing pauses), one save at a time and in order; a saved
  // draft asks for its preview.
  const saver = createDraftSaver(async () => {
    const id = hotelId.value;
    if (!id) return null;
    const snapshot = draft.value;
    // Past midnight, yesterday's days cannot be saved (nor sent): they are left out.
    const edits = dropPastDays(snapshot.edits, localToday());
    const result = await api['rates.saveDraft']({ hotelId: id, name: snapshot.name, edits });
    if (result.ok && id === hotelId.value && draft.value === snapshot) await refreshPreview();
    return result.ok ? null : result.error;
  }, NAME_DELAY_MS);
  // The draft's push: previewed, then sent with the preview's fingerprint (only what the owner looked at goes out).
  const pushes = createSendFlow({
    scope: () => hotelId.value,
    key: (id) => id,
    preview: (id) => api['rates.preview']({ hotelId: id }),
    send: (id, fingerprint, confirmed) => api['rates.push']({ hotelId: id, confirmed, fingerprint }),
  });
  /** The push (or revert) started from this screen, whose progress the pending bar reports. */
  const lastPushId = pushes.lastPushId;
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
      saver.cancel();
      book.value = null;
      history.value = null;
      draft.value = { name: '', edits: [] };
      pushes.reset();
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
  function refreshPreview(): Promise<void> {
    if (draft.value.edits.length > 0) return pushes.refresh();
    pushes.clear();
    return Promise.resolve();
  }

  // ---- the draft ---------------------------------------------------------------------------------------------------
  // Loads overlap (a push moves through queued, sending, sent in quick succession): only the newest one counts,
  // and none that started before the owner's latest change.
  const draftLoads = latestOnly();

  async function reloadDraft(id: string) {
    const isNewest = draftLoads();
    const mark = saver.mark();
    await saver.settled();
    const result = await callOnce('rates.draft', { hotelId: id });
    // Stale if another property is on screen, a newer load started, the owner changed the draft meanwhile, or a
    // rename is still waiting to be saved.
    if (id !== hotelId.value || !isNewest() || saver.editedSince(mark)) return;
    if (!result.ok) {
      saver.state.value = 'failed';
      saver.error.value = result.error;
      return;
    }
    // The core hands the draft back without days that have passed.
    draft.value = { name: result.value.name, edits: result.value.edits as RuleEdit[] };
    await refreshPreview();
  }

  function addEdit(edit: RuleEdit): Promise<void> {
    draft.value = { ...draft.value, edits: [...draft.value.edits, edit] };
    return saver.changedNow();
  }

  function removeEdit(index: number): Promise<void> {
    draft.value = { ...draft.value, edits: draft.value.edits.filter((_, i) => i !== index) };
    return saver.changedNow();
  }

  /** Renames the draft; saved once typing pauses. */
  function rename(name: string) {
    draft.value = { ...draft.value, name };
    saver.changed();
  }

  const flushName = (): Promise<void> => saver.flush();

  function discardDraft(): Promise<void> {
    draft.value = { name: '', edits: [] };
    return saver.changedNow();
  }

  // ---- push, revert, and decisions about a push that failed ---------------------------------------------------
  async function afterPush(id: string, pushId: number) {
    lastPushId.value = pushId;
    await Promise.all([loadBook(id), loadHistory(id)]);
    await refreshPreview();
  }

  /** Pushes the draft as previewed; with no preview shown yet, it is drawn and nothing is sent. */
  async function push(confirmed: boolean): Promise<AppError | null> {
    const id = hotelId.value;
    if (!id) return null;
    await flushName();
    const outcome = await pushes.send(confirmed);
    if (failed(outcome)) return outcome;
    await afterPush(id, outcome.pushId);
    return null;
  }

  // ---- revert: previewed and confirmed like a push ----------------------------------------------------------------
  /** The push whose revert is previewed. */
  const revertOf = ref<number | null>(null);
  const reverts = createSendFlow({
    scope: () => revertOf.value,
    key: String,
    preview: (pushId) => api['rates.revertPreview']({ pushId }),
    send: (pushId, fingerprint, confirmed) => api['rates.revert']({ pushId, confirmed, fingerprint }),
  });

  /** What reverting the push would send, for the preview dialog. */
  async function previewRevert(pushId: number): Promise<void> {
    revertOf.value = pushId;
    reverts.clear();
    await reverts.refresh();
  }

  /**
   * Queues the revert the owner previewed (the core refuses if it would now send something else); says what was
   * queued, or returns the error.
   */
  async function revert(pushId: number, confirmed = false): Promise<AppError | string | null> {
    const id = hotelId.value;
    if (!id) return null;
    // Never without its preview: with none shown for this push, it is loaded first and nothing is sent yet.
    if (revertOf.value !== pushId || !reverts.preview.value) {
      await previewRevert(pushId);
      return reverts.previewError.value ?? NOT_PREVIEWED;
    }
    const outcome = await reverts.send(confirmed);
    if (failed(outcome)) return outcome;
    await afterPush(id, outcome.pushId);
    const { keptLater, past } = outcome;
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

  /** Retry, Discard or Mark sent of a push that did not go through: the outbox decides, the screen follows. */
  async function decide(decision: Decision, record: RatePushRecord): Promise<AppError | null> {
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
    draftState: saver.state,
    draftError: saver.error,
    preview: pushes.preview,
    previewError: pushes.previewError,
    history,
    historyError,
    lastPushId,
    lastPush,
    addEdit,
    removeEdit,
    rename,
    flushName,
    discardDraft,
    refreshPreview,
    push,
    revertPreview: reverts.preview,
    revertPreviewError: reverts.previewError,
    previewRevert,
    revert,
    decide,
    dismissPush: () => (lastPushId.value = null),
    listen,
  };
});
