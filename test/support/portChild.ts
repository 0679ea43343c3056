import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs a TypeScript file of test/support in its own Node process (tsx) and waits for its line `port <n>`: the port,
 * how the process ended (the signal that killed it, for a test that kills it), its output so far, and the child.
 */
export async function startPortChild(script: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'support', script), ...args], {
    cwd: root,
  });
  let out = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error(`child exited early: ${out}`)));
  });
  return { child, port, exited, output: () => out };
}
