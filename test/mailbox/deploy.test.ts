import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/caddy';
import { tempDir } from '../support/tempDir';

const root = join(import.meta.dirname, '..', '..');
const deploy = join(root, 'deploy', 'mailbox');

/** compose.yaml's `command:` for the mailbox, with the test's port and data folder in place of 8080 and /data. */
function composeArguments(port: number, data: string): string[] {
  const compose = readFileSync(join(deploy, 'compose.yaml'), 'utf8');
  const line = /^\s+command: (\[.*\])\s*$/m.exec(compose)?.[1];
  if (!line) throw new Error('compose.yaml gives the mailbox no command');
  const args = JSON.parse(line.replaceAll("'", '"')) as string[];
  args[args.indexOf('--port') + 1] = String(port);
  args[args.indexOf('--data') + 1] = data;
  return args;
}

/** The Dockerfile's HEALTHCHECK command, run by this Node against `port` instead of 8080; answers its exit code. */
function healthcheck(port: number): number | null {
  const dockerfile = readFileSync(join(deploy, 'Dockerfile'), 'utf8');
  const json = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])\s*$/m.exec(dockerfile)?.[1];
  if (!json) throw new Error('the Dockerfile has no HEALTHCHECK CMD');
  const [program, ...args] = JSON.parse(json) as string[];
  expect(program).toBe('node');
  const run = spawnSync(
    process.execPath,
    args.map((a) => a.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)),
    { timeout: 10_000 },
  );
  return run.status;
}

/**
 * What the container image runs: deploy/mailbox/bundle.mjs (the Dockerfile's build step) makes one file of the
 * mailbox, and that file runs alone, in a folder with no node_modules anywhere above it, as the image runs it.
 */
describe('the mailbox’s container program (deploy/mailbox)', () => {
  const dir = tempDir('innkeeper-mailbox-image-');
  const app = join(dir.path, 'app');
  const data = join(dir.path, 'data');
  const program = join(app, 'mailbox.mjs');
  let child: ChildProcessWithoutNullStreams | null = null;
  let out = '';
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production' };

  beforeAll(() => {
    mkdirSync(app);
    const built = spawnSync(process.execPath, [join(deploy, 'bundle.mjs'), '--outfile', join(dir.path, 'b.mjs')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(built.status, built.stderr).toBe(0);
    copyFileSync(join(dir.path, 'b.mjs'), program);
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    dir.remove();
  });

  it('starts alone with compose.yaml’s arguments, pairs as the docs say, and passes the HEALTHCHECK while up', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [program, ...composeArguments(port, data)], { cwd: app, env });
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the bundled mailbox did not start within 20 s: ${out}`)),
        20_000,
      );
      child!.stdout.on('data', () => {
        const m = /mailbox: (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child!.on('exit', (status) => {
        clearTimeout(timer);
        reject(new Error(`the bundled mailbox exited (${status}): ${out}`));
      });
    });
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(out).toMatch(/pairing code: [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);

    // `docker compose exec mailbox node /app/mailbox.mjs pair --data /data`, while it runs.
    const pair = spawnSync(process.execPath, [program, 'pair', '--data', data], {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(pair.status, pair.stderr).toBe(0);
    expect(pair.stdout).toMatch(/^pairing code: [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/m);

    expect(healthcheck(port)).toBe(0);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(healthcheck(port)).toBe(1);
  }, 60_000);
});
