// ESLint: typescript-eslint's type-checked rules on every TypeScript file, each file checked
// with the tsconfig that compiles it (Node side, browser-driving tests, the webviews).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { noInlineUiString } from './eslint-rules/no-inline-ui-string.mjs';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'dist-test/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.browser.json', './webview-ui/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test()/describe() return promises the runner awaits itself.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The engine is shared with the CLI and the language server: it never imports vscode.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not depend on VS Code (the CLI and the server use it too).' }] }],
    },
  },
  {
    // The webviews see only what src/shared holds (the data they show, its schemas, the messages,
    // the metrics); anything else of src/ would bring node or vscode into a browser bundle.
    files: ['webview-ui/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../src/*', '!../src/shared', '../../src/*', '!../../src/shared'],
              message: 'webview-ui imports only src/shared (and its own files): move what a webview needs into src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/shared is the lowest layer: the engine, the extension and the webviews read it, so it
    // reads none of them (test/unit/architecture/shared-is-pure.test.ts checks node imports too).
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/shared is bundled into the webviews: no VS Code API.' }],
          patterns: [
            {
              group: ['**/core/*', '**/extension/*', '**/cli/*', '**/server/*', 'node:*'],
              message: 'src/shared imports nothing above it (core, extension, cli, server) and no node module.',
            },
          ],
        },
      ],
    },
  },
  {
    // Text the extension, its webviews and its language server show goes through l10n.t
    // (docs/ARCHITECTURE.md, Localization).
    files: ['src/extension/**/*.ts', 'webview-ui/**/*.ts', 'src/server/**/*.ts'],
    plugins: { sweci: { rules: { 'no-inline-ui-string': noInlineUiString } } },
    rules: { 'sweci/no-inline-ui-string': 'error' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
);
