import { defineConfig } from '@playwright/test';

// The Electron smoke test: runs the built app in a real Electron window where the binary exists.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/electron',
  timeout: 60_000,
  reporter: [['list']],
});
