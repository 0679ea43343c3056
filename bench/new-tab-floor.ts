// What a new tab can do at best on this machine, beside the app itself: the same first 15 thread rows (the first
// page of bench:inbox's 10,000-thread seed) drawn by pages that do less and less than the app, each timed as
// bench:inbox times the app (in the page, navigation start → the rows painted), in the same browser, interleaved.
// It says how much of the issue's "≤ 200 ms" a page can reach here at all, with and without a framework.
// Its last line is the app's median over Vue alone's (issue 27: goals are ratios to a reference in the same run).
// Run: npm run bench:floor   (uses the built app: run `npx electron-vite build` first; writes bench/RESULTS.md)
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInboxQueries } from '../src/main/inbox/inboxQueries';
import { threadQuerySchema } from '../src/shared/inbox';
import { startApp, stopApp } from '../test/e2e/app';
import { tempDir } from '../test/support/tempDir';
import { firstRender, watchFirstRows } from './firstRows';
import { seed, settled } from './inboxSeed';
import { machineLine, writeSection } from './results';
import { openAppDatabase } from '../src/main/schema';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const ROWS = 15; // as many as the app's list shows at 1280×860
const LOAD_AT_START = loadavg()[0]!.toFixed(1);
const VUE = join(import.meta.dirname, '..', 'node_modules', 'vue', 'dist', 'vue.runtime.esm-browser.prod.js');

/** A row as the app's ThreadRow draws it (guest, time; channel, property; last message, needs reply). */
const STYLE = `body{margin:0;font:14px system-ui,sans-serif;color:#1f2937}.shell{display:flex;height:100vh}
nav{width:232px;background:#1f2b2b;color:#fff;padding:1rem}main{flex:1;overflow:hidden;padding:1rem}
.row{box-sizing:border-box;height:84px;display:flex;flex-direction:column;justify-content:center;gap:.22rem;
padding:0 .9rem 0 .65rem;border-bottom:1px solid #e5e7eb;max-width:400px;text-decoration:none;color:inherit}
.line{display:flex;gap:.45rem;min-width:0}.guest{font-weight:600}.time{margin-left:auto;font-size:.75rem}
.preview{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:.84rem}`;

interface Row {
  id: number;
  guestLabel: string;
  channelName: string;
  propertyName: string | null;
  preview: string | null;
  needsReply: boolean;
}

/** The rows' markup; the same function runs in the pages that draw without a framework. */
function rowsHtml(rows: Row[]): string {
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return rows
    .map(
      (t) =>
        `<a class="row" href="#/inbox/${t.id}" data-testid="thread-row"><span class="line"><span class="guest">${esc(t.guestLabel)}</span><time class="time">Just now</time></span><span class="line">${esc(t.channelName)} · ${esc(t.propertyName ?? '')}</span><span class="line"><span class="preview">${esc(t.preview ?? '')}</span>${t.needsReply ? '<span>Needs reply</span>' : ''}</span></a>`,
    )
    .join('');
}

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Innkeeper</title><style>${STYLE}</style>${head}</head><body>${body}</body></html>`;
const shell = (list: string) => `<div class="shell"><nav>Innkeeper</nav><main>${list}</main></div>`;

/** The pages, from least to most work; each fetches nothing it does not need. */
function pages(rows: Row[]) {
  const first = rows.slice(0, ROWS);
  const vanilla = `const rowsHtml = ${rowsHtml.toString()};
fetch('/threads').then((r) => r.json()).then((page) => {
  document.getElementById('list').innerHTML = rowsHtml(page.threads.slice(0, ${ROWS}));
});`;
  const vue = `import { createApp, h, ref } from '/vue.js';
const threads = ref(null);
fetch('/threads').then((r) => r.json()).then((page) => (threads.value = page.threads.slice(0, ${ROWS})));
const Row = { props: ['t'], setup: (p) => () => h('a', { class: 'row', href: '#/inbox/' + p.t.id, 'data-testid': 'thread-row' }, [
  h('span', { class: 'line' }, [h('span', { class: 'guest' }, p.t.guestLabel), h('time', { class: 'time' }, 'Just now')]),
  h('span', { class: 'line' }, p.t.channelName + ' · ' + (p.t.propertyName ?? '')),
  h('span', { class: 'line' }, [h('span', { class: 'preview' }, p.t.preview ?? ''), p.t.needsReply ? h('span', 'Needs reply') : null]),
]) };
createApp({ setup: () => () => h('div', { class: 'shell' }, [h('nav', 'Innkeeper'),
  h('main', threads.value ? threads.value.map((t) => h(Row, { t, key: t.id })) : null)]) }).mount('#app');`;
  return {
    '/static': { type: 'text/html', body: page(shell(rowsHtml(first))) },
    '/vanilla': {
      type: 'text/html',
      body: page(shell('<div id="list"></div>'), '<script type="module" src="/vanilla.js"></script>'),
    },
    '/vanilla.js': { type: 'text/javascript', body: vanilla, cache: true },
    '/vue': {
      type: 'text/html',
      body: page('<div id="app"></div>', '<script type="module" src="/vue-app.js"></script>'),
    },
    '/vue-app.js': { type: 'text/javascript', body: vue, cache: true },
    '/vue.js': { type: 'text/javascript', body: readFileSync(VUE, 'utf8'), cache: true },
    '/threads': { type: 'application/json', body: JSON.stringify({ threads: rows }) },
  } as Record<string, { type: string; body: string; cache?: boolean }>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function main() {
  const dir = tempDir('innkeeper-bench-floor-');
  const dbPath = join(dir.path, 'innkeeper.db');
  seed(dbPath);
  const database = openAppDatabase(dbPath);
  const rows = createInboxQueries(database.db).threads(threadQuerySchema.parse({})).threads as unknown as Row[];
  database.close();

  const served = pages(rows);
  const server = createServer((request, response: ServerResponse) => {
    const file = served[request.url ?? ''];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, {
      'content-type': `${file.type}; charset=utf-8`,
      // As the app serves its hashed files: the browser keeps them (and their compiled code) between tabs.
      'cache-control': file.cache ? 'public, max-age=31536000, immutable' : 'no-store',
    });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = await startApp({ INNKEEPER_PUSH_PORT: '0' }, dir.path);
  await settled(dbPath); // the app at rest: its first start's indexing done
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
  });
  const variants = [
    { name: 'the rows in the HTML, no script', url: `${base}/static` },
    { name: 'a module script fetches the first page and draws the rows (no framework)', url: `${base}/vanilla` },
    { name: 'the same with Vue (its runtime alone, 15 row components)', url: `${base}/vue` },
    { name: 'the app (Vue, Pinia, the router, PrimeVue; its shell and inbox)', url: app.url },
  ];
  const times = variants.map(() => [] as number[]);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    await context.addInitScript(watchFirstRows);
    // One warm-up tab of each (the browser's caches as a returning owner has them), then the rounds, interleaved.
    for (let round = -1; round < RUNS; round++) {
      for (let v = 0; v < variants.length; v++) {
        const i = (v + Math.max(round, 0)) % variants.length; // each variant goes first in turn
        const tab = await context.newPage();
        const { ms: painted, rendered } = await firstRender(tab, variants[i]!.url);
        await tab.close();
        if (rendered < ROWS && i < 3) throw new Error(`${variants[i]!.name}: ${rendered} rows`);
        if (round >= 0) times[i]!.push(painted);
      }
    }
  } finally {
    await browser.close();
    await stopApp(app);
    server.close();
  }
  const ratio = (median(times[3]!) / median(times[2]!)).toFixed(2);
  variants.forEach((v, i) =>
    console.log(`${v.name}: median ${ms(median(times[i]!))} (${times[i]!.map(ms).join(', ')})`),
  );

  writeSection(
    'floor',
    `## What a new tab can do on this machine (\`npm run bench:floor\`)

${machineLine()}; load average ${LOAD_AT_START} at the start, ${loadavg()[0]!.toFixed(1)} at the end. Debian Chromium (headless, no GPU), viewport
1280×860, one browser context, the same in-page timing as bench:inbox (navigation start → the first thread rows
painted). The same ${ROWS} rows (the first page of bench:inbox's 10,000-thread seed, as the core answers it) drawn
by pages that do less and less than the app, served over loopback by a plain Node server, their scripts cacheable
as the app's are; one tab of each first, then ${RUNS} rounds, each variant going first in turn. The pages have a
few lines of CSS; the app has its theme's.

| first rows painted in a new tab | median | runs |
| --- | --- | --- |
${variants.map((v, i) => `| ${v.name} | ${ms(median(times[i]!))} | ${times[i]!.map(ms).join(', ')} |`).join('\n')}

**The app against Vue's runtime alone, in this run: ${ratio} (goal ≤ 1.5).**`,
  );
  // Issue 27: a benchmark's goal is a ratio against a reference measured in the same run, printed last.
  console.log(`app / vue-alone = ${ratio}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
