import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the core runs with, set by each host (browser mode's `web.js`, Electron's main process) before the core
 * starts.
 *
 * WebAssembly stays on its baseline compiler (Liftoff), never tiered up to the optimizing one: the only WebAssembly
 * the core runs is the HTTP response parser of Node's own `fetch` (undici's llhttp), used by the mailbox client's
 * stream, the demo's pushes and the provider's control calls. Optimizing it ran on a V8 worker thread a few seconds
 * after start and left that thread's malloc arena at ~16 MiB for as long as the core ran (in most runs of
 * `npm run bench:idle`: the core 149–150 MiB with it, 132–135 MiB without; bench/RESULTS.md, "The core at rest").
 * The responses it parses are small; the baseline code parses them fast enough.
 *
 * Both flags are needed when set after V8 has started (`--liftoff-only` on a command line implies them, but set at
 * run time it does not).
 *
 * V8's young generation stays at its first size (1 MiB a semi-space) instead of growing to 16 MiB a semi-space with
 * the start's work (migrations, the demo's seed and sample inbox) and staying there, touched, while the core idles:
 * the idle core 110.0–113.8 MiB with it against 129.5–130.0 MiB without (3 alternating runs each, one tab, 40 s).
 * The cost is more frequent young collections: a synthetic loop that only allocates (JSON of 50,000 rows, 30 times)
 * runs 1.4–1.9× slower; the core's start (spawned → URL printed) did not change measurably (366–438 ms against
 * 390–489 ms), nor its idle CPU. `--max-semi-space-size` cannot be set at run time (it is read as the heap is set up).
 * Test: test/unit/engineFlags.test.ts.
 */
export const ENGINE_FLAGS = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering', '--semi-space-growth-factor=1'] as const;

export function applyEngineFlags(): void {
  for (const flag of ENGINE_FLAGS) setFlagsFromString(flag);
}
