import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  CardLinkInput,
  PartnerEntry,
  PartnerInput,
  PaymentCreation,
  PaymentDraft,
  PaymentLinkEntry,
  PaymentPartner,
  PaymentsView,
  WidgetLinkInput,
} from '@shared/payments';
import type { AppError, Result } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';
import type { PartnerForm } from './PartnerFields.vue';
import { inFilter, type LedgerFilter } from './paymentWords';

/** A partner account form as the owner left it: how the account is added, and its fields as typed. */
export interface KeptPartnerForm {
  mode: 'create' | 'enter';
  form: PartnerForm;
}

/** Tells an answer from the reason it failed (no answer of this store has both a code and a message). */
export const isAppError = (value: unknown): value is AppError =>
  typeof value === 'object' && value !== null && 'code' in value && 'message' in value;

/**
 * Payments: the partner account of each property, the ledger of every link (with the open conversation's own
 * links for its strip), and every call that changes them. Kept live by the core's `payments.changed`, whose `paid`
 * links go to the alerts.
 */
export const usePaymentsStore = defineStore('payments', () => {
  const view = shallowRef<PaymentsView | null>(null);
  const error = shallowRef<AppError | null>(null);
  const filter = ref<LedgerFilter>('all');
  const paidListeners = new Set<(link: PaymentLinkEntry) => void>();

  const links = computed(() => view.value?.links ?? []);
  const shown = computed(() => links.value.filter((l) => inFilter(l, filter.value)));
  const counts = computed(() => {
    const count = (f: LedgerFilter) => links.value.filter((l) => inFilter(l, f)).length;
    return {
      all: links.value.length,
      open: count('open'),
      paid: count('paid'),
      trouble: count('trouble'),
      drafts: count('drafts'),
    };
  });
  /** Links a guest can pay now (the demo's "Pay as the guest" needs the host's transaction id). */
  const payable = computed(() => links.value.filter((l) => l.status === 'requested' && !!l.transactionId));
  const partnerFor = (hotelId: string | null | undefined): PaymentPartner | null =>
    view.value?.partners.find((p) => p.hotelId === hotelId) ?? null;

  const loads = latestOnly();
  /** Reads the accounts, the ledger and the properties. */
  async function load(): Promise<void> {
    const isNewest = loads();
    const result = await api['payments.list']({});
    if (!isNewest()) return;
    if (result.ok) view.value = result.value;
    error.value = result.ok ? null : result.error;
  }
  /**
   * Reads again each time a dialog (or the demo's payment row) opens: it needs the accounts as they are now,
   * whichever screen was seen before. What is loaded stays on screen meanwhile; only a first load is waited for.
   */
  async function ensureLoaded(): Promise<void> {
    const loading = load();
    if (!view.value) await loading;
  }

  // ---- partner account forms left unsaved ---------------------------------------------------------------------
  /** What the owner typed in a property's partner account form and did not save (kept until saved or discarded). */
  const partnerForms = shallowRef<Record<string, KeptPartnerForm>>({});
  function keepPartnerForm(hotelId: string, kept: KeptPartnerForm | null): void {
    const { [hotelId]: _, ...rest } = partnerForms.value;
    partnerForms.value = kept ? { ...rest, [hotelId]: { mode: kept.mode, form: { ...kept.form } } } : rest;
  }

  // ---- the open conversation's links -------------------------------------------------------------------------
  const threadId = ref<number | null>(null);
  const threadLinks = shallowRef<PaymentLinkEntry[]>([]);
  const threadLoads = latestOnly();
  async function loadThread(id: number | null): Promise<void> {
    if (id !== threadId.value) threadLinks.value = [];
    threadId.value = id;
    if (id === null) return;
    const isNewest = threadLoads();
    const result = await api['payments.list']({ threadId: id });
    if (!isNewest() || id !== threadId.value) return;
    if (result.ok) threadLinks.value = result.value.links;
  }

  /** After a change made here: what is on screen is read again (the event follows, but the owner waits now). */
  function refresh(): void {
    if (view.value) void load();
    if (threadId.value !== null) void loadThread(threadId.value);
  }
  /** Puts a row the core answered in place at once, so the screen does not wait for the event. */
  function put(link: PaymentLinkEntry): void {
    const replace = (list: PaymentLinkEntry[]) =>
      list.some((l) => l.id === link.id) ? list.map((l) => (l.id === link.id ? link : l)) : [link, ...list];
    if (view.value) view.value = { ...view.value, links: replace(view.value.links) };
    if (link.threadId !== null && link.threadId === threadId.value) threadLinks.value = replace(threadLinks.value);
  }
  function drop(id: number): void {
    if (view.value) view.value = { ...view.value, links: view.value.links.filter((l) => l.id !== id) };
    threadLinks.value = threadLinks.value.filter((l) => l.id !== id);
  }

  /** Runs a call; its row (if any) is put in place and what is on screen read again. */
  async function run<T>(call: Promise<Result<T>>, row?: (value: T) => PaymentLinkEntry): Promise<T | AppError> {
    const result = await call;
    if (result.ok && row) put(row(result.value));
    refresh();
    return result.ok ? result.value : result.error;
  }
  const orNull = (value: unknown) => (isAppError(value) ? value : null);

  // ---- partner accounts ----------------------------------------------------------------------------------------
  /** Creates (or updates) the property's account on the host; null when it went through. */
  async function savePartner(input: PartnerInput): Promise<AppError | null> {
    return orNull(await run(api['payments.savePartner'](input)));
  }
  async function enterPartner(input: PartnerEntry): Promise<AppError | null> {
    return orNull(await run(api['payments.enterPartner'](input)));
  }
  async function forgetPartner(hotelId: string): Promise<AppError | null> {
    return orNull(await run(api['payments.forgetPartner']({ hotelId })));
  }

  // ---- links -------------------------------------------------------------------------------------------------
  async function proposeOrderId(hotelId: string): Promise<string | null> {
    const result = await api['payments.proposeOrderId']({ hotelId });
    return result.ok ? result.value.orderId : null;
  }
  /** Keeps a form as typed (a draft row); answers the row, or why it could not be kept. */
  async function saveDraft(draft: PaymentDraft): Promise<PaymentLinkEntry | AppError> {
    return run(api['payments.saveDraft'](draft), (link) => link);
  }
  async function deleteDraft(id: number): Promise<AppError | null> {
    const result = await api['payments.deleteDraft']({ id });
    if (result.ok) drop(id);
    refresh();
    return result.ok ? null : result.error;
  }
  /**
   * Asks the host for a link. The core keeps a row either way: requested with its URL, or a draft with what was
   * typed and why (`error`); an AppError only when the call itself was refused (the form did not pass).
   */
  async function createLink(input: CardLinkInput): Promise<PaymentCreation | AppError> {
    return run(api['payments.createLink'](input), (c) => c.link);
  }
  async function createWidget(input: WidgetLinkInput): Promise<PaymentCreation | AppError> {
    return run(api['payments.createWidget'](input), (c) => c.link);
  }
  async function setTransaction(id: number, transactionId: string): Promise<PaymentLinkEntry | AppError> {
    return run(api['payments.setTransaction']({ id, transactionId }), (link) => link);
  }
  const checking = ref<Set<number>>(new Set());
  async function checkNow(id: number): Promise<PaymentLinkEntry | AppError> {
    checking.value = new Set([...checking.value, id]);
    try {
      return await run(api['payments.checkNow']({ id }), (link) => link);
    } finally {
      checking.value = new Set([...checking.value].filter((n) => n !== id));
    }
  }
  async function qr(id: number): Promise<{ url: string; dataUrl: string } | AppError> {
    const result = await api['payments.qr']({ id });
    return result.ok ? result.value : result.error;
  }

  // ---- live updates ------------------------------------------------------------------------------------------
  /** Follows `payments.changed`: what is on screen is read again, and links just seen paid go to the alerts. */
  function listen(): () => void {
    return api.on('payments.changed', (change) => {
      refresh();
      for (const link of change.paid) paidListeners.forEach((listener) => listener(link));
    });
  }
  /** Calls `listener` for each link seen paid while the app is open; returns the function that stops. */
  function onPaid(listener: (link: PaymentLinkEntry) => void): () => void {
    paidListeners.add(listener);
    return () => paidListeners.delete(listener);
  }

  return {
    view,
    error,
    filter,
    links,
    shown,
    counts,
    payable,
    partnerFor,
    load,
    ensureLoaded,
    partnerForms,
    keepPartnerForm,
    threadId,
    threadLinks,
    loadThread,
    savePartner,
    enterPartner,
    forgetPartner,
    proposeOrderId,
    saveDraft,
    deleteDraft,
    createLink,
    createWidget,
    setTransaction,
    checking,
    checkNow,
    qr,
    listen,
    onPaid,
  };
});
