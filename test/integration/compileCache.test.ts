import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir, ownCompileCacheDir } from '../../src/main/hosts/web/compileCache';
import { tempDir } from '../support/tempDir';

/** Browser mode keeps Node's compile cache in the user's own folder, never in the shared temp folder. */
const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});
const root = join(import.meta.dirname, '..', '..');
const mode = (path: string) => lstatSync(path).mode & 0o777;
const uid = process.getuid?.();

describe("browser mode's compile cache folder", () => {
  it("is the user's cache folder, not the temp folder", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/home/o/.cache' }, 'linux')).toBe(
      '/home/o/.cache/innkeeper-compile-cache',
    );
    expect(compileCacheDir({}, 'linux')).toBe(join(homedir(), '.cache', 'innkeeper-compile-cache'));
    expect(compileCacheDir({ LOCALAPPDATA: 'C:\\Users\\o\\AppData\\Local' }, 'win32')).toContain(
      'innkeeper-compile-cache',
    );
    expect(compileCacheDir({}, 'linux').startsWith(tmpdir())).toBe(false);
  });

  it.skipIf(uid === undefined)('is made owner-only (0700)', () => {
    const base = tempDir();
    cleanups.push(base.remove);
    const dir = join(base.path, 'cache', 'innkeeper-compile-cache');
    expect(ownCompileCacheDir(dir)).toEqual({ dir });
    expect(mode(dir)).toBe(0o700);
  });

  it.skipIf(uid === undefined)(
    'one of ours that others could write into is emptied and closed; a link is replaced',
    () => {
      const base = tempDir();
      cleanups.push(base.remove);
      const loose = join(base.path, 'loose');
      mkdirSync(loose, { mode: 0o777 });
      writeFileSync(join(loose, 'planted'), 'code someone else wrote');
      expect(ownCompileCacheDir(loose)).toEqual({ dir: loose });
      expect(mode(loose)).toBe(0o700);
      expect(readdirSync(loose)).toEqual([]);

      const elsewhere = join(base.path, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o755 });
      writeFileSync(join(elsewhere, 'kept'), 'not the cache');
      const link = join(base.path, 'link');
      symlinkSync(elsewhere, link);
      expect(ownCompileCacheDir(link)).toEqual({ dir: link });
      expect(lstatSync(link).isDirectory()).toBe(true);
      expect(mode(link)).toBe(0o700);
      // The folder the link pointed at is left as it was.
      expect(readFileSync(join(elsewhere, 'kept'), 'utf8')).toBe('not the cache');
      expect(mode(elsewhere)).toBe(0o755);
    },
  );

  it.skipIf(uid === undefined)('one owned by another account is not used, and left as it is', () => {
    const base = tempDir();
    cleanups.push(base.remove);
    const planted = join(base.path, 'innkeeper-compile-cache');
    mkdirSync(planted, { mode: 0o777 });
    writeFileSync(join(planted, 'planted'), 'code someone else wrote');
    // The folder is this test's; the cache asks for another account's uid, as if someone else had made it first.
    const refused = ownCompileCacheDir(planted, uid! + 1);
    expect(refused).toEqual({ refused: expect.stringMatching(/belongs to another account/) });
    expect(existsSync(join(planted, 'planted'))).toBe(true);
  });

  it.skipIf(uid === undefined)(
    'browser mode makes it in XDG_CACHE_HOME, owner-only, before anything else',
    async () => {
      const cache = tempDir();
      const data = tempDir();
      cleanups.push(cache.remove, data.remove);
      // A start that stops at once (a web port that is not a number): the cache folder was made before.
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main', 'hosts', 'web', 'main.ts')], {
        cwd: root,
        env: { ...process.env, XDG_CACHE_HOME: cache.path, INNKEEPER_DATA_DIR: data.path, INNKEEPER_WEB_PORT: 'none' },
      });
      let output = '';
      child.stderr.on('data', (d) => (output += String(d)));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(output).toMatch(/INNKEEPER_WEB_PORT must be a port number/);
      const dir = join(cache.path, 'innkeeper-compile-cache');
      expect(mode(dir)).toBe(0o700);
      expect(lstatSync(dir).uid).toBe(uid);
    },
  );
});
