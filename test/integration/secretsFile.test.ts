import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileSecrets } from '../../src/main/config/secrets';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { tempDir } from '../support/tempDir';

// The secret file is written whole or not at all: a write that fails leaves no secrets.json.tmp behind (with the
// secrets in it) and no secret that seems saved but is not. Real files in a temp folder; the write is made to fail
// for real, as it does when something stands in the file's place (the tests run as root, which chmod does not stop).

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const folder = () => {
  const dir = tempDir();
  dirs.push(dir);
  return dir.path;
};

describe('the secret file', () => {
  it('a write that fails leaves no temporary file, and the value is not kept as if saved', () => {
    const dir = folder();
    const secrets = createFileSecrets(dir);
    secrets.set('sandbox.clientSecret', 'first-secret-value-1');
    // A folder where the file goes: the new file is written, but cannot take the old one's place.
    rmSync(join(dir, 'secrets.json'));
    mkdirSync(join(dir, 'secrets.json', 'inside'), { recursive: true });
    expect(() => secrets.set('sandbox.clientSecret', 'second-secret-value-2')).toThrow();
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(secrets.get('sandbox.clientSecret')).toBe('first-secret-value-1');
    expect(() => secrets.delete('sandbox.clientSecret')).toThrow();
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(secrets.has('sandbox.clientSecret')).toBe(true);

    rmSync(join(dir, 'secrets.json'), { recursive: true });
    secrets.set('sandbox.clientSecret', 'second-secret-value-2');
    expect(createFileSecrets(dir).get('sandbox.clientSecret')).toBe('second-secret-value-2');
  });

  it('a temporary file left by a crash is removed at start, and one planted as a link is never written through', () => {
    const dir = folder();
    writeFileSync(join(dir, 'secrets.json.tmp'), '{"half": "writ');
    createFileSecrets(dir);
    expect(existsSync(join(dir, 'secrets.json.tmp'))).toBe(false);

    const elsewhere = join(folder(), 'stolen.json');
    writeFileSync(elsewhere, 'nothing');
    const secrets = createFileSecrets(dir);
    symlinkSync(elsewhere, join(dir, 'secrets.json.tmp'));
    secrets.set('sandbox.clientSecret', 'planted-link-secret-3');
    expect(readFileSync(elsewhere, 'utf8')).toBe('nothing');
    expect(createFileSecrets(dir).get('sandbox.clientSecret')).toBe('planted-link-secret-3');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
});

describe('saving the connection when the secret file cannot be written', () => {
  let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
  afterEach(async () => {
    await ctx?.stop();
    ctx = null;
  });

  it('the save fails, nothing is half-saved, no temporary file is left, and the next save works', async () => {
    ctx = await startTestCore();
    const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
    const file = join(ctx.dataDir, 'secrets.json');
    rmSync(file, { force: true });
    mkdirSync(join(file, 'inside'), { recursive: true });
    const input = {
      environment: 'sandbox' as const,
      mainBaseUrl: 'https://connect-sandbox.su-api.com/SUAPI',
      tokenBaseUrl: 'https://token.suissu.com',
      domain: 'harbourview.example',
      secrets: { clientSecret: 'cs-Harbour-Q7v9kLmZ2x' },
    };
    const failed = await dispatch('connection.save', input);
    expect(failed).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(readdirSync(ctx.dataDir).filter((f) => f.includes('.tmp'))).toEqual([]);
    const state = await call('connection.get');
    expect(state.profiles.sandbox).toMatchObject({ saved: false, secretsSet: { clientSecret: false } });

    rmSync(file, { recursive: true });
    const saved = await call('connection.save', input);
    expect(saved.profiles.sandbox).toMatchObject({ saved: true, secretsSet: { clientSecret: true } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ 'sandbox.clientSecret': 'cs-Harbour-Q7v9kLmZ2x' });
  });
});
