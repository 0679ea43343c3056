// A real core (test/support/core.ts) in its own process, so that a test can watch that process's memory and its
// listener while the core reads a photo, and a core that a photo knocks over takes only this process with it.
// Prints one JSON line when ready: the listener's address and the demo provider's push credentials. Then reads JSON
// lines `{ "path": …, "fileName": … }` on stdin, adds each file as the renderer does (in chunks), and prints
// `{ "result": …, "ms": … }` for each: the contract's answer and how long the whole add took.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { contractClient } from './contract';
import { startTestCore } from './core';
import { eventually } from './eventually';
import { addPhotoFile } from './photoFile';

const ctx = await startTestCore();
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const HOTEL = 'IK-DEMO-001';
await eventually(
  () => call('rates.properties', {}),
  (p) => p.length >= 2,
);
const partner = ctx.emulator().state.partnerEndpoint!;
console.log(
  JSON.stringify({
    listener: (await call('intake.status', {})).localUrl,
    auth: `Basic ${Buffer.from(`${partner.username}:${partner.password}`).toString('base64')}`,
  }),
);

for await (const line of createInterface({ input: process.stdin })) {
  const { path, fileName } = JSON.parse(line) as { path: string; fileName: string };
  const bytes = readFileSync(path);
  const started = performance.now();
  const result = await addPhotoFile({ call, dispatch }, HOTEL, fileName, bytes);
  console.log(JSON.stringify({ result, ms: Math.round(performance.now() - started) }));
}
await ctx.stop();
