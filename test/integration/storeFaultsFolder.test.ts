import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataFolderOwnerOnly } from '../../src/main/hosts/web/dataFolder';
import { tempDir } from '../support/tempDir';

const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});
const mode = (path: string) => statSync(path).mode & 0o777;

describe("browser mode's owner-only data folder and symbolic links", () => {
  it('a link to a folder or file elsewhere is left alone, and a link back up the tree does not loop', () => {
    const data = tempDir();
    const outside = tempDir();
    cleanups.push(data.remove, outside.remove);
    const sharedDir = join(outside.path, 'shared');
    const sharedFile = join(outside.path, 'notes.txt');
    mkdirSync(sharedDir, { mode: 0o755 });
    chmodSync(sharedDir, 0o755);
    writeFileSync(sharedFile, 'not Innkeeper’s', { mode: 0o644 });
    chmodSync(sharedFile, 0o644);
    mkdirSync(join(data.path, 'backups'));
    writeFileSync(join(data.path, 'backups', 'innkeeper-1.db'), '', { mode: 0o644 });
    writeFileSync(join(data.path, 'settings.json'), '{}', { mode: 0o644 });
    symlinkSync(sharedDir, join(data.path, 'to-folder'));
    symlinkSync(sharedFile, join(data.path, 'to-file'));
    symlinkSync(data.path, join(data.path, 'backups', 'loop'));

    makeDataFolderOwnerOnly(data.path, false);

    expect(mode(sharedDir)).toBe(0o755);
    expect(mode(sharedFile)).toBe(0o644);
    expect(mode(data.path)).toBe(0o700);
    expect(mode(join(data.path, 'backups'))).toBe(0o700);
    expect(mode(join(data.path, 'backups', 'innkeeper-1.db'))).toBe(0o600);
    expect(mode(join(data.path, 'settings.json'))).toBe(0o600);
  });
});
