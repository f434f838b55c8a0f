// @ts-check
// Lint for correctness and for the layers (README "Development"): the engine is a pure library,
// the webview reaches the rest of the repository only through src/shared, and src/shared holds
// types only. test/repo/lintLayers.test.ts shows each zone failing on a file that breaks it.
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { localPlugin } from './scripts/lint/noImportCycle.mjs';

const root = import.meta.dirname;

/** Every Node built-in, bare and with the `node:` prefix. */
const NODE_BUILTINS = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '')))].flatMap((m) => [m, `node:${m}`]);

/** Imports the engine and the webview must not make, types included: they run without Node,
 *  without the vscode API and without the openai SDK (the engine also runs in a browser). */
const PURE_IMPORTS = {
  paths: [
    { name: 'vscode', message: 'Only the extension host (src/extension) may use the vscode API.' },
    ...NODE_BUILTINS.map((name) => ({ name, message: 'No Node I/O here: take what you need as a parameter (see src/files for files on disk).' })),
  ],
  patterns: [{ regex: '^openai(/|$)', message: 'Only src/summarizers may use the openai SDK.' }],
};
/** The same modules loaded with `import()`, which no-restricted-imports does not see. */
const PURE_DYNAMIC_IMPORTS = {
  selector: `ImportExpression[source.value=/^(${['vscode', 'openai', 'openai\\/.*', ...NODE_BUILTINS.map((m) => m.replace('/', '\\/'))].join('|')})$/]`,
  message: 'No vscode, openai or Node module here, not even loaded lazily.',
};

/** Other layers; `src/sessions` is listed before it exists so its first file is already kept out. */
const HOST_LAYERS = ['./src/extension', './src/extension.ts', './src/cli', './src/files', './src/summarizers', './src/sessions'];
const NOT_PRODUCT = ['./test', './bench', './scripts'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test-artifacts/**', 'coverage/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Unused code is the compiler's job (noUnusedLocals/noUnusedParameters); `_name` marks
      // a parameter a signature needs but the body does not.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The type-only imports the layers rely on (and verbatimModuleSyntax requires) stay visible.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-throw-literal': 'error',
      // Matching terminal colour codes (\x1b[…m) in tool output is deliberate.
      'no-control-regex': 'off',
    },
  },

  // Plain JavaScript: the build, the e2e scripts and test helpers run in Node.
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  // The end-to-end scripts hand functions to page.evaluate, which run in the page.
  { files: ['scripts/e2e/**'], languageOptions: { globals: { document: 'readonly', window: 'readonly' } } },
  // Injected into a test page before the webview bundle: a browser script.
  { files: ['test/webview/stubVsCodeApi.js'], languageOptions: { globals: globals.browser } },

  // ── Layers ──
  {
    files: ['**/*.{ts,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './src/engine',
              from: HOST_LAYERS,
              message: 'src/engine is a pure library: the host layers call it, never the other way round.',
            },
            {
              target: './src',
              from: [...NOT_PRODUCT, './webview-ui'],
              message: 'Product code does not import tests, benchmarks, scripts or the webview.',
            },
            {
              target: './webview-ui/src',
              from: './src',
              except: ['./shared'],
              message: 'The webview reaches the rest of the repository only through src/shared.',
            },
            {
              target: './webview-ui/src',
              from: NOT_PRODUCT,
              message: 'Product code does not import tests, benchmarks or scripts.',
            },
            {
              target: './src/shared',
              from: HOST_LAYERS,
              message: 'src/shared is the protocol both sides import; it depends on neither.',
            },
            {
              target: ['./src/cli', './src/files', './src/summarizers', './src/sessions'],
              from: ['./src/extension', './src/extension.ts'],
              message: 'The CLI side runs in plain Node, without the extension host.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts', 'webview-ui/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', PURE_IMPORTS],
      'no-restricted-syntax': ['error', PURE_DYNAMIC_IMPORTS],
    },
  },
  {
    // Types only: a runtime import would make the webview bundle carry host code.
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '.', allowTypeImports: true, message: 'src/shared imports types only (`import type`).' }] },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/files/**/*.ts', 'src/summarizers/**/*.ts', 'src/sessions/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'The CLI side runs in plain Node, without the vscode API.' }] },
      ],
    },
  },
  {
    // No module reaches itself again through its imports, type-only imports included
    // (scripts/lint/noImportCycle.mjs; test/repo/lintCycles.test.ts shows it failing).
    files: ['src/**/*.ts', 'webview-ui/src/**/*.ts'],
    plugins: { local: localPlugin },
    rules: { 'local/no-import-cycle': 'error' },
  },
);
