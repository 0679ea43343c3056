// The Rates & availability calendar in Chromium: 10 rooms × (inventory + 3 rate plans) × 3 channels, today … today+500
// days, with a year of rules in the record and a draft of random edits. First render, horizontal and vertical scroll
// frame by frame, month jumps, and the page's JS heap.
// Run: npm run bench:calendar   (uses the built app: run `npx electron-vite build` first; writes bench/RESULTS.md)
import { chromium, type Page } from '@playwright/test';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromiumLaunch } from '../playwright.config';
import { createOutbox } from '../src/main/outbox/outbox';
import { createRatesService, RATES_KIND, type RatesKinds } from '../src/main/rates/ratesService';
import { createConfSettings } from '../src/main/config/settings';
import type { PropertySetupInput } from '../src/shared/rateSetups';
import { applyToBook, type ChannelRule, type RuleEdit, type Target } from '../src/shared/ratesComposer';
import { MAX_DAYS_AHEAD } from '../src/shared/su/inventory';
import { addDays, localToday } from '../src/shared/dates';
import { startApp, stopApp } from '../test/e2e/app';
import { tempDir } from '../test/support/tempDir';
import { machineLine, writeSection } from './results';
import { openAppDatabase } from '../src/main/schema';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HOTEL = 'IK-BENCH-1';
const CHANNELS = ['244', '19', '9'];
const RECORD_EDITS = 1000;
const DRAFT_EDITS = 200;
const STEP = 60; // px per frame: a trackpad fling
const MONTH_JUMPS = 12;
const VIEWPORT = { width: 1280, height: 860 };
/** BENCH_SCREENSHOTS=/tmp/cal: the page after load and after the scrolls, as /tmp/cal-loaded.png and -scrolled.png. */
const SCREENSHOTS = process.env.BENCH_SCREENSHOTS;

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

// ---- a property with a year of rules -------------------------------------------------------------------------
const ROOM_NAMES = [
  'Double Room',
  'Twin Room',
  'Single Room',
  'Family Suite',
  'Junior Suite',
  'Studio',
  'Deluxe Double',
  'Triple Room',
  'Attic Room',
  'Garden Apartment',
];
const setup: PropertySetupInput = {
  hotelId: HOTEL,
  name: 'Bench Harbour Hotel',
  channels: CHANNELS,
  rooms: ROOM_NAMES.map((name, r) => {
    const price = 70 + r * 15;
    return {
      id: `R${String(r + 1).padStart(2, '0')}`,
      name,
      inventory: 2 + (r % 5),
      rates: [
        { id: 'BAR', name: 'Best available rate', price },
        { id: 'NRF', name: 'Non-refundable', price: Math.round(price * 0.9) },
        { id: 'WEEK', name: 'Weekly stay', price: Math.round(price * 0.85) },
      ],
    };
  }),
};
const targets: { target: Target; base: number }[] = setup.rooms!.flatMap((room) => [
  { target: { level: 'inventory' as const, roomId: room.id }, base: room.inventory! },
  ...room.rates!.map((rate) => ({
    target: { level: 'rate' as const, roomId: room.id, rateId: rate.id },
    base: rate.price!,
  })),
]);

/** A rule an owner would set: whole rooms for inventory; prices, discounts and closed dates for rates. */
function randomRule(level: Target['level'], base: number): ChannelRule | null {
  if (level === 'inventory')
    return pick<ChannelRule | null>([
      { type: 'Fixed', value: Math.floor(random() * (base + 1)) },
      { type: 'Fixed', value: 0 },
      { type: 'Increase', value: 1 },
      { type: 'Decrease', value: 1 },
      null,
    ]);
  return pick<ChannelRule | null>([
    { type: 'Fixed', value: Math.round(base * (0.8 + random() * 0.6)) },
    { type: 'Increase', value: pick([5, 10, 15, 20]) },
    { type: 'Decrease', value: pick([5, 10]) },
    { type: 'Multiply', value: pick([0.9, 1.1, 1.2]) },
    { closed: true },
    { type: 'Increase', value: 25, closed: true },
    null,
  ]);
}

/** `count` random edits of 1 to `maxDays` days starting in the `span` days from `from`, on random channels. */
function randomEdits(count: number, from: string, span: number, maxDays: number): RuleEdit[] {
  return Array.from({ length: count }, () => {
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

/**
 * Seeds the data folder with the app's own code: the settings (no demo properties), the setup and the draft through
 * the rates service, and the record (what Su holds, `rate_rules`) as `applyToBook` leaves it after a year of pushes,
 * written with the same statement the service uses when Su confirms a push.
 */
function seedData(dir: string, today: string) {
  createConfSettings(dir).set('rates.demoSetupDone', true);
  const database = openAppDatabase(join(dir, 'innkeeper.db'));
  const outbox = createOutbox<RatesKinds>({
    db: database,
    now: Date.now,
    random: Math.random,
    kinds: { [RATES_KIND]: { send: () => Promise.reject(new Error('the bench sends nothing')) } },
  });
  const rates = createRatesService({ database, outbox, now: Date.now, today: () => today });
  rates.saveSetup(setup);

  // The record starts with a known rule in view (the first room's inventory), then a year of random pushes.
  const recordEdits: RuleEdit[] = [
    {
      target: targets[0]!.target,
      from: today,
      to: addDays(today, 13),
      channels: CHANNELS,
      rule: { type: 'Decrease', value: 1 },
    },
    ...randomEdits(RECORD_EDITS - 1, today, 365, 14),
  ];
  const book = applyToBook(new Map(), recordEdits);
  let ruleRows = 0;
  let channelRules = 0;
  database.transaction(() => {
    const insert = database.db.prepare(
      'INSERT INTO rate_rules (hotel_id, target, day, rules) VALUES (?, ?, ?, ?) ON CONFLICT (hotel_id, target, day) DO UPDATE SET rules = excluded.rules',
    );
    for (const [target, days] of book)
      for (const [day, set] of days) {
        insert.run(HOTEL, target, day, JSON.stringify(set));
        ruleRows++;
        channelRules += Object.keys(set).length;
      }
  });

  // The draft: a week of the first room's best rate that the grid shows at once, then random edits over all 501 days.
  const draftEdits: RuleEdit[] = [
    {
      target: targets[1]!.target,
      from: today,
      to: addDays(today, 6),
      channels: CHANNELS,
      rule: { type: 'Fixed', value: 99.5 },
    },
    ...randomEdits(DRAFT_EDITS - 1, today, MAX_DAYS_AHEAD - 7, 7),
  ];
  rates.saveDraft({ hotelId: HOTEL, name: 'Bench draft', edits: draftEdits });
  const properties = rates.properties().map((p) => p.hotelId);
  database.close();
  return { ruleRows, channelRules, draftEdits: draftEdits.length, properties };
}

// ---- in the page ---------------------------------------------------------------------------------------------
/** What the page functions use of the browser: this file is type-checked for Node, without the DOM library. */
interface PageElement {
  scrollLeft: number;
  scrollTop: number;
  scrollWidth: number;
  scrollHeight: number;
  clientWidth: number;
  clientHeight: number;
  textContent: string | null;
  style: { height: string; getPropertyValue(name: string): string };
  click(): void;
  scrollTo(options: { left?: number; top?: number; behavior?: string }): void;
  addEventListener(type: string, fn: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: string, fn: () => void): void;
}
interface Browser {
  document: {
    querySelector(s: string): PageElement | null;
    querySelectorAll(s: string): { length: number };
    getElementsByTagName(s: string): { length: number };
  };
  requestAnimationFrame(callback: (now: number) => void): number;
  setTimeout(fn: () => void, ms: number): number;
  gc?: () => void;
  __calendar?: Milestones;
  __calendarSoFar?: Milestones;
}
type Milestone = { found: number; painted: number } | null;
interface Milestones {
  cells: Milestone;
  rules: Milestone;
  draft: Milestone;
}

/**
 * Installed in every page before its scripts: watches each animation frame for the first rate cells, the first
 * cell showing a rule of the record, and the first drafted cell; each milestone counts as painted at the start of
 * the next frame (the frame that drew it has gone to the screen).
 */
function watchFirstRender() {
  const w = globalThis as unknown as Browser;
  if (!String((globalThis as unknown as { location: { hash: string } }).location.hash).includes('/rates')) return;
  const state: Milestones = { cells: null, rules: null, draft: null };
  w.__calendarSoFar = state;
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

interface Geometry {
  colWidth: number;
  labelWidth: number;
  headHeight: number;
  headingHeight: number;
  rowHeight: number;
  days: number;
  lines: number;
}

/** The grid's fixed sizes, read from the page (the calendar sets them as CSS variables and inline heights). */
function geometry(): Geometry {
  const { document } = globalThis as unknown as Browser;
  const cal = document.querySelector('.cal')!;
  const num = (name: string) => parseFloat(cal.style.getPropertyValue(name));
  const scroller = document.querySelector('[data-testid="rates-calendar"]') as unknown as {
    getAttribute(n: string): string;
  };
  return {
    colWidth: num('--col-w'),
    labelWidth: num('--label-w'),
    headHeight: num('--month-h') + num('--day-h'),
    headingHeight: parseFloat(document.querySelector('.cal__heading')!.style.height),
    rowHeight: parseFloat(document.querySelector('.cal__line:not(.cal__heading)')!.style.height),
    days: Number(scroller.getAttribute('aria-colcount')) - 1,
    lines: Number(scroller.getAttribute('aria-rowcount')) - 1,
  };
}

interface Fling {
  total: number;
  frames: number[];
  /** Frames whose painted picture lacked cells at the leading edge of the view. */
  blank: number;
  /** From the last scroll step until the last column or row has its cells. */
  settled: number;
  distance: number;
}

/**
 * Scrolls the grid from its start to its end by `step` px each animation frame, recording the time between frames.
 * Before each step it checks that what the last frame painted had cells at the edge the scroll moves towards
 * (the last day in view for a horizontal scroll, the last line in view for a vertical one).
 */
function fling({ axis, step, g }: { axis: 'x' | 'y'; step: number; g: Geometry }) {
  const { document, requestAnimationFrame } = globalThis as unknown as Browser;
  const el = document.querySelector('[data-testid="rates-calendar"]')!;
  const lineAt = (y: number) => {
    // Each group is a heading and three channel rows.
    const group = g.headingHeight + 3 * g.rowHeight;
    const n = Math.floor(y / group);
    const within = y - n * group;
    return Math.min(
      g.lines - 1,
      n * 4 + (within < g.headingHeight ? 0 : 1 + Math.floor((within - g.headingHeight) / g.rowHeight)),
    );
  };
  const edgeFilled = () => {
    if (axis === 'x') {
      const lastDay = Math.min(
        g.days - 1,
        Math.floor((el.scrollLeft + el.clientWidth - g.labelWidth - 1) / g.colWidth),
      );
      return document.querySelector(`[role="gridcell"][aria-colindex="${lastDay + 2}"]`) !== null;
    }
    const lastLine = lineAt(el.scrollTop + el.clientHeight - g.headHeight - 1);
    return document.querySelector(`.cal__body [aria-rowindex="${lastLine + 2}"]`) !== null;
  };
  const max = axis === 'x' ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight;
  return new Promise<Fling>((resolve) => {
    const frames: number[] = [];
    let blank = 0;
    const t0 = performance.now();
    let last = t0;
    const frame = (now: number) => {
      frames.push(now - last);
      last = now;
      if (!edgeFilled()) blank++;
      const at = axis === 'x' ? el.scrollLeft : el.scrollTop;
      if (at < max - 1) {
        if (axis === 'x') el.scrollLeft = Math.min(max, at + step);
        else el.scrollTop = Math.min(max, at + step);
        requestAnimationFrame(frame);
        return;
      }
      const scrolled = performance.now();
      const wait = () =>
        edgeFilled()
          ? resolve({
              total: scrolled - t0,
              frames: frames.slice(1),
              blank,
              settled: performance.now() - scrolled,
              distance: max,
            })
          : requestAnimationFrame(wait);
      wait();
    };
    requestAnimationFrame(frame);
  });
}

/** Jumps straight to the end of the days: time until the last day's cells are in the page. */
function jumpToEnd() {
  const { document, requestAnimationFrame } = globalThis as unknown as Browser;
  const el = document.querySelector('[data-testid="rates-calendar"]')!;
  const t0 = performance.now();
  el.scrollLeft = el.scrollWidth;
  return new Promise<number>((resolve) => {
    const check = () => {
      const cells = document.querySelectorAll('[data-testid="rate-cell"]').length;
      const last = document.querySelector('.cal__day-row [role="columnheader"]:last-child');
      const lastDay = (last as unknown as { getAttribute(n: string): string } | null)?.getAttribute('aria-colindex');
      const scroller = el as unknown as { getAttribute(n: string): string };
      if (cells && lastDay === scroller.getAttribute('aria-colcount')) resolve(performance.now() - t0);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** Back to the first day and the first row at once, and two frames to settle. */
function toStart() {
  const { document, requestAnimationFrame } = globalThis as unknown as Browser;
  const el = document.querySelector('[data-testid="rates-calendar"]')!;
  el.scrollLeft = 0;
  el.scrollTop = 0;
  return new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

interface Jump {
  /** Click → the smooth scroll ended (`scrollend`). */
  settle: number;
  /** Click → the first day of the new month has its cells in the page after the scroll ended. */
  filled: number;
  month: string;
  scrolled: boolean;
}

/** Clicks "next month" and waits for the smooth scroll to end and the month's first cells to be there. */
function nextMonth(g: Geometry) {
  const { document, requestAnimationFrame, setTimeout } = globalThis as unknown as Browser;
  const el = document.querySelector('[data-testid="rates-calendar"]')!;
  const button = document.querySelector('[data-testid="calendar-next"]')!;
  return new Promise<Jump>((resolve) => {
    let ended = false;
    const t0 = performance.now();
    let settle = 0;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      settle = performance.now() - t0;
      const first = Math.round(el.scrollLeft / g.colWidth);
      const check = () =>
        document.querySelector(`[role="gridcell"][aria-colindex="${first + 2}"]`)
          ? resolve({
              settle,
              filled: performance.now() - t0,
              month: document.querySelector('[data-testid="calendar-month"]')?.textContent?.trim() ?? '',
              scrolled: true,
            })
          : requestAnimationFrame(check);
      check();
    };
    el.addEventListener('scrollend', onEnd, { once: true });
    button.click();
    // No scroll at all (already there): no scrollend comes.
    setTimeout(() => {
      if (ended) return;
      ended = true;
      el.removeEventListener('scrollend', onEnd);
      resolve({ settle: NaN, filled: NaN, month: '', scrolled: false });
    }, 5_000);
  });
}

/**
 * Shows every part of the grid once, a screen at a time (two frames each: the calendar reads the scroll position
 * in the frame after the scroll event), so every cell has been drawn; resolves with the number of screens.
 */
function sweep(g: Geometry) {
  const { document, requestAnimationFrame } = globalThis as unknown as Browser;
  const el = document.querySelector('[data-testid="rates-calendar"]')!;
  const positions: [number, number][] = [];
  const maxLeft = el.scrollWidth - el.clientWidth;
  const maxTop = el.scrollHeight - el.clientHeight;
  for (let top = 0; ; top = Math.min(maxTop, top + el.clientHeight - g.headHeight)) {
    for (let left = 0; ; left = Math.min(maxLeft, left + el.clientWidth - g.labelWidth)) {
      positions.push([left, top]);
      if (left >= maxLeft) break;
    }
    if (top >= maxTop) break;
  }
  return new Promise<number>((resolve) => {
    let i = 0;
    const frame = () => {
      if (i === positions.length * 2) return resolve(positions.length);
      if (i % 2 === 0) [el.scrollLeft, el.scrollTop] = positions[i / 2]!;
      i++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** The JS heap as the page reports it (precise with --enable-precise-memory-info), and again after a full GC. */
function heap() {
  const w = globalThis as unknown as Browser;
  const used = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
  const raw = used();
  w.gc?.();
  return { raw, live: used(), elements: w.document.getElementsByTagName('*').length };
}

// ---- one run: a new browser context (cold cache, empty storage), the calendar loaded, then scrolled -------------
async function run(page: Page, url: string, firstDay: string, last: boolean) {
  await page.goto(`${url}#/rates`, { waitUntil: 'commit' });
  const done = await page
    .waitForFunction(() => (globalThis as unknown as Browser).__calendar ?? false, undefined, {
      polling: 100,
      timeout: 30_000,
    })
    .catch(async (error: unknown) => {
      // What the page got to: which milestones, and what the screen says.
      const state = await page
        .evaluate(() => {
          const { document, __calendarSoFar } = globalThis as unknown as Browser;
          return JSON.stringify({
            milestones: __calendarSoFar,
            cells: document.querySelectorAll('[data-testid="rate-cell"]').length,
            screen: document.querySelector('.rates')?.textContent?.replace(/\s+/g, ' ').slice(0, 300),
          });
        })
        .catch(() => 'the page did not answer');
      throw new Error(`the calendar did not finish its first render in 30 s: ${state}`, { cause: error });
    });
  const first = (await done.jsonValue()) as Milestones;
  const loaded = await page.evaluate(
    ({ hotel, firstDay }) => {
      const { document } = globalThis as unknown as Browser;
      const calls = performance
        .getEntriesByType('resource')
        .filter((r) => r.name.includes('/api/call/')) as unknown as {
        name: string;
        startTime: number;
        responseEnd: number;
      }[];
      const book = calls.find((c) => c.name.includes('rates.book'));
      return {
        cells: document.querySelectorAll('[data-testid="rate-cell"]').length,
        ownRows: document.querySelectorAll('[data-testid="rate-cell"][data-target^="rate:R01:"]').length,
        today: document.querySelectorAll(`[data-testid="rate-cell"][data-day="${firstDay}"]`).length,
        property: document.querySelector('.rates__property')?.textContent?.trim() ?? '',
        picker: document.querySelector('[data-testid="rates-property"]') !== null,
        shownHotel: (document.querySelector('.rates__property')?.textContent ?? '').includes(hotel),
        appStart: Math.min(...calls.map((c) => c.startTime)),
        bookArrived: book ? book.responseEnd : NaN,
        /** Each call before the first cells: asked → answered (ms from navigation start). */
        calls: calls.map(
          (c) => `${c.name.replace(/^.*\/api\/call\//, '')} ${Math.round(c.startTime)}→${Math.round(c.responseEnd)}`,
        ),
      };
    },
    { hotel: HOTEL, firstDay },
  );
  if (!loaded.shownHotel || loaded.picker || loaded.ownRows === 0 || loaded.today === 0)
    throw new Error(`the calendar does not show the bench property alone: ${JSON.stringify(loaded)}`);
  await page.waitForTimeout(500);
  const memLoaded = await page.evaluate(heap);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}-loaded.png` });
  const g = await page.evaluate(geometry);

  const jump = await page.evaluate(jumpToEnd);
  await page.evaluate(toStart);
  await page.waitForTimeout(300);
  const horizontal = await page.evaluate(fling, { axis: 'x' as const, step: STEP, g });
  const cellsAtEnd = await page.evaluate(
    () => (globalThis as unknown as Browser).document.querySelectorAll('[data-testid="rate-cell"]').length,
  );
  await page.evaluate(toStart);
  await page.waitForTimeout(300);
  const vertical = await page.evaluate(fling, { axis: 'y' as const, step: STEP, g });
  await page.evaluate(toStart);
  await page.waitForTimeout(300);

  const months: Jump[] = [];
  for (let i = 0; i < MONTH_JUMPS; i++) months.push(await page.evaluate(nextMonth, g));
  await page.waitForTimeout(300);
  const memScrolled = await page.evaluate(heap);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}-scrolled.png` });
  // Once, in the last run: the heap when every cell has been shown (the calendar keeps what it drew per data set).
  let memSwept: (ReturnType<typeof heap> & { screens: number }) | null = null;
  if (last) {
    const screens = await page.evaluate(sweep, g);
    await page.waitForTimeout(300);
    memSwept = { ...(await page.evaluate(heap)), screens };
  }
  return { first, loaded, g, jump, horizontal, vertical, cellsAtEnd, months, memLoaded, memScrolled, memSwept };
}

// ---- figures ---------------------------------------------------------------------------------------------------
const sorted = (xs: number[]) => xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(sorted(xs).length / 2)] ?? NaN;
const pct = (xs: number[], p: number) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '—');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const list = (xs: number[], f: (x: number) => string) => xs.map(f).join(', ');

async function main() {
  const today = localToday();
  const dir = tempDir('innkeeper-bench-calendar-');
  const t0 = performance.now();
  const seeded = seedData(dir.path, today);
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log(
    `seeded ${HOTEL}: ${setup.rooms!.length} rooms × 3 rate plans × ${CHANNELS.length} channels; record of ` +
      `${RECORD_EDITS} edits over 365 days → ${seeded.ruleRows} target-days, ${seeded.channelRules} channel rules; ` +
      `draft of ${seeded.draftEdits} edits; in ${seedSeconds.toFixed(1)} s`,
  );
  if (seeded.properties.join() !== HOTEL) throw new Error(`unexpected properties: ${seeded.properties.join()}`);

  // The built app in browser mode, as the end-to-end tests start it, without INNKEEPER_DEMO.
  delete process.env.INNKEEPER_DEMO;
  const app = await startApp({}, dir.path).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  const browser = await chromium.launch({
    ...chromiumLaunch,
    args: [...chromiumLaunch.args, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  const runs: Awaited<ReturnType<typeof run>>[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      // tsx names inner functions with an `__name` helper that the page does not have.
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      await context.addInitScript(watchFirstRender);
      const page = await context.newPage();
      const r = await run(page, app.url, today, i === RUNS - 1);
      runs.push(r);
      console.log(
        `run ${i + 1}: cells painted ${ms(r.first.cells!.painted)}, record shown ${ms(r.first.rules!.painted)}, ` +
          `draft shown ${ms(r.first.draft!.painted)}; horizontal ${ms(r.horizontal.total)} ` +
          `(${r.horizontal.frames.length} frames, p50 ${ms(median(r.horizontal.frames))}, p95 ${ms(pct(r.horizontal.frames, 0.95))}); ` +
          `vertical ${ms(r.vertical.total)} (${r.vertical.frames.length} frames, p95 ${ms(pct(r.vertical.frames, 0.95))}); ` +
          `month jumps p50 ${ms(median(r.months.map((m) => m.settle)))}; calls ${r.loaded.calls.join(', ')}`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    await stopApp(app); // removes the data folder too
  }

  const r0 = runs[0]!;
  const g = r0.g;
  const firstCells = runs.map((r) => r.first.cells!.painted);
  const firstRules = runs.map((r) => r.first.rules!.painted);
  const firstDraft = runs.map((r) => r.first.draft!.painted);
  const appStart = runs.map((r) => r.loaded.appStart);
  const bookArrived = runs.map((r) => r.loaded.bookArrived);
  // Cells drawn before the record reached them: the grid briefly shows every channel with no rule.
  const withoutRecord = runs.filter((r) => r.first.rules!.found > r.first.cells!.found);
  const withoutRecordMs = withoutRecord.map((r) => r.first.rules!.painted - r.first.cells!.painted);
  const scroll = (of: (r: (typeof runs)[number]) => Fling) => {
    const all = runs.flatMap((r) => of(r).frames);
    return {
      totals: runs.map((r) => of(r).total),
      frames: all.length / runs.length,
      p50: median(all),
      p95: pct(all, 0.95),
      max: Math.max(...all),
      long: runs.map((r) => of(r).frames.filter((f) => f > 50).length),
      blank: runs.map((r) => of(r).blank),
      settled: median(runs.map((r) => of(r).settled)),
      distance: of(r0).distance,
    };
  };
  const h = scroll((r) => r.horizontal);
  const v = scroll((r) => r.vertical);
  const jumps = runs.flatMap((r) => r.months);
  const settles = jumps.map((j) => j.settle);
  const fills = jumps.map((j) => j.filled);
  const missed = jumps.filter((j) => !j.scrolled).length;
  const monthsSeen = r0.months.map((m) => m.month);
  const memLoaded = runs.map((r) => r.memLoaded);
  const memScrolled = runs.map((r) => r.memScrolled);
  const rows = g.lines;
  const channelRows = targets.length * CHANNELS.length;
  const swept = runs.at(-1)!.memSwept!;

  const table: [string, string][] = [
    [
      `first render (navigation to \`#/rates\` → first rate cells painted), ${RUNS} runs`,
      `median ${ms(median(firstCells))}, p95 ${ms(pct(firstCells, 0.95))} (${list(firstCells, ms)})`,
    ],
    [`… the record's rules painted in the cells`, `median ${ms(median(firstRules))}, p95 ${ms(pct(firstRules, 0.95))}`],
    [
      `… cells painted before the record's rules reached them (all showing "no rule")`,
      withoutRecord.length ? `${withoutRecord.length} of ${RUNS} runs, for ${list(withoutRecordMs, ms)}` : `never`,
    ],
    [`… the draft's edits painted in the cells`, `median ${ms(median(firstDraft))}, p95 ${ms(pct(firstDraft, 0.95))}`],
    [
      `… of which: bundle loaded until the app's first call / \`rates.book\` answered`,
      `median ${ms(median(appStart))} / ${ms(median(bookArrived))}`,
    ],
    [
      `rate cells in the page (of ${(channelRows * g.days).toLocaleString('en')})`,
      `${r0.loaded.cells} at first render, ${r0.cellsAtEnd} at the last day; page elements ${r0.memLoaded.elements} → ${r0.memScrolled.elements}`,
    ],
    [
      `horizontal scroll, first → last day (${h.distance.toLocaleString('en')} px at ${STEP} px per frame)`,
      `median ${ms(median(h.totals))} over ${Math.round(h.frames)} frames; frame p50 ${ms(h.p50)}, p95 ${ms(h.p95)}, max ${ms(h.max)}; ` +
        `frames over 50 ms per run ${h.long.join(', ')}; last day filled ${ms(h.settled)} after`,
    ],
    [
      `vertical scroll, all ${rows} rows (${v.distance.toLocaleString('en')} px at ${STEP} px per frame)`,
      `median ${ms(median(v.totals))} over ${Math.round(v.frames)} frames; frame p50 ${ms(v.p50)}, p95 ${ms(v.p95)}, max ${ms(v.max)}; ` +
        `frames over 50 ms per run ${v.long.join(', ')}`,
    ],
    [
      `frames painted without cells at the leading edge (horizontal / vertical), per run`,
      `${h.blank.join(', ')} / ${v.blank.join(', ')}`,
    ],
    [
      `jump to the last day (scrollLeft = end → its cells in the page)`,
      `median ${ms(median(runs.map((r) => r.jump)))}`,
    ],
    [
      `month jumps (\`calendar-next\` × ${MONTH_JUMPS}, smooth scroll): click → \`scrollend\``,
      `median ${ms(median(settles))}, p95 ${ms(pct(settles, 0.95))}; new month's cells there: median ${ms(median(fills))}` +
        (missed ? `; ${missed} clicks did not scroll` : ''),
    ],
    [
      `JS heap after load (usedJSHeapSize / after a full GC)`,
      `median ${mib(median(memLoaded.map((m) => m.raw)))} / ${mib(median(memLoaded.map((m) => m.live)))}`,
    ],
    [
      `JS heap after the scrolls and month jumps`,
      `median ${mib(median(memScrolled.map((m) => m.raw)))} / ${mib(median(memScrolled.map((m) => m.live)))}`,
    ],
    [
      `JS heap after every cell was shown once (${swept.screens} screens, last run only)`,
      `${mib(swept.raw)} / ${mib(swept.live)}`,
    ],
  ];
  const width = Math.max(...table.map(([k]) => k.length));
  console.log('');
  for (const [k, val] of table) console.log(`${k.padEnd(width)}  ${val}`);
  console.log(`months shown by the jumps: ${monthsSeen.join(' → ')}`);

  writeSection(
    'Rates calendar in Chromium',
    `## Rates calendar in Chromium (\`npm run bench:calendar\`)

${machineLine()}; Debian Chromium (headless, no GPU, \`--enable-precise-memory-info\`), viewport ${VIEWPORT.width}×${VIEWPORT.height}, the
built app in browser mode. One property (${HOTEL}, no demo properties): ${setup.rooms!.length} rooms × (inventory + 3 rate
plans) × ${CHANNELS.length} channels = ${rows} lines (${targets.length} headings, ${channelRows} channel rows) × ${g.days} days (today … today+${MAX_DAYS_AHEAD}), ${g.colWidth} px
columns. The record (what Su holds, \`rate_rules\`) is ${RECORD_EDITS} random edits over the next 365 days (1–14 days each, random
channels; Fixed / Increase / Decrease / Multiply / closed / removed) applied with \`applyToBook\`: ${seeded.ruleRows.toLocaleString('en')}
target-days, ${seeded.channelRules.toLocaleString('en')} channel rules. The draft (\`saveDraft\`) holds ${seeded.draftEdits} random edits
over the 501 days. Each of the ${RUNS} runs is a new browser context (cold cache, empty storage) loading \`#/rates\`; times
are taken in the page (\`performance.now\`, \`requestAnimationFrame\`); "painted" is the start of the frame after the one
that drew it; with ${RUNS} runs the p95 is the slowest run. Scrolls set \`scrollLeft\`/\`scrollTop\` once per animation
frame (as a fling would), the frame figures pool all runs; a 60 Hz display gives 16.7 ms frames at best.

| measure | result |
| --- | --- |
${table.map(([k, val]) => `| ${k} | ${val} |`).join('\n')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
