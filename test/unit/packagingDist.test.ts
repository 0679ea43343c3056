import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run dist` where the Electron runtime cannot be downloaded: one line saying why, and nothing built.
const root = join(import.meta.dirname, '..', '..');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function emptyCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'innkeeper-electron-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A loopback port: closed (nothing listens) or a black hole (accepts and never answers). */
async function port(kind: 'closed' | 'silent'): Promise<number> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  if (kind === 'closed') await new Promise((resolve) => server.close(resolve));
  else cleanups.push(() => void server.close());
  return port;
}

function dist(env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'dist.mjs')], { cwd: root, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('npm run dist without the Electron runtime', () => {
  it('refuses in one line naming the runtime and the unreachable host, and builds nothing', async () => {
    const cache = emptyCache();
    const mirror = `http://127.0.0.1:${await port('closed')}/`;
    const { code, out, err } = await dist({
      ...process.env,
      ELECTRON_MIRROR: mirror,
      ELECTRON_CACHE: cache,
      electron_config_cache: '',
    });
    expect(code).toBe(1);
    expect(out).toBe(''); // not even "Building Innkeeper…": the build is never started
    const lines = err.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^npm run dist: no installer built: the Electron \d+\.\d+\.\d+ runtime \(electron-v/);
    expect(lines[0]).toContain(`${process.platform}-${process.arch}.zip`);
    expect(lines[0]).toContain('127.0.0.1');
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(lines[0]).toContain(cache);
  });

  it('a download host that accepts and never answers is given up on, in one line (no hang)', async () => {
    const mirror = `http://127.0.0.1:${await port('silent')}/`;
    const { code, out, err } = await dist({
      ...process.env,
      ELECTRON_MIRROR: mirror,
      ELECTRON_CACHE: emptyCache(),
      electron_config_cache: '',
    });
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toMatch(/unreachable \(no answer within \d+ s\)/);
  }, 30_000);
});
