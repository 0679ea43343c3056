import type { ForkOptions, UtilityProcess } from 'electron';
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utilityReaderProcess } from '../../src/main/hosts/electron/readerProcess';
import { createImageReader, ImageReadFailure, type ImageReader } from '../../src/main/photos/imageReader';
import { tempDir } from '../support/tempDir';

// The Electron app reads photos in a utility process (its binary cannot be forked as Node: the RunAsNode fuse is
// off). Electron cannot start here, so `utilityProcess.fork` is played by a Node child process that gives the real
// reader script what a utility process has: `process.parentPort` (messages as `{ data }`), and no `process.send`.

const dir = tempDir('innkeeper-utility-reader-');
const file = (name: string) => join(dir.path, name);
const job = (name: string) => ({ path: file(name), longEdge: 2560, thumbEdge: 480 });
const readers: ImageReader[] = [];
const children: ChildProcess[] = [];

/** Runs the reader's script the way a utility process would: through parentPort only. */
const SHIM = `import { EventEmitter } from 'node:events';
const send = process.send.bind(process);
const port = new EventEmitter();
port.postMessage = (message) => send(message);
process.on('message', (message) => port.emit('message', { data: message }));
process.parentPort = port;
process.send = () => { throw new Error('a utility process has no process.send'); };
await import(process.argv[2]);
`;

/** What `utilityProcess.fork` was asked, and a stand-in that behaves as Electron documents it. */
function fakeUtilityFork() {
  const asked: { modulePath: string; options: ForkOptions | undefined }[] = [];
  const forkUtility = (modulePath: string, _args?: string[], options?: ForkOptions) => {
    asked.push({ modulePath, options });
    const child = fork(file('shim.mjs'), [pathToFileURL(modulePath).href], {
      execArgv: options?.execArgv ?? [],
      env: options?.env as NodeJS.ProcessEnv | undefined,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    children.push(child);
    const utility = Object.assign(new EventEmitter(), {
      pid: child.pid,
      stdout: null,
      stderr: child.stderr,
      postMessage: (message: unknown) => child.send(message as never),
      kill: () => child.kill('SIGTERM'),
    });
    child.on('message', (message) => utility.emit('message', message));
    child.on('exit', (code) => utility.emit('exit', code ?? 1));
    return utility as unknown as UtilityProcess;
  };
  return { asked, forkUtility };
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

beforeAll(async () => {
  writeFileSync(file('shim.mjs'), SHIM);
  const solid = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#6a8caf' } });
  writeFileSync(file('photo.jpg'), await solid(1200, 800).jpeg().toBuffer());
  writeFileSync(file('large.jpg'), await solid(6000, 6000).jpeg().toBuffer());
}, 60_000);
afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
  dir.remove();
});

describe('the image reader in an Electron utility process', () => {
  it('reads a photo through parentPort, started with the arena limit and heap cap', async () => {
    const { asked, forkUtility } = fakeUtilityFork();
    const r = createImageReader({ startProcess: utilityReaderProcess(forkUtility) });
    readers.push(r);
    const answer = await r.importPhoto(job('photo.jpg'));
    expect(answer.ok && answer.image.copy).toMatchObject({ width: 1200, height: 800 });
    expect(answer.ok && (await sharp(answer.image.thumb).metadata()).width).toBe(480);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.modulePath).toMatch(/imageWorker\.ts$/);
    expect(asked[0]!.options).toMatchObject({
      serviceName: 'Innkeeper image reader',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    expect((asked[0]!.options?.env as NodeJS.ProcessEnv | undefined)?.MALLOC_ARENA_MAX).toBe('2');
    expect(asked[0]!.options?.execArgv).toContain('--max-old-space-size=64');
  }, 60_000);

  it('kills a reader that runs late; the next file gets a new utility process', async () => {
    const { asked, forkUtility } = fakeUtilityFork();
    const r = createImageReader({ startProcess: utilityReaderProcess(forkUtility), deadlineMs: 20 });
    readers.push(r);
    const late = await r.importPhoto(job('large.jpg')).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ImageReadFailure);
    expect((late as ImageReadFailure).reason).toBe('reading it took longer than 0.02 seconds');
    const first = children.at(-1)!;
    await expect.poll(() => alive(first), { timeout: 10_000 }).toBe(false);
    // The next file is given the time it needs in a reader of its own.
    const slow = createImageReader({ startProcess: utilityReaderProcess(forkUtility) });
    readers.push(slow);
    const answer = await slow.importPhoto(job('photo.jpg'));
    expect(answer.ok).toBe(true);
    expect(asked).toHaveLength(2);
  }, 60_000);

  it('ends the utility process once it has been idle', async () => {
    const { forkUtility } = fakeUtilityFork();
    const r = createImageReader({ startProcess: utilityReaderProcess(forkUtility), idleMs: 50 });
    readers.push(r);
    expect((await r.importPhoto(job('photo.jpg'))).ok).toBe(true);
    const child = children.at(-1)!;
    await expect.poll(() => alive(child), { timeout: 10_000 }).toBe(false);
  }, 60_000);
});
