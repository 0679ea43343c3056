import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const flagsModule = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'main', 'hosts', 'engineFlags.ts')).href;

/**
 * A fresh Node that (with `apply`) sets the core's engine flags the way the hosts do, after V8 has started, then runs
 * a WebAssembly function hot (millions of calls, as a busy response parser would) and says which compiler's code it
 * ended on. V8's own test hooks (--allow-natives-syntax) tell Liftoff's code from the optimizing compiler's.
 */
function wasmTierAfterHotCalls(apply: boolean): string {
  const script = `
    if (${apply}) (await import(${JSON.stringify(flagsModule)})).applyEngineFlags();
    // (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
    const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,0,32,0,32,1,106,11]);
    const { instance } = await WebAssembly.instantiate(bytes);
    const add = instance.exports.add;
    let sum = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3e6; i++) sum = add(sum, 1) | 0;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    console.log(%IsLiftoffFunction(add) ? 'liftoff' : %IsTurboFanFunction(add) ? 'turbofan' : 'other');
  `;
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', cwd: join(import.meta.dirname, '..', '..') },
  );
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

/**
 * A fresh Node that (with `apply`) sets the engine flags, allocates for a while, and says its young generation's size
 * in MiB (it stays at the size it had when the flags were set: 2–4 MiB, after tsx has loaded).
 */
function youngGenerationMiBAfterWork(apply: boolean): number {
  const script = `
    if (${apply}) (await import(${JSON.stringify(flagsModule)})).applyEngineFlags();
    const { getHeapSpaceStatistics } = await import('node:v8');
    const kept = [];
    for (let round = 0; round < 20; round++) {
      const rows = [];
      for (let i = 0; i < 50000; i++) rows.push({ id: i, text: 'message ' + i });
      kept.push(JSON.stringify(rows.slice(0, 10)));
    }
    console.log(getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: join(import.meta.dirname, '..', '..'),
  });
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim()) / 2 ** 20;
}

describe("the core's engine flags", () => {
  it('keep the young generation at its first size after work that allocates a lot', () => {
    expect(youngGenerationMiBAfterWork(true)).toBeLessThanOrEqual(4);
  });

  it('(without them, the same work grows it)', () => {
    expect(youngGenerationMiBAfterWork(false)).toBeGreaterThanOrEqual(16);
  });

  it('keep WebAssembly on its baseline code when set after V8 started, as the hosts set them', () => {
    expect(wasmTierAfterHotCalls(true)).toBe('liftoff');
  });

  it('(without them, the same hot function is optimized: the check above can see the difference)', () => {
    expect(wasmTierAfterHotCalls(false)).toBe('turbofan');
  });
});
