// Photo imports beside the core's other work (issue 27, item 3). The built core as `npm run web` runs it, on a temp
// data folder on the demo; its RSS idle, then 4 large photos added through the same calls the Photos screen makes
// (photos.addStart, the bytes in PHOTO_CHUNK_BYTES chunks, each the body of its call, photos.addFinish): one after
// another, then 4 at once. All the while, every 20 ms, a cheap call (`app.info` over /api/call) and a push (a new
// message to the push listener) are sent and each one's answer is timed (by a worker thread, apart from the photos'
// sending; both over node:http, which takes less of the processors the core needs than fetch), and the RSS of the
// core and of its image reader process (its child, found in /proc) is sampled. The photos: a 16000×16000 PNG of a
// few KB (a decompression bomb: refused from its header) and three 24-megapixel JPEGs of camera-like detail. After
// the imports the probes go on until the reader process ended (it does after 15 s without a file) and 3 s more: is
// the core back near its idle RSS? How busy the rest of the machine was is printed for the idle probes and each phase.
// The last line: the longest call or push wait during the imports (goal ≤ 50 ms) and the core's peak RSS over idle.
// Run: npm run bench:photos   (uses the built app: `npm run build` first; writes its section of bench/RESULTS.md)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { CALL_ARGS_HEADER, CALL_BYTES_TYPE } from '../src/shared/callBytes';
import { PHOTO_CHUNK_BYTES } from '../src/shared/photos';
import { fixtureText } from '../test/support/fixtures';
import { cpuTicks, machineLine, writeSection } from './results';
import { memory, sleep, startWeb, type Started } from './webCore';

const LOAD_AT_START = loadavg()[0]!.toFixed(1);
const PUSH_USER = 'bench';
const PUSH_PASSWORD = 'bench-password-0123456789';
const PROBE_EVERY_MS = 20;
/** A request with no answer by then fails (a probe counts as failed) rather than holding the run forever. */
const ANSWER_WITHIN_MS = 30_000;
const GOAL_MS = 50;
const HOTEL = 'IK-DEMO-001';

const mib = (kib: number) => kib / 1024;
const MiB = (kib: number) => `${mib(kib).toFixed(0)} MiB`;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const busyText = (b: { othersPct: number; stealPct: number }) =>
  `others ${b.othersPct.toFixed(0)} %, steal ${b.stealPct.toFixed(0)} %`;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

/** The processes a process started, and theirs (the core's image reader), from /proc. */
function descendants(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * The machine's CPU time in ticks (USER_HZ) from /proc/stat: all of it, busy in processes, and stolen by its host.
 * Interrupt time is counted in the total but not as busy: the loopback traffic of the benchmark and the core is in it,
 * and a process's own ticks do not include it.
 */
function machineTicks(): { total: number; busy: number; steal: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number) as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system;
  return { total: busy + irq + softirq + idle + iowait + steal, busy, steal };
}

/** The CPU ticks a process ran, its threads' and its ended children's (0 once it is gone). */
function processTicks(pid: number): number {
  try {
    return cpuTicks(pid, true);
  } catch {
    return 0;
  }
}

/**
 * How busy the rest of the machine was over a span: the share of its processors (of all of them, in %) that
 * processes other than this benchmark, the core and the core's children ran, and the share its host took away
 * (steal). A span in which others used the processors is not a quiet machine's.
 */
function machineWatch(corePid: number) {
  // A child that ends and is reaped between reading it and reading the core moves its ticks into the core's: read
  // again until the core's children are the same before and after.
  const ours = () => {
    let sum = 0;
    for (let attempt = 0; attempt < 5; attempt++) {
      const children = descendants(corePid);
      sum = [process.pid, corePid, ...children].reduce((total, pid) => total + processTicks(pid), 0);
      if (descendants(corePid).join() === children.join()) break;
    }
    return sum;
  };
  const start = { machine: machineTicks(), ours: ours() };
  return () => {
    const machine = machineTicks();
    const total = machine.total - start.machine.total || 1;
    const others = Math.max(0, machine.busy - start.machine.busy - (ours() - start.ours));
    return { othersPct: (100 * others) / total, stealPct: (100 * (machine.steal - start.machine.steal)) / total };
  };
}

/** The summed RSS and peak RSS (VmHWM) of a process's descendants that run, in KiB (0 when there are none). */
function childMemory(pid: number): { rss: number; peak: number; count: number } {
  let rss = 0;
  let peak = 0;
  let count = 0;
  for (const child of descendants(pid)) {
    try {
      const m = memory(child);
      if (Number.isNaN(m.rss)) continue; // a zombie: ended, not yet reaped
      rss += m.rss;
      peak += m.peak;
      count++;
    } catch {
      // ended meanwhile
    }
  }
  return { rss, peak, count };
}

interface Photo {
  name: string;
  bytes: Buffer;
}

/** The photos, made here before the core starts: a pixel bomb and three camera-sized JPEGs. */
async function makePhotos(): Promise<Photo[]> {
  const bomb = await sharp({ create: { width: 16_000, height: 16_000, channels: 3, background: '#7a9' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const camera = async (seed: number) => {
    // Noise softened by a blur and a gradient: about as much detail per pixel as a camera's JPEG has.
    const noise = await sharp({
      create: {
        width: 6000,
        height: 4000,
        channels: 3,
        background: '#000', // under the noise
        noise: { type: 'gaussian', mean: 110 + seed * 10, sigma: 40 },
      },
    })
      .blur(0.8)
      .raw()
      .toBuffer();
    return sharp(noise, { raw: { width: 6000, height: 4000, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer();
  };
  return [
    { name: 'bomb-16000x16000.png', bytes: bomb },
    { name: 'terrace-24mp.jpg', bytes: await camera(1) },
    { name: 'bedroom-24mp.jpg', bytes: await camera(2) },
    { name: 'garden-24mp.jpg', bytes: await camera(3) },
  ];
}

/** The chunks' connections, kept open between chunks as a browser keeps them. */
const chunkAgent = new Agent({ keepAlive: true });

/**
 * A POST over node:http, answering the body as text. Not `fetch`: with undici's, this thread ran 2.0 s of the 4
 * imports at once against 1.3 s with node:http (perf sched, 2026-11-29), processor time taken from the core on a
 * machine of two.
 */
function post(url: string, body: Uint8Array, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', agent: chunkAgent, headers: { ...headers, 'content-length': String(body.byteLength) } },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(text);
          else reject(new Error(`${url} answered ${status}: ${text.slice(0, 300)}`));
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(ANSWER_WITHIN_MS, () =>
      request.destroy(new Error(`${url}: no answer in ${ANSWER_WITHIN_MS} ms`)),
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Adds a file as the Photos screen does; answers the finish's whole answer and how long the add took. */
async function addPhoto(app: Started, photo: Photo) {
  const t = performance.now();
  const { uploadId } = (await app.call('photos.addStart', {
    hotelId: HOTEL,
    fileName: photo.name,
    bytes: photo.bytes.length,
    assignments: { property: true, rooms: [] },
  })) as { uploadId: string };
  // As the page sends them: each chunk's bytes as the call's body, its other arguments in a header.
  for (let offset = 0; offset < photo.bytes.length; offset += PHOTO_CHUNK_BYTES) {
    const body = photo.bytes.subarray(offset, offset + PHOTO_CHUNK_BYTES);
    const answer = JSON.parse(
      await post(`${app.url.origin}/api/call/photos.addChunk`, body, {
        authorization: `Bearer ${app.url.searchParams.get('session')}`,
        'content-type': CALL_BYTES_TYPE,
        [CALL_ARGS_HEADER]: JSON.stringify({ uploadId, offset }),
      }),
    ) as { ok: boolean; error?: unknown };
    if (!answer.ok) throw new Error(`photos.addChunk: ${JSON.stringify(answer.error)}`);
  }
  const answer = await app.send('photos.addFinish', { uploadId });
  return { name: photo.name, ok: answer.ok, ms: performance.now() - t };
}

/**
 * The probes' timing, in a worker thread of its own: the main thread sends the photos (four files at once; until
 * 2026-11-29 17:30 as base64 and JSON of 175 KB a chunk), and a probe timed there waited for that work as well as for
 * the core (up to 47 ms of this process's own lag in runs before 2026-11-29 17:00). Every 20 ms a call and a push, each timed from its send to
 * its answer; the worker's own event-loop delay is reported beside them.
 */
const PROBE_WORKER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');
const http = require('node:http');
let calls = [], pushes = [], failures = 0, n = 0, timer = null;
const loop = monitorEventLoopDelay({ resolution: 5 });
// node:http with kept-alive connections, not fetch: with undici's this thread ran about 3.4 ms a probe, with
// node:http about 1 ms (perf sched, 2026-11-29), on the same two processors as the core.
const agent = new http.Agent({ keepAlive: true });
const post = (url, headers, body) => new Promise((resolve, reject) => {
  const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
    response.resume();
    response.on('end', () => response.statusCode >= 200 && response.statusCode < 300 ? resolve() : reject(new Error('answered ' + response.statusCode)));
    response.on('error', reject);
  });
  request.setTimeout(w.answerWithin, () => request.destroy(new Error('no answer in ' + w.answerWithin + ' ms')));
  request.on('error', reject);
  request.end(body);
});
const call = () => post(w.callUrl, { authorization: w.bearer, 'content-type': 'application/json' }, '{}');
const push = () => {
  const i = n++;
  const body = JSON.stringify({ ...w.push, messageid: 'bench-photos-' + i, threadid: 'bench-photos-' + (i % 20) });
  return post(w.pushUrl, { 'content-type': 'application/json', authorization: w.auth }, body);
};
const inFlight = new Set();
const timed = (into, send) => {
  const t = performance.now();
  const probe = send().then(() => void into.push(performance.now() - t), () => void failures++);
  inFlight.add(probe);
  void probe.finally(() => inFlight.delete(probe));
};
parentPort.on('message', async (m) => {
  if (m === 'warm') {
    // Untimed (see warm() below).
    // A connection the listener closed for idling may be reset as it is used again: a warm-up request is sent once more.
    const again = (send) => send().catch(() => send());
    for (let i = 0; i < 5; i++) await Promise.all([again(call), again(push)]);
    parentPort.postMessage('warm');
  } else if (m === 'start') {
    calls = []; pushes = []; failures = 0;
    loop.reset(); loop.enable();
    timer = setInterval(() => { timed(calls, call); timed(pushes, push); }, w.every);
  } else {
    // Every probe sent is counted: the phase ends once the last one is answered (or failed).
    clearInterval(timer);
    await Promise.all(inFlight);
    loop.disable();
    parentPort.postMessage({ calls, pushes, failures, lagMs: loop.max / 1e6 });
  }
});
`;

/** The probe worker (above), once the core listens; warmed up before anything is timed. */
async function probeWorker(app: Started): Promise<Worker> {
  const worker = new Worker(PROBE_WORKER, {
    eval: true,
    workerData: {
      callUrl: `${app.url.origin}/api/call/app.info`,
      bearer: `Bearer ${app.url.searchParams.get('session')}`,
      pushUrl: app.pushUrl,
      auth: `Basic ${Buffer.from(`${PUSH_USER}:${PUSH_PASSWORD}`).toString('base64')}`,
      push: JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>,
      every: PROBE_EVERY_MS,
      answerWithin: ANSWER_WITHIN_MS,
    },
  });
  await warm(worker);
  return worker;
}

/**
 * A few untimed probes: the client's code compiled, and a connection to each listener open. Again just before the
 * probes are timed, as the push listener closes a connection left idle for 5 s.
 */
function warm(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage('warm');
  });
}

/**
 * Probes the core while photos are added: calls and pushes from the probe worker (above); the RSS of the core, of
 * its reader process and of both together sampled here meanwhile (with the reader's own peak, VmHWM, while it runs).
 */
function probe(app: Started, worker: Worker) {
  worker.postMessage('start');
  const machine = machineWatch(app.child.pid!);
  const rss: number[] = [];
  const reader: number[] = [];
  const both: number[] = [];
  let readerPeak = 0;
  const timer = setInterval(() => {
    const core = memory(app.child.pid!).rss;
    const children = childMemory(app.child.pid!);
    rss.push(core);
    reader.push(children.rss);
    both.push(core + children.rss);
    readerPeak = Math.max(readerPeak, children.peak);
  }, PROBE_EVERY_MS);
  return {
    /** Stops probing (after the probes in flight answered) and answers what was measured. */
    async stop() {
      clearInterval(timer);
      const busy = machine();
      const measured = await new Promise<{ calls: number[]; pushes: number[]; failures: number; lagMs: number }>(
        (resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage('stop');
        },
      );
      return { ...measured, rss, reader, both, readerPeak, busy };
    },
  };
}

async function main() {
  const photos = await makePhotos();
  for (const p of photos) console.log(`${p.name}: ${(p.bytes.length / 1024 / 1024).toFixed(1)} MB`);
  const dir = mkdtempSync(join(tmpdir(), 'innkeeper-bench-photos-'));
  const app = await startWeb(dir, { INNKEEPER_PUSH_USER: PUSH_USER, INNKEEPER_PUSH_PASSWORD: PUSH_PASSWORD });
  // The sending thread's event loop (the probes' is measured in their worker).
  const ownLoop = monitorEventLoopDelay({ resolution: 5 });
  let worker: Worker | undefined;
  try {
    worker = await probeWorker(app);
    await sleep(6000); // settled: the demo's sample inbox delivered, its photos drawn, the first backup taken
    await warm(worker);
    const idleProbe = probe(app, worker);
    await sleep(4000);
    const idle = await idleProbe.stop();
    const idleRss = median(idle.rss);

    ownLoop.enable();
    const serial = probe(app, worker);
    const serialAdds = [];
    for (const photo of photos) serialAdds.push(await addPhoto(app, photo));
    const one = await serial.stop();
    await sleep(2000);
    const parallel = probe(app, worker);
    const parallelAdds = await Promise.all(photos.map((photo) => addPhoto(app, photo)));
    const four = await parallel.stop();
    ownLoop.disable();
    const peakHwm = memory(app.child.pid!).peak;

    // After: the same probes until the reader process ended (its idle time), then 3 s more.
    const after = probe(app, worker);
    const importsEnded = performance.now();
    while (childMemory(app.child.pid!).count > 0 && performance.now() - importsEnded < 60_000) await sleep(100);
    const readerGoneAfter = childMemory(app.child.pid!).count > 0 ? null : performance.now() - importsEnded;
    await sleep(3000);
    const settled = await after.stop();
    const afterRss = median(settled.rss.slice(-Math.floor(2000 / PROBE_EVERY_MS)));

    const adds = [...serialAdds, ...parallelAdds];
    const expected = (name: string) => !name.startsWith('bomb');
    const wrong = adds.filter((a) => a.ok !== expected(a.name));
    if (wrong.length) throw new Error(`unexpected answers: ${JSON.stringify(wrong)}`);
    const phases = [
      { label: 'one after another', m: one, adds: serialAdds },
      { label: '4 at once', m: four, adds: parallelAdds },
    ];
    const longest = Math.max(...phases.flatMap(({ m }) => [...m.calls, ...m.pushes]));
    const peak = Math.max(...phases.flatMap(({ m }) => m.rss));
    const ratio = peak / idleRss;
    const readerPeak = Math.max(...phases.map(({ m }) => m.readerPeak));
    const readerRss = Math.max(...phases.flatMap(({ m }) => m.reader));
    const bothPeak = Math.max(...phases.flatMap(({ m }) => m.both));
    const backNearIdle = afterRss - idleRss <= 30 * 1024;
    const row = ({ label, m, adds: a }: (typeof phases)[number]) =>
      `| ${label} | ${MiB(Math.max(...m.rss))} (+${MiB(Math.max(...m.rss) - idleRss)}) | ${MiB(Math.max(...m.reader))} (VmHWM ${MiB(m.readerPeak)}) | +${MiB(Math.max(...m.both) - idleRss)} | ${ms(Math.max(...m.calls))} (median ${ms(median(m.calls))}, 99th ${ms(p99(m.calls))}, ${m.calls.length} calls) | ${ms(Math.max(...m.pushes))} (median ${ms(median(m.pushes))}, 99th ${ms(p99(m.pushes))}, ${m.pushes.length} pushes) | ${a.map((x) => `${x.name.split('-')[0]} ${(x.ms / 1000).toFixed(1)} s`).join(', ')} | ${busyText(m.busy)} |`;
    const readerLine = `core's peak over idle +${MiB(peak - idleRss)}; reader process's peak ${MiB(readerRss)} (VmHWM ${MiB(readerPeak)}); core + reader at most +${MiB(bothPeak - idleRss)} over the idle core; ${readerGoneAfter === null ? 'the reader process still ran 60 s after the imports' : `the reader process ended ${(readerGoneAfter / 1000).toFixed(1)} s after the imports`}, and 3 s later the core was at ${MiB(afterRss)} (+${MiB(afterRss - idleRss)} over idle: ${backNearIdle ? 'back near idle' : 'NOT back near idle'}, within 30 MiB or not)`;
    const spans = [idle, ...phases.map(({ m }) => m)];
    const othersAtMost = Math.max(...spans.map((m) => m.busy.othersPct));
    const stealAtMost = Math.max(...spans.map((m) => m.busy.stealPct));
    const failed = idle.failures + one.failures + four.failures + settled.failures;
    const last = `longest wait during imports = ${ms(longest)} (goal ≤ ${GOAL_MS} ms); peak / idle RSS = ${ratio.toFixed(2)} (+${MiB(peak - idleRss)}, goal ≤ +150 MiB); probes that failed: ${failed}; the rest of the machine at most ${othersAtMost.toFixed(0)} % busy, steal at most ${stealAtMost.toFixed(0)} % (the idle probes and the imports)`;
    const markdown = `## Photo imports beside calls and pushes (\`npm run bench:photos\`)

${machineLine()}; load average ${LOAD_AT_START} at the start, ${loadavg()[0]!.toFixed(1)} at the end. The built core as \`npm run web\` runs it
(\`node out/main/web.js\`, a temp data folder, the demo), 6 s after its start. The photos: ${photos.map((p) => `${p.name} (${(p.bytes.length / 1024 / 1024).toFixed(1)} MB)`).join(', ')};
each added through the Photos screen's calls (\`photos.addStart\`, ${PHOTO_CHUNK_BYTES / 1024} KiB chunks, each the body of its call, \`photos.addFinish\`; the bomb is refused, the
JPEGs are added), one after another and then 4 at once. Every ${PROBE_EVERY_MS} ms meanwhile: \`app.info\` over /api/call and a new message
pushed to the listener (node:http, kept-alive connections), each timed from its send to its answer, and the RSS of the core and of its image reader process
(the core's child, where sharp decodes; summed over its descendants) read from /proc. Idle: the same
probes for 4 s before the imports (calls: median ${ms(median(idle.calls))}, longest ${ms(Math.max(...idle.calls))}; pushes: median ${ms(median(idle.pushes))}, longest ${ms(Math.max(...idle.pushes))}; the rest of the machine ${busyText(idle.busy)}).
The rest of the machine: the share of its ${cpus().length} processors that other processes than the benchmark, the core and its
reader ran meanwhile (interrupt time left out), and the share its host took away (steal), from /proc/stat: on a quiet
machine both are near 0.
The calls and pushes are sent and timed by a worker thread of the benchmark, apart from the thread that sends the photos
(that thread's event loop lagged at most ${ms(ownLoop.max / 1e6)}; the probe worker's at most ${ms(Math.max(one.lagMs, four.lagMs))}: a late probe of its own would count against the core).

| imports | core's peak RSS (over idle ${MiB(idleRss)}) | reader process's peak RSS | core + reader, over the idle core | longest call | longest push | each add (start → finish answered) | the rest of the machine |
| --- | --- | --- | --- | --- | --- | --- | --- |
${phases.map(row).join('\n')}

Peak RSS of the core in the whole run (VmHWM, the start included): ${MiB(peakHwm)}. Probes that failed (idle, imports, after; a failed probe is not in the times above): ${failed}.
${readerLine}.
**${last}.**`;
    writeSection('photos', markdown);
    console.log(markdown);
    console.log(readerLine);
    console.log(last);
  } finally {
    await worker?.terminate();
    chunkAgent.destroy();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
