/// <reference types="electron-vite/node" />
import { fileURLToPath } from 'node:url';
import type { DrawAnswer, ImageJob, ImportAnswer, ImportJob, ThumbnailAnswer, ThumbnailJob } from './imageJobs';
import { forkReaderProcess, type ReaderProcess, type StartReaderProcess } from './readerProcess';

/** Why the reader could not answer for a file: its process ran out of time or memory, or stopped. */
export class ImageReadFailure extends Error {
  constructor(readonly reason: string) {
    super(`the image could not be read safely: ${reason}`);
  }
}

export interface ImageReaderOptions {
  /** How long one file may take, from when its turn comes (30 s: a 200-megapixel photo takes 2–5 s). */
  deadlineMs?: number;
  /** The reader process's JavaScript heap, in MB (its images' pixels are counted by MAX_READING_BYTES instead). */
  heapMb?: number;
  /** How long the process is kept after its last file (a batch of photos reuses it). */
  idleMs?: number;
  /** How the host starts the reader's process (Electron's utilityProcess; a Node child process by default). */
  startProcess?: StartReaderProcess;
}

/** Where the reader process runs from: the built script beside the bundle, or the TypeScript source under tsx. */
async function readerScript(): Promise<{ file: string; execArgv: string[] }> {
  // Tests and tsx scripts run the sources: the reader is the .ts file, with tsx to load its imports.
  if (import.meta.url.endsWith('.ts'))
    return { file: fileURLToPath(new URL('./imageWorker.ts', import.meta.url)), execArgv: ['--import', 'tsx'] };
  // The built core: electron-vite emits the reader as a file of its own and answers its path.
  return { file: (await import('./imageWorker?modulePath')).default, execArgv: [] };
}

/** What V8 prints when a process's JavaScript heap reached its cap (the process then aborts). */
const HEAP_OUT_OF_MEMORY = /heap out of memory/i;

interface Pending {
  id: number;
  job: ImageJob;
  resolve: (answer: unknown) => void;
  reject: (error: Error) => void;
}

/** The reader's process while it runs: whether it said it is ready, and the end of what it wrote to stderr. */
interface Running {
  process: ReaderProcess;
  ready: boolean;
  stderr: string;
}

/**
 * Image files from outside (an owner's photo, an image Su holds) are decoded in a process of its own, one file at a
 * time, never in the core's process: a file that takes too long or too much memory costs its own refusal and nothing
 * else (the listener, the calls and the other photos go on), and the memory libvips used goes back to the system when
 * the process ends, a few seconds after the last file of a batch (glibc keeps the memory its threads freed for
 * later: in the core's process a few photos left it ~250 MiB larger for good). The process's JavaScript heap is
 * capped, its allocator keeps two arenas (MALLOC_ARENA_MAX), each file has a deadline, and what the pixels may cost
 * is checked from the header first (imageJobs.ts); a process that failed or ran late is killed and the next file gets
 * a new one. sharp and libvips are loaded only there, never in the core.
 */
export function createImageReader(options: ImageReaderOptions = {}) {
  const deadlineMs = options.deadlineMs ?? 30_000;
  const heapMb = options.heapMb ?? 64;
  const idleMs = options.idleMs ?? 15_000;
  const startProcess = options.startProcess ?? forkReaderProcess;
  const queue: Pending[] = [];
  let current: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  let running: Running | null = null;
  let script: Promise<Awaited<ReturnType<typeof readerScript>>> | null = null;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 1;
  let closed = false;

  /** Kills the current process, if any; answers once it is gone. */
  function letGo(): Promise<void> {
    const going = running;
    running = null;
    if (!going || going.process.gone) return Promise.resolve();
    going.process.hold(true); // until it is gone: whoever awaits this (close) is not left with an empty event loop
    going.process.kill();
    return going.process.exited;
  }

  /** Fails the file being read and kills its process; the next file gets a new process. */
  function fail(reason: string) {
    if (!current) return;
    clearTimeout(current.timer);
    current.pending.reject(new ImageReadFailure(reason));
    current = null;
    void letGo();
    next();
  }

  function send(r: Running) {
    if (!r.ready || !current || running !== r) return;
    const { id, job } = current.pending;
    r.process.send({ id, job });
  }

  function start({ file, execArgv }: Awaited<ReturnType<typeof readerScript>>): Running {
    const r: Running = { process: null as unknown as ReaderProcess, ready: false, stderr: '' };
    r.process = startProcess(
      {
        file,
        execArgv: [...execArgv, `--max-old-space-size=${heapMb}`, '--max-semi-space-size=8'],
        // glibc reads MALLOC_ARENA_MAX when the process starts: two arenas instead of one per thread that decoded.
        env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      },
      {
        // What it writes still shows where the core's own output goes; the end is kept to tell why it stopped.
        stderr(text) {
          process.stderr.write(text);
          r.stderr = (r.stderr + text).slice(-4096);
        },
        message(message) {
          const m = message as { ready?: true; id?: number; answer?: unknown };
          if (running !== r) return;
          if (m.ready) {
            r.ready = true;
            send(r);
            return;
          }
          if (!current || current.pending.id !== m.id) return;
          clearTimeout(current.timer);
          current.pending.resolve(m.answer);
          current = null;
          next();
        },
        error(error) {
          if (running !== r) return;
          running = null;
          r.process.kill();
          fail(`the reader stopped (${error.message})`);
        },
        // A process that ends by itself (rather than being killed here) takes the file it was reading with it.
        exit() {
          if (running !== r) return;
          running = null;
          fail(
            HEAP_OUT_OF_MEMORY.test(r.stderr)
              ? 'reading it needed more memory than a photo does'
              : 'the reader stopped',
          );
        },
      },
    );
    return r;
  }

  function next() {
    if (current || closed) return;
    const pending = queue.shift();
    if (!pending) {
      clearTimeout(idle);
      running?.process.hold(false);
      idle = setTimeout(() => void letGo(), idleMs).unref();
      return;
    }
    clearTimeout(idle);
    const timer = setTimeout(
      () => fail(`reading it took longer than ${deadlineMs / 1000} seconds`),
      deadlineMs,
    ).unref();
    current = { pending, timer };
    script ??= readerScript();
    script.then(
      (found) => {
        if (current?.pending !== pending) return;
        running ??= start(found);
        running.process.hold(true);
        send(running);
      },
      (error: unknown) => {
        script = null;
        fail(`the reader could not start (${String(error)})`);
      },
    );
  }

  function read<A>(job: ImageJob): Promise<A> {
    if (closed) return Promise.reject(new ImageReadFailure('Innkeeper is closing'));
    return new Promise<A>((resolve, reject) => {
      queue.push({ id: nextId++, job, resolve: resolve as (answer: unknown) => void, reject });
      next();
    });
  }

  return {
    /** Checks a photo file and makes its upload copy and thumbnail, or says why not. */
    importPhoto: (job: Omit<ImportJob, 'kind'>) => read<ImportAnswer>({ kind: 'import', ...job }),
    /** A small upright JPEG of an image, or why not. */
    thumbnail: (job: Omit<ThumbnailJob, 'kind'>) => read<ThumbnailAnswer>({ kind: 'thumbnail', ...job }),
    /** A JPEG of an SVG of the app's own (the demo's photos at Su), drawn in the reader's process. */
    async draw(svg: string): Promise<Buffer> {
      const answer = await read<DrawAnswer>({ kind: 'draw', svg });
      if (!answer.ok) throw new Error(`the drawing could not be made: ${answer.error}`);
      return Buffer.from(answer.jpeg);
    },
    /** Kills the process; files still waiting are refused. */
    async close(): Promise<void> {
      closed = true;
      clearTimeout(idle);
      for (const pending of queue.splice(0)) pending.reject(new ImageReadFailure('Innkeeper is closing'));
      if (current) {
        clearTimeout(current.timer);
        current.pending.reject(new ImageReadFailure('Innkeeper is closing'));
        current = null;
      }
      await letGo();
    },
  };
}

export type ImageReader = ReturnType<typeof createImageReader>;
