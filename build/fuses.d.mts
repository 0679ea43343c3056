import type { FuseV1Config, FuseV1Options } from '@electron/fuses';

interface PackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

export const FUSES: Record<FuseV1Options, boolean>;
export function fuseConfig(platform: string, arch: number): FuseV1Config;
export function electronBinary(context: PackContextLike): string;
export default function afterPack(context: PackContextLike): Promise<void>;
