import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteRecordRaw } from 'vue-router';
import { FIRST_PAGE_WAIT_MS } from '@renderer/features/inbox/feature';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { useRatesStore } from '@renderer/features/rates/ratesStore';
import { awaitEvents, eventsOpened } from '@renderer/api/link';
import {
  EVENTS_WAIT_MS,
  FOLLOW_UP_WAIT_MS,
  firstCallsStarted,
  readOnceEventsFlow,
  startFirstScreen,
} from '@renderer/shell/firstScreen';
import { createAppRouter, routes } from '@renderer/shell/router';
import { installFakeApi, settle } from './fakeApi';

// A new tab: what the screen in the address needs is asked for before the shell mounts, not after (the router would
// ask for the screen's code only once its first navigation runs, and the inbox for its rows once its view is set up).

/** Replaces every screen's loaders with spies for the test (the real ones are put back after). */
function spyOnScreens() {
  const saved: [RouteRecordRaw, unknown, unknown[]][] = [];
  const spies = new Map<string, ReturnType<typeof vi.fn>>();
  for (const record of routes.filter((r) => r.meta && 'title' in r.meta)) {
    const spy = vi.fn(() => Promise.resolve({ default: {} }));
    spies.set(record.path, spy);
    saved.push([record, record.component, (record.children ?? []).map((c) => c.component)]);
    if (record.component) (record as { component: unknown }).component = spy;
    record.children?.forEach((c) => (c.component = spy));
  }
  restore = () =>
    saved.forEach(([record, component, children]) => {
      if (component) (record as { component: unknown }).component = component;
      record.children?.forEach((c, i) => (c.component = children[i] as never));
    });
  return spies;
}
let restore = () => {};
afterEach(() => {
  restore();
  vi.useRealTimers();
});

describe('the first screen of a new tab', () => {
  it("asks for the inbox's code and its first page of threads before anything mounts", () => {
    const spies = spyOnScreens();
    const fake = installFakeApi();
    const pinia = createPinia();
    expect(startFirstScreen(createAppRouter(), pinia, '/inbox')).toBe('inbox');
    expect(spies.get('/inbox')).toHaveBeenCalled();
    expect(spies.get('/rates')).not.toHaveBeenCalled();
    expect(fake.pending('inbox.threads').map((c) => c.args)).toEqual([{ offset: 0, limit: 100 }]);
    // The view, set up later, finds the page on its way and does not ask again.
    const inbox = useInboxStore(pinia);
    expect(inbox.listLoading).toBe(true);
    expect(inbox.total === null && !inbox.listLoading).toBe(false);
  });

  it('follows the redirects: an empty or unknown address opens the inbox, an open conversation too', () => {
    for (const path of ['/', '/no-such-screen', '/inbox/42']) {
      const spies = spyOnScreens();
      const fake = installFakeApi();
      startFirstScreen(createAppRouter(), createPinia(), path);
      expect(spies.get('/inbox'), path).toHaveBeenCalled();
      expect(fake.pending('inbox.threads'), path).toHaveLength(1);
      restore();
    }
  });

  it("asks for another screen's code only, and no thread list, when the address names it", () => {
    for (const [path, record] of [
      ['/rates', '/rates'],
      ['/payments/3', '/payments'],
      ['/inbox/reviews', '/inbox'],
    ] as const) {
      const spies = spyOnScreens();
      const fake = installFakeApi();
      startFirstScreen(createAppRouter(), createPinia(), path);
      expect(spies.get(record), path).toHaveBeenCalled();
      for (const [other, spy] of spies) if (other !== record) expect(spy, `${path}: ${other}`).not.toHaveBeenCalled();
      expect(fake.pending('inbox.threads'), path).toEqual([]);
      restore();
    }
  });

  it("asks for the rates calendar's properties and, beside them, the book of the property shown last time", async () => {
    localStorage.setItem('innkeeper.rates.property', 'H1');
    try {
      spyOnScreens();
      const fake = installFakeApi();
      const pinia = createPinia();
      startFirstScreen(createAppRouter(), pinia, '/rates');
      // Before the screen's code: the list, and the remembered property's book, history and draft beside it.
      expect(fake.pending('rates.properties')).toHaveLength(1);
      expect(fake.pending('rates.book').map((c) => c.args)).toEqual([{ hotelId: 'H1' }]);
      expect(fake.pending('rates.history')).toHaveLength(1);
      expect(fake.pending('rates.draft')).toHaveLength(1);
      // The store, once the screen's code is there, takes those answers rather than asking again.
      const rates = useRatesStore(pinia);
      const opening = rates.loadProperties();
      await settle();
      fake.pending('rates.properties')[0]!.answer({ ok: true, value: [{ hotelId: 'H1' } as never] });
      fake.pending('rates.book')[0]!.answer({ ok: true, value: { book: {}, pending: [], confirmed: {} } as never });
      fake.pending('rates.history')[0]!.answer({ ok: true, value: [] });
      fake.pending('rates.draft')[0]!.answer({ ok: true, value: { name: '', edits: [], updatedAt: 1 } });
      await opening;
      expect(rates.hotelId).toBe('H1');
      expect(rates.book).not.toBeNull();
      for (const method of ['rates.properties', 'rates.book', 'rates.history', 'rates.draft'] as const)
        expect(fake.pending(method), method).toEqual([]);
    } finally {
      localStorage.clear();
    }
  });

  it("asks for the first property's book once the list is there, for an owner opening the calendar the first time", async () => {
    spyOnScreens();
    const fake = installFakeApi();
    const pinia = createPinia();
    startFirstScreen(createAppRouter(), pinia, '/rates');
    expect(fake.pending('rates.book')).toEqual([]);
    fake.pending('rates.properties')[0]!.answer({ ok: true, value: [{ hotelId: 'H2' }, { hotelId: 'H3' }] as never });
    await settle();
    expect(fake.pending('rates.book').map((c) => c.args)).toEqual([{ hotelId: 'H2' }]);
    const rates = useRatesStore(pinia);
    const opening = rates.loadProperties();
    await settle();
    fake.pending('rates.book')[0]!.answer({ ok: true, value: { book: {}, pending: [], confirmed: {} } as never });
    fake.pending('rates.history')[0]!.answer({ ok: true, value: [] });
    fake.pending('rates.draft')[0]!.answer({ ok: true, value: { name: '', edits: [], updatedAt: 1 } });
    await opening;
    expect(rates.hotelId).toBe('H2');
    expect(fake.pending('rates.properties')).toEqual([]);
    expect(fake.pending('rates.book')).toEqual([]);
  });

  it("lets the shell mount once the calendar's first book has gone out, or after a short wait", async () => {
    localStorage.clear(); // a first visit: no property remembered
    spyOnScreens();
    let fake = installFakeApi();
    startFirstScreen(createAppRouter(), createPinia(), '/rates');
    let started = false;
    void firstCallsStarted().then(() => (started = true));
    await settle();
    expect(started).toBe(false); // the list of properties is not there yet
    fake.pending('rates.properties')[0]!.answer({ ok: true, value: [{ hotelId: 'H2' }] as never });
    await vi.waitFor(() => expect(started).toBe(true));
    expect(fake.pending('rates.book')).toHaveLength(1); // gone out before the mount
    restore();

    // The core is slow: the shell mounts after FOLLOW_UP_WAIT_MS all the same.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    spyOnScreens();
    fake = installFakeApi();
    startFirstScreen(createAppRouter(), createPinia(), '/rates');
    started = false;
    void firstCallsStarted().then(() => (started = true));
    await vi.advanceTimersByTimeAsync(FOLLOW_UP_WAIT_MS - 50);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toBe(true);
    expect(fake.pending('rates.properties')).toHaveLength(1);
  });

  it('shows the inbox once its first page is there (not placeholders first), or after a short wait without it', async () => {
    spyOnScreens();
    let fake = installFakeApi();
    let router = createAppRouter();
    startFirstScreen(router, createPinia(), '/inbox');
    let navigated = false;
    void router.push('/inbox').then(() => (navigated = true));
    await settle();
    expect(navigated).toBe(false); // waiting for the rows
    fake.pending('inbox.threads')[0]!.answer({ ok: true, value: { total: 0, more: false, offset: 0, threads: [] } });
    await vi.waitFor(() => expect(navigated).toBe(true));
    expect(router.currentRoute.value.name).toBe('inbox');
    restore();

    // The core is slow: the screen shows (with its placeholders) after FIRST_PAGE_WAIT_MS all the same.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    spyOnScreens();
    fake = installFakeApi();
    router = createAppRouter();
    startFirstScreen(router, createPinia(), '/inbox');
    navigated = false;
    void router.push('/inbox').then(() => (navigated = true));
    await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS - 50);
    expect(navigated).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(navigated).toBe(true);
    expect(fake.pending('inbox.threads')).toHaveLength(1); // still under way: the list shows it is loading
  });
});

describe('an address followed while the first screen is drawn', () => {
  it('is where the window goes once the inbox has its first page (the router hears no address before)', async () => {
    spyOnScreens();
    const fake = installFakeApi();
    const router = createAppRouter();
    startFirstScreen(router, createPinia(), '/inbox');
    let navigated = false;
    void router.push('/inbox').then(() => (navigated = true)); // the first navigation, as the shell's mount starts it
    await settle();
    // Meanwhile the owner follows a link to the Connection screen (the address changes, the first screen still waits).
    window.location.hash = '#/connection';
    window.dispatchEvent(new Event('hashchange'));
    fake.pending('inbox.threads')[0]!.answer({ ok: true, value: { total: 0, more: false, offset: 0, threads: [] } });
    await vi.waitFor(() => expect(navigated).toBe(true));
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/connection'));
    restore();
  });
});

describe('the shell reads once the core events reach the page', () => {
  afterEach(() => eventsOpened());
  const calls = () => {
    const log: string[] = [];
    return { log, read: () => log.push('read'), readAgain: () => log.push('again') };
  };

  it('in Electron (events flow from the start): reads once, nothing again', async () => {
    const { log, read, readAgain } = calls();
    await readOnceEventsFlow(read, readAgain);
    expect(log).toEqual(['read']);
  });

  it('in a new tab: reads when the socket opens, and what the first screen read before is read again', async () => {
    vi.useFakeTimers();
    awaitEvents();
    const { log, read, readAgain } = calls();
    const done = readOnceEventsFlow(read, readAgain);
    await vi.advanceTimersByTimeAsync(EVENTS_WAIT_MS - 1);
    expect(log).toEqual([]);
    eventsOpened();
    await done;
    expect(log).toEqual(['read', 'again']);
  });

  it('a socket slower than EVENTS_WAIT_MS: reads then anyway, and again when it opens', async () => {
    vi.useFakeTimers();
    awaitEvents();
    const { log, read, readAgain } = calls();
    const done = readOnceEventsFlow(read, readAgain);
    await vi.advanceTimersByTimeAsync(EVENTS_WAIT_MS);
    expect(log).toEqual(['read']);
    eventsOpened();
    await done;
    expect(log).toEqual(['read', 'read', 'again']);
  });
});
