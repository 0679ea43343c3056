// Whether the Electron runtime can start on this machine, decided without requiring the electron package
// (requiring it would try to download the binary). Used by `npm start` and the Electron smoke test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why Electron cannot start from `root`'s node_modules, or null when it can. */
export function electronMissingReason(root, env = process.env, platform = process.platform) {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(dir)) return 'the electron package is not installed';
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile))
    return 'its binary was never downloaded; its download host is not reachable from this machine';
  const executable = join(dir, 'dist', readFileSync(pathFile, 'utf8'));
  if (!existsSync(executable)) return `its binary is missing (${executable})`;
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return 'there is no display (run it under xvfb-run)';
  return null;
}

/** The Electron executable under `root` (only meaningful when electronMissingReason returned null). */
export function electronExecutable(root) {
  const dir = join(root, 'node_modules', 'electron');
  return join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8'));
}
