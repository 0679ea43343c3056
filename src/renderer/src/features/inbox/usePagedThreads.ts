import { markRaw, ref, shallowRef } from 'vue';
import type { ThreadPage, ThreadQuery, ThreadSummary } from '@shared/inbox';
import type { AppError, Result } from '@shared/result';

/** Threads asked for at once; the virtual scroller asks for the pages it is about to show. */
export const THREAD_PAGE_SIZE = 100;

export type ThreadFilters = Omit<ThreadQuery, 'offset' | 'limit'>;

/**
 * The thread list as pages of `inbox.threads` (the store's call, `fetchThreads`): one slot per thread (null until
 * its page arrives), so a virtual scroller can size itself for 10,000 threads while only the pages it shows are
 * fetched and rendered.
 *
 * Rows are marked raw: the scroller deep-watches its items, and 10,000 reactive proxies would cost more than the
 * list itself. A change replaces the array (shallowRef), which is cheap next to a render.
 */
export function usePagedThreads(
  filters: () => ThreadFilters,
  fetchThreads: (query: ThreadQuery) => Promise<Result<ThreadPage>>,
) {
  const rows = shallowRef<readonly (ThreadSummary | null)[]>([]);
  const total = ref<number | null>(null);
  /** The list goes on past `total`: a search counted only a little past the pages asked for (it grows as scrolled). */
  const more = ref(false);
  const loading = ref(false);
  /** New filters asked for while the rows of the previous ones stay on screen (see {@link replace}). */
  const replacing = ref(false);
  /** Counts the times the rows were replaced whole (other filters): a list shown from its top again. */
  const generation = ref(0);
  const error = shallowRef<AppError | null>(null);

  let epoch = 0; // bumps when the filters change: answers for older filters are dropped
  let rowsEpoch = 0; // the filters the rows on screen belong to
  let seq = 0; // numbers every request, so an older answer never replaces a newer one
  let validFrom = 0; // answers to requests older than this are stale: the inbox changed since
  const applied = new Map<number, number>(); // page → request number of the answer shown
  const pending = new Map<number, number>(); // page → request number under way
  let visible = { first: 0, last: THREAD_PAGE_SIZE };

  const fresh = (page: number) => Math.max(applied.get(page) ?? 0, pending.get(page) ?? 0) >= validFrom;

  async function fetchPage(page: number): Promise<void> {
    const request = ++seq;
    const requestEpoch = epoch;
    pending.set(page, request);
    const result = await fetchThreads({
      ...filters(),
      offset: page * THREAD_PAGE_SIZE,
      limit: THREAD_PAGE_SIZE,
    });
    if (pending.get(page) === request) pending.delete(page);
    if (requestEpoch !== epoch || (applied.get(page) ?? 0) > request) return;
    if (requestEpoch !== rowsEpoch) replacing.value = false;
    if (!result.ok) {
      error.value = result.error;
      // The rows of the previous filters are not shown as if they were the answer to these.
      if (requestEpoch !== rowsEpoch) clearRows();
      return;
    }
    error.value = null;
    const { threads } = result.value;
    let count = result.value.total;
    let goesOn = result.value.more;
    // A search counts a little past the page asked for: an answer for a page above the ones seen does not shorten
    // the list, nor says more of its end than was known (an answer that counted to the end, `more` false, is the
    // list's length as it is now).
    if (goesOn && requestEpoch === rowsEpoch && total.value !== null && total.value > count) {
      count = total.value;
      goesOn = more.value;
    }
    // New filters' first answer replaces the rows on screen whole; later pages fill in around what is there.
    const before = requestEpoch === rowsEpoch ? rows.value : [];
    if (requestEpoch !== rowsEpoch) generation.value++;
    rowsEpoch = requestEpoch;
    const next = Array.from({ length: count }, (_, i) => before[i] ?? null);
    threads.forEach((t, i) => {
      const at = page * THREAD_PAGE_SIZE + i;
      if (at < count) next[at] = markRaw(t);
    });
    applied.set(page, request);
    total.value = count;
    more.value = goesOn;
    rows.value = next;
  }

  /** Fetches what the rows first..last (exclusive) need and does not have fresh. */
  function show(first: number, last: number): void {
    visible = { first, last };
    const from = Math.floor(first / THREAD_PAGE_SIZE);
    let to = Math.floor(Math.max(first, last - 1) / THREAD_PAGE_SIZE);
    if (total.value !== null) to = Math.min(to, Math.max(from, Math.ceil(total.value / THREAD_PAGE_SIZE) - 1));
    for (let page = from; page <= to; page++) if (!fresh(page)) void fetchPage(page);
  }

  function clearRows() {
    rows.value = [];
    total.value = null;
    more.value = false;
    rowsEpoch = epoch;
    generation.value++;
  }

  /** Forgets every answer so far: what is asked from now on is for the current filters, from the top. */
  function startOver() {
    epoch++;
    applied.clear();
    pending.clear();
    validFrom = seq + 1;
    visible = { first: 0, last: THREAD_PAGE_SIZE };
  }

  /** Starts over with nothing on screen (the first visit, Try again): the first page decides how many rows there are. */
  async function reset(): Promise<void> {
    startOver();
    clearRows();
    error.value = null;
    loading.value = true;
    await fetchPage(0);
    loading.value = false;
  }

  /**
   * The filters changed (the owner types a search): the rows on screen stay until the first page for the new
   * filters arrives and replaces them whole; an answer for filters typed over before it came is dropped.
   */
  async function replace(): Promise<void> {
    if (total.value === null) return reset(); // nothing on screen to keep
    startOver();
    replacing.value = true;
    await fetchPage(0);
  }

  /** Something changed: what is on screen is fetched again now, every other page when it next shows. */
  async function refresh(): Promise<void> {
    validFrom = seq + 1;
    const from = Math.floor(visible.first / THREAD_PAGE_SIZE);
    const to = Math.floor(Math.max(visible.first, visible.last - 1) / THREAD_PAGE_SIZE);
    const pages = [];
    for (let page = from; page <= to; page++) pages.push(fetchPage(page));
    await Promise.all(pages);
  }

  /** Changes one row in place (read state), before the core's own answer arrives. */
  function patch(id: number, changes: Partial<ThreadSummary>): void {
    const at = rows.value.findIndex((r) => r?.id === id);
    const row = rows.value[at];
    if (!row) return;
    const next = rows.value.slice();
    next[at] = markRaw({ ...row, ...changes });
    rows.value = next;
  }

  return { rows, total, more, loading, replacing, generation, error, show, reset, replace, refresh, patch };
}
