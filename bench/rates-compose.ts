// Composing a year of rules for 10 rooms × 3 rate plans × 3 channels (plus inventory) from a thousand random edits:
// time to compose the request, ranges sent against the fewest possible (one per run of consecutive touched days
// with identical rule sets), and the screen's preview (the draft read from SQLite, composed on top of a year of
// rules already pushed, diffed day by day). Run: npm run bench:rates   (writes its section of bench/RESULTS.md)
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createOutbox } from '../src/main/outbox/outbox';
import { createRatesService, RATES_KIND } from '../src/main/rates/ratesService';
import { tempDir } from '../test/support/tempDir';
import { addDays, localToday } from '../src/shared/dates';
import { applyToBook, composeRequest, targetKey, type RuleEdit, type Target } from '../src/shared/ratesComposer';
import { daysOf } from '../src/shared/dates';
import { machineLine, writeSection } from './results';
import { openAppDatabase } from '../src/main/schema';

// Within the 500 days Su accepts, whatever day the bench runs.
const START = addDays(localToday(), 30);
const CHANNELS = ['244', '19', '9'];
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const targets: Target[] = [];
for (let r = 0; r < 10; r++) {
  targets.push({ level: 'inventory', roomId: `R${r}` });
  for (const rate of ['BAR', 'NRF', 'WEEK']) targets.push({ level: 'rate', roomId: `R${r}`, rateId: rate });
}
const RULES: RuleEdit['rule'][] = [
  { type: 'Fixed', value: 120 },
  { type: 'Increase', value: 10 },
  { type: 'Decrease', value: 5 },
  { type: 'Multiply', value: 0.9 },
  { closed: true },
  null,
];
const randomEdits = (n: number): RuleEdit[] =>
  Array.from({ length: n }, () => {
    const target = targets[Math.floor(random() * targets.length)]!;
    const from = addDays(START, Math.floor(random() * 365));
    const to = addDays(from, Math.floor(random() * 14));
    const channels = CHANNELS.filter(() => random() < 0.5);
    let rule = RULES[Math.floor(random() * RULES.length)]!;
    if (target.level === 'inventory' && rule && (rule.type === 'Multiply' || rule.closed))
      rule = { type: 'Fixed', value: 3 };
    return { target, from, to, channels: channels.length ? channels : ['19'], rule };
  });
const edits = randomEdits(1000);

const book = new Map();
const times: number[] = [];
let request = composeRequest('IK-DEMO-001', book, edits);
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  request = composeRequest('IK-DEMO-001', book, edits);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const ranges = [...(request.inventorycontrol ?? []), ...(request.ratecontrol ?? [])].reduce(
  (n, c) => n + c.date.length,
  0,
);

// The fewest possible ranges, counted independently from the intended result.
const intended = applyToBook(book, edits);
let minimum = 0;
let touchedDays = 0;
for (const target of targets) {
  const key = targetKey(target);
  const touched = [
    ...new Set(edits.filter((e) => targetKey(e.target) === key).flatMap((e) => daysOf(e.from, e.to))),
  ].sort();
  touchedDays += touched.length;
  let prev: string | null = null;
  let prevSet = '';
  for (const d of touched) {
    const set = JSON.stringify(Object.entries(intended.get(key)?.get(d) ?? {}).sort());
    if (prev === null || addDays(prev, 1) !== d || set !== prevSet) minimum++;
    prev = d;
    prevSet = set;
  }
}
const bytes = JSON.stringify(request).length;
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `compose: median ${median.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; ${ranges} ranges sent, minimum ${minimum}; ${touchedDays} touched target-days; request ${(bytes / 1024).toFixed(0)} KiB`,
);

// ---- the preview, as the screen asks for it: a year already pushed (the record), the draft on top ---------------
const dir = tempDir('innkeeper-bench-');
const database = openAppDatabase(join(dir.path, 'innkeeper.db'));
const outbox = createOutbox({
  db: database,
  now: Date.now,
  random: Math.random,
  kinds: { [RATES_KIND]: { send: async () => ({}) } },
});
const rates = createRatesService({ database, outbox, now: Date.now });
const record = applyToBook(new Map(), randomEdits(1000));
const write = database.db.prepare('INSERT INTO rate_rules (hotel_id, target, day, rules) VALUES (?, ?, ?, ?)');
database.transaction(() => {
  for (const [target, days] of record)
    for (const [day, set] of days) write.run('IK-DEMO-001', target, day, JSON.stringify(set));
});
const recordRows = [...record.values()].reduce((n, days) => n + days.size, 0);
rates.saveDraft({ hotelId: 'IK-DEMO-001', name: 'bench', edits: edits as never });
const previewTimes: number[] = [];
let preview = rates.preview('IK-DEMO-001');
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  preview = rates.preview('IK-DEMO-001');
  previewTimes.push(performance.now() - t0);
}
previewTimes.sort((a, b) => a - b);
database.close();
dir.remove();
const previewMedian = previewTimes[Math.floor(previewTimes.length / 2)]!;
const previewRanges = [
  ...((preview.request as typeof request).inventorycontrol ?? []),
  ...((preview.request as typeof request).ratecontrol ?? []),
].reduce((n, c) => n + c.date.length, 0);
console.log(
  `preview over ${recordRows} recorded target-days: median ${previewMedian.toFixed(1)} ms, max ${previewTimes.at(-1)!.toFixed(1)} ms; ${preview.days.length} changed target-days, ${previewRanges} ranges`,
);
writeSection(
  'rates',
  `## Rates composer (\`npm run bench:rates\`)

${machineLine()}. 10 rooms × (inventory + 3 rate plans) × 3 channels over a year, 1,000 random edits (1–14 days,
random channels, Fixed / Increase / Decrease / Multiply / closed / remove).

Composing from an empty "last pushed" record:

| compose, median of 15 | max | ranges sent | fewest possible | touched target-days | request size |
| --- | --- | --- | --- | --- | --- |
| ${median.toFixed(1)} ms | ${times.at(-1)!.toFixed(1)} ms | ${ranges} | ${minimum} | ${touchedDays} | ${(bytes / 1024).toFixed(0)} KiB |

The screen's preview (\`rates.preview\`: the draft read from SQLite, composed on top of a record of ${recordRows}
target-days from another 1,000 edits, and diffed day by day against it):

| preview, median of 15 | max | changed target-days | ranges in the request |
| --- | --- | --- | --- |
| ${previewMedian.toFixed(1)} ms | ${previewTimes.at(-1)!.toFixed(1)} ms | ${preview.days.length} | ${previewRanges} |

Render and scroll of the calendar in Chromium: see "Rates calendar in Chromium" (\`npm run bench:calendar\`).`,
);
