import { test as base, type Locator, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** A running Innkeeper in browser mode (the built app, as `npm run web` starts it) with its own data folder. */
export interface RunningApp {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
}

/** Starts `out/main/web.js` with INNKEEPER_* variables and waits for the URL it prints. */
export async function startApp(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'innkeeper-e2e-')),
): Promise<RunningApp> {
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'web.js')], {
    cwd: root,
    // A free push-listener port by default, so parallel apps never compete for 8787 ('' lets settings decide).
    // The demo's own deliveries are off unless a test turns them on: each test's inbox holds what it pushed.
    env: {
      ...process.env,
      INNKEEPER_DATA_DIR: dataDir,
      INNKEEPER_WEB_PORT: '0',
      INNKEEPER_PUSH_PORT: '0',
      INNKEEPER_DEMO_INBOX: '0',
      ...env,
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app printed no URL in 15 s:\n${output}`)), 15_000);
    const onData = (data: Buffer) => {
      output += String(data);
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?session=\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the app exited (${code}):\n${output}`)));
  });
  return { url, dataDir, process: child, output: () => output };
}

export async function stopApp(app: RunningApp, removeData = true): Promise<void> {
  if (app.process.exitCode === null) {
    const exited = new Promise((resolve) => app.process.once('exit', resolve));
    app.process.kill('SIGTERM');
    await exited;
  }
  if (removeData) rmSync(app.dataDir, { recursive: true, force: true });
}

/** `app`: a fresh Innkeeper per test. */
export const test = base.extend<{ app: RunningApp }>({
  // Playwright requires a destructuring pattern as the first fixture argument, even an empty one.
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    const app = await startApp();
    await use(app);
    await stopApp(app);
  },
});
export { expect } from '@playwright/test';

/**
 * Screenshots of the page at 1280 × 800 and 1024 × 680 (`test-results/screenshots/<name>-<width>.png`), `show`
 * scrolled into view at each; the window is 1280 × 860 again afterwards.
 */
export async function shootBoth(page: Page, name: string, show?: Locator) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 680 },
  ]) {
    await page.setViewportSize(size);
    await show?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/${name}-${size.width}.png`, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}
