import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import type { RollupLog, LoggingFunction } from 'rollup';

// zod's sources carry comments Rollup cannot place; the warning is noise, every other warning still shows.
const onwarn = (warning: RollupLog, warn: LoggingFunction) => {
  if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
};

/** `@shared/…` and `@renderer/…` in renderer imports (tsconfig.web.json maps the same paths for the type checker). */
export const rendererAliases = {
  '@shared': resolve('src/shared'),
  '@renderer': resolve('src/renderer/src'),
};

/** The core's dependencies bundled into it rather than loaded from node_modules at start. */
const BUNDLED_IN_CORE = [
  'zod',
  'fastify',
  '@fastify/static',
  '@fastify/websocket',
  '@fastify/rate-limit',
  'axios',
  'conf',
  'libphonenumber-js',
  'qrcode',
  'exif-reader',
];

// Three bundles: the core + hosts (main: Electron entry, browser-mode entry, emulator CLI), the sandboxed
// preload (CommonJS, every import bundled: a sandboxed preload cannot load modules), and the Vue renderer.
export default defineConfig({
  main: {
    // The pure-JavaScript dependencies are bundled into the core: loading them file by file (hundreds of small
    // modules, each resolved, read and compiled) was most of the core's start (bench/RESULTS.md, "Core start and
    // memory"). Native ones (sharp, ngrok) and the Electron-only store stay external.
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED_IN_CORE })],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        onwarn,
        input: {
          index: resolve('src/main/hosts/electron/main.ts'),
          web: resolve('src/main/hosts/web/main.ts'),
          emulator: resolve('src/emulator/main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        onwarn,
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [vue()],
    resolve: { alias: rendererAliases },
    build: {
      outDir: 'out/renderer',
      chunkSizeWarningLimit: 1500,
      // Smaller bundle, faster first render (bench/RESULTS.md, inbox section).
      minify: 'esbuild',
      rollupOptions: { onwarn, input: resolve('src/renderer/index.html') },
    },
  },
});
