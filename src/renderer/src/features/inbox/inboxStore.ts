import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { MessagingChannel } from '@shared/channels';
import { SEARCH_MAX_LENGTH } from '@shared/inboxLimits';
import type {
  BookingFactsInput,
  Delivery,
  InboxCounts,
  InboxProperty,
  NewMessageEvent,
  ThreadDetail,
} from '@shared/inbox';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { useReviewList } from './reviews/useReviewList';
import { usePagedThreads, type ThreadFilters } from './usePagedThreads';

export type ChannelFilter = 'all' | MessagingChannel;

/**
 * How long typing must pause before a search is asked for: long enough that a word typed in one go is one search,
 * short enough not to be waited for (the core answers in a few ms; an answer for text typed over is dropped).
 */
export const SEARCH_PAUSE_MS = 50;

/** Deliveries can come in bursts: the visible page is fetched again at most this often. */
const REFRESH_EVERY_MS = 150;

const pageIsSeen = () => document.visibilityState === 'visible';

/**
 * Guest conversations: unread counts (navigation badge, window title), the filtered thread list, and the thread
 * that is open. Kept live by the core's `inbox.changed` events.
 */
export const useInboxStore = defineStore('inbox', () => {
  const counts = ref<InboxCounts | null>(null);
  const unreadTotal = computed(() => (counts.value ? counts.value.unreadThreads + counts.value.unreadReviews : 0));

  // Each event counts as a newer read: an answer older than an event is dropped (see latestOnly).
  const countsReads = latestOnly();
  async function loadCounts() {
    const isNewest = countsReads();
    const result = await api['inbox.counts']({});
    if (result.ok && isNewest()) counts.value = result.value;
  }

  // ---- the thread list -------------------------------------------------------------------------------------
  const channel = ref<ChannelFilter>('all');
  const unreadOnly = ref(false);
  const needsReplyOnly = ref(false);
  const search = ref('');
  /** The property the lists are narrowed to (a hotel id; null: every property). */
  const hotelId = ref<string | null>(null);
  // The field takes no more than a search can have; a longer one (set by a script) is cut, never refused.
  const searchText = (value: string) => value.trim().slice(0, SEARCH_MAX_LENGTH).trim();
  const query = (): ThreadFilters => {
    const text = searchText(search.value);
    return {
      ...(channel.value === 'all' ? {} : { channel: channel.value }),
      ...(hotelId.value ? { hotelId: hotelId.value } : {}),
      ...(unreadOnly.value ? { unreadOnly: true } : {}),
      ...(needsReplyOnly.value ? { needsReplyOnly: true } : {}),
      ...(text ? { search: text } : {}),
    };
  };
  const list = usePagedThreads(query, (page) => api['inbox.threads'](page));
  const filtered = computed(() => Object.keys(query()).length > 0);
  // What is on screen stays until the answer for the new filters replaces it (no blank list between keystrokes).
  watch([channel, hotelId, unreadOnly, needsReplyOnly, () => search.value.trim()], () => void list.replace());

  function clearFilters() {
    channel.value = 'all';
    hotelId.value = null;
    unreadOnly.value = false;
    needsReplyOnly.value = false;
    search.value = '';
  }

  /** The properties the inbox has conversations or reviews for, by name (for the property filters). */
  const properties = shallowRef<InboxProperty[]>([]);
  async function loadProperties() {
    const result = await api['inbox.properties']({});
    if (result.ok) properties.value = result.value;
  }

  // Throttled: at most one refresh per REFRESH_EVERY_MS, and one more after a burst ends.
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let refreshAgain = false;
  function refreshList() {
    if (list.total.value === null && !list.loading.value) return; // the list was never shown
    if (refreshTimer) {
      refreshAgain = true;
      return;
    }
    void list.refresh();
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      if (refreshAgain) {
        refreshAgain = false;
        refreshList();
      }
    }, REFRESH_EVERY_MS);
  }

  // ---- the open thread ---------------------------------------------------------------------------------------
  const openId = ref<number | null>(null);
  const thread = shallowRef<ThreadDetail | null>(null);
  const threadError = shallowRef<AppError | null>(null);
  const threadLoading = ref(false);
  // Loads overlap when changes come in quick succession (queued → sending → sent): only the newest one counts.
  const threadLoads = latestOnly();

  async function loadThread(id: number) {
    const isNewest = threadLoads();
    const result = await api['inbox.thread']({ id });
    if (openId.value !== id || !isNewest()) return; // another thread was opened, or a newer load started
    if (!result.ok) {
      threadError.value = result.error;
      thread.value = null;
      return;
    }
    threadError.value = null;
    thread.value = result.value;
    // Opening a thread reads it; a message arriving while it is on screen is read too.
    if (result.value.unread > 0 && pageIsSeen()) await markThreadRead(id);
  }

  async function markThreadRead(id: number) {
    list.patch(id, { unread: 0 });
    if (thread.value?.id === id) thread.value = { ...thread.value, unread: 0 };
    const result = await api['inbox.markThreadRead']({ id });
    if (result.ok) counts.value = result.value;
  }

  /**
   * The owner handled the conversation without a reply: it leaves "needs a reply" until the guest writes again.
   * Resolves with the core's refusal, or null.
   */
  async function markDone(id: number): Promise<AppError | null> {
    const result = await api['inbox.markThreadDone']({ id });
    if (!result.ok) return result.error;
    counts.value = result.value;
    list.patch(id, { needsReply: false, done: true });
    if (thread.value?.id === id) thread.value = { ...thread.value, needsReply: false, done: true };
    return null;
  }

  /**
   * The owner wants to come back to it: it is closed (an open thread is read as soon as it is seen) and counts as
   * unread again. Resolves with the core's refusal, or null.
   */
  async function markUnread(id: number): Promise<AppError | null> {
    if (openId.value === id) await openThread(null);
    const result = await api['inbox.markThreadUnread']({ id });
    if (!result.ok) return result.error;
    counts.value = result.value;
    const row = list.rows.value.find((r) => r?.id === id);
    list.patch(id, { unread: Math.max(1, row?.unread ?? 0) });
    return null;
  }

  /** Shows a thread (null: none). */
  async function openThread(id: number | null) {
    if (id === openId.value) return;
    openId.value = id;
    thread.value = null;
    threadError.value = null;
    threadLoading.value = id !== null;
    if (id === null) return;
    try {
      await loadThread(id);
    } finally {
      if (openId.value === id) threadLoading.value = false;
    }
  }

  // ---- reviews ---------------------------------------------------------------------------------------------------
  const { markOpenReviewRead, ...reviewList } = useReviewList({ hotelId, counts, searchText, pageIsSeen });
  const { reviews, openReview, loadReviews } = reviewList;

  /** The window came back into view: what is open there has now been seen. */
  function seen() {
    if (thread.value && thread.value.unread > 0 && pageIsSeen()) void markThreadRead(thread.value.id);
    markOpenReviewRead();
  }

  // ---- replies ---------------------------------------------------------------------------------------------------
  /** What the owner typed per thread in this session: wins over the saved draft while a save is on its way. */
  const drafts = new Map<number, string>();
  /** The same for replies to reviews, per review. */
  const reviewDrafts = new Map<number, string>();

  /** Keeps what the owner typed under a conversation as its draft; resolves with whether it was saved. */
  async function saveDraft(threadId: number, body: string): Promise<boolean> {
    const saved = (await api['inbox.saveDraft']({ threadId, body })).ok;
    // The row's draft marker follows what is kept.
    if (saved) list.patch(threadId, { hasDraft: body.trim() !== '' });
    return saved;
  }

  /** The same for the reply box under a review. */
  async function saveReviewDraft(reviewId: number, body: string): Promise<boolean> {
    return (await api['inbox.saveReviewDraft']({ reviewId, body })).ok;
  }

  /** Queues a reply in the open thread; the thread comes back with it, marked queued. */
  async function sendReply(threadId: number, body: string): Promise<AppError | null> {
    const result = await api['inbox.sendReply']({ threadId, body });
    if (!result.ok) return result.error;
    drafts.delete(threadId);
    list.patch(threadId, { hasDraft: false });
    if (openId.value === threadId) {
      thread.value = result.value;
      // The reply may have moved on (sending, sent) before this answer came; a load that started earlier could
      // also land after it and hide the reply. A fresh load settles both.
      void loadThread(threadId);
    }
    return null;
  }

  async function replyToReview(reviewId: number, body: string): Promise<AppError | null> {
    const result = await api['inbox.replyToReview']({ reviewId, body });
    if (!result.ok) return result.error;
    reviews.value = reviews.value?.map((r) => (r.id === reviewId ? result.value : r)) ?? null;
    void loadReviews(); // as for sendReply: the newest state wins over answers that arrive out of order
    return null;
  }

  /**
   * Keeps what the owner adds to a conversation's booking (only the fields given change); the row's title and stay
   * and the open thread follow at once. Resolves with the core's refusal (naming the field), or null.
   */
  async function saveBookingFacts(
    threadId: number,
    facts: Omit<BookingFactsInput, 'threadId'>,
  ): Promise<AppError | null> {
    const result = await api['inbox.saveBookingFacts']({ threadId, ...facts });
    if (!result.ok) return result.error;
    const t = result.value;
    list.patch(threadId, {
      guestName: t.guestName,
      guestLabel: t.guestLabel,
      checkIn: t.checkIn,
      checkOut: t.checkOut,
    });
    if (openId.value === threadId) thread.value = t;
    return null;
  }

  /** Something about outgoing replies changed: what is on screen is fetched again if a reply there is unsettled. */
  function refreshOpen() {
    const unsettled = (d: Delivery | null) => d !== null && d.state !== 'sent' && d.state !== 'discarded';
    if (openId.value !== null && thread.value?.messages.some((m) => unsettled(m.delivery))) {
      void loadThread(openId.value);
    }
    if (openReview.value?.replies.some((r) => unsettled(r.delivery))) void loadReviews();
  }

  /**
   * Fetches again the open conversation and the reviews, where shown: back after the app was stopped (browser
   * mode), a guest message or a review may have come in meanwhile, and no event said so.
   */
  function reloadOpen() {
    if (openId.value !== null) void loadThread(openId.value);
    if (reviews.value !== null) void loadReviews();
  }

  // ---- live updates ------------------------------------------------------------------------------------------
  /** Follows the core's inbox events, and the outbox's changes (replies on screen); returns the function that stops. */
  function listen(): () => void {
    // The thread or review on screen shows where each of its replies is.
    const stopOutbox = useOutboxStore().onChanged(refreshOpen);
    const stopInbox = api.on('inbox.changed', (change) => {
      countsReads(); // newer than any read under way
      counts.value = change.counts;
      if (change.threadId !== null || change.reviewId === null) refreshList();
      // A first message or review from a property puts it in the property filter.
      if (change.threadId !== null || change.reviewId !== null) void loadProperties();
      if (change.threadId !== null && change.threadId === openId.value) void loadThread(change.threadId);
      if (change.reviewId !== null && reviews.value !== null) void loadReviews();
    });
    return () => {
      stopInbox();
      stopOutbox();
    };
  }

  /** Calls `listener` for each new guest message (for the alerts); returns the function that stops. */
  function onNewMessage(listener: (message: NewMessageEvent) => void): () => void {
    return api.on('inbox.newMessage', listener);
  }

  return {
    counts,
    unreadTotal,
    loadCounts,
    channel,
    hotelId,
    unreadOnly,
    needsReplyOnly,
    search,
    filtered,
    clearFilters,
    properties,
    loadProperties,
    markDone,
    markUnread,
    rows: list.rows,
    total: list.total,
    /** `total` is how many at least: the list goes on (a search that finds many; it grows as scrolled). */
    totalMore: list.more,
    listLoading: list.loading,
    /** New filters asked for; the rows on screen are those of the previous ones until the answer comes. */
    listReplacing: list.replacing,
    /** Changes when the rows are replaced whole: the list is shown from its top. */
    listGeneration: list.generation,
    listError: list.error,
    /** The scroller shows rows first..last: fetch what they need. */
    showRows: list.show,
    /** Loads the list from the top (first visit, or Try again). */
    loadList: list.reset,
    /** Reads again the rows shown, keeping them on screen until the answer (as a change's event does). */
    refreshList,
    openId,
    thread,
    threadError,
    threadLoading,
    openThread,
    seen,
    ...reviewList,
    drafts,
    reviewDrafts,
    saveDraft,
    saveReviewDraft,
    sendReply,
    saveBookingFacts,
    replyToReview,
    refreshOpen,
    reloadOpen,
    listen,
    onNewMessage,
  };
});
