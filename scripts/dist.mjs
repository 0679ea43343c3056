#!/usr/bin/env node
// `npm run dist`: the desktop installers for this computer's OS into dist/ (Linux: AppImage and deb; Windows:
// NSIS; macOS: dmg), with electron-builder.yml. electron-builder downloads the Electron runtime for the target
// first; where that cannot be had (no cached copy, its download host unreachable) this says so in one line and
// stops, instead of hanging or failing deep inside electron-builder.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const TARGETS = { linux: '--linux', win32: '--win', darwin: '--mac' };
/** How long the download host may take to answer before it counts as unreachable. */
const PROBE_MS = 8_000;

function refuse(why) {
  console.error(`npm run dist: no installer built: ${why}.`);
  process.exit(1);
}

/** @electron/get's cache folder (where electron-builder keeps downloaded runtimes). */
function electronCache(env = process.env) {
  const configured = env.electron_config_cache || env.ELECTRON_CACHE;
  if (configured) return configured;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'electron');
  if (process.platform === 'win32') {
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'electron', 'Cache');
  }
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'electron');
}

/** True when a downloaded `zip` is in the cache (@electron/get keeps it at <cache>/<hash of its URL>/<zip>). */
function cached(cache, zip) {
  if (!existsSync(cache)) return false;
  if (existsSync(join(cache, zip))) return true;
  return readdirSync(cache, { withFileTypes: true }).some(
    (d) => d.isDirectory() && existsSync(join(cache, d.name, zip)),
  );
}

/** Null when `url` answers, otherwise why not, in a few words. */
async function unreachable(url) {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(PROBE_MS) });
    return response.status >= 400 ? `it answered ${response.status}` : null;
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.name ?? String(error);
    return error?.name === 'TimeoutError' ? `no answer within ${PROBE_MS / 1000} s` : String(cause);
  }
}

const flag = TARGETS[process.platform];
if (!flag) refuse(`installers are made on Linux, Windows or macOS, not on ${process.platform}`);

const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const zip = `electron-v${version}-${process.platform}-${process.arch}.zip`;
if (!cached(electronCache(), zip)) {
  const mirror = process.env.ELECTRON_MIRROR || 'https://github.com/electron/electron/releases/download/';
  const url = `${mirror.endsWith('/') ? mirror : `${mirror}/`}v${version}/${zip}`;
  const why = await unreachable(url);
  if (why) {
    refuse(
      `the Electron ${version} runtime (${zip}) cannot be downloaded here: ${new URL(url).host} is unreachable (${why}) and it is not in ${electronCache()}`,
    );
  }
}

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
console.log('Building Innkeeper…');
run(bin('electron-vite'), ['build', '--logLevel', 'warn']);
run(bin('electron-builder'), [flag, '--publish', 'never']);
console.log(`The installers are in ${join(root, 'dist')}.`);
