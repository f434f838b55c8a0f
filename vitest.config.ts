import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/** Tests of the pure engine share one module graph per worker (no isolation: the engine keeps no
 *  state a test could leave behind, and loading it once per worker instead of once per file is
 *  most of what a unit run costs) — except the test of lazy rank loading, which looks at what
 *  loading the modules does. Everything else, which mocks modules or drives the vscode fake, runs
 *  isolated. */
const SHARED_MODULES = ['test/engine/**/*.test.ts'];
const NEEDS_ISOLATION = ['test/engine/tokens/tokensLazy.test.ts'];
/** `npm run test:unit` (CTXC_TEST_LANE=unit) leaves out the tests that launch Chromium and the
 *  whole-corpus checks (`npm run test:corpus`); `npm test` runs every lane. */
const LEFT_OUT = process.env['CTXC_TEST_LANE'] === 'unit' ? ['test/**/*.browser.test.ts', 'test/**/*.corpus.test.ts'] : [];

export default defineConfig({
  resolve: {
    alias: {
      // Host logic is tested against a small fake of the VS Code API.
      vscode: fileURLToPath(new URL('./test/fakes/vscode.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every core: vitest's default leaves one free, which on a 2-core machine is one worker.
    maxWorkers: '100%',
    projects: [
      { extends: true, test: { name: 'engine', include: SHARED_MODULES, exclude: [...NEEDS_ISOLATION, ...LEFT_OUT], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...SHARED_MODULES, ...LEFT_OUT] } },
      { extends: true, test: { name: 'engine-isolated', include: NEEDS_ISOLATION } },
    ],
  },
});
