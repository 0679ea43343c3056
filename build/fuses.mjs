// electron-builder's afterPack hook (electron-builder.yml): flips the packaged Electron binary's fuses before it
// is signed and wrapped into the AppImage, deb, NSIS installer or dmg. Fuses are switches compiled into the
// binary, so no environment variable or command-line flag can turn these features back on.
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

/** electron-builder's Arch enum: arm64 is 3. */
const ARM64 = 3;

/**
 * Every fuse set on purpose (`strictlyRequireAllFuses`: an Electron upgrade that adds a fuse fails the build
 * until it is decided here).
 */
export const FUSES = {
  // The binary never runs as plain Node (ELECTRON_RUN_AS_NODE): it cannot be used to run other scripts.
  [FuseV1Options.RunAsNode]: false,
  // Cookies on disk are encrypted with the OS key store.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS is ignored: nothing preloads code into the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect and friends are ignored: no debugger can attach to the main process of the installed app.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar is checked against the hash electron-builder embeds (macOS and Windows; Linux has no check yet).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // The app is loaded from app.asar only, never from a loose app folder beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // One V8 snapshot for every process, as built.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // Kept on: the window loads the built renderer from file://, whose module scripts need the file protocol's
  // privileges. Turning it off needs the renderer served over a custom protocol first.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: true,
  // V8's WebAssembly trap handlers, Electron's default.
  [FuseV1Options.WasmTrapHandlers]: true,
};

/** The fuse configuration for one packaged platform and arch (electron-builder's names and Arch enum). */
export function fuseConfig(platform, arch) {
  return {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: true,
    // Flipping fuses changes the binary, so an Apple Silicon build needs its ad-hoc signature made again.
    resetAdHocDarwinSignature: platform === 'darwin' && arch === ARM64,
    ...FUSES,
  };
}

/** Where the packaged Electron binary is inside electron-builder's output folder for the platform. */
export function electronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return join(appOutDir, packager.executableName);
}

export default async function afterPack(context) {
  await flipFuses(electronBinary(context), fuseConfig(context.electronPlatformName, context.arch));
}
