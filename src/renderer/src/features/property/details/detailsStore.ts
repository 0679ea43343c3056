import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import {
  detailsFormOf,
  detailsRequest,
  emptyDetailsForm,
  fieldOfPath,
  sameJson,
  type DetailsField,
  type DetailsForm,
  type DetailsView,
} from '@shared/property';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';
import { createPropertyDraft } from '../push/propertyDraft';

/** An error's field messages by form field (Su and the gateway name request paths: `physical_address.city_name`). */
export function errorsByField(error: AppError | null | undefined): Record<string, string> {
  if (!error) return {};
  const raw = error.fields ?? (error.field ? { [error.field]: error.message } : {});
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(raw)) {
    const field = fieldOfPath(path.replace(/^(form|request)\./, ''));
    out[field] ??= message;
  }
  return out;
}

const isBlank = (v: DetailsForm[DetailsField]) =>
  Array.isArray(v) ? v.length === 0 : typeof v === 'string' && !v.trim();

/**
 * The Details tab: the record Su last confirmed, the draft as typed (saved as it is typed, valid or not, so a
 * restart finds it), every field checked live by the request's own schema, and Preview → Send.
 */
export const useDetailsStore = defineStore('propertyDetails', () => {
  const hotelId = ref<string | null>(null);
  const view = shallowRef<DetailsView | null>(null);
  const viewError = shallowRef<AppError | null>(null);
  const form = ref<DetailsForm>(emptyDetailsForm());
  /** Fields the owner has been in: their problems show at once (a blank field's only once touched or on Preview). */
  const touched = ref(new Set<string>());
  const showAll = ref(false);
  /** Fields edited since Su's refusal or the last send's error arrived: that message no longer applies. */
  const edited = ref(new Set<string>());

  const part = createPropertyDraft({
    scope: () => (hotelId.value ? { section: 'details', hotelId: hotelId.value, roomId: null } : null),
    save: async () => {
      const id = hotelId.value;
      if (!id) return null;
      const result = await api['property.saveDetailsDraft']({ hotelId: id, form: form.value });
      if (result.ok && id === hotelId.value) view.value = result.value;
      return result.ok ? null : result.error;
    },
    load: () => load(),
  });
  const { saver, sendError } = part;

  const validation = computed(() => (hotelId.value ? detailsRequest(hotelId.value, form.value) : null));
  const recordForm = computed(() => (view.value?.record ? detailsFormOf(view.value.record) : emptyDetailsForm()));
  /** The draft differs from the record Su confirmed. */
  const changed = computed(() => !sameJson(form.value, recordForm.value));
  const pending = computed(() => view.value?.pending ?? null);
  /** Su's refusal of the push on its way, by field. */
  const refusal = computed(() => (pending.value?.state === 'failed' ? pending.value.error : null));
  watch([refusal, sendError], () => (edited.value = new Set()));

  /** Each field's problem: the schema's (live), else Su's or the send's, until the owner edits that field. */
  const errors = computed<Record<string, string>>(() => {
    const out: Record<string, string> = {};
    const later = { ...errorsByField(refusal.value), ...errorsByField(sendError.value) };
    for (const [field, message] of Object.entries(later)) if (!edited.value.has(field)) out[field] = message;
    const local = validation.value && !validation.value.ok ? (validation.value.error.fields ?? {}) : {};
    for (const [field, message] of Object.entries(local)) {
      const value = form.value[field as DetailsField];
      if (showAll.value || touched.value.has(field) || (value !== undefined && !isBlank(value))) out[field] = message;
    }
    return out;
  });

  const loads = latestOnly();
  async function load(): Promise<void> {
    const id = hotelId.value;
    if (!id) return;
    const isNewest = loads();
    const mark = saver.mark();
    const result = await api['property.details']({ hotelId: id });
    if (id !== hotelId.value || !isNewest()) return;
    viewError.value = result.ok ? null : result.error;
    if (!result.ok) return;
    view.value = result.value;
    // What the owner typed meanwhile wins over the form read before it.
    if (!saver.editedSince(mark)) form.value = { ...result.value.form };
  }

  /** Shows a property's details (what waits to be saved for the one before is saved first). */
  async function open(id: string): Promise<void> {
    if (id !== hotelId.value) {
      await part.leave();
      view.value = null;
      form.value = emptyDetailsForm();
      touched.value = new Set();
      showAll.value = false;
      hotelId.value = id;
    }
    await load();
  }

  function set<F extends DetailsField>(field: F, value: DetailsForm[F]): void {
    form.value = { ...form.value, [field]: value };
    touched.value.add(field);
    edited.value.add(field);
    saver.changed();
  }

  function touch(field: DetailsField): void {
    touched.value.add(field);
  }

  async function discardDraft(): Promise<AppError | null> {
    touched.value = new Set();
    showAll.value = false;
    return part.discardDraft();
  }

  /** Opens the preview: every field's problem shows from now on. */
  function openPreview(): void {
    showAll.value = true;
    part.dialogOpen.value = true;
  }

  return {
    section: 'details' as const,
    hotelId,
    view,
    viewError,
    form,
    errors,
    validation,
    changed,
    pending,
    refusal,
    ...part.exposed,
    /** Sends the previewed request (a details push creates nothing: there is nothing to confirm). */
    send: (_confirmed = false) => part.send(false),
    open,
    load,
    set,
    touch,
    discardDraft,
    openPreview,
  };
});
