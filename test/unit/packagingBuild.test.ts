import { getCurrentFuseWire, FuseState, FuseV1Options } from '@electron/fuses';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// electron-builder run for real on this machine, as far as it goes without the Electron runtime: the Linux
// "dir" target (the unpacked app every installer wraps) of a stand-in project holding the real
// electron-builder.yml, fuses hook, icons, package.json and node_modules, with a stand-in Electron binary that
// carries Electron's fuse wire. What is checked is what electron-builder made: app.asar, what it unpacked, and
// the binary's fuses.
const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as {
  listPackage(archive: string, options?: object): string[];
  statFile(archive: string, path: string): { unpacked?: boolean };
};
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

let work: string;
let appOut: string;
let packed: string[];
let log = '';

function write(path: string, content: string | Buffer) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(async () => {
  // Inside the repository's test-results, so that hard links to its node_modules stay on one file system.
  mkdirSync(join(root, 'test-results'), { recursive: true });
  work = mkdtempSync(join(root, 'test-results', 'pack-'));
  const project = join(work, 'project');
  const electron = join(work, 'electron');
  // The project: the real configuration and resources; stand-ins for the built bundles; sources, tests and
  // benchmarks that must stay out.
  for (const file of ['electron-builder.yml', 'package.json', 'package-lock.json', 'build', 'resources']) {
    cpSync(join(root, file), join(project, file), { recursive: true });
  }
  // node_modules as hard links (no bytes copied): a real tree inside the project, as in the repository itself.
  // Through a symbolic link npm reads every package as extraneous when its hidden lockfile is older than the
  // folder (as on a fresh clone once Vite wrote its cache there), and electron-builder then collects nothing.
  const linked = spawnSync('cp', ['-al', join(root, 'node_modules'), join(project, 'node_modules')]);
  expect(linked.status, String(linked.stderr)).toBe(0);
  write(join(project, 'out/main/index.js'), 'import "./chunk.js";\n');
  write(join(project, 'out/main/index.js.map'), '{}');
  write(join(project, 'out/preload/index.cjs'), '"use strict";\n');
  write(join(project, 'out/renderer/index.html'), '<!doctype html>\n');
  write(join(project, 'src/main/core.ts'), 'export {};\n');
  write(join(project, 'test/unit/a.test.ts'), 'export {};\n');
  write(join(project, 'bench/inbox-render.ts'), 'export {};\n');
  // Electron as electron-builder copies it: the binary (here only Electron's fuse wire, at Electron's defaults).
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 9]), Buffer.from('101100011')]);
  write(join(electron, 'electron'), Buffer.concat([Buffer.alloc(2048, 7), wire, Buffer.alloc(2048, 9)]));
  chmodSync(join(electron, 'electron'), 0o755);
  write(join(electron, 'version'), '45.4.1');

  const cli = join(root, 'node_modules', 'electron-builder', 'cli.js');
  const args = [
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${electron}`,
    `-c.directories.output=${join(work, 'dist')}`,
  ];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: project, env: { ...process.env, CI: 'true' } });
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('close', resolve);
  });
  expect(code, log).toBe(0);
  appOut = join(work, 'dist', 'linux-unpacked');
  packed = asar.listPackage(join(appOut, 'resources', 'app.asar'), { isPack: false });
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('electron-builder on this configuration (Linux, unpacked)', () => {
  it('names the binary and packs the built app, its resources and production dependencies only', () => {
    const own = packed.filter((p) => !p.startsWith('/node_modules'));
    expect(own.sort()).toEqual(
      [
        '/out',
        '/out/main',
        '/out/main/index.js',
        '/out/preload',
        '/out/preload/index.cjs',
        '/out/renderer',
        '/out/renderer/index.html',
        '/package.json',
        '/resources',
        '/resources/icon.png',
        '/resources/tray.png',
      ].sort(),
    );
    for (const dependency of ['fastify', 'sharp', 'zod', 'electron-store', '@ngrok/ngrok']) {
      expect(packed, dependency).toContain(`/node_modules/${dependency}/package.json`);
    }
    for (const devDependency of ['electron', 'vitest', 'vue', 'electron-builder', 'typescript']) {
      expect(packed, devDependency).not.toContain(`/node_modules/${devDependency}/package.json`);
    }
  });

  it('keeps the native parts outside app.asar, where they can be loaded', () => {
    const archive = join(appOut, 'resources', 'app.asar');
    const natives = packed.filter((p) => /\.node$|\.so(\.\d+)*$/.test(p));
    expect(natives.some((p) => p.startsWith('/node_modules/@img/sharp-') && p.endsWith('.node'))).toBe(true);
    expect(natives.some((p) => p.startsWith('/node_modules/@img/sharp-libvips-'))).toBe(true);
    for (const file of natives) {
      expect(asar.statFile(archive, file.slice(1)).unpacked, file).toBe(true);
    }
  });

  it('ran the fuses hook on the packaged binary', async () => {
    const wire = await getCurrentFuseWire(join(appOut, 'innkeeper'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
  });
});
