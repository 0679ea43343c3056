#!/usr/bin/env node
// `npm start`: the Electron app where the Electron runtime is installed, otherwise browser mode.
// `npm run web` (--web): browser mode directly. Both build first, so what runs is what the source says.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronMissingReason } from './electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const wantWeb = process.argv.includes('--web');

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(
    `Innkeeper needs Node 22.13 or newer; this is ${process.version}. Run it through npm (npm start), which uses the Node 24 that npm install put in node_modules.`,
  );
  process.exit(1);
}

const reason = wantWeb ? null : electronMissingReason(root);
if (!wantWeb && reason === null) {
  const child = spawn(bin('electron-vite'), ['preview'], { stdio: 'inherit', cwd: root });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (reason) console.log(`Electron cannot start here: ${reason}. Starting browser mode instead.`);
  console.log('Building Innkeeper…');
  const build = spawnSync(bin('electron-vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'web.js')], { stdio: 'inherit', cwd: root });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
