// Scale (issue 27, item 4): the demo's small file against a large one, in the same run and the same build. The small
// file is what the demo makes on a first start (its property, its sample inbox); the large one is the same with 50
// properties × 10 rooms (× 3 rate plans × 3 channels, a year of rules and a draft each, as bench:calendar's property)
// and 500,000 messages in 100,000 conversations over them, filed with the app's own code. On each: the core's later
// start (`node out/main/web.js` spawned → its first call answered), the inbox's first page (`inbox.threads`, 100
// rows, as the screen asks), two searches (a rare word and a common one), `rates.properties`, and a backup of the
// file (the core's own `takeBackup`, as after each start). Each is printed as a ratio large / small; the last line
// is the worst of start, first page and search (goal ≤ 3×).
// Run: npm run bench:scale   (uses the built app: `npm run build` first; writes its section of bench/RESULTS.md)
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createConfSettings } from '../src/main/config/settings';
import { takeBackup } from '../src/main/db/backup';
import { createOutbox } from '../src/main/outbox/outbox';
import { createRatesService, RATES_KIND, type RatesKinds } from '../src/main/rates/ratesService';
import { addDays, localToday } from '../src/shared/dates';
import type { PropertySetupInput } from '../src/shared/rateSetups';
import { applyToBook, type ChannelRule, type RuleEdit, type Target } from '../src/shared/ratesComposer';
import { MAX_DAYS_AHEAD } from '../src/shared/su/inventory';
import { tempDir } from '../test/support/tempDir';
import { seed as seedInbox } from './inboxSeed';
import { machineLine, writeSection } from './results';
import { startWeb, sleep } from './webCore';
import { openAppDatabase } from '../src/main/schema';

const LOAD_AT_START = loadavg()[0]!.toFixed(1);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 500_000);
const THREADS = MESSAGES / 5;
const GOAL = 3;
const PROPERTIES = 50;
const CHANNELS = ['244', '19', '9'];
const RECORD_EDITS = 1000;
const DRAFT_EDITS = 200;

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(x < 10 ? 1 : 0)).join(', ');

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times;
}

/** Later starts of the core on each folder, the folders taking turns (both see the same minutes of the machine). */
async function starts(dirs: string[]): Promise<number[][]> {
  const times = dirs.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++)
    for (const [d, dir] of dirs.entries()) {
      const app = await startWeb(dir);
      times[d]!.push(app.firstCall);
      await sleep(3000); // its integrity check and backup done, as an owner's start would
      await app.stop();
    }
  return times;
}

/** The figures on one data folder: the inbox's calls, and a backup of the file. */
async function measure(dir: string, start: number[]) {
  const dbPath = join(dir, 'innkeeper.db');
  const app = await startWeb(dir);
  await sleep(3000);
  const page = (args: object) => () => app.call('inbox.threads', { limit: 100, ...args });
  const figures = {
    start,
    firstPage: await timed(9, page({})),
    rare: await timed(7, page({ search: 'jacuzzi' })),
    common: await timed(7, page({ search: 'parking' })),
    properties: await timed(9, () => app.call('rates.properties')),
    threads: ((await app.call('inbox.threads', { limit: 1 })) as { total?: number }).total,
  };
  await app.stop();
  const database = openAppDatabase(dbPath);
  const backup = await timed(3, () => takeBackup(database.db, dbPath, Date.now()));
  database.close();
  return { ...figures, backup, fileMiB: statSync(dbPath).size / 1024 / 1024 };
}

/** A data folder as the demo leaves it after a first start: its property, its sample inbox delivered. */
async function demoFirstStart(dir: string) {
  const app = await startWeb(dir);
  await sleep(6000);
  await app.stop();
}

async function main() {
  const today = localToday();
  const small = tempDir('innkeeper-bench-scale-small-');
  const large = tempDir('innkeeper-bench-scale-large-');
  await demoFirstStart(small.path);
  const t0 = performance.now();
  const rates = seedData(large.path, PROPERTIES, today);
  seedInbox(join(large.path, 'innkeeper.db'), { threads: THREADS, messages: MESSAGES, hotels: rates.hotels });
  const seedSeconds = (performance.now() - t0) / 1000;
  await demoFirstStart(large.path);
  console.log(`seeded ${PROPERTIES} properties and ${MESSAGES} messages in ${seedSeconds.toFixed(0)} s`);
  // Small and large measured back to back, their starts taking turns, so that both see the same minutes of the machine.
  const [smallStarts, largeStarts] = await starts([small.path, large.path]);
  const one = await measure(small.path, smallStarts!);
  const many = await measure(large.path, largeStarts!);
  small.remove();
  large.remove();
  const ratio = (of: (m: typeof one) => number[]) => median(of(many)) / median(of(one));
  const rows = [
    { label: 'core start (spawned → first call answered, a later start)', of: (m: typeof one) => m.start, goal: true },
    { label: 'inbox first page (`inbox.threads`, 100 rows)', of: (m: typeof one) => m.firstPage, goal: true },
    { label: 'search, a rare word (`jacuzzi`)', of: (m: typeof one) => m.rare, goal: true },
    { label: 'search, a common word (`parking`)', of: (m: typeof one) => m.common, goal: true },
    { label: 'backup of the file (`takeBackup`)', of: (m: typeof one) => m.backup, goal: false },
    { label: '`rates.properties`', of: (m: typeof one) => m.properties, goal: false },
  ];
  const worst = Math.max(...rows.filter((r) => r.goal).map((r) => ratio(r.of)));
  const last = `worst of start, first page, search = ${worst.toFixed(2)}× the small file (goal ≤ ${GOAL})`;
  const markdown = `## Scale: ${PROPERTIES} properties and ${MESSAGES.toLocaleString('en')} messages against the demo's file (\`npm run bench:scale\`)

${machineLine()}; load average ${LOAD_AT_START} at the start, ${loadavg()[0]!.toFixed(1)} at the end. The small file: a first start of the demo
(its property, its sample inbox; ${one.fileMiB.toFixed(1)} MiB, ${one.threads} conversations). The large: the same plus ${PROPERTIES} properties × 10 rooms (× 3 rate
plans × 3 channels, ${RECORD_EDITS.toLocaleString('en')} random rule edits over the next year and a draft of ${DRAFT_EDITS} each: ${rates.ruleRows.toLocaleString('en')} target-days) and
${MESSAGES.toLocaleString('en')} messages in ${THREADS.toLocaleString('en')} conversations over them, filed with the app's \`fileMessage\` (the file ${many.fileMiB.toFixed(0)} MiB, ${many.threads?.toLocaleString('en')} conversations; seeded
in ${seedSeconds.toFixed(0)} s). Each measured on the built core as \`npm run web\` runs it, ${RUNS} later
starts of each, taking turns, then on the small file and right after on the large: calls over /api/call (the first of each counted), then 3 backups with the core stopped.

| measure | demo's small file | large file | large / small |
| --- | --- | --- | --- |
${rows.map((r) => `| ${r.label} | ${ms(median(r.of(one)))} (${list(r.of(one))}) | ${ms(median(r.of(many)))} (${list(r.of(many))}) | **${ratio(r.of).toFixed(2)}×** |`).join('\n')}

**${last}.**`;
  console.log(markdown);
  writeSection('scale', markdown);
  console.log(last);
}

await main();
