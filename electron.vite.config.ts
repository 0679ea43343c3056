import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import type { LoggingFunction, ManualChunkMeta, RollupLog } from 'rollup';
import { asciiOnlyPlugin, confWithoutSchemasPlugin } from './build/coreBuild';
import { primeThemePlugin } from './build/primeTheme';

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
 * The screens a new tab can open on, each with the code its first render needs in few chunks (instead of a dozen
 * small files): the inbox's list and the rates calendar. What only one of them needs is its chunk (`inbox`, `rates`);
 * what the inbox shares with any other code loaded on demand is `screens` (loaded with the inbox anyway); what the
 * rates calendar shares with other code but not with the inbox is `rates-shared`. The rest (the open conversation,
 * the other screens) keeps Rollup's own chunks.
 */
const FIRST_SCREENS = {
  inbox: resolve('src/renderer/src/features/inbox/InboxView.vue'),
  rates: resolve('src/renderer/src/features/rates/RatesView.vue'),
};
let firstScreenGroups: Map<string, string> | null = null;
function firstScreenChunks(id: string, { getModuleIds, getModuleInfo }: ManualChunkMeta): string | undefined {
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
    const ids = [...getModuleIds()];
    const shell = closure(ids.find((m) => getModuleInfo(m)?.isEntry)!);
    // Which code loaded on demand (each module imported with import()) needs each module beside the shell.
    const owners = new Map<string, Set<string>>();
    for (const lazy of ids.filter((m) => getModuleInfo(m)?.dynamicImporters.length))
      for (const m of closure(lazy)) if (!shell.has(m)) owners.set(m, (owners.get(m) ?? new Set()).add(lazy));
    // The shell's modules are named too: Rollup pulls a named chunk's unnamed imports into it (Vue into the inbox).
    const groups = new Map<string, string>([...shell].map((m) => [m, 'index']));
    for (const [m, by] of owners) {
      if (by.has(FIRST_SCREENS.inbox)) groups.set(m, by.size === 1 ? 'inbox' : 'screens');
      else if (by.has(FIRST_SCREENS.rates)) groups.set(m, by.size === 1 ? 'rates' : 'rates-shared');
    }
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
];

// Three bundles: the core + hosts (main: Electron entry, browser-mode entry, emulator CLI), the sandboxed
// preload (CommonJS, every import bundled: a sandboxed preload cannot load modules), and the Vue renderer.
export default defineConfig({
  main: {
    // The pure-JavaScript dependencies are bundled into the core: loading them file by file (hundreds of small
    // modules, each resolved, read and compiled) was most of the core's start (bench/RESULTS.md, "Core start and
    // memory"). Native ones (sharp, ngrok) and the Electron-only store stay external. The output is ASCII only
    // (build/coreBuild.ts: V8 keeps each module's source, at two bytes a character if one is outside Latin-1).
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED_IN_CORE }), confWithoutSchemasPlugin(), asciiOnlyPlugin()],
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
    // PrimeVue's theme CSS worked out here, from the app's preset, rather than in the page at start (build/primeTheme.ts).
    plugins: [vue(), primeThemePlugin(resolve('src/renderer/src'), resolve('src/renderer/src/ui/theme.ts'))],
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
