import { fork, type Serializable } from 'node:child_process';
import type { Socket } from 'node:net';

// The image reader's process, as each host starts it. In browser mode (and under tests) it is a Node child process
// (`child_process.fork`). The installed Electron app cannot do that: its binary has the RunAsNode fuse off
// (build/fuses.mjs), so a fork of it would start a second Innkeeper instead of the reader. Its host hands the core
// a starter built on Electron's utilityProcess instead (hosts/electron/readerProcess.ts), through the core's
// `imageProcess` option. imageReader.ts sees only this interface.

/** What to run: the reader's script, V8's flags for it and its environment. */
export interface ReaderProcessSpec {
  file: string;
  execArgv: string[];
  env: NodeJS.ProcessEnv;
}

/** What the reader's process tells its owner. */
export interface ReaderProcessEvents {
  message(message: unknown): void;
  /** It could not be started, or its channel failed. */
  error(error: Error): void;
  /** It ended, by itself or killed. */
  exit(): void;
  /** A piece of what it wrote to stderr. */
  stderr(text: string): void;
}

export interface ReaderProcess {
  send(message: unknown): void;
  /** Ends it at once (it holds nothing to save). */
  kill(): void;
  /** While busy, the process keeps the core's event loop alive; idle, it does not. */
  hold(busy: boolean): void;
  readonly gone: boolean;
  /** Settles once it has ended. */
  readonly exited: Promise<void>;
}

export type StartReaderProcess = (spec: ReaderProcessSpec, events: ReaderProcessEvents) => ReaderProcess;

/** The reader as a Node child process (browser mode, tests): IPC with V8's serialization, so bytes stay bytes. */
export const forkReaderProcess: StartReaderProcess = (spec, events) => {
  const child = fork(spec.file, [], {
    execPath: process.execPath,
    execArgv: spec.execArgv,
    env: spec.env,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.on('data', (data: Buffer) => events.stderr(String(data)));
  child.on('message', (message) => events.message(message));
  child.on('error', (error) => events.error(error));
  child.on('exit', () => events.exit());
  return {
    send: (message) =>
      child.send(message as Serializable, (error) => {
        if (error) events.error(error);
      }),
    kill: () => child.kill('SIGKILL'),
    hold(busy) {
      const method = busy ? 'ref' : 'unref';
      child[method]();
      child.channel?.[method]();
      (child.stderr as Socket | null)?.[method](); // a pipe: a socket
    },
    get gone() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    exited,
  };
};
