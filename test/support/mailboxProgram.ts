import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './tempDir';

const root = join(import.meta.dirname, '..', '..');
/** `npm run mailbox`'s command, without npm in between (a kill reaches the mailbox itself). */
const MAILBOX = ['--import', 'tsx', join(root, 'src', 'mailbox', 'main.ts')];

/** Runs the mailbox CLI once and answers what it printed (`pair`). */
async function runOnce(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [...MAILBOX, ...args], { cwd: root });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`mailbox ${args.join(' ')} exited ${code}: ${out}`);
  return out;
}

/**
 * The mailbox program (src/mailbox) in a process of its own on 127.0.0.1, on a temp data folder: its address, the
 * pairing code it printed at its first start, a new code (`pair`), and `stop()` (the folder goes too).
 */
export async function startMailboxProgram() {
  const data = tempDir('innkeeper-mailbox-');
  let child: ChildProcessWithoutNullStreams;
  let out = '';
  const launch = async (port: number) => {
    out = '';
    child = spawn(process.execPath, [...MAILBOX, '--port', String(port), '--data', data.path], { cwd: root });
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mailbox did not start: ${out}`)), 30_000);
      child.stdout.on('data', () => {
        const m = /mailbox: (http:\/\/\S+)/.exec(out);
        if (!m) return;
        clearTimeout(timer);
        resolve(m[1]!);
      });
      child.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`the mailbox exited: ${out}`));
      });
    });
  };
  const url = await launch(0);
  const code = /pairing code: (\S+)/.exec(out)?.[1] ?? null;
  return {
    url,
    /** The code printed at the first start (no computer paired yet). */
    code,
    dataDir: data.path,
    /** What it printed so far. */
    output: () => out,
    /** A new pairing code, as `npm run mailbox -- pair --data DIR` prints it. */
    async newCode(): Promise<string> {
      const printed = await runOnce(['pair', '--data', data.path]);
      const m = /pairing code: (\S+)/.exec(printed);
      if (!m) throw new Error(`no pairing code in: ${printed}`);
      return m[1]!;
    },
    /** Posts a delivery as Su does: Basic auth with the push credentials a paired computer gave. */
    push(body: string, credentials: { username: string; password: string }) {
      return fetch(`${url}/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
        },
        body,
      });
    },
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      data.remove();
    },
  };
}

export type MailboxProgram = Awaited<ReturnType<typeof startMailboxProgram>>;
