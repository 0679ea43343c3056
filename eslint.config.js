import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import vue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// Node's built-in modules under both spellings (fs and node:fs).
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noElectron = {
  name: 'electron',
  message: 'The core runs under plain Node: only src/main/hosts/electron and the preload may import electron.',
};

const noEmulator = {
  regex: '(^|/)emulator(/|$)',
  message: 'Only src/main/demo/demoProvider.ts starts the emulator; the rest of the app reaches Su over HTTP.',
};

/** A relative import that leaves its folder for anywhere but src/shared (for src/emulator and src/preload). */
const onlyShared = { regex: '^\\.\\./(?!shared(/|$))' };

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/.tmp/**'] },
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
  // The core (everything in src/main except the Electron host) never imports electron, and only src/main/demo/demoProvider.ts
  // reaches the emulator: the app talks to Su, real or emulated, over HTTP like any partner.
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/hosts/electron/**', 'src/main/demo/demoProvider.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noEmulator] }] },
  },
  { files: ['src/main/demo/demoProvider.ts'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] } },
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
  prettier,
);
