import { errorText } from '../../shared/result';

/**
 * Runs `round` while started (once at start, then again `tickMs` after each round ends): one round at a time, a failed
 * round logged with the feature's name, and a timer that never keeps the process alive. `stop` waits for the round in
 * progress and then for the feature's own work in flight (`settle`).
 *
 * With `nextDue`, rounds run only when there is something to do: the next one when `nextDue` says (never sooner
 * than `tickMs` after the last one ended), or after `idleMs` when nothing is scheduled (a look in case). `poke` asks
 * `nextDue` again once the feature scheduled something new; a poller on an idle app then sets one timer a minute,
 * not one every few seconds.
 */
export function createPoller(options: {
  name: string;
  round: () => Promise<unknown>;
  settle: () => Promise<unknown>;
  tickMs: number;
  onError?: (text: string) => void;
  /** When the next round has something to do (epoch ms), or null when nothing is scheduled. */
  nextDue?: () => number | null;
  /** The longest time between rounds with `nextDue` (60 s unless told). */
  idleMs?: number;
  now?: () => number;
}) {
  const onError = options.onError ?? console.error;
  const now = options.now ?? Date.now;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  /** When the last round ended: the next one is never sooner than `tickMs` after it. */
  let lastEnded = 0;

  const delay = (): number => {
    if (!options.nextDue) return options.tickMs;
    const idleMs = options.idleMs ?? 60_000;
    let due: number | null;
    try {
      due = options.nextDue();
    } catch (error) {
      onError(`${options.name}: ${errorText(error)}`);
      due = null;
    }
    const earliest = lastEnded + options.tickMs;
    const at = due === null ? now() + idleMs : Math.min(Math.max(due, earliest), now() + idleMs);
    return Math.max(0, at - now());
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!started || running) return;
    timer = setTimeout(tick, delay());
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (running || !started) return;
    running = options
      .round()
      .catch((error: unknown) => onError(`${options.name}: ${errorText(error)}`))
      .finally(() => {
        running = null;
        lastEnded = now();
        schedule();
      });
  };
  return {
    start(): void {
      if (started) return;
      started = true;
      tick();
    },
    /** Something new was scheduled (with `nextDue`): the next round is timed again. */
    poke(): void {
      schedule();
    },
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await options.settle();
    },
  };
}
