import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

/** A process's CPU time so far (user + system, every thread), in ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
