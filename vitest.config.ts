import { defineConfig } from 'vitest/config';

// Unit and integration tests run under the project's Node 24 (npm puts node_modules/.bin first on PATH):
// real SQLite files in temp folders, real loopback HTTP against the emulator.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/emulator/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
