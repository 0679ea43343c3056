import { afterEach, describe, expect, it } from 'vitest';
import { startCollector, nothingCollected, type Collector } from '../../src/main/mailbox/collector';
import { mailboxClient } from '../../src/main/mailbox/mailboxClient';
import { eventually } from '../support/eventually';
import { startTestMailbox } from '../support/mailboxHarness';

// The collector takes a stream that went silent (not even a ping) for dead and connects again; one that pings is
// never cut. Against a real mailbox over loopback; what is filed is only recorded (nothing is pushed here).

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

/** A collector on a paired device of `t`, with a short silence; what it reports is recorded. */
async function collecting(pingMs: number, silenceMs: number) {
  const t = await startTestMailbox({ pingMs });
  cleanups.push(() => t.stop());
  const device = await t.pairNew();
  const seen = { connected: 0, disconnected: 0, problems: [] as string[] };
  const collector: Collector = startCollector({
    client: mailboxClient(t.url, device.token),
    privateKey: device.keys.privateKey,
    position: () => 0,
    file: async () => [],
    catching: nothingCollected,
    skipTo: () => undefined,
    silenceMs,
    events: {
      connected: (connected) => (connected ? (seen.connected += 1) : (seen.disconnected += 1)),
      problem: (message) => void (message && seen.problems.push(message)),
      filed: () => undefined,
      caughtUp: () => undefined,
      live: () => undefined,
      revoked: () => undefined,
    },
  });
  cleanups.push(() => collector.stop());
  return seen;
}

describe('a silent stream', () => {
  it('is taken for dead after the silence, reported, and connected again', async () => {
    // The mailbox pings once a minute; the collector waits 400 ms.
    const seen = await collecting(60_000, 400);
    await eventually(
      async () => seen.problems.length,
      (n) => n > 0,
      5_000,
    );
    expect(seen.problems[0]).toBe(
      'Innkeeper cannot reach the mailbox: the connection went silent (no sign of life for 0.4 seconds).',
    );
    expect(seen.disconnected).toBeGreaterThanOrEqual(1);
    // Connected again after the pause (1 s, give or take a fifth).
    await eventually(
      async () => seen.connected,
      (n) => n >= 2,
      5_000,
    );
  });

  it('that pings more often than the silence allows is never cut', async () => {
    const seen = await collecting(100, 400);
    await eventually(
      async () => seen.connected,
      (n) => n === 1,
      5_000,
    );
    // Three times the silence, with a ping every 100 ms: still the first connection.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(seen.problems).toEqual([]);
    expect(seen.disconnected).toBe(0);
    expect(seen.connected).toBe(1);
  });
});
