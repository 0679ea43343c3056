import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteRecordRaw } from 'vue-router';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { FIRST_PAGE_WAIT_MS, startFirstScreen } from '@renderer/shell/firstScreen';
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

  it('shows the inbox once its first page is there (not placeholders first), or after a short wait without it', async () => {
    spyOnScreens();
    let fake = installFakeApi();
    let router = createAppRouter();
    startFirstScreen(router, createPinia(), '/inbox');
    let navigated = false;
    void router.push('/inbox').then(() => (navigated = true));
    await settle();
    expect(navigated).toBe(false); // waiting for the rows
    fake.pending('inbox.threads')[0]!.answer({ ok: true, value: { total: 0, offset: 0, threads: [] } });
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
