import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, matchesGlob, relative } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import { defaultDataDir } from '../../src/main/config/runtimeConfig';

// electron-builder.yml read and checked the way electron-builder itself reads and checks it.
const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const builderConfig = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, logger: { isEnabled: boolean; add(): void }): Promise<void>;
};

let config: Configuration;
beforeAll(async () => {
  config = await builderConfig.getConfig(root, null, null);
});

/** The configured patterns of `files` (electron-builder normalises them into one filter list). */
function filePatterns(): string[] {
  const files = config.files as ({ filter: string[] } | string)[];
  return files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter));
}

/** Whether electron-builder's `files` patterns take `path` (the last matching pattern wins; `!` excludes). */
function packed(path: string): boolean {
  let taken = false;
  for (const pattern of filePatterns()) {
    const exclude = pattern.startsWith('!');
    if (matchesGlob(path, exclude ? pattern.slice(1) : pattern)) taken = !exclude;
  }
  return taken;
}

/** The production dependencies (what electron-builder puts beside the app), read from node_modules. */
function productionPackages(): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return; // an optional dependency for another OS
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep);
  };
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(own.dependencies)) visit(dep);
  return [...seen];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Pixel sizes of the PNG images in an ICO file (0 in the directory means 256). */
function icoSizes(file: string): number[] {
  const ico = readFileSync(file);
  expect(ico.readUInt16LE(2)).toBe(1); // an icon, not a cursor
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
}

/** The entries of an ICNS file: type → the PNG's pixel width. */
async function icnsEntries(file: string): Promise<Record<string, number>> {
  const icns = readFileSync(file);
  expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
  expect(icns.readUInt32BE(4)).toBe(icns.length);
  const entries: Record<string, number> = {};
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    const { width } = await sharp(icns.subarray(at + 8, at + length)).metadata();
    entries[icns.subarray(at, at + 4).toString('ascii')] = width;
    at += length;
  }
  return entries;
}

describe('packaging (electron-builder.yml)', () => {
  it('is a configuration electron-builder accepts', async () => {
    await expect(
      builderConfig.validateConfiguration(config, { isEnabled: false, add: () => undefined }),
    ).resolves.toBeUndefined();
    expect(config.appId).toMatch(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9-]*){2,}$/);
    expect(config.directories).toMatchObject({ output: 'dist', buildResources: 'build' });
    expect(config.publish).toBeNull();
  });

  it('the product name is the data folder the app already uses, so an installed app finds browser mode’s data', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { productName: string };
    expect(config.productName).toBe('Innkeeper');
    expect(pkg.productName).toBe(config.productName);
    // app.getPath('userData') is <appData>/<productName>; browser mode's default is the same folder.
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(basename(defaultDataDir({ APPDATA: 'C:\\Users\\o\\AppData\\Roaming' }, platform))).toBe(
        config.productName,
      );
    }
  });

  it('packs the built app and its resources, never the sources, tests, benchmarks or scripts', () => {
    for (const built of [
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      // The image reader's process (src/main/photos/imageWorker.ts): a chunk of its own, forked by its path.
      'out/main/chunks/imageWorker-0a1b2c3d.js',
      'resources/tray.png',
    ]) {
      expect(packed(built), built).toBe(true);
    }
    expect(packed('package.json')).toBe(true);
    for (const left of [
      'src/main/core.ts',
      'test/unit/packaging.test.ts',
      'bench/inbox-render.ts',
      'scripts/dist.mjs',
      'build/icon.svg',
      'out/main/index.js.map',
    ]) {
      expect(packed(left), left).toBe(false);
    }
    // What the main bundle loads at run time is among what is packed.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    expect(packed(relative('.', pkg.main))).toBe(true);
    for (const icon of ['resources/icon.png', 'resources/tray.png']) {
      expect(existsSync(join(root, icon)) && packed(icon), icon).toBe(true);
    }
  });

  it('unpacks every native binary of the production dependencies from app.asar (sharp, its libvips, ngrok)', () => {
    const unpack = config.asarUnpack as string[];
    expect(config.asar).toBe(true);
    expect(unpack).toEqual(expect.arrayContaining(['node_modules/sharp/**/*', 'node_modules/@img/**/*']));
    const natives = productionPackages().flatMap((name) =>
      filesUnder(join(root, 'node_modules', name))
        .filter((f) => /\.(node|dylib|dll)$|\.so(\.\d+)*$/.test(f))
        .map((f) => relative(root, f).split('\\').join('/')),
    );
    // sharp's binding and libvips are there on every OS this is built on.
    expect(natives.some((f) => f.startsWith('node_modules/@img/sharp-') && f.endsWith('.node'))).toBe(true);
    expect(natives.some((f) => f.startsWith('node_modules/@img/sharp-libvips-'))).toBe(true);
    for (const file of natives)
      expect(
        unpack.some((glob) => matchesGlob(file, glob)),
        file,
      ).toBe(true);
    // Prebuilt Node-API binaries load in Electron as they are: nothing is rebuilt (which would need a compiler).
    expect(config.npmRebuild).toBe(false);
  });

  it('lists the installers for each OS: AppImage and deb, NSIS, dmg', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.linux?.maintainer).toBeTruthy(); // a deb cannot be made without one
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('installs on Windows for the owner only, and uninstalling keeps their data', () => {
    expect(config.nsis).toMatchObject({ perMachine: false, oneClick: false, deleteAppDataOnUninstall: false });
  });

  it('sets the fuses after packing, with the hook in build/fuses.mjs', async () => {
    expect(config.afterPack).toBe('./build/fuses.mjs');
    const hook = (await import('../../build/fuses.mjs')) as { default: unknown };
    expect(typeof hook.default).toBe('function');
  });

  it('has the icons each installer needs, at their sizes', async () => {
    const png = (p: string) => sharp(join(root, p)).metadata();
    // Linux: one PNG per size in the icons folder, named by its size.
    const linuxDir = join(root, config.linux?.icon as string);
    const linux = readdirSync(linuxDir).filter((f) => f.endsWith('.png'));
    for (const size of [16, 32, 48, 64, 128, 256, 512]) expect(linux).toContain(`${size}x${size}.png`);
    for (const file of linux) {
      const { width, height } = await sharp(join(linuxDir, file)).metadata();
      expect(`${width}x${height}.png`).toBe(file);
    }
    // Windows: an ICO up to 256 px; macOS: an ICNS up to 1024 px (512@2x); the dmg and fallback PNG at 1024.
    expect(statSync(join(root, config.win?.icon as string)).isFile()).toBe(true);
    expect(icoSizes(join(root, config.win?.icon as string))).toEqual(
      expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]),
    );
    const icns = await icnsEntries(join(root, config.mac?.icon as string));
    expect(icns).toMatchObject({ icp4: 16, icp5: 32, ic07: 128, ic08: 256, ic09: 512, ic10: 1024 });
    expect(await png('build/icon.png')).toMatchObject({ width: 1024, height: 1024, format: 'png' });
  });
});
