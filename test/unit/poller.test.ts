import { describe, expect, it } from 'vitest';
import { createPoller } from '../../src/main/lib/poller';
import { eventually } from '../support/eventually';

// The background poller on the real clock with short times: fixed rounds, rounds only when due, and stopping.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the background poller', () => {
  it('without nextDue: a round at the start, then one every tick after the last ended', async () => {
    let rounds = 0;
    const poller = createPoller({
      name: 't',
      round: async () => void (rounds += 1),
      settle: async () => {},
      tickMs: 50,
    });
    const started = Date.now();
    poller.start();
    await pause(330);
    await poller.stop();
    const elapsed = Date.now() - started;
    // About 7 on an idle machine (timers run late on a busy one), and never more than one a tick.
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(rounds).toBeLessThanOrEqual(Math.floor(elapsed / 50) + 1);
    const stopped = rounds;
    await pause(150);
    expect(rounds).toBe(stopped);
  });

  it('with nextDue: no round between due times, and the next one at its due time', async () => {
    const at: number[] = [];
    let due: number | null = null;
    const poller = createPoller({
      name: 't',
      // A round does what was due (nothing is due after it until something new is scheduled).
      round: async () => {
        at.push(Date.now());
        due = null;
      },
      settle: async () => {},
      tickMs: 100,
      nextDue: () => due,
      idleMs: 60_000,
    });
    const started = Date.now();
    poller.start();
    await pause(300);
    expect(at.length).toBe(1);
    // Due at once.
    due = Date.now();
    poller.poke();
    await eventually(
      async () => at.length,
      (n) => n === 2,
    );
    due = Date.now() + 250;
    poller.poke();
    const waited = Date.now();
    await eventually(
      async () => at.length,
      (n) => n === 3,
    );
    expect(at[2]! - waited).toBeGreaterThanOrEqual(240);
    await pause(300);
    expect(at.length).toBe(3);
    await poller.stop();
    expect(at[0]! - started).toBeLessThan(50);
  });

  it('with nothing scheduled it still looks once per idleMs; a nextDue that throws is logged and waits that long', async () => {
    let rounds = 0;
    const errors: string[] = [];
    let failing = true;
    const poller = createPoller({
      name: 'feature',
      round: async () => void (rounds += 1),
      settle: async () => {},
      tickMs: 10,
      nextDue: () => {
        if (failing) throw new Error('the file is closed');
        return null;
      },
      idleMs: 150,
      onError: (text) => errors.push(text),
    });
    const started = Date.now();
    poller.start();
    await pause(400);
    failing = false;
    await poller.stop();
    const elapsed = Date.now() - started;
    expect(errors[0]).toBe('feature: the file is closed');
    // One every idleMs (150 ms), not one every tick (10 ms: about 40).
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThanOrEqual(Math.floor(elapsed / 150) + 1);
  });
});
