// Measurements that need a fresh process (cold start: module loading, rank tables, JIT)
// re-run the bench bundle itself as `--child <section> <task> [args]`; the task prints one
// JSON line and exits. The driver (bench/speed.ts) dispatches those runs.

import { spawnSync } from 'node:child_process';

export const CHILD_FLAG = '--child';

/** How long one child may take before it is treated as hung (unless the caller says). */
const CHILD_TIMEOUT_MS = 60_000;

export function runChild<T>(section: string, task: string, args: string[] = [], timeoutMs = CHILD_TIMEOUT_MS): T {
  const script = process.argv[1];
  if (!script) throw new Error('bench: cannot find the bench script to re-run as a child');
  const r = spawnSync(process.execPath, [...process.execArgv, script, CHILD_FLAG, section, task, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    // A child's figures are one JSON line; its warnings go to stderr, which is only read on failure.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`bench child ${section}/${task} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`bench child ${section}/${task} ${args.join(' ')} exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`bench child ${section}/${task}: expected a JSON line on stdout, got ${JSON.stringify(last.slice(0, 200))}`);
  }
}
