import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDataDirFromEnv } from '../../src/main/config/runtimeConfig';
import { runWebApp } from '../../src/main/hosts/web/webApp';
import { tempDir } from '../support/tempDir';
import { startTestCore } from '../support/core';

/** INNKEEPER_DATA_DIR pointed at a folder that is not Innkeeper's: refused, and nothing in it changed. */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const root = join(import.meta.dirname, '..', '..');
const mode = (path: string) => statSync(path).mode & 0o777;

function webApp(dataDir: string) {
  const renderer = tempDir();
  cleanups.push(renderer.remove);
  return runWebApp(
    { packageJson: pathToFileURL(join(root, 'package.json')), rendererDir: pathToFileURL(renderer.path) },
    { INNKEEPER_DATA_DIR: dataDir, INNKEEPER_WEB_PORT: '0', INNKEEPER_PUSH_PORT: '0', INNKEEPER_DEMO_INBOX: '0' },
  );
}

describe('INNKEEPER_DATA_DIR', () => {
  it('a folder with other files is refused, naming the variable and the folder; no mode or file changes', async () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    writeFileSync(join(folder.path, 'tool.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(folder.path, 'tool.sh'), 0o755);
    mkdirSync(join(folder.path, 'notes'));
    chmodSync(join(folder.path, 'notes'), 0o755);
    chmodSync(folder.path, 0o755);

    const start = webApp(folder.path);
    await expect(start).rejects.toThrow(
      new RegExp(
        `^INNKEEPER_DATA_DIR is ${folder.path}, a folder that holds other files .*not an Innkeeper data folder`,
      ),
    );
    expect(mode(join(folder.path, 'tool.sh'))).toBe(0o755);
    expect(mode(join(folder.path, 'notes'))).toBe(0o755);
    expect(mode(folder.path)).toBe(0o755);
    expect(readdirSync(folder.path).sort()).toEqual(['notes', 'tool.sh']);
  });

  it('an existing Innkeeper data folder still opens, as do a new and an empty one', async () => {
    // A folder an earlier run of Innkeeper wrote (its database, settings, backups…).
    const earlier = await startTestCore();
    await earlier.core.close();
    cleanups.push(() => rmSync(earlier.dataDir, { recursive: true, force: true }));
    expect(existsSync(join(earlier.dataDir, 'innkeeper.db'))).toBe(true);
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: earlier.dataDir })).not.toThrow();
    const app = await webApp(earlier.dataDir);
    await app.stop();

    const empty = tempDir();
    cleanups.push(empty.remove);
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: empty.path })).not.toThrow();
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: join(empty.path, 'new', 'folder') })).not.toThrow();
    // A folder holding only what Innkeeper writes (settings made by hand before the first start).
    writeFileSync(join(empty.path, 'settings.json'), '{}');
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: empty.path })).not.toThrow();
    // But not with other files beside them.
    writeFileSync(join(empty.path, 'tool.sh'), '');
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: empty.path })).toThrow(/other files \(tool.sh\)/);
    // The OS app-data folder (the variable unset) is not checked.
    expect(() => checkDataDirFromEnv({})).not.toThrow();
  });

  it('a file is refused too', () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    writeFileSync(join(folder.path, 'file'), '');
    expect(() => checkDataDirFromEnv({ INNKEEPER_DATA_DIR: join(folder.path, 'file') })).toThrow(
      /INNKEEPER_DATA_DIR is .*file, which is a file, not a folder/,
    );
  });
});
