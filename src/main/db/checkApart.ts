import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { errorText } from '../../shared/result';
import { quickCheck } from './faults';

/**
 * The worker's code, as text (the built core is bundled: a worker file of its own would need an entry of its own).
 * It opens the file read-only on its own connection and answers what `quickCheck` answers: null when sound, else
 * what SQLite found, or why the check could not run.
 */
const CHECKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
let problem = null;
try {
  const db = new DatabaseSync(workerData.path, { readOnly: true });
  try {
    const found = db.prepare('PRAGMA quick_check(5)').all().map((r) => r.quick_check).filter((r) => r !== 'ok');
    problem = found.length ? found.join('; ') : null;
  } finally {
    db.close();
  }
} catch (error) {
  problem = error instanceof Error ? error.message : String(error);
}
parentPort.postMessage({ problem });
`;

export interface CheckApart {
  /** Null when the file is sound; else what SQLite found. */
  readonly result: Promise<string | null>;
  /** The file is closing: the check is stopped (its result is then null and not to be acted on). */
  stop(): void;
}

/**
 * `PRAGMA quick_check` of the file at `path` on a worker thread with its own read-only connection, while this thread
 * goes on: the check reads the whole file (~200 ms for bench:inbox's 17 MiB inbox, more as it grows), which held the
 * core's start and, every 4 hours, its deliveries and calls. In WAL mode the worker reads the last committed state.
 * When the worker itself cannot run, the check runs here on `db` instead, as before.
 */
export function checkApart(path: string, db: DatabaseSync): CheckApart {
  let worker: Worker | null = null;
  let stopped = false;
  const result = new Promise<string | null>((resolve) => {
    let answered = false;
    /** Settles once; nothing is checked or acted on once the file is closing. */
    const answer = (check: () => string | null) => {
      if (answered) return;
      answered = true;
      resolve(stopped ? null : check());
    };
    /** The worker could not tell (it did not start, or failed): the file is checked here, as before. */
    const here = (why: string) => () => {
      console.error(`the integrity check ran on the main thread: ${why}`);
      return quickCheck(db);
    };
    try {
      worker = new Worker(CHECKER, { eval: true, workerData: { path } });
    } catch (error) {
      answer(here(`no worker (${errorText(error)})`));
      return;
    }
    worker.once('message', (message: { problem: string | null }) => answer(() => message.problem));
    worker.once('error', (error) => answer(here(`the worker failed (${errorText(error)})`)));
    worker.once('exit', (code) => answer(here(`the worker stopped (exit code ${code})`)));
    worker.unref();
  });
  return {
    result,
    stop() {
      stopped = true;
      void worker?.terminate();
    },
  };
}
