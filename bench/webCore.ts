// The built core as `npm run web` runs it (`node out/main/web.js`), spawned and timed for the benchmarks: its start,
// its calls over /api/call, its push listener's address, and its memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs } from './results';

const root = join(import.meta.dirname, '..');

/** VmRSS and VmHWM (peak) of a process, in KiB. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

export interface Started {
  child: ChildProcess;
  listening: number;
  firstCall: number;
  /** CPU time used until the first call was answered. */
  cpu: number;
  call: (method: string, args?: unknown) => Promise<unknown>;
  /** The call's whole answer, a refusal included. */
  send: (method: string, args?: unknown) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
  pushUrl: string | null;
  /** The address the core printed (its origin, and the session token in `session`). */
  url: URL;
  stop: () => Promise<void>;
}

/** Spawns `node out/main/web.js` and times it: "Open:" printed, then the first call answered. */
export async function startWeb(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'web.js')], {
    cwd: root,
    env: { ...process.env, INNKEEPER_DATA_DIR: dataDir, INNKEEPER_WEB_PORT: '0', INNKEEPER_PUSH_PORT: '0', ...env },
  });
  let output = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += String(data);
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?session=\S+)/.exec(output);
      if (match) resolve(new URL(match[1]!));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the app exited (${code}):\n${output}`)));
  });
  const listening = performance.now() - t0;
  const token = url.searchParams.get('session')!;
  const send = async (method: string, args: unknown = {}) => {
    const response = await fetch(`${url.origin}/api/call/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
  };
  const call = async (method: string, args: unknown = {}) => {
    const body = await send(method, args);
    if (!body.ok) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.value;
  };
  await call('app.info');
  const firstCall = performance.now() - t0;
  const cpu = cpuMs(child.pid!);
  // Printed once the listener started, after "Open:" (the web host and the core are up by then).
  await new Promise<void>((resolve) => {
    const check = () =>
      /Receiving messages and reviews at|Not receiving: /.test(output) ? resolve() : setTimeout(check, 5);
    check();
  });
  const pushUrl = /Receiving messages and reviews at (\S+)/.exec(output)?.[1] ?? null;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, listening, firstCall, cpu, call, send, pushUrl, url, stop };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
