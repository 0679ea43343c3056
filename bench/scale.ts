// Scale: 50 properties × 10 rooms (× 3 rate plans × 3 channels), each with a year of rules pushed and a draft, against
// one property seeded the same way, in the same run: the rates calendar's first render in Chromium (the built app in
// browser mode, a new browser context per run) and the composer's preview (`rates.preview`, the draft composed on
// the record and diffed day by day), plus the core's `rates.properties` and `rates.book` behind the screen.
// Run: npm run bench:scale   (uses the built app: `npm run build` first; writes its section of bench/RESULTS.md)
import { chromium, type Page } from '@playwright/test';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromiumLaunch } from '../playwright.config';
import { createConfSettings } from '../src/main/config/settings';
import { createOutbox } from '../src/main/outbox/outbox';
import { createRatesService, RATES_KIND, type RatesKinds } from '../src/main/rates/ratesService';
import { addDays, localToday } from '../src/shared/dates';
import type { PropertySetupInput } from '../src/shared/rateSetups';
import { applyToBook, type ChannelRule, type RuleEdit, type Target } from '../src/shared/ratesComposer';
import { MAX_DAYS_AHEAD } from '../src/shared/su/inventory';
import { startApp, stopApp } from '../test/e2e/app';
import { tempDir } from '../test/support/tempDir';
import { machineLine, writeSection } from './results';
import { openAppDatabase } from '../src/main/schema';

const LOAD_AT_START = loadavg()[0]!.toFixed(1);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROPERTIES = 50;
const CHANNELS = ['244', '19', '9'];
const RECORD_EDITS = 1000;
const DRAFT_EDITS = 200;
const VIEWPORT = { width: 1280, height: 860 };

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

/** Property `p`: 10 rooms × 3 rate plans, as bench/rates-calendar.ts sets up its one property. */
function setupOf(p: number): PropertySetupInput {
  return {
    hotelId: `IK-SCALE-${String(p + 1).padStart(2, '0')}`,
    name: `Scale Hotel ${p + 1}`,
    channels: CHANNELS,
    rooms: Array.from({ length: 10 }, (_, r) => {
      const price = 70 + r * 15;
      return {
        id: `R${String(r + 1).padStart(2, '0')}`,
        name: `Room ${r + 1}`,
        inventory: 2 + (r % 5),
        rates: [
          { id: 'BAR', name: 'Best available rate', price },
          { id: 'NRF', name: 'Non-refundable', price: Math.round(price * 0.9) },
          { id: 'WEEK', name: 'Weekly stay', price: Math.round(price * 0.85) },
        ],
      };
    }),
  };
}

function targetsOf(setup: PropertySetupInput): { target: Target; base: number }[] {
  return setup.rooms!.flatMap((room) => [
    { target: { level: 'inventory' as const, roomId: room.id }, base: room.inventory! },
    ...room.rates!.map((rate) => ({
      target: { level: 'rate' as const, roomId: room.id, rateId: rate.id },
      base: rate.price!,
    })),
  ]);
}

function randomRule(level: Target['level'], base: number): ChannelRule | null {
  if (level === 'inventory')
    return pick<ChannelRule | null>([
      { type: 'Fixed', value: Math.floor(random() * (base + 1)) },
      { type: 'Decrease', value: 1 },
      null,
    ]);
  return pick<ChannelRule | null>([
    { type: 'Fixed', value: Math.round(base * (0.8 + random() * 0.6)) },
    { type: 'Increase', value: pick([5, 10, 15, 20]) },
    { type: 'Multiply', value: pick([0.9, 1.1, 1.2]) },
    { closed: true },
    null,
  ]);
}

function randomEdits(
  targets: { target: Target; base: number }[],
  count: number,
  from: string,
  span: number,
  maxDays: number,
) {
  return Array.from({ length: count }, (): RuleEdit => {
    const { target, base } = pick(targets);
    const start = addDays(from, Math.floor(random() * span));
    const channels = CHANNELS.filter(() => random() < 0.5);
    return {
      target,
      from: start,
      to: addDays(start, Math.floor(random() * maxDays)),
      channels: channels.length ? channels : [pick(CHANNELS)],
      rule: randomRule(target.level, base),
    };
  });
}

/** `count` properties, each with a year of rules in the record (`rate_rules`) and a draft, through the app's code. */
function seedData(dir: string, count: number, today: string) {
  createConfSettings(dir).set('rates.demoSetupDone', true);
  const database = openAppDatabase(join(dir, 'innkeeper.db'));
  const outbox = createOutbox<RatesKinds>({
    db: database,
    now: Date.now,
    random: Math.random,
    kinds: { [RATES_KIND]: { send: () => Promise.reject(new Error('the bench sends nothing')) } },
  });
  const rates = createRatesService({ database, outbox, now: Date.now, today: () => today });
  const insert = database.db.prepare(
    'INSERT INTO rate_rules (hotel_id, target, day, rules) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id, target, day) DO UPDATE SET rules = excluded.rules',
  );
  let ruleRows = 0;
  for (let p = 0; p < count; p++) {
    const setup = setupOf(p);
    const targets = targetsOf(setup);
    rates.saveSetup(setup);
    // As in bench/rates-calendar.ts: a rule of the record and a drafted week in view at first, then random edits.
    const inView = (target: Target, days: number, rule: ChannelRule): RuleEdit => ({
      target,
      from: today,
      to: addDays(today, days - 1),
      channels: CHANNELS,
      rule,
    });
    const book = applyToBook(new Map(), [
      inView(targets[0]!.target, 14, { type: 'Decrease', value: 1 }),
      ...randomEdits(targets, RECORD_EDITS - 1, today, 365, 14),
    ]);
    database.transaction(() => {
      for (const [target, days] of book)
        for (const [day, set] of days) {
          insert.run(setup.hotelId, target, day, JSON.stringify(set));
          ruleRows++;
        }
    });
    rates.saveDraft({
      hotelId: setup.hotelId,
      name: 'Bench draft',
      edits: [
        inView(targets[1]!.target, 7, { type: 'Fixed', value: 99.5 }),
        ...randomEdits(targets, DRAFT_EDITS - 1, today, MAX_DAYS_AHEAD - 7, 7),
      ],
    });
  }
  const hotels = rates.properties().map((p) => p.hotelId);
  database.close();
  return { ruleRows, hotels };
}

/** The core's side, in-process on the seeded file: properties, the shown property's book, and its preview. */
function coreFigures(dir: string, hotelId: string, today: string) {
  const database = openAppDatabase(join(dir, 'innkeeper.db'));
  const outbox = createOutbox<RatesKinds>({
    db: database,
    now: Date.now,
    random: Math.random,
    kinds: { [RATES_KIND]: { send: () => Promise.reject(new Error('the bench sends nothing')) } },
  });
  const rates = createRatesService({ database, outbox, now: Date.now, today: () => today });
  const time = (fn: () => unknown) => {
    fn(); // first run not counted
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      fn();
      times.push(performance.now() - t);
    }
    return times;
  };
  const figures = {
    properties: time(() => rates.properties()),
    book: time(() => rates.book(hotelId)),
    preview: time(() => rates.preview(hotelId)),
    changedDays: rates.preview(hotelId).days.length,
  };
  database.close();
  return figures;
}

// ---- the first render in the page (the same milestones as bench/rates-calendar.ts) -----------------------------
interface Browser {
  document: { querySelector(s: string): unknown };
  requestAnimationFrame(callback: (now: number) => void): number;
  __calendar?: Milestones;
}
type Milestones = Record<'cells' | 'rules' | 'draft', { found: number; painted: number } | null>;

/** Installed before the page's scripts: the first rate cells, the first cell with a rule, the first drafted cell. */
function watchFirstRender() {
  const w = globalThis as unknown as Browser;
  if (!String((globalThis as unknown as { location: { hash: string } }).location.hash).includes('/rates')) return;
  const state: Milestones = { cells: null, rules: null, draft: null };
  const selectors = {
    cells: '[data-testid="rate-cell"]',
    rules: '[data-testid="rate-cell"][data-rule]:not([data-rule=""])',
    draft: '[data-testid="rate-cell"][data-drafted]',
  } as const;
  const start = performance.now();
  const check = () => {
    const found = performance.now();
    const fresh = (Object.keys(selectors) as (keyof Milestones)[]).filter(
      (k) => !state[k] && w.document.querySelector(selectors[k]),
    );
    if (fresh.length)
      w.requestAnimationFrame((painted) => {
        for (const k of fresh) state[k] = { found, painted: Math.max(painted, found) };
        if (state.cells && state.rules && state.draft) w.__calendar = state;
      });
    if (fresh.length + Object.values(state).filter(Boolean).length < 3 && found - start < 30_000)
      w.requestAnimationFrame(check);
  };
  w.requestAnimationFrame(check);
}

async function firstRender(page: Page, url: string) {
  await page.goto(`${url}#/rates`, { waitUntil: 'commit' });
  const done = await page.waitForFunction(() => (globalThis as unknown as Browser).__calendar ?? false, undefined, {
    polling: 100,
    timeout: 30_000,
  });
  const first = (await done.jsonValue()) as Milestones;
  const book = await page.evaluate(() => {
    const calls = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/call/'));
    const entry = calls.find((c) => c.name.includes('rates.book')) as unknown as { responseEnd: number } | undefined;
    return entry?.responseEnd ?? NaN;
  });
  return { cells: first.cells!.painted, rules: first.rules!.painted, draft: first.draft!.painted, book };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

async function measure(count: number, today: string) {
  const dir = tempDir('innkeeper-bench-scale-');
  const t0 = performance.now();
  const seeded = seedData(dir.path, count, today);
  const seedSeconds = (performance.now() - t0) / 1000;
  const core = coreFigures(dir.path, seeded.hotels[0]!, today);
  delete process.env.INNKEEPER_DEMO;
  const app = await startApp({}, dir.path);
  const browser = await chromium.launch(chromiumLaunch);
  const renders: Awaited<ReturnType<typeof firstRender>>[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      await context.addInitScript(watchFirstRender);
      const page = await context.newPage();
      renders.push(await firstRender(page, app.url));
      if (process.env.BENCH_SCREENSHOTS && i === 0)
        await page.screenshot({ path: `${process.env.BENCH_SCREENSHOTS}-${count}.png` });
      await context.close();
    }
  } finally {
    await browser.close();
    await stopApp(app);
  }
  const r = renders.at(-1)!;
  console.log(
    `${count} properties (${seeded.ruleRows} record target-days, seeded in ${seedSeconds.toFixed(1)} s): cells ${ms(median(renders.map((x) => x.cells)))}, draft ${ms(median(renders.map((x) => x.draft)))}; preview ${ms(median(core.preview))} (last run: cells ${ms(r.cells)})`,
  );
  return { count, seeded, seedSeconds, core, renders };
}

async function main() {
  const today = localToday();
  const one = await measure(1, today);
  const many = await measure(PROPERTIES, today);
  const row = (label: string, of: (m: typeof one) => number[]) =>
    `| ${label} | ${ms(median(of(one)))} (${list(of(one))}) | ${ms(median(of(many)))} (${list(of(many))}) |`;
  const markdown = `## Scale: ${PROPERTIES} properties × 10 rooms (\`npm run bench:scale\`)

${machineLine()} (load average ${LOAD_AT_START} at the start${Number(LOAD_AT_START) >= 1.5 ? ': other work ran on the same 2 cores' : ''}). Each property as in "Rates calendar in Chromium": 10 rooms × (inventory + 3 rate plans) × 3
channels, a record of ${RECORD_EDITS.toLocaleString('en')} random edits over the next 365 days and a draft of ${DRAFT_EDITS} edits over the 501 days.
One property against ${PROPERTIES} (${many.seeded.ruleRows.toLocaleString('en')} record target-days; seeded in ${many.seedSeconds.toFixed(0)} s), in the same run and the
same build; the calendar shows the first property (the screen's choice on a first visit). First render: ${RUNS} runs,
each a new browser context (cold cache) loading \`#/rates\` of the built app in browser mode, timed in the page as
bench/rates-calendar.ts does (painted = the start of the frame after the one that drew it). Core: in-process on
the seeded file, median of 15 after a first call.

| measure | 1 property | ${PROPERTIES} properties |
| --- | --- | --- |
${row('calendar first render: first rate cells painted', (m) => m.renders.map((x) => x.cells))}
${row("… the record's rules painted", (m) => m.renders.map((x) => x.rules))}
${row("… the draft's edits painted", (m) => m.renders.map((x) => x.draft))}
${row('… `rates.book` answered (in the page)', (m) => m.renders.map((x) => x.book))}
${row('composer preview (`rates.preview` of the shown property)', (m) => m.core.preview)}
${row('`rates.book` of the shown property (core)', (m) => m.core.book)}
${row('`rates.properties` (core)', (m) => m.core.properties)}

The preview's changed target-days: ${one.core.changedDays} (1 property) and ${many.core.changedDays} (${PROPERTIES} properties).
The single-property figures elsewhere in this file, from their own benchmarks: the calendar's first render in
"Rates calendar in Chromium" and the preview (82.0 ms median, on rates-compose's own edits) in "Rates composer".`;
  console.log(markdown);
  writeSection('scale', markdown);
}

await main();
