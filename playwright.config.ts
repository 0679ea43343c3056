import { defineConfig } from '@playwright/test';

/** Debian's Chromium (never a downloaded browser); override with CHROMIUM_PATH elsewhere. */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

// End-to-end: each test starts the real app in browser mode (built by `npm run build`) with its own data folder.
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunch,
    viewport: { width: 1280, height: 860 },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: each action with the page's DOM before and after, and the test's source. Not the
    // trace's film of screenshots: recording it took about a third of the suite's CPU (two spec files: 125 s of
    // CPU with it, 80 s without, 70 s with no trace), and a failure still keeps its screenshot.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
  },
});
