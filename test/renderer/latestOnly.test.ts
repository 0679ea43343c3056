import { describe, expect, it } from 'vitest';
import { latestOnly } from '@renderer/lib/latestOnly';

describe('latestOnly', () => {
  it('says a request is the newest until another one starts', () => {
    const loads = latestOnly();
    const first = loads();
    expect(first()).toBe(true);
    const second = loads();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
  });

  it('keeps saying so after the answers arrive, in whatever order', async () => {
    const loads = latestOnly();
    const answers: string[] = [];
    const request = async (name: string, ms: number) => {
      const isNewest = loads();
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (isNewest()) answers.push(name);
    };
    // The older request answers last: only the newer one's answer counts.
    await Promise.all([request('older', 20), request('newer', 1)]);
    expect(answers).toEqual(['newer']);
  });

  it('keeps separate counts for separate helpers', () => {
    const threads = latestOnly();
    const reviews = latestOnly();
    const thread = threads();
    reviews();
    reviews();
    expect(thread()).toBe(true);
  });
});
