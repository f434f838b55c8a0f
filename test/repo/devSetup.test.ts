// F5 in VS Code: the launch configuration starts the extension after the watch task's first
// build, and the watch task's problem matcher reads what `node esbuild.mjs --watch` prints
// (scripts/watchReporter.mjs), round after round, with the problems of targets that did not
// rebuild kept.

import type { PluginBuild } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { watchReporter } from '../../scripts/watchReporter.mjs';
import { repoRoot } from '../helpers/transcripts';

/** A .vscode/*.json file (JSON with comments). */
function vscodeJson(name: string): Record<string, unknown> {
  const file = join(repoRoot, '.vscode', name);
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  if (error) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  return config as Record<string, unknown>;
}

interface Task {
  label: string;
  type: string;
  script?: string;
  isBackground?: boolean;
  problemMatcher: {
    fileLocation: unknown;
    pattern: { regexp: string; severity: number; file: number; line: number; column: number; message: number };
    background: { activeOnStart: boolean; beginsPattern: string; endsPattern: string };
  };
}

const tasks = (vscodeJson('tasks.json').tasks as Task[]) ?? [];
const launch = (vscodeJson('launch.json').configurations as Record<string, unknown>[]) ?? [];

/** A stand-in for esbuild's PluginBuild: the test fires the callbacks a rebuild would. */
function fakeBuild() {
  let start = () => {};
  let end: (r: { errors: unknown[]; warnings: unknown[] }) => void = () => {};
  return {
    build: {
      onStart: (f: () => void) => (start = f),
      onEnd: (f: typeof end) => (end = f),
    } as unknown as PluginBuild,
    start: () => start(),
    end: (errors: unknown[] = [], warnings: unknown[] = []) => end({ errors, warnings }),
  };
}

/** What the matcher makes of printed lines: the problems of the last finished round. */
function matchProblems(task: Task, lines: string[]): { rounds: number; problems: string[] } {
  const m = task.problemMatcher;
  const begins = new RegExp(m.background.beginsPattern);
  const ends = new RegExp(m.background.endsPattern);
  const pattern = new RegExp(m.pattern.regexp);
  let rounds = 0;
  let current: string[] = [];
  let finished: string[] = [];
  for (const line of lines) {
    if (begins.test(line)) current = [];
    else if (ends.test(line)) {
      rounds++;
      finished = current;
    } else {
      const p = pattern.exec(line);
      if (p) current.push(`${p[m.pattern.severity]} ${p[m.pattern.file]} ${p[m.pattern.line]}:${p[m.pattern.column]} ${p[m.pattern.message]}`);
    }
  }
  return { rounds, problems: finished };
}

describe('F5', () => {
  it('launches the extension from the working tree after the watch task', () => {
    const run = launch.find((c) => c.name === 'Run Extension');
    expect(run).toMatchObject({ type: 'extensionHost', request: 'launch', args: ['--extensionDevelopmentPath=${workspaceFolder}'] });
    const pre = tasks.find((t) => t.label === run!.preLaunchTask);
    expect(pre).toMatchObject({ type: 'npm', script: 'watch', isBackground: true });
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string>; main: string };
    expect(pkg.scripts.watch).toBe('node esbuild.mjs --watch');
    expect(run!.outFiles).toEqual(['${workspaceFolder}/dist/**/*.js']);
    expect(pkg.main).toMatch(/^\.\/dist\/.*\.js$/);
  });
});

describe('the watch task reads what esbuild.mjs --watch prints', () => {
  const watchTask = tasks.find((t) => t.label === 'watch')!;

  it('sees the first build finish, then each problem with its place, and keeps those of targets that did not rebuild', () => {
    const lines: string[] = [];
    const reporter = watchReporter(2, (line: string) => lines.push(line));
    const extension = fakeBuild();
    const webview = fakeBuild();
    reporter('extension').setup(extension.build);
    reporter('webview').setup(webview.build);

    // The first builds, started by `watch()`.
    extension.start();
    webview.start();
    webview.end();
    expect(matchProblems(watchTask, lines).rounds).toBe(0); // F5 still waits for the extension
    extension.end();
    expect(matchProblems(watchTask, lines)).toEqual({ rounds: 1, problems: [] });

    // A broken engine file: both bundles include it and report it; the matcher shows it once.
    const broken = { text: 'Unexpected ";"', location: { file: 'src/engine/sections.ts', line: 37, column: 22 } };
    extension.start();
    extension.end([broken]);
    webview.start();
    webview.end([broken], [{ text: 'no location', location: null }]);
    expect(matchProblems(watchTask, lines)).toEqual({ rounds: 3, problems: ['error src/engine/sections.ts 37:23 Unexpected ";"'] });

    // Only the webview rebuilds, clean: the extension's error is still there.
    webview.start();
    webview.end();
    expect(matchProblems(watchTask, lines)).toEqual({ rounds: 4, problems: ['error src/engine/sections.ts 37:23 Unexpected ";"'] });

    // Fixed: the extension rebuilds clean and nothing is left.
    extension.start();
    extension.end();
    expect(matchProblems(watchTask, lines)).toEqual({ rounds: 5, problems: [] });
    expect(watchTask.problemMatcher.fileLocation).toEqual(['relative', '${workspaceFolder}']);
  });
});
