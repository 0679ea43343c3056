import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronExecutable, electronMissingReason } from '../../scripts/electron-runtime.mjs';

const root = join(import.meta.dirname, '..', '..');

const reason = electronMissingReason(root);
if (reason) console.log(`Electron smoke test skipped: ${reason}.`);

test('the desktop app opens a secure window that reaches the core through the preload', async () => {
  test.skip(reason !== null, reason ?? '');
  const dataDir = mkdtempSync(join(tmpdir(), 'innkeeper-electron-'));
  const app = await electron.launch({
    executablePath: electronExecutable(root),
    args: [join(root, 'out', 'main', 'index.js')],
    env: { ...process.env, INNKEEPER_DATA_DIR: dataDir, INNKEEPER_DEMO: '1' },
  });
  try {
    const window = await app.firstWindow();
    // The app opens on the inbox; the connection test is one click away.
    await expect(window.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    // Sandbox + context isolation + no Node integration: the page sees no Node globals, only the preload's functions.
    const globals = await window.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined' });
    expect(
      await window.evaluate(() =>
        Object.values((globalThis as unknown as { innkeeper: object }).innkeeper).every((v) => typeof v === 'function'),
      ),
    ).toBe(true);
    await window
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Connection/ })
      .click();
    await window.getByRole('button', { name: 'Test connection' }).click();
    await expect(window.getByTestId('test-success')).toBeVisible();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
