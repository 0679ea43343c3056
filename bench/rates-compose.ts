// Composing a year of rules for 10 rooms × 3 rate plans × 3 channels (plus inventory) from a thousand random edits:
// time to compose the request, and ranges sent against the fewest possible (one per run of consecutive touched days
// with identical rule sets). Run: npm run bench:rates   (writes its section of bench/RESULTS.md)
import { performance } from 'node:perf_hooks';
import { addDays } from '../src/shared/schemas/inventory';
import {
  applyToBook,
  composeRequest,
  daysOf,
  targetKey,
  type RuleEdit,
  type Target,
} from '../src/shared/ratesComposer';
import { machineLine, writeSection } from './results';

const START = '2027-01-01';
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
const edits: RuleEdit[] = Array.from({ length: 1000 }, () => {
  const target = targets[Math.floor(random() * targets.length)]!;
  const from = addDays(START, Math.floor(random() * 365));
  const to = addDays(from, Math.floor(random() * 14));
  const channels = CHANNELS.filter(() => random() < 0.5);
  let rule = RULES[Math.floor(random() * RULES.length)]!;
  if (target.level === 'inventory' && rule && (rule.type === 'Multiply' || rule.closed))
    rule = { type: 'Fixed', value: 3 };
  return { target, from, to, channels: channels.length ? channels : ['19'], rule };
});

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
writeSection(
  'rates',
  `## Rates composer (\`npm run bench:rates\`)

${machineLine()}. 10 rooms × (inventory + 3 rate plans) × 3 channels over a year, 1,000 random edits (1–14 days,
random channels, Fixed / Increase / Decrease / Multiply / closed / remove), composed from an empty "last pushed" book.

| compose, median of 15 | max | ranges sent | fewest possible | touched target-days | request size |
| --- | --- | --- | --- | --- | --- |
| ${median.toFixed(1)} ms | ${times.at(-1)!.toFixed(1)} ms | ${ranges} | ${minimum} | ${touchedDays} | ${(bytes / 1024).toFixed(0)} KiB |

Render and scroll of the calendar in Chromium are not measured: the calendar screen does not exist yet (issue 5 is open).`,
);
