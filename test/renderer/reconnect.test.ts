import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import type { ThreadDetail } from '@shared/inbox';
import { ok } from '@shared/result';
import { awaitEvents, eventsOpened, setCoreLink } from '@renderer/api/link';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { DRAFT_DELAY_MS, useDraft } from '@renderer/features/inbox/replies/useDraft';
import App from '@renderer/shell/App.vue';
import { installFakeApi } from './fakeApi';
import { mountIt } from './paymentsDom';

// Browser mode, back after the app was stopped: what was typed meanwhile is saved after all, and what is on
// screen is read again (a guest may have written while the app was down, and no event said so).

const restart = () => {
  setCoreLink('disconnected');
  setCoreLink('connected');
};

afterEach(() => {
  vi.useRealTimers();
  setCoreLink('connected');
  document.body.innerHTML = '';
});

describe('a reply box back after the app was stopped', () => {
  /** A draft box whose saves fail while `down`, recording what was saved. */
  function box() {
    const state = { down: true, saved: [] as [number, string][] };
    const scope = effectScope();
    const draft = scope.run(() =>
      useDraft(async (id, body) => {
        if (state.down) return false;
        state.saved.push([id, body]);
        return true;
      }),
    )!;
    return { state, draft, stop: () => scope.stop() };
  }

  it('saves again, on reconnect, the text whose save failed while the app was stopped', async () => {
    vi.useFakeTimers();
    const { state, draft, stop } = box();
    draft.open(1, '');
    draft.text.value = 'Dear guest, we';
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    expect(draft.state.value).toBe('failed');

    state.down = false;
    restart();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.saved).toEqual([[1, 'Dear guest, we']]);
    expect(draft.state.value).toBe('saved');
    // Nothing more to save the next time.
    restart();
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    expect(state.saved).toHaveLength(1);
    stop();
  });

  it('also saves again the draft of a conversation left while its save failed, and not a draft sent since', async () => {
    vi.useFakeTimers();
    const { state, draft, stop } = box();
    draft.open(1, '');
    draft.text.value = 'For the first guest';
    draft.open(2, ''); // leaving writes the draft at once: it fails
    draft.text.value = 'For the second guest';
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    draft.open(3, '');
    draft.text.value = 'Sent before the app came back';
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
    await draft.cancel();
    draft.clear(); // its text was sent: the core dropped its draft

    state.down = false;
    restart();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.saved).toEqual([
      [1, 'For the first guest'],
      [2, 'For the second guest'],
    ]);
    stop();
  });
});

describe('the shell back after the app was stopped', () => {
  let pinia: Pinia;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
  });

  it('reads the open conversation and the reviews again, though no reply in them is unsettled', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    const opening = inbox.openThread(7);
    core.pending('inbox.thread')[0]!.answer(ok({ id: 7, messages: [], unread: 0 } as unknown as ThreadDetail));
    await opening;
    const reviews = inbox.loadReviews();
    core.pending('inbox.reviews')[0]!.answer(ok([]));
    await reviews;
    const wrapper = mountIt(App, pinia);
    await flushPromises();
    expect(core.pending('inbox.thread')).toHaveLength(0);
    expect(core.pending('inbox.reviews')).toHaveLength(0);

    restart();
    await flushPromises();
    expect(core.pending('inbox.thread').map((call) => call.args)).toEqual([{ id: 7 }]);
    expect(core.pending('inbox.reviews')).toHaveLength(1);
    wrapper.unmount();
  });
});

describe('the shell of a new tab, before its event socket opens', () => {
  let pinia: Pinia;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
  });
  afterEach(() => eventsOpened());

  it('reads the counts once events flow, and the inbox it showed before again', async () => {
    const core = installFakeApi();
    awaitEvents(); // browser mode: the client is made, its socket not open yet
    const inbox = useInboxStore();
    const listing = inbox.loadList();
    core.pending('inbox.threads')[0]!.answer(ok({ total: 0, more: false, offset: 0, threads: [] }));
    await listing;
    const wrapper = mountIt(App, pinia);
    await flushPromises();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A guest's message filed now sends this page no event: counts read now could miss it, the list already did.
    expect(core.pending('inbox.counts')).toHaveLength(0);
    expect(core.pending('inbox.threads')).toHaveLength(0);

    eventsOpened();
    await flushPromises();
    expect(core.pending('inbox.counts')).toHaveLength(1);
    expect(core.pending('inbox.threads')).toHaveLength(1);
    wrapper.unmount();
  });
});
