import { errorText } from '../../shared/result';

/**
 * Runs `round` every `tickMs` while started (and once at start): one round at a time, a failed round logged with
 * the feature's name, and a timer that never keeps the process alive. `stop` waits for the round in progress and
 * then for the feature's own work in flight (`settle`).
 */
export function createPoller(options: {
  name: string;
  round: () => Promise<unknown>;
  settle: () => Promise<unknown>;
  tickMs: number;
  onError?: (text: string) => void;
}) {
  const onError = options.onError ?? console.error;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = options
      .round()
      .catch((error: unknown) => onError(`${options.name}: ${errorText(error)}`))
      .finally(() => (running = null));
  };
  return {
    start(): void {
      if (timer) return;
      tick();
      timer = setInterval(tick, options.tickMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      await options.settle();
    },
  };
}
