// Two build contexts, as STYLE.md asks: the extension host (cjs/node, `vscode` external)
// and the inspector webview (iife/browser). The CLI and the benchmarks are node bundles too.
import * as esbuild from 'esbuild';
import { chmodSync, mkdirSync } from 'node:fs';
import { watchReporter } from './scripts/watchReporter.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    // cli.js only picks the bundle for the command: hook.js for `ctxc hook` (Claude Code waits for it
    // at every hook event: it must start fast), ctxc.js for everything else.
    entryPoints: { cli: 'src/cli/bin.ts', ctxc: 'src/cli/ctxcMain.ts', hook: 'src/cli/hookMain.ts' },
    outdir: 'dist',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The plugin opencode loads (its hooks run `ctxc hook opencode`): one ES module, nothing else.
    ...common,
    entryPoints: { 'opencode-plugin': 'src/sessions/agents/opencode/plugin.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: false,
  },
  {
    ...common,
    entryPoints: { webview: 'webview-ui/src/main.ts' },
    outdir: 'dist',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.css': 'css' },
  },
];

if (!production) {
  targets.push({
    ...common,
    entryPoints: { 'bench/speed': 'bench/speed.ts', 'bench/quality': 'bench/quality.ts' },
    outdir: 'dist',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // The meter's start-up is measured in the extension host fake the host tests use (its default
    // extension path reads import.meta, which the bench never uses: it passes the path).
    alias: { vscode: './test/fakes/vscode.ts' },
    logOverride: { 'empty-import-meta': 'silent' },
  });
}

mkdirSync('dist', { recursive: true });
if (watch) {
  const reporter = watchReporter(targets.length);
  const contexts = await Promise.all(targets.map((t) => esbuild.context({ ...t, plugins: [...(t.plugins ?? []), reporter(t)] })));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  // `npx ctxc` and `npm link` run the CLI as a program.
  chmodSync('dist/cli.js', 0o755);
}
