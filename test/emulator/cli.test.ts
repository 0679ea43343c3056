import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientIdFromDomain } from '../../src/shared/clientId';

const root = join(import.meta.dirname, '..', '..');

/** Runs `npm run emulator -- …` (the real script) and resolves with the lines it printed first. */
function startCli(args: string[]) {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['src/emulator/main.ts', ...args], { cwd: root });
  let out = '';
  let err = '';
  const ready = new Promise<{ main: string; token: string; control: string; controlToken: string }>(
    (resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d);
        const main = /^main: (\S+)$/m.exec(out)?.[1];
        const token = /^token: (\S+)$/m.exec(out)?.[1];
        const control = /^control: (\S+)$/m.exec(out)?.[1];
        const controlToken = /^control token: (\S+)$/m.exec(out)?.[1];
        if (main && token && control && controlToken) resolve({ main, token, control, controlToken });
      });
      child.stderr.on('data', (d) => (err += String(d)));
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    },
  );
  return { child, ready, stderr: () => err };
}

describe('npm run emulator', () => {
  it('prints its control API and token: the developer’s own program answers control calls with it only', async () => {
    const cli = startCli(['--port', '0']);
    try {
      const { control, controlToken } = await cli.ready;
      expect(control).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_emulator$/);
      expect((await fetch(`${control}/state`)).status).toBe(401);
      const state = await fetch(`${control}/state`, { headers: { authorization: `Bearer ${controlToken}` } });
      expect(state.status).toBe(200);
    } finally {
      cli.child.kill();
    }
  });

  it('prints main and token base URLs on the requested port and issues tokens with the given secret', async () => {
    const cli = startCli(['--port', '0', '--client-secret', 'cli-secret']);
    try {
      const { main, token } = await cli.ready;
      expect(main).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/SUAPI$/);
      expect(token).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/token$/);
      const response = await fetch(`${main}/jservice/auth/generate-access-token`, {
        headers: { 'client-id': clientIdFromDomain('demo.innkeeper.test'), 'client-secret': 'cli-secret' },
      });
      const body = (await response.json()) as {
        Status: string;
        Data: { token: string; expire_in: string; token_type: string };
      };
      expect(body.Status).toBe('Success');
      expect(body.Data).toMatchObject({
        token_type: 'Bearer',
        expire_in: '3600',
        token: expect.stringMatching(/^sandbox_/),
      });
    } finally {
      cli.child.kill();
    }
  });

  it('names the flag when a value is wrong', async () => {
    const cli = startCli(['--port', 'abc']);
    await expect(cli.ready).rejects.toThrow(/--port/);
  });
});
