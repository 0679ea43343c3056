import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_MAX_LENGTH, type ThreadPage, type ThreadSummary } from '@shared/inbox';
import { ok } from '@shared/result';
import { SEARCH_PAUSE_MS, useInboxStore } from '@renderer/features/inbox/inboxStore';
import ThreadFilters from '@renderer/features/inbox/ThreadFilters.vue';
import ThreadList from '@renderer/features/inbox/ThreadList.vue';
import { installFakeApi, settle } from './fakeApi';
import { blankRouter } from './paymentsDom';

// Issue 15, search in a blink, in the renderer: a short pause, what is on screen stays until the answer for what was
// typed replaces it whole, and an answer for text typed over is dropped.

const row = (id: number, preview: string): ThreadSummary => ({
  id,
  channel: '19',
  channelName: 'Booking.com',
  guestName: null,
  guestLabel: `Booking 40${id}`,
  hotelId: 'H1',
  propertyName: 'Harbour View',
  listingName: null,
  preview,
  lastMessageAt: 1,
  unread: 0,
  needsReply: false,
  checkIn: null,
  checkOut: null,
  done: false,
  hasDraft: false,
});

const page = (total: number, threads: ThreadSummary[], offset = 0): ThreadPage => ({
  total,
  more: false,
  offset,
  threads,
});
const ids = (rows: readonly (ThreadSummary | null)[]) => rows.map((r) => r?.id ?? null);

/** The inbox with 150 conversations on screen (two pages: 100 rows and 50). */
async function listed() {
  const core = installFakeApi();
  const inbox = useInboxStore();
  const loading = inbox.loadList();
  const all = Array.from({ length: 150 }, (_, i) => row(i + 1, 'Hello'));
  core.pending('inbox.threads')[0]!.answer(ok(page(150, all.slice(0, 100))));
  await loading;
  inbox.showRows(100, 150);
  core.pending('inbox.threads')[0]!.answer(ok(page(150, all.slice(100), 100)));
  await settle();
  expect(inbox.rows.every((r) => r !== null)).toBe(true);
  return { core, inbox };
}

describe('the thread list while the owner searches', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('keeps the rows on screen until the answer comes, then replaces them whole', async () => {
    const { core, inbox } = await listed();
    const generation = inbox.listGeneration;
    inbox.search = 'parking';
    await settle();
    const asked = core.pending('inbox.threads');
    expect(asked.map((c) => c.args)).toEqual([{ search: 'parking', offset: 0, limit: 100 }]);
    // Not a blank list, not the skeleton: the previous rows, marked as being replaced.
    expect(inbox.rows).toHaveLength(150);
    expect([inbox.total, inbox.listLoading, inbox.listReplacing]).toEqual([150, false, true]);

    asked[0]!.answer(ok(page(2, [row(7, 'Is there parking?'), row(9, 'Free parking')])));
    await settle();
    // Nothing of the previous list is left behind (its second page included).
    expect(ids(inbox.rows)).toEqual([7, 9]);
    expect([inbox.total, inbox.listReplacing]).toEqual([2, false]);
    expect(inbox.listGeneration).toBe(generation + 1); // shown from its top
  });

  it('drops the answer for text typed over, whenever it arrives', async () => {
    const { core, inbox } = await listed();
    inbox.search = 'par';
    await settle();
    inbox.search = 'parking';
    await settle();
    const [older, newer] = core.pending('inbox.threads');
    expect([older!.args, newer!.args]).toMatchObject([{ search: 'par' }, { search: 'parking' }]);

    newer!.answer(ok(page(1, [row(7, 'Is there parking?')])));
    await settle();
    older!.answer(ok(page(40, [row(3, 'Paris'), row(7, 'Is there parking?')])));
    await settle();
    expect(ids(inbox.rows)).toEqual([7]);
    expect(inbox.total).toBe(1);

    // And the other way round: the older answer first is not shown either, the newer one replaces the rows.
    inbox.search = 'bre';
    await settle();
    inbox.search = 'breakfast';
    await settle();
    const [bre, breakfast] = core.pending('inbox.threads');
    bre!.answer(ok(page(30, [row(4, 'Bread?')])));
    await settle();
    expect([ids(inbox.rows), inbox.listReplacing]).toEqual([[7], true]);
    breakfast!.answer(ok(page(1, [row(5, 'Is breakfast included?')])));
    await settle();
    expect([ids(inbox.rows), inbox.total, inbox.listReplacing]).toEqual([[5], 1, false]);
  });

  it('a search the core could not answer does not leave the previous rows looking like its answer', async () => {
    const { core, inbox } = await listed();
    inbox.search = 'parking';
    await settle();
    core.pending('inbox.threads')[0]!.answer({
      ok: false,
      error: { code: 'network', message: 'Innkeeper is not running.', retryable: true },
    });
    await settle();
    expect([inbox.rows.length, inbox.total, inbox.listError?.message]).toEqual([0, null, 'Innkeeper is not running.']);
  });
});

describe('the search box', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('asks once typing pauses, for what was typed last', async () => {
    installFakeApi({ 'inbox.threads': () => ok(page(0, [])) });
    const inbox = useInboxStore();
    const wrapper = mount(ThreadFilters, { global: { plugins: [PrimeVue] } });
    const box = wrapper.get('input[aria-label="Search conversations"]');
    for (const text of ['p', 'pa', 'par', 'park']) {
      await box.setValue(text);
      vi.advanceTimersByTime(SEARCH_PAUSE_MS - 1);
    }
    expect(inbox.search).toBe(''); // still typing
    vi.advanceTimersByTime(1);
    expect(inbox.search).toBe('park');
    // Shorter than the 250 ms it was, and long enough to be one search for a word typed in one go.
    expect(SEARCH_PAUSE_MS).toBeLessThan(250);
    wrapper.unmount();
  });

  it('offers its clear button to screen readers too, and the button clears', async () => {
    installFakeApi({ 'inbox.threads': () => ok(page(0, [])) });
    const inbox = useInboxStore();
    const wrapper = mount(ThreadFilters, { global: { plugins: [PrimeVue] }, attachTo: document.body });
    await wrapper.get('input[aria-label="Search conversations"]').setValue('parking');
    vi.advanceTimersByTime(SEARCH_PAUSE_MS);
    const button = wrapper.get('button[aria-label="Clear search"]');
    const hidden: Element[] = [];
    for (let at: Element | null = button.element; at; at = at.parentElement)
      if (at.getAttribute('aria-hidden') === 'true') hidden.push(at);
    expect(hidden.map((e) => e.outerHTML.slice(0, 80))).toEqual([]);
    await button.trigger('click');
    expect(inbox.search).toBe('');
    wrapper.unmount();
  });
});

describe('a search pasted far too long (issue 26)', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('is cut at the field, which says so, and the list keeps answering what is left', async () => {
    const asked: unknown[] = [];
    installFakeApi({
      'inbox.threads': (args: { search?: string }) => {
        asked.push(args.search);
        return ok(page(1, [row(7, 'Is there parking?')]));
      },
    });
    const inbox = useInboxStore();
    await inbox.loadList();
    const filters = mount(ThreadFilters, { global: { plugins: [PrimeVue] }, attachTo: document.body });
    const list = mount(ThreadList, { global: { plugins: [PrimeVue, blankRouter()] }, attachTo: document.body });
    const box = filters.get<HTMLInputElement>('input[aria-label="Search conversations"]');
    expect(box.attributes('maxlength')).toBe(String(SEARCH_MAX_LENGTH));
    expect(filters.find('[data-testid="search-cut"]').exists()).toBe(false);

    await box.setValue(`parking ${'x'.repeat(20_000)}`);
    await new Promise((r) => setTimeout(r, SEARCH_PAUSE_MS + 10));
    await settle();
    expect(box.element.value).toHaveLength(SEARCH_MAX_LENGTH);
    const note = filters.get('[data-testid="search-cut"]');
    expect(note.text()).toContain(`A search takes at most ${SEARCH_MAX_LENGTH} characters`);
    expect(box.attributes('aria-describedby')).toBe(note.attributes('id'));
    // The core is asked for what the field holds (never refused), and the list shows its answer.
    expect(asked.at(-1)).toHaveLength(SEARCH_MAX_LENGTH);
    expect(inbox.listError).toBeNull();
    expect(list.find('[data-testid="threads-error"]').exists()).toBe(false);
    expect(list.text()).not.toContain('Try again');

    await box.setValue('parking');
    expect(filters.find('[data-testid="search-cut"]').exists()).toBe(false);
    filters.unmount();
    list.unmount();
  });

  it('finding nothing, quotes the search cut short, so the title stays in its pane', async () => {
    installFakeApi({ 'inbox.threads': () => ok(page(0, [])) });
    const inbox = useInboxStore();
    inbox.search = `late ${'x'.repeat(195)}`;
    await inbox.loadList();
    const list = mount(ThreadList, { global: { plugins: [PrimeVue, blankRouter()] }, attachTo: document.body });
    expect(list.get('[data-testid="messages-empty"]').text()).toContain(
      `No conversation mentions “late ${'x'.repeat(34)}…”`,
    );
    list.unmount();
  });

  it('a refusal that asking again cannot change offers no Try again', async () => {
    installFakeApi({
      'inbox.threads': () => ({
        ok: false as const,
        error: { code: 'validation', message: 'A search can have at most 200 characters.', retryable: false },
      }),
    });
    const inbox = useInboxStore();
    await inbox.loadList();
    const list = mount(ThreadList, { global: { plugins: [PrimeVue, blankRouter()] }, attachTo: document.body });
    expect(list.get('[data-testid="threads-error"]').text()).toContain('at most 200 characters');
    expect(list.text()).not.toContain('Try again');
    list.unmount();
  });
});

describe('a search that finds more than it counted (issue 27)', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => vi.useRealTimers());

  it('says “more than”, and the list grows as pages further down count further', async () => {
    const { core, inbox } = await listed();
    const filters = mount(ThreadFilters, { global: { plugins: [PrimeVue] } });
    inbox.search = 'parking';
    await settle();
    const more = (total: number, threads: ThreadSummary[], offset: number): ThreadPage => ({
      total,
      more: true,
      offset,
      threads,
    });
    const found = Array.from({ length: 1250 }, (_, i) => row(1000 + i, 'Is parking free?'));
    core.pending('inbox.threads')[0]!.answer(ok(more(1100, found.slice(0, 100), 0)));
    await settle();
    expect([inbox.total, inbox.totalMore, inbox.rows.length]).toEqual([1100, true, 1100]);
    expect(filters.get('[data-testid="thread-count"]').text()).toBe('More than 1,100 conversations');

    // The owner scrolls to the end of what was counted: that page counts on, to the list's end this time.
    inbox.showRows(1000, 1100);
    const asked = core.pending('inbox.threads');
    expect(asked.map((c) => c.args)).toEqual([{ search: 'parking', offset: 1000, limit: 100 }]);
    asked[0]!.answer(ok({ total: 1250, more: false, offset: 1000, threads: found.slice(1000, 1100) }));
    await settle();
    expect([inbox.total, inbox.totalMore, inbox.rows.length]).toEqual([1250, false, 1250]);
    expect(filters.get('[data-testid="thread-count"]').text()).toBe('1,250 conversations');
    expect(ids(inbox.rows.slice(0, 2))).toEqual([1000, 1001]); // the first page stays

    // A page above, asked again (a change), still counting only a little past itself, does not shorten the list.
    inbox.showRows(0, 100);
    await inbox.refreshList();
    for (const call of core.pending('inbox.threads'))
      call.answer(ok(more(1100, found.slice(0, 100), (call.args as { offset: number }).offset)));
    await settle();
    expect([inbox.total, inbox.totalMore, inbox.rows.length]).toEqual([1250, false, 1250]);
    filters.unmount();
  });
});
