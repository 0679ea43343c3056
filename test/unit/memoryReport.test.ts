import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportMemoryOnSignal } from '../../src/main/hosts/web/memoryReport';

/** bench:idle asks the core what holds its memory with SIGUSR2; nothing listens unless INNKEEPER_MEMORY_REPORT=1. */
describe('memory report', () => {
  const listeners = process.listeners('SIGUSR2');
  afterEach(() => {
    process.removeAllListeners('SIGUSR2');
    for (const listener of listeners) process.on('SIGUSR2', listener);
    vi.restoreAllMocks();
  });

  it('prints V8 heap and process memory on SIGUSR2 when asked for', () => {
    reportMemoryOnSignal({ INNKEEPER_MEMORY_REPORT: '1' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    process.emit('SIGUSR2', 'SIGUSR2');
    const line = String(log.mock.calls.at(-1)?.[0]);
    const report = JSON.parse(/^memory report: (\{.*\})$/.exec(line)![1]!) as {
      usage: { rss: number };
      heap: { used: number };
      spaces: Record<string, { size: number }>;
    };
    expect(report.usage.rss).toBeGreaterThan(0);
    expect(report.heap.used).toBeGreaterThan(0);
    expect(report.spaces.old_space!.size).toBeGreaterThan(0);
  });

  it('listens for nothing otherwise', () => {
    const before = process.listenerCount('SIGUSR2');
    reportMemoryOnSignal({});
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });
});
