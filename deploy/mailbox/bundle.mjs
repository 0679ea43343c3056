#!/usr/bin/env node
// The mailbox as one JavaScript file, for the container image (deploy/mailbox/Dockerfile): src/mailbox/main.ts and
// everything it imports (its npm packages included) bundled with esbuild, so that the image needs Node and this file
// only, not the project's node_modules. `node deploy/mailbox/bundle.mjs [--outfile FILE]` (default
// out/mailbox/mailbox.mjs); the file then runs as `node mailbox.mjs --port N --data DIR`, like `npm run mailbox`.
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const at = process.argv.indexOf('--outfile');
const outfile =
  at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : join(root, 'out', 'mailbox', 'mailbox.mjs');

await build({
  entryPoints: [join(root, 'src', 'mailbox', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // The CommonJS packages inside (Fastify's) call require(): an ES module has none of its own.
  banner: {
    js: "import { createRequire as __mailboxRequire } from 'node:module';\nconst require = __mailboxRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`mailbox bundle: ${outfile}`);
