import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = join(import.meta.dirname, 'RESULTS.md');

/** Replaces (or appends) one benchmark's section of bench/RESULTS.md, between its own markers. */
export function writeSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const current = existsSync(FILE)
    ? readFileSync(FILE, 'utf8')
    : '# Benchmark results\n\nWritten by the scripts in `bench/`; each section is replaced when its benchmark runs again.\n';
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  writeFileSync(FILE, pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`);
}

/** Where and how a benchmark ran, for its section header. */
export function machineLine(): string {
  return `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch}, ${
    (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? '?'
  } cores`;
}

/**
 * What a process's threads have run so far, from the scheduler's own accounting (/proc/<pid>/task/<tid>/schedstat,
 * in ns): `ms`, their time on a CPU, every thread; `mainWakeups`, how many times the main thread was put on a CPU (the
 * event loop waking for a timer or an event counts once). Finer than {@link cpuMs}, whose clock ticks of 10 ms make
 * an idle process's 30 s read as 0, 10, 20… ms.
 */
export function schedStat(pid: number): { ms: number; mainWakeups: number } {
  let ns = 0;
  let mainWakeups = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let fields: string[];
    try {
      fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ');
    } catch {
      continue; // a thread that ended meanwhile
    }
    ns += Number(fields[0]);
    if (tid === String(pid)) mainWakeups = Number(fields[2]);
  }
  return { ms: ns / 1e6, mainWakeups };
}

/**
 * A process's CPU time so far in clock ticks (USER_HZ, 10 ms), from /proc/<pid>/stat: user + system of every thread,
 * and with `ended` its ended children's too (cutime + cstime). Throws once the process is gone.
 */
export function cpuTicks(pid: number, ended = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the name (which may hold ") "): state is field 3; utime, stime, cutime, cstime are fields 14 to 17.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return fields.slice(11, ended ? 15 : 13).reduce((sum, field) => sum + Number(field), 0);
}

/** A process's CPU time so far (user + system, every thread), in ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  return cpuTicks(pid) * 10;
}
