import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { demoInfoFile } from '../../src/main/demo/demoProvider';
import { runWebApp } from '../../src/main/hosts/web/webApp';
import { openAppDatabase } from '../../src/main/schema';
import { dataFileChild } from '../support/storeKit';
import { tempDir } from '../support/tempDir';

/** What a crash or a failed start leaves in the data folder is cleaned up by the next start, or by the failed one. */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const root = join(import.meta.dirname, '..', '..');
/** A pid no process can have (above Linux's largest pid_max, 2^22). */
const deadPid = (n: number) => 4_194_304 + 1000 + n;

describe('locks/<pid>.lock of processes that died', () => {
  it('are removed when the data file is next opened; a live process keeps its own', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const dbPath = join(data.path, 'innkeeper.db');
    // Another Innkeeper that runs on the same folder the whole time.
    const holder = await dataFileChild(dbPath, 'hold');
    cleanups.push(async () => {
      holder.kill();
      await holder.exited;
    });
    // Innkeeper processes killed with SIGKILL right after opening the file (no cleanup ran): each start removes the
    // marks the ones before it left.
    for (let i = 0; i < 3; i++) {
      const child = await dataFileChild(dbPath, 'kill');
      expect(await child.exited).toBe('SIGKILL');
    }
    // And the marks of many more that died the same way.
    for (let i = 0; i < 20; i++) {
      writeFileSync(join(data.path, 'locks', `${deadPid(i)}.lock`), JSON.stringify({ pid: deadPid(i) }));
    }
    expect(readdirSync(join(data.path, 'locks'))).toHaveLength(22);

    const database = openAppDatabase(dbPath);
    cleanups.push(() => database.close());

    expect(readdirSync(join(data.path, 'locks')).sort()).toEqual([`${holder.pid}.lock`, `${process.pid}.lock`].sort());
  });
});

describe('a browser-mode start that fails on a taken web port', () => {
  it('leaves no lock and no demo-provider.json behind, and says which port', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)));
    const port = (taken.address() as { port: number }).port;
    // The built renderer is not needed: the start fails before anything is served.
    const renderer = tempDir();
    cleanups.push(renderer.remove);

    const start = runWebApp(
      {
        packageJson: pathToFileURL(join(root, 'package.json')),
        rendererDir: pathToFileURL(renderer.path),
      },
      {
        INNKEEPER_DATA_DIR: data.path,
        INNKEEPER_WEB_PORT: String(port),
        INNKEEPER_PUSH_PORT: '0',
        INNKEEPER_DEMO: '1',
        INNKEEPER_DEMO_INBOX: '0',
      },
    );
    await expect(start).rejects.toThrow(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));

    expect(existsSync(demoInfoFile(data.path))).toBe(false);
    expect(readdirSync(join(data.path, 'locks'))).toEqual([]);
    // The data file was closed: another start on the folder opens it (its own lock only).
    const database = openAppDatabase(join(data.path, 'innkeeper.db'));
    database.close();
  });
});
