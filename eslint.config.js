import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import vue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

// Node's built-in modules under both spellings (fs and node:fs).
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noElectron = {
  name: 'electron',
  message: 'The core runs under plain Node: only src/main/hosts/electron and the preload may import electron.',
};

/** The demo provider's files: the only ones of the core that start the emulator and the mailbox program. */
const DEMO_PROVIDER = ['src/main/demo/demoProvider.ts', 'src/main/demo/demoMailbox.ts'];

const noEmulator = {
  regex: '(^|/)emulator(/|$)',
  message:
    'Only src/main/demo/demoProvider.ts and demoMailbox.ts start the emulator and talk to it; the rest of the app reaches Su over HTTP.',
};

/** src/mailbox seen from a feature folder of src/main (src/main/mailbox is the desktop's side: '../mailbox/…'). */
const noMailboxProgram = {
  regex: '^\\.\\./\\.\\./mailbox(/|$)',
  message:
    'Only src/main/demo/demoProvider.ts and demoMailbox.ts run the mailbox program (the demo’s own, in-process); the app reaches a mailbox over HTTP (src/main/mailbox).',
};

/** A relative import that leaves its folder for anywhere but src/shared (for src/emulator and src/preload). */
const onlyShared = { regex: '^\\.\\./(?!shared(/|$))' };

// ── Dependencies point one way ──────────────────────────────────────────────────────────────────────────────────
// On each side the folders form layers: the shared pieces first, then the features in the order of their list
// (src/main/features.ts, src/renderer/src/shell/features.ts). A folder may import only the folders before it, so
// no two feature folders ever import each other, directly or round about. The composition roots (src/main's own
// files, the hosts, the renderer's shell and entry) may import any of them.

/** The folder names of a feature list, in its order: each entry of `FEATURES = [...]` by the folder it is imported from. */
function featureFolders(listFile) {
  const text = readFileSync(listFile, 'utf8');
  const folderOf = new Map();
  for (const [, names, from] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const folder = /([A-Za-z]+)\/feature$/.exec(from)?.[1];
    if (folder) for (const name of names.split(',')) folderOf.set(name.replace(/^\s*type\s+/, '').trim(), folder);
  }
  const list = /FEATURES\s*=\s*\[([\s\S]*?)\]/.exec(text)?.[1];
  if (!list) throw new Error(`${listFile}: no FEATURES = [...] list found.`);
  return list
    .replace(/\/\/.*$/gm, '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const folder = folderOf.get(entry);
      if (!folder) throw new Error(`${listFile}: ${entry} is not imported from a <folder>/feature module.`);
      return folder;
    });
}

/**
 * The layer order of one side's folders, checked against the folders that exist: each must be in the order or
 * among the roots, so that a new folder cannot slip past the check.
 */
function layers(side) {
  const order = [...side.base];
  for (const folder of featureFolders(side.list)) {
    order.push(folder);
    order.push(...(side.sharedAfter[folder] ?? []));
  }
  for (const dir of side.dirs) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || order.includes(entry.name) || side.roots.includes(entry.name)) continue;
      throw new Error(
        `${dir}/${entry.name} is in no layer: list its feature in ${side.list}, or add it to the layers in eslint.config.js.`,
      );
    }
  }
  return order;
}

/**
 * boundaries' policies: a folder of the order may not import a folder after it, nor a composition root (`roots.to`:
 * the modules that import every feature).
 */
function oneWay(type, order, roots = {}, reach = "through the core's bus or the contract") {
  const layered = order.map((name, i) => ({
    from: { element: { type, captured: { name } } },
    disallow: { to: { element: { type, captured: { name: `{${order.slice(i + 1).join(',')},}` } } } },
    message: `${name} may import only the folders before it (${order.slice(0, i).join(', ') || 'none'}): dependencies point one way, and a feature reaches a later one ${reach}.`,
  }));
  if (!roots.to) return layered;
  return [
    ...layered,
    {
      from: { element: { type, captured: { name: `{${order.join(',')},}` } } },
      disallow: { to: roots.to },
      message: `${roots.what} put every feature together: no folder imports them.`,
    },
  ];
}

const mainLayers = layers({
  list: 'src/main/features.ts',
  dirs: ['src/main'],
  // Pieces every feature may use, which use no feature.
  base: ['config', 'db', 'gateway', 'provider', 'lib'],
  // Modules several features share that build on one feature: right after it.
  sharedAfter: { outbox: ['reviewedChange'] },
  roots: ['hosts'],
});
const rendererList = 'src/renderer/src/shell/features.ts';
const rendererLayers = existsSync(rendererList)
  ? layers({
      list: rendererList,
      dirs: ['src/renderer/src', 'src/renderer/src/features'],
      base: ['lib', 'api', 'ui'],
      sharedAfter: {},
      roots: ['shell', 'assets', 'features'],
    })
  : null;

export default tseslint.config(
  // The build's and Vitest's bundled configs (`*.config.<n>.mjs`, `*.timestamp-<n>.mjs`) exist only while those run,
  // which npm test does beside the lint.
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.tmp/**',
      '*.config.*.mjs',
      '*.timestamp-*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
    },
  },
  // The core (everything in src/main except the Electron host) never imports electron, and only the demo provider
  // (demoProvider.ts, and its own mailbox in demoMailbox.ts) reaches the emulator and the mailbox program: the app talks
  // to Su, real or emulated, and to a mailbox over HTTP.
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/hosts/electron/**', ...DEMO_PROVIDER],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noEmulator, noMailboxProgram] }] },
  },
  { files: DEMO_PROVIDER, rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] } },
  {
    files: ['src/main/hosts/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator] }] },
  },
  // The Electron host may import electron; the IPC gateway only its types (it is tested under plain Node).
  {
    files: ['src/main/hosts/electron/ipcGateway.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...noElectron, allowTypeImports: true }] }],
    },
  },
  // The emulator is its own program: it stands in for Su, so it shares only the wire formats in src/shared.
  {
    files: ['src/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { ...onlyShared, message: 'The emulator is its own program: of the project, it imports src/shared only.' },
          ],
        },
      ],
    },
  },
  // The preload is bundled alone into the sandboxed renderer process: it imports electron and src/shared only.
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ ...onlyShared, message: 'The preload imports src/shared only: no main-process code.' }] },
      ],
    },
  },
  // src/shared and the renderer are environment-neutral / browser code: no Node built-ins, no electron.
  {
    files: ['src/shared/**/*.ts', 'src/renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'src/shared and the renderer run in the browser: no Node built-ins.',
            })),
          ],
          patterns: [noEmulator],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'No Node globals here.' },
        { name: 'Buffer', message: 'No Node globals here.' },
      ],
    },
  },
  // The receiving side (src/receiving) is what the desktop's listener and the mailbox both run: Node, but no electron.
  {
    files: ['src/receiving/**/*.ts', 'src/mailbox/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    files: ['src/main/**/*.ts', 'src/renderer/**/*.{ts,vue}', 'src/receiving/**/*.ts', 'src/mailbox/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': {
        typescript: { project: ['tsconfig.node.json', 'tsconfig.web.json'], noWarnOnMultipleProjects: true },
      },
      // The composition roots among src/main's own files (they import every feature).
      'boundaries/files': [{ category: 'root', pattern: 'src/main/{core,features,schema}.ts' }],
      'boundaries/elements': [
        { type: 'main', pattern: 'src/main/*', capture: ['name'] },
        { type: 'renderer', pattern: 'src/renderer/src/features/*', capture: ['name'] },
        { type: 'renderer', pattern: 'src/renderer/src/*', capture: ['name'] },
        // The programs and pieces beside the app's core and renderer (src/receiving: see the policies below).
        { type: 'receiving', pattern: 'src/receiving' },
        { type: 'mailbox', pattern: 'src/mailbox' },
        { type: 'emulator', pattern: 'src/emulator' },
        { type: 'preload', pattern: 'src/preload' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            ...oneWay('main', mainLayers, {
              to: { file: { categories: 'root' } },
              what: 'src/main/core.ts, features.ts and schema.ts',
            }),
            ...(rendererLayers
              ? oneWay(
                  'renderer',
                  rendererLayers,
                  {
                    to: { element: { type: 'renderer', captured: { name: 'shell' } } },
                    what: 'The shell and its feature list',
                  },
                  "through a slot of the earlier feature's screen (lib/sections.ts) or its store",
                )
              : []),
            // The receiving side is shared by the desktop (src/main may import it) and the mailbox: it imports only
            // src/shared and packages, never one of the programs that run it.
            {
              from: { element: { type: 'receiving' } },
              disallow: { to: { element: { type: '{main,mailbox,renderer,emulator,preload}' } } },
              message:
                'src/receiving is shared by the desktop and the mailbox: it imports only src/shared and packages, never src/main, src/mailbox, src/renderer or src/emulator.',
            },
            // The mailbox is a program of its own, run on another box: of the project, src/receiving and src/shared.
            {
              from: { element: { type: 'mailbox' } },
              disallow: { to: { element: { type: '{main,renderer,emulator,preload}' } } },
              message:
                "The mailbox is its own program: of the project, it imports src/receiving and src/shared only (never the desktop's core, renderer or the emulator).",
            },
            // The renderer runs in the window: it never imports Node-side code.
            {
              from: { element: { type: 'renderer' } },
              disallow: { to: { element: { type: '{receiving,mailbox}' } } },
              message:
                'The renderer runs in the window: src/receiving and src/mailbox are Node code for the listeners.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
