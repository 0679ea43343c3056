import vue from '@vitejs/plugin-vue';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { rendererAliases } from './electron.vite.config';

// Unit and integration tests run under the project's Node 24 (npm puts node_modules/.bin first on PATH):
// real SQLite files in temp folders, real loopback HTTP against the emulator.
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/emulator/**/*.test.ts',
      'test/mailbox/**/*.test.ts',
    ],
    environment: 'node',
    // One test file per core. Vitest's own default is one fewer than the cores, which on the 2-core CI machines
    // ran the files one at a time (510 s there; 290 s with two side by side). Most files wait on loopback I/O and
    // real timers (deadlines, reposts), so two side by side keep the cores busy without starving each other.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      // The tests above, under Node.
      { extends: true, test: { name: 'node' } },
      // The renderer's own tests: its helpers, stores and components, in a browser-like page (happy-dom), with
      // the renderer's Vue compiler and path aliases. The locale is pinned (Intl reads it from the worker's
      // environment when it starts): money and dates read the same on every machine ("€45.50").
      {
        plugins: [vue()],
        resolve: { alias: rendererAliases },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          environment: 'happy-dom',
          env: { LANG: 'en_GB.UTF-8', LC_ALL: 'en_GB.UTF-8' },
        },
      },
    ],
  },
});
