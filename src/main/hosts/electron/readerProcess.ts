import type { ForkOptions, UtilityProcess } from 'electron';
import type { StartReaderProcess } from '../../photos/readerProcess';

// The image reader's process in the Electron app: a utility process. A Node child process (`child_process.fork`)
// cannot be started from the installed app: its binary has the RunAsNode fuse off (build/fuses.mjs), so it would
// start a second Innkeeper. Electron's utilityProcess runs the same script as Node, talking through
// `process.parentPort` (imageWorker.ts answers both). Electron itself is passed in (`utilityProcess.fork`), so this
// is tested with a fake.

type ForkUtility = (modulePath: string, args?: string[], options?: ForkOptions) => UtilityProcess;

/** A reader starter for the core's `imageProcess` option, built on Electron's `utilityProcess.fork`. */
export function utilityReaderProcess(forkUtility: ForkUtility): StartReaderProcess {
  return (spec, events) => {
    const child = forkUtility(spec.file, [], {
      env: spec.env,
      execArgv: spec.execArgv,
      stdio: ['ignore', 'inherit', 'pipe'],
      serviceName: 'Innkeeper image reader',
    });
    let gone = false;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        gone = true;
        resolve();
      }),
    );
    child.stderr?.on('data', (data: Buffer) => events.stderr(String(data)));
    child.on('message', (message: unknown) => events.message(message));
    child.on('exit', () => events.exit());
    return {
      send: (message) => child.postMessage(message),
      // SIGTERM on POSIX: a process busy in libvips has no handler for it and ends at once.
      kill: () => {
        if (!gone) child.kill();
      },
      // A utility process does not hold the main process's event loop: Electron's app lifecycle does.
      hold: () => undefined,
      get gone() {
        return gone;
      },
      exited,
    };
  };
}
