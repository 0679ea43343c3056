// The renderer's JavaScript: what the first screen waits for, read from the built files and counted in Chromium, and
// the renderer's JS heap per screen.
// Run: npm run bench:bundle   (uses the built app: run `npm run build` first; writes bench/RESULTS.md)
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumLaunch } from '../playwright.config';
import { startApp, stopApp } from '../test/e2e/app';
import { machineLine, writeSection } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = join(import.meta.dirname, '..', 'out', 'renderer');
const VIEWPORT = { width: 1280, height: 860 };
/** The issue's ceiling for the JavaScript loaded before the first screen. */
const BUDGET_KIB = 300;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// ---- the built files ------------------------------------------------------------------------------------------
interface Chunk {
  file: string;
  bytes: number;
  gzip: number;
  /** Chunks it imports statically (loaded with it). */
  imports: string[];
}

/** Every JavaScript chunk of out/renderer/assets, with the chunks each imports statically. */
function readChunks(): Map<string, Chunk> {
  const dir = join(OUT, 'assets');
  const chunks = new Map<string, Chunk>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(join(dir, file));
    const text = code.toString('utf8');
    // Static imports only (`import{…}from"./x.js"`, `import"./x.js"`): a dynamic `import("./x.js")` loads later.
    const imports = [...text.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
    chunks.set(file, { file, bytes: code.length, gzip: gzipSync(code).length, imports: [...new Set(imports)] });
  }
  return chunks;
}

/** A chunk and every chunk it imports statically, transitively. */
function closure(chunks: Map<string, Chunk>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || !chunks.has(file)) return;
    seen.add(file);
    chunks.get(file)!.imports.forEach(walk);
  };
  roots.forEach(walk);
  return seen;
}

/** index.html: its module script and modulepreload links (the JavaScript the page loads before it runs). */
function upFront(chunks: Map<string, Chunk>) {
  const html = readFileSync(join(OUT, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1] ?? '';
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const entry = tags.filter((t) => t.startsWith('<script') && attr(t, 'type') === 'module').map((t) => attr(t, 'src'));
  const preload = tags.filter((t) => attr(t, 'rel') === 'modulepreload').map((t) => attr(t, 'href'));
  const css = tags.filter((t) => attr(t, 'rel') === 'stylesheet').map((t) => attr(t, 'href'));
  const name = (href: string) => href.replace(/^.*\//, '');
  const listed = [...entry, ...preload].map(name);
  // What the listed files import statically is loaded before the app runs too (the browser follows the imports).
  const files = closure(chunks, listed);
  const cssBytes = css.reduce((sum, href) => sum + readFileSync(join(OUT, 'assets', name(href))).length, 0);
  return { entry: entry.map(name), preload: preload.map(name), files, cssBytes };
}

const FIRST_SCREEN_CHUNKS: Record<string, string> = { InboxView: 'inbox', RatesView: 'rates' };

/** The chunk a screen's route loads (`InboxView-….js`) and what it needs beyond the up-front files. */
function screenChunks(chunks: Map<string, Chunk>, view: string, loaded: Set<string>) {
  // The screens a new tab can open on have their first render's code in a chunk named after the screen
  // (electron.vite.config.ts, FIRST_SCREENS): `inbox-….js`, `rates-….js`.
  const names = [`${view}-`, `${FIRST_SCREEN_CHUNKS[view] ?? view}-`];
  const root = [...chunks.keys()].find((f) => names.some((n) => f.startsWith(n)));
  if (!root) throw new Error(`no chunk for ${view} in out/renderer/assets: is every screen still a route?`);
  return [...closure(chunks, [root])].filter((f) => !loaded.has(f));
}

// ---- in Chromium ----------------------------------------------------------------------------------------------
/** What the page functions use of the browser (this file is type-checked for Node, without the DOM library). */
interface Browser {
  document: { querySelector(s: string): unknown };
  MutationObserver: new (fn: () => void) => { observe(node: unknown, options: object): void; disconnect(): void };
  __firstRows?: number;
}
interface ResourceEntry {
  name: string;
  startTime: number;
  responseEnd: number;
  encodedBodySize: number;
  decodedBodySize: number;
}

/** Installed before the page's scripts: the time the first thread rows are in the page. */
function watchFirstRows() {
  const w = globalThis as unknown as Browser;
  const seen = () => {
    if (w.__firstRows === undefined && w.document.querySelector('[data-testid="thread-row"]')) {
      w.__firstRows = performance.now();
      observer.disconnect();
    }
  };
  const observer = new w.MutationObserver(seen);
  observer.observe(w.document, { childList: true, subtree: true });
}

/** A new tab on the inbox: the JavaScript it requested until its first thread rows, and after everything settled. */
async function jsUntilFirstRows(page: Page, url: string) {
  await page.goto(`${url}#/inbox`);
  await page.waitForFunction(() => (globalThis as unknown as Browser).__firstRows ?? false, undefined, {
    timeout: 30_000,
  });
  const read = () =>
    page.evaluate(() => {
      const at = (globalThis as unknown as Browser).__firstRows!;
      const scripts = (performance.getEntriesByType('resource') as unknown as ResourceEntry[]).filter((r) =>
        new URL(r.name).pathname.endsWith('.js'),
      );
      return {
        at, // The entries' fields are getters: copied one by one.
        scripts: scripts.map((r) => ({
          name: new URL(r.name).pathname.replace(/^.*\//, ''),
          startTime: r.startTime,
          responseEnd: r.responseEnd,
          encodedBodySize: r.encodedBodySize,
          decodedBodySize: r.decodedBodySize,
        })),
      };
    });
  const first = await read();
  // The thread pane and anything else the screen loads once its rows are there.
  await page.waitForTimeout(3_000);
  const settled = await read();
  const before = first.scripts.filter((r) => r.startTime <= first.at);
  const sum = (xs: ResourceEntry[], key: 'decodedBodySize' | 'encodedBodySize') => xs.reduce((s, r) => s + r[key], 0);
  return {
    firstRowsMs: first.at,
    files: before.map((r) => r.name),
    bytes: sum(before, 'decodedBodySize'),
    transferred: sum(before, 'encodedBodySize'),
    allBytes: sum(settled.scripts, 'decodedBodySize'),
    allFiles: settled.scripts.length,
  };
}

/** The screens, each opened in a new tab, and what says it is drawn. */
const SCREENS = [
  { name: 'Inbox', hash: '#/inbox', ready: '[data-testid="thread-row"]' },
  { name: 'Rates & availability', hash: '#/rates', ready: '[data-testid="rate-cell"]' },
  { name: 'Property', hash: '#/property', ready: '[data-testid^="property-tab-"], [data-testid="property-empty"]' },
  {
    name: 'Payments',
    hash: '#/payments',
    ready: '[data-testid="new-payment-link"], [data-testid="payments-not-ready"], [data-testid="payments-empty"]',
  },
  { name: 'Connection', hash: '#/connection', ready: '[data-testid="demo-section"]' },
] as const;

/** The page's JS heap in use (CDP `Runtime.getHeapUsage`), as it is and after a full garbage collection. */
async function heap(cdp: CDPSession) {
  const raw = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  await cdp.send('HeapProfiler.collectGarbage');
  const live = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  return { raw, live };
}

/** A screen opened in a new tab: the heap once it is drawn, and once it has settled. */
async function screenHeap(page: Page, cdp: CDPSession, url: string, screen: (typeof SCREENS)[number]) {
  await page.goto(`${url}${screen.hash}`);
  await page.locator(screen.ready).first().waitFor({ timeout: 30_000 });
  const drawn = await heap(cdp);
  await page.waitForTimeout(6_000);
  const settled = await heap(cdp);
  const elements = await page.evaluate(
    () =>
      (
        globalThis as unknown as { document: { getElementsByTagName(s: string): { length: number } } }
      ).document.getElementsByTagName('*').length,
  );
  return { drawn, settled, elements };
}

async function main() {
  const chunks = readChunks();
  const front = upFront(chunks);
  const frontBytes = [...front.files].reduce((s, f) => s + chunks.get(f)!.bytes, 0);
  const frontGzip = [...front.files].reduce((s, f) => s + chunks.get(f)!.gzip, 0);
  const views = ['InboxView', 'RatesView', 'PropertyView', 'PaymentsView', 'ConnectionView'];
  const perScreen = views.map((view) => {
    const files = screenChunks(chunks, view, front.files);
    return { view, files, bytes: files.reduce((s, f) => s + chunks.get(f)!.bytes, 0) };
  });
  const total = [...chunks.values()].reduce((s, c) => s + c.bytes, 0);

  console.log(`out/renderer: ${chunks.size} JavaScript files, ${kib(total)} in all`);
  console.log(
    `up front (index.html: module script ${front.entry.join(', ')}; modulepreload ${front.preload.join(', ') || 'none'}):`,
  );
  for (const f of front.files)
    console.log(`  ${f.padEnd(36)} ${kib(chunks.get(f)!.bytes).padStart(11)}  gzip ${kib(chunks.get(f)!.gzip)}`);
  console.log(`  total ${kib(frontBytes)} (gzip ${kib(frontGzip)}); CSS ${kib(front.cssBytes)}`);
  for (const s of perScreen)
    console.log(`${s.view}: + ${kib(s.bytes)} in ${s.files.length} files (${s.files.join(', ')})`);
  console.log('every chunk:');
  for (const c of [...chunks.values()].sort((a, b) => b.bytes - a.bytes))
    console.log(`  ${c.file.padEnd(36)} ${kib(c.bytes).padStart(11)}  gzip ${kib(c.gzip)}`);

  // The built app in browser mode with the demo provider and its sample inbox (threads to show), as an owner
  // meets it on the first start.
  delete process.env.INNKEEPER_DEMO;
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  const browser = await chromium.launch(chromiumLaunch);
  const loads: Awaited<ReturnType<typeof jsUntilFirstRows>>[] = [];
  const heaps = new Map<string, Awaited<ReturnType<typeof screenHeap>>[]>();
  try {
    // The sample inbox arrives through the demo's pushes: wait until the list shows it once.
    {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      await page.goto(`${app.url}#/inbox`);
      await page.locator('[data-testid="thread-row"]').first().waitFor({ timeout: 60_000 });
      await context.close();
    }
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      // tsx names inner functions with an `__name` helper that the page does not have.
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      await context.addInitScript(watchFirstRows);
      const load = await jsUntilFirstRows(await context.newPage(), app.url);
      loads.push(load);
      console.log(
        `run ${i + 1}: first rows at ${load.firstRowsMs.toFixed(0)} ms after ${kib(load.bytes)} of JavaScript ` +
          `(${load.files.length} files, ${kib(load.transferred)} transferred); ${kib(load.allBytes)} in ${load.allFiles} files once settled`,
      );
      await context.close();
      for (const screen of SCREENS) {
        const ctx = await browser.newContext({ viewport: VIEWPORT });
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        const h = await screenHeap(page, cdp, app.url, screen);
        heaps.set(screen.name, [...(heaps.get(screen.name) ?? []), h]);
        console.log(
          `  ${screen.name}: heap drawn ${mib(h.drawn.raw)} / GC ${mib(h.drawn.live)}; settled ${mib(h.settled.raw)} / GC ${mib(h.settled.live)}`,
        );
        await ctx.close();
      }
    }
  } finally {
    await browser.close();
    await stopApp(app);
  }

  const chromiumBytes = median(loads.map((l) => l.bytes));
  const files = loads[0]!.files;
  const table = perScreen.map((s) => `| ${s.view} | ${kib(s.bytes)} | ${s.files.length} |`).join('\n');
  const heapRows = SCREENS.map(({ name }) => {
    const hs = heaps.get(name)!;
    return `| ${name} | ${mib(median(hs.map((h) => h.drawn.raw)))} / ${mib(median(hs.map((h) => h.drawn.live)))} | ${mib(median(hs.map((h) => h.settled.raw)))} / ${mib(median(hs.map((h) => h.settled.live)))} | ${median(hs.map((h) => h.elements))} |`;
  }).join('\n');

  writeSection(
    'First screen',
    `## First screen: the renderer's JavaScript (\`npm run bench:bundle\`)

${machineLine()}; the built renderer (\`npm run build\`, esbuild-minified), Debian Chromium (headless, no GPU), viewport
${VIEWPORT.width}×${VIEWPORT.height}, the built app in browser mode on the demo provider with its sample inbox; ${RUNS} runs, each a new
browser context (cold cache). Sizes are the files' bytes as loaded (before compression; gzip beside).

| measure | result | replaced |
| --- | --- | --- |
| JavaScript loaded up front (index.html's module script + modulepreload links + their static imports) | **${kib(frontBytes)}** in ${front.files.size} file (gzip ${kib(frontGzip)}; budget ${BUDGET_KIB} KiB) | 1,486.8 KiB in 1 file (1,522,450 bytes, 2026-11-23 before issue 15; the issue's 913 KiB was an older build) |
| JavaScript requested in a new tab until the inbox's first thread rows (Chromium, resource timing), median | **${kib(chromiumBytes)}** in ${files.length} files (${median(loads.map((l) => l.transferred)) === chromiumBytes ? 'served uncompressed' : `${kib(median(loads.map((l) => l.transferred)))} transferred`}); first rows at median ${median(loads.map((l) => l.firstRowsMs)).toFixed(0)} ms | the same 1,486.8 KiB file |
| … the inbox's JavaScript 3 s later (its thread pane too; other screens load when the pointer comes over their link) | ${kib(median(loads.map((l) => l.allBytes)))} in ${loads[0]!.allFiles} files (of ${chunks.size} built, ${kib(total)}) | |
| CSS loaded up front | ${kib(front.cssBytes)} | |

How: each screen is a route loaded on demand (\`() => import(…)\`); the HTTP client no longer imports the contract's
schemas (zod, libphonenumber); PrimeVue components are imported one by one; PrimeVue's theme (the tokens of the ~30
components the app draws, \`ui/auraParts.ts\`) is worked out into CSS by the build (\`build/primeTheme.ts\`: the CSS
up front) and is not in the JavaScript; the toasts' component and the no-session page load after the first screen. Files up front: ${[...front.files].join(', ')}. Requested before the
inbox's first rows: ${files.join(', ')}.

What each screen adds when it is opened first (its route's chunk and the chunks it imports, beyond the up-front file):

| screen | JavaScript | files |
| --- | --- | --- |
${table}

**Renderer heap per screen** (CDP \`Runtime.getHeapUsage\` used size, as it is / after \`HeapProfiler.collectGarbage\`;
median of ${RUNS}): each screen opened in a new tab on the demo data, measured once its content is drawn and again 6 s
later (what loads beside it, e.g. the inbox's thread pane, has loaded).

| screen | heap when drawn | heap 6 s later | page elements |
| --- | --- | --- | --- |
${heapRows}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
