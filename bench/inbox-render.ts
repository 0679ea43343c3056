// The inbox in Chromium with 10,000 threads and 50,000 messages: first render of the thread list, scrolling to its
// end, and full-text search through the UI and straight through the core query.
// Run: npm run bench:inbox   (uses the built app: run `npx electron-vite build` first; writes bench/RESULTS.md)
import { chromium, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInboxQueries } from '../src/main/inbox/inboxQueries';
import { threadQuerySchema } from '../src/shared/inbox';
import { startApp, stopApp } from '../test/e2e/app';
import { tempDir } from '../test/support/tempDir';
import { MESSAGES, seed, settled, THREADS } from './inboxSeed';
import { type Browser, firstRender, watchFirstRows } from './firstRows';
import { machineLine, writeSection } from './results';
import { openAppDatabase } from '../src/main/schema';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SEARCHES = ['jacuzzi', 'parking', 'late check'];
const UI_SEARCHES = 7;
const LOAD_AT_START = loadavg()[0]!.toFixed(1);
/** The search box's pause (SEARCH_PAUSE_MS), read from the renderer's source: that module needs a browser. */
const PAUSE_MS = Number(
  /SEARCH_PAUSE_MS = (\d+)/.exec(
    readFileSync(join(import.meta.dirname, '..', 'src/renderer/src/features/inbox/inboxStore.ts'), 'utf8'),
  )![1],
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

/** The core query alone, as the renderer's `inbox.threads` call runs it: first (cold) and median of the rest. */
function coreSearch(dbPath: string) {
  const database = openAppDatabase(dbPath);
  const queries = createInboxQueries(database.db);
  const results = SEARCHES.map((search) => {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 1 + 7; i++) {
      const t0 = performance.now();
      total = queries.threads(threadQuerySchema.parse({ search })).total;
      times.push(performance.now() - t0);
    }
    return { search, total, cold: times[0]!, median: median(times.slice(1)) };
  });
  const t0 = performance.now();
  queries.threads(threadQuerySchema.parse({}));
  const firstPage = performance.now() - t0;
  database.close();
  return { results, firstPage };
}

/** Scrolls the list to its end: a jump, then a fast continuous fling from the top, frame by frame. */
async function scrollToEnd(page: Page, oldestThreadId: number) {
  const scroller = '[data-testid="thread-list"]';
  const jump = await page.evaluate(
    ({ scroller, oldestThreadId }) =>
      new Promise<number>((resolve) => {
        const { document, requestAnimationFrame } = globalThis as unknown as Browser;
        const el = document.querySelector(scroller)!;
        const t0 = performance.now();
        el.scrollTop = el.scrollHeight;
        const check = () =>
          document.querySelector(`[data-thread-id="${oldestThreadId}"]`)
            ? resolve(performance.now() - t0)
            : requestAnimationFrame(check);
        requestAnimationFrame(check);
      }),
    { scroller, oldestThreadId },
  );
  await page.evaluate(
    (scroller) => ((globalThis as unknown as Browser).document.querySelector(scroller)!.scrollTop = 0),
    scroller,
  );
  await page.waitForTimeout(300);
  const fling = await page.evaluate(
    ({ scroller, oldestThreadId }) =>
      new Promise<{ total: number; frames: number[]; settled: number }>((resolve) => {
        const { document, requestAnimationFrame } = globalThis as unknown as Browser;
        const el = document.querySelector(scroller)!;
        const step = 4_000; // px per frame: about 48 rows, a hard flick held all the way down
        const frames: number[] = [];
        const t0 = performance.now();
        let last = t0;
        const frame = (now: number) => {
          frames.push(now - last);
          last = now;
          if (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
            el.scrollTop += step;
            requestAnimationFrame(frame);
            return;
          }
          const scrolled = performance.now();
          const wait = () =>
            document.querySelector(`[data-thread-id="${oldestThreadId}"]`)
              ? resolve({ total: scrolled - t0, frames: frames.slice(1), settled: performance.now() - scrolled })
              : requestAnimationFrame(wait);
          wait();
        };
        requestAnimationFrame(frame);
      }),
    { scroller, oldestThreadId },
  );
  const rendered = await page.evaluate(
    () => (globalThis as unknown as Browser).document.querySelectorAll('[data-testid="thread-row"]').length,
  );
  return { jump, fling, rendered };
}

/** Typing a search → the list shows its result count (includes the search box's pause). */
async function uiSearch(page: Page, search: string, total: number) {
  const box = page.getByLabel('Search conversations');
  await box.fill('');
  await page.getByText('10,000 conversations').waitFor();
  const t0 = (await page.evaluate(() => performance.now())) as number;
  await box.fill(search);
  const done = await page.waitForFunction(
    (n) => {
      const { document } = globalThis as unknown as Browser;
      const text = `${n.toLocaleString()} ${n === 1 ? 'conversation' : 'conversations'}`;
      const ok =
        document.querySelector('[data-testid="thread-count"]')?.textContent?.trim() === text &&
        document.querySelector('[data-testid="thread-row"]');
      return ok ? performance.now() : false;
    },
    total,
    { polling: 'raf', timeout: 30_000 },
  );
  return ((await done.jsonValue()) as number) - t0;
}

async function main() {
  const dir = tempDir('innkeeper-bench-inbox-');
  const dbPath = join(dir.path, 'innkeeper.db');
  const t0 = performance.now();
  const { oldestThreadId } = seed(dbPath);
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log(`seeded ${THREADS} threads, ${MESSAGES} messages in ${seedSeconds.toFixed(1)} s`);

  const core = coreSearch(dbPath);
  for (const r of core.results)
    console.log(`core search "${r.search}": ${r.total} threads, first ${ms(r.cold)}, median ${ms(r.median)}`);
  if (process.argv.includes('--core')) {
    // The core's figures alone (while working on the query): nothing is written to RESULTS.md.
    dir.remove();
    return;
  }

  // The built app in browser mode, as the end-to-end tests start it, on the seeded data folder.
  const app = await startApp({ INNKEEPER_PUSH_PORT: '0' }, dir.path).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  await settled(dbPath); // the app at rest: its first start's indexing done
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // tsx names inner functions with an `__name` helper that the page does not have.
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    await context.addInitScript(watchFirstRows);
    // A new tab each run (nothing compiled yet), then the same tab loaded again (the browser's code cache warm).
    const renders: Awaited<ReturnType<typeof firstRender>>[] = [];
    const reloads: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      renders.push(await firstRender(page, app.url));
      reloads.push((await firstRender(page, app.url)).ms);
      await page.close();
    }
    const firsts = renders.map((r) => r.ms);
    const appStart = median(renders.map((r) => r.appStart));
    console.log(
      `first render: new tab ${firsts.map(ms).join(', ')} (app code running after ${ms(appStart)}), ` +
        `loaded again ${reloads.map(ms).join(', ')}; ${renders[0]!.rendered} rows in the page`,
    );

    const page = await context.newPage();
    let requests = 0;
    page.on('request', (r) => void (r.url().includes('/api/call/inbox.threads') && requests++));
    await firstRender(page, app.url);
    requests = 0;
    const scroll = await scrollToEnd(page, oldestThreadId);
    const scrollRequests = requests;
    const frames = scroll.fling.frames;
    console.log(
      `scroll: jump to end ${ms(scroll.jump)}; fling ${ms(scroll.fling.total)} over ${frames.length} frames ` +
        `(p50 ${ms(median(frames))}, p95 ${ms(pct(frames, 0.95))}, max ${ms(Math.max(...frames))}), last row filled ` +
        `${ms(scroll.fling.settled)} later; ${scrollRequests} page requests; ${scroll.rendered} rows in the page at the end`,
    );

    const ui = [];
    for (const r of core.results) {
      const times = [];
      for (let i = 0; i < UI_SEARCHES; i++) times.push(await uiSearch(page, r.search, r.total));
      ui.push({ ...r, ui: median(times), times });
      console.log(
        `UI search "${r.search}": ${ms(median(times))} (median of ${UI_SEARCHES}: ${times.map(ms).join(', ')}; ` +
          `includes the ${PAUSE_MS} ms typing pause)`,
      );
    }

    writeSection(
      'inbox',
      `## Inbox: 10,000 threads, 50,000 messages in Chromium (\`npm run bench:inbox\`)

${machineLine()} (shared: other engineers' tests and benchmarks may have run at the same time; load average
${LOAD_AT_START} at the start, ${loadavg()[0]!.toFixed(1)} at the end); Debian Chromium (headless, no GPU), viewport 1280×860, the built app in browser mode on a
database seeded with the app's own \`fileMessage\` (threads, messages and FTS rows; ${seedSeconds.toFixed(1)} s).
The list is a PrimeVue VirtualScroller fed by pages of 100 from \`inbox.threads\`.

| measure | result |
| --- | --- |
| first render in a new tab (navigation start → first thread rows on screen), ${RUNS} runs | median ${ms(median(firsts))} (${firsts.map(ms).join(', ')}) |
| of which: loading and running the bundle until the app's first call to the core | median ${ms(appStart)} |
| first render when the same tab loads the app again | median ${ms(median(reloads))} (${reloads.map(ms).join(', ')}) |
| rows in the page for 10,000 threads | ${renders[0]!.rendered} at first render, ${scroll.rendered} at the end of the list |
| jump to the end (scrollTop = end → oldest thread on screen) | ${ms(scroll.jump)} |
| continuous fling top → end at 4,000 px per frame | ${ms(scroll.fling.total)}, ${frames.length} frames: p50 ${ms(median(frames))}, p95 ${ms(pct(frames, 0.95))}, max ${ms(Math.max(...frames))}; last row filled ${ms(scroll.fling.settled)} after |
| \`inbox.threads\` page requests during jump + fling | ${scrollRequests} |
| core \`threads()\` first page, no filter | ${ms(core.firstPage)} |

Search over the 50,000 messages (FTS5: each message's text under its thread, prefix terms; what each thread is about
in a trigram index) and the 10,000 threads' facts: straight through the core query
(\`createInboxQueries(db).threads({ search })\`: count + first page of 100; first run, then median of 7) and through the
UI (the text typed at once → the list shows its result count; median of ${UI_SEARCHES}, including the search box's
${PAUSE_MS} ms pause).

| search | threads | core, first | core, median | UI, median |
| --- | --- | --- | --- | --- |
${ui.map((r) => `| \`${r.search}\` | ${r.total.toLocaleString('en')} | ${ms(r.cold)} | ${ms(r.median)} | ${ms(r.ui)} (${r.times.map(ms).join(', ')}) |`).join('\n')}`,
    );
  } finally {
    await browser.close();
    await stopApp(app); // removes the data folder too
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
