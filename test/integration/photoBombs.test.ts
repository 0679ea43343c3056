import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Photo } from '../../src/shared/photos';
import type { Result } from '../../src/shared/result';
import { fixtureText } from '../support/fixtures';
import { exifBombJpeg, hugePng, truncatedJpeg } from '../support/hostileImages';
import { tempDir } from '../support/tempDir';

// Photos made to knock the core over, added to a real core in its own process (test/support/photoCoreChild.ts,
// its heap capped at 1 GB so that a core that gives way cannot take the machine with it) while Su keeps pushing to
// its listener over loopback. Each is refused or added within 2 s, the core's process stays under 500 MiB, and
// every push meanwhile is acknowledged within 1 s.

const root = join(import.meta.dirname, '..', '..');
const MiB = 1024 * 1024;
const dir = tempDir('innkeeper-photo-bombs-');
const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;

/** A core in its own process, with its answers one per line in order. */
async function startCore() {
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=1024', '--import', 'tsx', join(root, 'test', 'support', 'photoCoreChild.ts')],
    { cwd: root },
  );
  let errors = '';
  child.stderr.on('data', (d) => (errors += String(d)));
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(`the core's process ended (${signal ?? code}): ${errors.slice(-600)}`)),
  );
  const answers: string[] = [];
  let waiting: ((line: string) => void) | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    if (waiting) {
      waiting(line);
      waiting = null;
    } else answers.push(line);
  });
  /** The core's next answer, or a failure naming why its process ended. */
  const nextLine = (): Promise<string> => {
    const queued = answers.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return Promise.race([
      new Promise<string>((resolve) => (waiting = resolve)),
      exited.then((why) => Promise.reject(new Error(why))),
    ]);
  };
  const ready = JSON.parse(await nextLine()) as { listener: string; auth: string };
  return {
    child,
    ready,
    nextLine,
    /** The process's resident memory now (Linux: /proc). */
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, 10_000, false))]);
      if (!stopped) child.kill('SIGKILL');
    },
  };
}

let core: Awaited<ReturnType<typeof startCore>> | null = null;

beforeAll(async () => {
  writeFileSync(join(dir.path, 'bomb.jpg'), await exifBombJpeg());
  writeFileSync(join(dir.path, 'huge.png'), hugePng(16_000));
  writeFileSync(join(dir.path, 'cut.jpg'), await truncatedJpeg());
  writeFileSync(
    join(dir.path, 'phone.jpg'),
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#6a8caf' } })
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 40/1 47/1' } })
      .jpeg()
      .toBuffer(),
  );
});
beforeEach(async () => {
  core = await startCore();
}, 60_000);
afterEach(async () => {
  await core?.stop();
  core = null;
}, 20_000);
afterAll(() => dir.remove());

let pushes = 0;
/** One push as Su sends it (a new guest message), and how long its acknowledgement took. */
async function push(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(core!.ready.listener, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: core!.ready.auth },
      body: JSON.stringify({ ...template, messageid: `bomb-${++pushes}` }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/**
 * Adds a file to the core while a push goes to its listener every 100 ms (from before the add until after its
 * answer, at least 3), and the core's memory is read every 20 ms.
 */
async function addWhilePushed(fileName: string) {
  const { child, nextLine, rss } = core!;
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rss());
    } catch {
      // The process is gone: the answer below says why.
    }
  }, 20);
  let done = false;
  const acknowledged: Promise<{ status: number; ms: number }>[] = [];
  const pusher = (async () => {
    while (!done || acknowledged.length < 3) {
      acknowledged.push(push());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    child.stdin.write(`${JSON.stringify({ path: join(dir.path, fileName), fileName })}\n`);
    const answer = JSON.parse(await nextLine()) as { result: Result<Photo>; ms: number };
    done = true;
    await pusher;
    return { ...answer, before, peak, pushes: await Promise.all(acknowledged) };
  } finally {
    done = true;
    clearInterval(sampler);
  }
}

/** What every hostile file must leave behind: a quick answer, a small core, and every push acknowledged in time. */
function expectHeldUp(probe: Awaited<ReturnType<typeof addWhilePushed>>) {
  expect(probe.ms, `the add took ${probe.ms} ms`).toBeLessThan(2_000);
  expect(probe.peak, `the core grew to ${Math.round(probe.peak / MiB)} MiB`).toBeLessThan(500 * MiB);
  for (const p of probe.pushes) {
    expect(p.status).toBe(200);
    expect(p.ms, `a push was acknowledged after ${Math.round(p.ms)} ms`).toBeLessThan(1_000);
  }
}

/** After a hostile file, the same core adds a phone photo as before, its location noted. */
async function expectStillAdding() {
  const probe = await addWhilePushed('phone.jpg');
  expect(probe.result).toMatchObject({
    ok: true,
    value: { width: 1200, height: 900, original: { format: 'jpeg', hadLocation: true } },
  });
}

describe('hostile photo files', () => {
  it('a JPEG whose EXIF block claims gigabytes in thousands of tags is added without a location, or refused', async () => {
    const probe = await addWhilePushed('bomb.jpg');
    expectHeldUp(probe);
    if (probe.result.ok) expect(probe.result.value.original).toMatchObject({ format: 'jpeg', hadLocation: false });
    else expect(probe.result.error.message).toMatch(/^“bomb\.jpg” was not added: /);
    await expectStillAdding();
  }, 60_000);

  it('a 16000×16000 PNG of a few kilobytes is refused by its size, before its pixels are read', async () => {
    const probe = await addWhilePushed('huge.png');
    expectHeldUp(probe);
    expect(probe.result).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(/^“huge\.png” was not added: it is 16000×16000 pixels \(256 megapixels\)/),
      },
    });
    await expectStillAdding();
  }, 60_000);

  it('a JPEG cut off half way is refused as damaged', async () => {
    const probe = await addWhilePushed('cut.jpg');
    expectHeldUp(probe);
    expect(probe.result).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^“cut\.jpg” was not added: .*damaged/) },
    });
    await expectStillAdding();
  }, 60_000);
});
