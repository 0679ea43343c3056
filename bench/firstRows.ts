// The first thread rows on screen, timed in the page: shared by bench:inbox and bench:floor.
import type { Page } from '@playwright/test';

/** What the page functions use of the browser: this file is type-checked for Node, without the DOM library. */
export interface PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
}
export interface Browser {
  document: { querySelector(s: string): PageElement | null; querySelectorAll(s: string): { length: number } };
  requestAnimationFrame(callback: (now: number) => void): number;
  /** When the first thread rows were first in the page at a frame, and that frame's successor began (painted). */
  __firstRows?: { found: number; painted: number };
}

/**
 * Installed in every page before its scripts (as bench/rates-calendar.ts does): checks each animation frame for the
 * first thread rows; they count as painted at the start of the next frame (the frame that drew them has gone to
 * the screen). Timed in the page from its navigation start, whatever the test driver is doing meanwhile. Runs before
 * 2026-11-23 17:40 polled from Playwright only once `page.goto` had waited for the page's load event: a poll that
 * can start after the rows are drawn (one new tab under load: rows in the page at 911 ms, seen by the poll at 2485 ms).
 */
export function watchFirstRows() {
  const w = globalThis as unknown as Browser;
  const start = performance.now();
  const check = () => {
    const found = performance.now();
    if (w.document.querySelector('[data-testid="thread-row"]')) {
      w.requestAnimationFrame((painted) => (w.__firstRows = { found, painted: Math.max(painted, found) }));
    } else if (found - start < 30_000) w.requestAnimationFrame(check);
  };
  w.requestAnimationFrame(check);
}

/** Navigation start → the first thread rows on screen (filled with data, not placeholders). */
export async function firstRender(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'commit' });
  const at = await page.waitForFunction(
    () => (globalThis as unknown as Browser).__firstRows?.painted ?? false,
    undefined,
    {
      polling: 100,
      timeout: 30_000,
    },
  );
  // How many rows exist, and when the app's code first called the core (the bundle loaded and ran by then).
  const { rendered, appStart } = await page.evaluate(() => {
    const { document } = globalThis as unknown as Browser;
    const calls = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/call/'));
    return {
      rendered: document.querySelectorAll('[data-testid="thread-row"]').length,
      appStart: Math.min(...calls.map((r) => r.startTime)),
    };
  });
  return { ms: (await at.jsonValue()) as number, rendered, appStart };
}
