/// <reference types="electron-vite/node" />
import { Worker } from 'node:worker_threads';
import type { ImageJob, ImportAnswer, ImportJob, ThumbnailAnswer, ThumbnailJob } from './imageJobs';

/** Why the reader could not answer for a file: its thread ran out of time or memory, or stopped. */
export class ImageReadFailure extends Error {
  constructor(readonly reason: string) {
    super(`the image could not be read safely: ${reason}`);
  }
}

export interface ImageReaderOptions {
  /** How long one file may take, from when its turn comes (30 s: a 200-megapixel photo takes 2–5 s). */
  deadlineMs?: number;
  /** The reader thread's JavaScript heap, in MB (its images' pixels are counted by MAX_READING_BYTES instead). */
  heapMb?: number;
  /** How long the thread is kept after its last file (a batch of photos reuses it). */
  idleMs?: number;
}

/** Where the reader's thread runs from: the built worker beside the bundle, or the TypeScript source under tsx. */
async function workerScript(): Promise<{ file: string | URL; execArgv?: string[] }> {
  // Tests and tsx scripts run the sources: the worker is the .ts file, with tsx to load its imports.
  if (import.meta.url.endsWith('.ts'))
    return { file: new URL('./imageWorker.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
  // The built core: electron-vite emits the worker as a file of its own and answers its path.
  return { file: (await import('./imageWorker?modulePath')).default };
}

/**
 * One thread per process that loads sharp and then only waits, for as long as the process runs: sharp's libraries
 * stay loaded while reader threads come and go (on glibc, a library unloaded with the last thread that used it and
 * loaded again by the next one can crash the process), and the core's own thread never loads them (that took 60–70 ms
 * of the event loop at a first photo, a wait every call and push shared). Started at the first photo, not at start.
 */
let keeper: Promise<Awaited<ReturnType<typeof workerScript>>> | null = null;

function keepSharpLoaded(): Promise<Awaited<ReturnType<typeof workerScript>>> {
  keeper ??= workerScript().then(
    (script) =>
      new Promise((resolve, reject) => {
        const w = new Worker(script.file, {
          ...(script.execArgv ? { execArgv: script.execArgv } : {}),
          workerData: { keeper: true },
          resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2, stackSizeMb: 1 },
        });
        w.unref();
        w.once('message', () => resolve(script));
        w.once('error', (error) => {
          keeper = null;
          reject(error);
        });
        w.once('exit', (code) => {
          keeper = null;
          reject(new Error(`the thread that holds sharp stopped (${code})`));
        });
      }),
  );
  return keeper;
}

interface Pending {
  id: number;
  job: ImageJob;
  resolve: (answer: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Image files from outside (an owner's photo, an image Su holds) are decoded on a thread of their own, one file at a
 * time, never on the core's thread: a file that takes too long or too much memory costs its own refusal and nothing
 * else (the listener, the calls and the other photos go on). The thread's JavaScript heap is capped
 * (`resourceLimits`), each file has a deadline, and what the pixels may cost is checked from the header first
 * (imageJobs.ts); a thread that failed or ran late is let go and the next file gets a new one.
 */
export function createImageReader(options: ImageReaderOptions = {}) {
  const deadlineMs = options.deadlineMs ?? 30_000;
  const heapMb = options.heapMb ?? 64;
  const idleMs = options.idleMs ?? 15_000;
  const queue: Pending[] = [];
  let current: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  let thread: Worker | null = null;
  let prepared: Promise<Awaited<ReturnType<typeof workerScript>>> | null = null;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 1;
  let closed = false;

  /** Ends the current thread, if any (a thread still decoding ends once its native call returns). */
  function letGo(): Promise<void> {
    const going = thread;
    thread = null;
    return going
      ? going.terminate().then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  }

  /** Fails the file being read and lets its thread go; the next file gets a new thread. */
  function fail(reason: string) {
    if (!current) return;
    clearTimeout(current.timer);
    current.pending.reject(new ImageReadFailure(reason));
    current = null;
    void letGo();
    next();
  }

  function start(file: string | URL, execArgv: string[] | undefined): Worker {
    const w = new Worker(file, {
      ...(execArgv ? { execArgv } : {}),
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    w.unref();
    w.on('message', ({ id, answer }: { id: number; answer: unknown }) => {
      if (thread !== w || current?.pending.id !== id) return;
      clearTimeout(current.timer);
      current.pending.resolve(answer);
      current = null;
      next();
    });
    w.on('error', (error: Error & { code?: string }) => {
      if (thread !== w) return;
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'reading it needed more memory than a photo does'
          : `the reader stopped (${error.message})`,
      );
      void w.terminate();
    });
    // A thread that ends by itself (rather than being let go) takes the file it was reading with it.
    w.on('exit', () => {
      if (thread !== w) return;
      thread = null;
      fail('the reader stopped');
    });
    return w;
  }

  function next() {
    if (current || closed) return;
    const pending = queue.shift();
    if (!pending) {
      clearTimeout(idle);
      idle = setTimeout(() => void letGo(), idleMs).unref();
      return;
    }
    clearTimeout(idle);
    const timer = setTimeout(
      () => fail(`reading it took longer than ${deadlineMs / 1000} seconds`),
      deadlineMs,
    ).unref();
    current = { pending, timer };
    // sharp's libraries are loaded by the keeper first, so they stay loaded while reader threads come and go.
    prepared ??= keepSharpLoaded();
    prepared.then(
      ({ file, execArgv }) => {
        if (current?.pending !== pending) return;
        thread ??= start(file, execArgv);
        thread.postMessage({ id: pending.id, job: pending.job });
      },
      (error: unknown) => {
        prepared = null;
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
    /** Stops the thread; files still waiting are refused. */
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
