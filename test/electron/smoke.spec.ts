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
    // The guard on every web contents: no new window, no navigation away, no camera or microphone.
    // (Page code as strings: the Node type check has no DOM types.)
    expect(await window.evaluate("window.open('http://example.com/') === null")).toBe(true);
    expect(app.windows()).toHaveLength(1);
    const appUrl = window.url();
    await window.evaluate("void (location.href = 'http://example.com/')");
    await expect(window.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    expect(new URL(window.url()).protocol).toBe(new URL(appUrl).protocol);
    expect(
      await window.evaluate(
        "navigator.mediaDevices.getUserMedia({ video: true }).then(() => 'granted', (error) => error.name)",
      ),
    ).not.toBe('granted'); // denied (NotAllowedError), or NotFoundError on a machine without a camera
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
