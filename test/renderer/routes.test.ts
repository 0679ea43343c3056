import { describe, expect, it, vi } from 'vitest';
import type { RouteRecordRaw } from 'vue-router';
import { preloadScreen, routes } from '@renderer/shell/router';

/** The screens' components (a route's own, or its children's). */
const components = (record: RouteRecordRaw) => [record.component, ...(record.children ?? []).map((c) => c.component)];
const screens = routes.filter((r) => r.meta && 'title' in r.meta);

describe('the screens’ routes', () => {
  it('load each screen on demand: a loader, not the component, that resolves to the screen', async () => {
    expect(screens.map((r) => r.path)).toEqual(['/inbox', '/rates', '/property', '/payments', '/connection']);
    for (const record of screens) {
      const loaders = components(record).filter(Boolean);
      expect(loaders.length).toBeGreaterThan(0);
      for (const load of loaders) {
        // A component imported up front is an object with a render or setup function, not a loader.
        expect(typeof load).toBe('function');
        const loaded = (await (load as () => Promise<{ default: Record<string, unknown> }>)()).default;
        expect(typeof loaded.setup === 'function' || typeof loaded.render === 'function').toBe(true);
      }
    }
  }, 60_000);

  it('preloads the screen whose link the owner points at, and only that one', () => {
    const payments = screens.find((r) => r.path === '/payments')!;
    const rates = screens.find((r) => r.path === '/rates')!;
    const saved = { payments: payments.children!.map((c) => c.component), rates: rates.component };
    const paymentsLoader = vi.fn(() => Promise.resolve({ default: {} }));
    const ratesLoader = vi.fn(() => Promise.resolve({ default: {} }));
    payments.children!.forEach((c) => (c.component = paymentsLoader));
    (rates as { component: unknown }).component = ratesLoader;
    try {
      preloadScreen('/payments');
      expect(paymentsLoader).toHaveBeenCalled();
      expect(ratesLoader).not.toHaveBeenCalled();
    } finally {
      payments.children!.forEach((c, i) => (c.component = saved.payments[i]));
      (rates as { component: unknown }).component = saved.rates;
    }
  });
});
