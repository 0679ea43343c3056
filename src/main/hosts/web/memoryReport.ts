import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

/**
 * What holds the core's memory, for `npm run bench:idle`: with INNKEEPER_MEMORY_REPORT=1, a SIGUSR2 prints one line
 * `memory report: {…}` (process.memoryUsage() and V8's heap spaces, in bytes). Nothing is listened for otherwise.
 */
export function reportMemoryOnSignal(env: NodeJS.ProcessEnv = process.env): void {
  if (env.INNKEEPER_MEMORY_REPORT !== '1') return;
  process.on('SIGUSR2', () => {
    const heap = getHeapStatistics();
    const report = {
      usage: process.memoryUsage(),
      heap: {
        total: heap.total_heap_size,
        used: heap.used_heap_size,
        malloced: heap.malloced_memory,
        external: heap.external_memory,
        contexts: heap.number_of_native_contexts,
      },
      spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
      ),
    };
    console.log(`memory report: ${JSON.stringify(report)}`);
  });
}
