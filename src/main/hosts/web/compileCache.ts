import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where browser mode keeps Node's compile cache: the user's own cache folder (`$XDG_CACHE_HOME` or ~/.cache on
 * Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows), never the shared temp folder, where another account
 * could create the folder first and plant compiled code that this process would then run.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const base =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'innkeeper-compile-cache');
}

/**
 * The compile cache folder, made ready for this user only, or why it cannot be trusted (then Node just compiles, as
 * without a cache). It must be a real folder (not a link), owned by this user and closed to others (0700). One of
 * ours that is not (loosened by hand, a link) is removed and made again: it is only a cache, and nothing others could
 * have written into it is run. One owned by another account is left alone and not used.
 */
export function ownCompileCacheDir(
  dir: string,
  /** Whose folder it must be (this process's user; a test may name another). */
  uid: number | undefined = process.getuid?.(),
): { dir: string } | { refused: string } {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Windows has no owners or modes to check here: %LOCALAPPDATA% is the user's own.
    if (uid === undefined) return { dir };
    let stat = lstatSync(dir);
    if (stat.uid !== uid) return { refused: `${dir} belongs to another account (uid ${stat.uid})` };
    if (!stat.isDirectory() || (stat.mode & 0o077) !== 0) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { mode: 0o700 });
      stat = lstatSync(dir);
      if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
        return { refused: `${dir} could not be made this user's own` };
      }
    }
    return { dir };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}
