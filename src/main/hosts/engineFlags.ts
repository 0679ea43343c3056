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
 * run time it does not). Test: test/unit/engineFlags.test.ts.
 */
export const ENGINE_FLAGS = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'] as const;

export function applyEngineFlags(): void {
  for (const flag of ENGINE_FLAGS) setFlagsFromString(flag);
}
