// The core's start and its resident memory. Browser mode as `npm run web` runs it (`node out/main/web.js`): from
// spawning the process to the web host listening (the "Open:" line) and to the core answering its first call
// (`app.info` over /api/call), on an empty data folder (first start) and on the same folder again (a later start);
// in-process, as the host calls it (`startCore`: every feature built, the demo provider among them, and started), after the imports;
// and the core's RSS after start, after the inbox seed (10,000 threads, 50,000 messages), after 10,000 pushes and
// after the inbox's calls. Run: npm run bench:start   (uses the built app: `npm run build` first; writes RESULTS.md)
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fixtureText } from '../test/support/fixtures';
import { machineLine, writeSection } from './results';
import { memory, sleep, startWeb } from './webCore';
import { seed as seedInbox } from './inboxSeed';

const LOAD_AT_START = loadavg()[0]!.toFixed(1);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PUSHES = 10_000;
const PUSH_USER = 'bench';
const PUSH_PASSWORD = 'bench-password-0123456789';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

async function browserMode() {
  const emptyFigures = () => ({
    listening: [] as number[],
    call: [] as number[],
    cpu: [] as number[],
    rss: [] as number[],
    settled: [] as number[],
  });
  const first = emptyFigures();
  const later = emptyFigures();
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'innkeeper-bench-start-'));
    for (const figures of [first, later]) {
      const app = await startWeb(dir);
      figures.listening.push(app.listening);
      figures.call.push(app.firstCall);
      figures.cpu.push(app.cpu);
      figures.rss.push(memory(app.child.pid!).rss);
      // Settled: the demo's sample inbox delivered, the demo's photos drawn, the first backup taken.
      await sleep(4000);
      figures.settled.push(memory(app.child.pid!).rss);
      await app.stop();
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `run ${run + 1}: first start ${ms(first.listening.at(-1)!)} / ${ms(first.call.at(-1)!)}, later ${ms(later.listening.at(-1)!)} / ${ms(later.call.at(-1)!)}`,
    );
  }
  return { first, later };
}

async function inProcess() {
  const t0 = performance.now();
  const { startCore } = await import('../src/main/core');
  const { createConfSettings } = await import('../src/main/config/settings');
  const { createFileSecrets } = await import('../src/main/config/secrets');
  const imports = performance.now() - t0;
  const first: number[] = [];
  const later: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'innkeeper-bench-start-'));
    for (const times of [first, later]) {
      const t = performance.now();
      const core = await startCore({
        host: 'browser',
        version: 'bench',
        dataDir: dir,
        settings: createConfSettings(dir),
        secrets: createFileSecrets(dir),
        options: { demo: { deliveries: false }, intakeEnv: { port: 0 } },
      });
      times.push(performance.now() - t);
      await core.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return { imports, first, later };
}

/** RSS of a core on a seeded inbox, then after 10,000 pushes (32 connections, every push new), then the inbox's calls. */
async function underLoad() {
  const dir = mkdtempSync(join(tmpdir(), 'innkeeper-bench-start-'));
  const t = performance.now();
  seedInbox(join(dir, 'innkeeper.db'));
  const seedSeconds = (performance.now() - t) / 1000;
  const env = { INNKEEPER_DEMO_INBOX: '0', INNKEEPER_PUSH_USER: PUSH_USER, INNKEEPER_PUSH_PASSWORD: PUSH_PASSWORD };
  // Later starts on the seeded inbox: what an owner with a year of messages waits for (the file's integrity check and
  // backup read the whole file).
  const seeded = { listening: [] as number[], call: [] as number[], cpu: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    const started = await startWeb(dir, env);
    seeded.listening.push(started.listening);
    seeded.call.push(started.firstCall);
    seeded.cpu.push(started.cpu);
    await sleep(2500); // its integrity check and backup done, as an owner's start would
    await started.stop();
  }
  console.log(`seeded inbox: later starts ${seeded.call.map(ms).join(', ')} to core ready`);
  const app = await startWeb(dir, env);
  const pid = app.child.pid!;
  const afterStart = memory(pid);
  const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
  let n = 0;
  const result = await autocannon({
    url: app.pushUrl!,
    connections: 32,
    amount: PUSHES,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`,
    },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...template, messageid: `bench-start-${n++}`, threadid: `bench-t-${n % 1000}` }),
        }),
      },
    ],
  });
  if (result.non2xx || result.errors)
    throw new Error(`pushes refused: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const afterPushes = memory(pid);
  // What the inbox screen asks for: the first page, the end of the list, searches.
  await app.call('inbox.threads', { limit: 100 });
  await app.call('inbox.threads', { limit: 100, offset: 10_900 });
  for (const search of ['jacuzzi', 'parking', 'late check']) await app.call('inbox.threads', { limit: 100, search });
  const afterCalls = memory(pid);
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
  return { seedSeconds, seeded, afterStart, afterPushes, afterCalls, pushRate: result.requests.average };
}

async function main() {
  const browser = await browserMode();
  const core = await inProcess();
  const load = await underLoad();
  const row = (label: string, xs: number[]) => `| ${label} | median ${ms(median(xs))} (${list(xs)}) |`;
  const rss = (label: string, xs: number[]) => `| ${label} | median ${mib(median(xs))} (${xs.map(mib).join(', ')}) |`;
  const markdown = `## Core start and memory (\`npm run bench:start\`)

${machineLine()} (load average ${LOAD_AT_START} at the start${Number(LOAD_AT_START) >= 1.5 ? ': other work ran on the same 2 cores' : ''}); ${RUNS} runs of each. Browser mode as \`npm run web\` runs it after its build: \`node out/main/web.js\`
spawned with a free web and push port, timed from the spawn (Node's own start included) to the web host listening
(its "Open:" line) and to the core answering its first call (\`app.info\` over /api/call). The first start is on an
empty data folder (migrations, the demo's rooms, property and payment accounts entered); a later start opens the same
folder again. Every start runs the restore check and the write probe, and \`quick_check\` on a worker thread, before the
listener acknowledges anything.

| measure | result |
| --- | --- |
${row('first start: process spawned → web host listening', browser.first.listening)}
${row('first start: → first call answered ("core ready")', browser.first.call)}
${row('… CPU time the core used until then (user + system, all threads)', browser.first.cpu)}
${row('later start: process spawned → web host listening', browser.later.listening)}
${row('later start: → first call answered ("core ready")', browser.later.call)}
${row('… CPU time the core used until then', browser.later.cpu)}
${row('later start on the seeded inbox below (10,000 threads, 50,000 messages): → web host listening', load.seeded.listening)}
${row('… → first call answered ("core ready")', load.seeded.call)}
${row('… CPU time the core used until then', load.seeded.cpu)}
| in-process \`startCore\` (every feature built and started, the demo provider among them), after ${ms(core.imports)} of imports under tsx | first start median ${ms(median(core.first))} (${list(core.first)}); later start median ${ms(median(core.later))} (${list(core.later)}) |
${rss('core RSS at "core ready", first start (demo, sample inbox on its way)', browser.first.rss)}
${rss('… 4 s later (sample inbox delivered, demo photos drawn, backup taken)', browser.first.settled)}
${rss('core RSS at "core ready", later start', browser.later.rss)}

Under load (one run): a data folder seeded with the app's own \`fileMessage\` (10,000 threads, 50,000 messages;
${load.seedSeconds.toFixed(1)} s), the app started on it, then ${PUSHES.toLocaleString('en')} pushes at 32 connections (every
one a new message, valid credentials; ${load.pushRate.toFixed(0)} req/s), then the inbox's calls (first page, the end of the
list, three searches).

| core RSS | current | peak (VmHWM) |
| --- | --- | --- |
| after start on the seeded inbox | ${mib(load.afterStart.rss)} | ${mib(load.afterStart.peak)} |
| after ${PUSHES.toLocaleString('en')} pushes | ${mib(load.afterPushes.rss)} | ${mib(load.afterPushes.peak)} |
| after the inbox's calls | ${mib(load.afterCalls.rss)} | ${mib(load.afterCalls.peak)} |`;
  console.log(markdown);
  writeSection('start', markdown);
}

await main();
