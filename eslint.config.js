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
  // The core (everything in src/main except the Electron host) never imports electron.
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/hosts/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  // The Electron host may import electron; the IPC gateway only its types (it is tested under plain Node).
  {
    files: ['src/main/hosts/electron/ipcGateway.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...noElectron, allowTypeImports: true }] }],
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
