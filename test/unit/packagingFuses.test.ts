import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import afterPack, { electronBinary, FUSES, fuseConfig } from '../../build/fuses.mjs';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults, as a fresh binary carries them ('1' on, '0' off), in FuseV1Options order. */
const ELECTRON_DEFAULTS = '101100011';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A stand-in for the packaged Linux binary: bytes around the fuse wire exactly as Electron lays it out. */
function fakeElectron(): { appOutDir: string; binary: string } {
  const appOutDir = mkdtempSync(join(tmpdir(), 'innkeeper-fuses-'));
  dirs.push(appOutDir);
  const binary = join(appOutDir, 'innkeeper');
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 9]), Buffer.from(ELECTRON_DEFAULTS)]);
  writeFileSync(binary, Buffer.concat([Buffer.alloc(4096, 7), wire, Buffer.alloc(4096, 9)]));
  return { appOutDir, binary };
}

const packager = { executableName: 'innkeeper', appInfo: { productFilename: 'Innkeeper' } };

describe('the Electron fuses of the packaged app (build/fuses.mjs, the afterPack hook)', () => {
  it('sets every fuse, each to the value decided', () => {
    expect(FUSES).toEqual({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: true,
      [FuseV1Options.WasmTrapHandlers]: true,
    });
    // Every fuse this @electron/fuses knows is decided, and an unknown one fails the build.
    const known = Object.values(FuseV1Options).filter((v) => typeof v === 'number');
    expect(Object.keys(FUSES).map(Number).sort()).toEqual(known.sort());
    expect(fuseConfig('linux', 1)).toMatchObject({ version: '1', strictlyRequireAllFuses: true });
  });

  it('signs an Apple Silicon build again (ad hoc) after flipping, and no other', () => {
    expect(fuseConfig('darwin', 3).resetAdHocDarwinSignature).toBe(true);
    expect(fuseConfig('darwin', 1).resetAdHocDarwinSignature).toBe(false);
    expect(fuseConfig('linux', 3).resetAdHocDarwinSignature).toBe(false);
    expect(fuseConfig('win32', 1).resetAdHocDarwinSignature).toBe(false);
  });

  it('finds the binary where electron-builder puts it on each OS', () => {
    const base = { appOutDir: '/o', arch: 1, packager };
    expect(electronBinary({ ...base, electronPlatformName: 'linux' })).toBe(join('/o', 'innkeeper'));
    expect(electronBinary({ ...base, electronPlatformName: 'win32' })).toBe(join('/o', 'Innkeeper.exe'));
    expect(electronBinary({ ...base, electronPlatformName: 'darwin' })).toBe(join('/o', 'Innkeeper.app'));
  });

  it('the hook flips the fuses in the packaged binary: no RunAsNode, no NODE_OPTIONS, no --inspect, asar only', async () => {
    const { appOutDir, binary } = fakeElectron();
    const before = readFileSync(binary);
    await afterPack({ appOutDir, electronPlatformName: 'linux', arch: 1, packager });
    const wire = await getCurrentFuseWire(binary);
    const on = (option: FuseV1Options) => wire[option] === FuseState.ENABLE;
    expect(on(FuseV1Options.RunAsNode)).toBe(false);
    expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(false);
    expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe(false);
    expect(on(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(true);
    expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true);
    expect(on(FuseV1Options.EnableCookieEncryption)).toBe(true);
    // Only the wire changed: the rest of the binary is byte for byte the same.
    const after = readFileSync(binary);
    expect(after.length).toBe(before.length);
    const wireAt = before.indexOf(SENTINEL) + SENTINEL.length + 2;
    expect(after.subarray(0, wireAt)).toEqual(before.subarray(0, wireAt));
    expect(after.subarray(wireAt, wireAt + 9).toString()).toBe('010011011');
    expect(after.subarray(wireAt + 9)).toEqual(before.subarray(wireAt + 9));
  });

  it('a binary without fuses fails the build rather than shipping unprotected', async () => {
    const { appOutDir, binary } = fakeElectron();
    writeFileSync(binary, Buffer.alloc(8192, 1));
    await expect(afterPack({ appOutDir, electronPlatformName: 'linux', arch: 1, packager })).rejects.toThrow(
      /sentinel/,
    );
  });
});
