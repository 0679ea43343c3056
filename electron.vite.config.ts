import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import type { LoggingFunction, ManualChunkMeta, RollupLog } from 'rollup';
import { confWithoutSchemasPlugin, requireHttpPlugin } from './build/coreBuild';

// zod's sources carry comments Rollup cannot place; the warning is noise, every other warning still shows.
const onwarn = (warning: RollupLog, warn: LoggingFunction) => {
  if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
};

/** `@shared/…` and `@renderer/…` in renderer imports (tsconfig.web.json maps the same paths for the type checker). */
export const rendererAliases = {
  '@shared': resolve('src/shared'),
  '@renderer': resolve('src/renderer/src'),
};

/**
 * The screens a new tab can open on, each with the code only its first render needs in one chunk (instead of a
 * dozen small files requested one after another): the inbox's list and the rates calendar. What both need beside the
 * shell is one chunk of its own; what loads on demand inside a screen (the open conversation, dialogs) stays apart.
 */
const FIRST_SCREENS = {
  inbox: resolve('src/renderer/src/features/inbox/InboxView.vue'),
  rates: resolve('src/renderer/src/features/rates/RatesView.vue'),
};
const RENDERER_ENTRY = resolve('src/renderer/src/main.ts');
let firstScreenGroups: Map<string, string> | null = null;
function firstScreenChunks(id: string, { getModuleInfo }: ManualChunkMeta): string | undefined {
  if (!firstScreenGroups) {
    /** Every module `from` imports statically, directly or not. */
    const closure = (from: string) => {
      const seen = new Set<string>();
      const stack = [from];
      while (stack.length) {
        const next = stack.pop()!;
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
      return seen;
    };
    const shell = closure(RENDERER_ENTRY);
    const screens = Object.entries(FIRST_SCREENS).map(([name, view]) => ({
      name,
      modules: [...closure(view)].filter((m) => !shell.has(m)),
    }));
    // The shell's modules named too: Rollup would otherwise pull a named chunk's imports into it (Vue with the inbox).
    const groups = new Map<string, string>([...shell].map((m) => [m, 'index']));
    for (const { name, modules } of screens)
      for (const m of modules) groups.set(m, groups.has(m) && groups.get(m) !== name ? 'screens' : name);
    firstScreenGroups = groups;
  }
  return firstScreenGroups.get(id);
}

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
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED_IN_CORE }), confWithoutSchemasPlugin(), requireHttpPlugin()],
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
      rollupOptions: {
        onwarn,
        input: resolve('src/renderer/index.html'),
        output: { manualChunks: firstScreenChunks },
      },
    },
  },
});
