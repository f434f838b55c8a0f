// The CLI built from the same sources as the extension: the end-to-end test takes the numbers the
// UI must show from it (`ctxc count`, `ctxc compact`, `ctxc sessions`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './tools.mjs';

/** Runs the CLI built by `npm run package` and parses its JSON output; `env` replaces the
 *  environment (e.g. a temporary HOME for `ctxc sessions`). */
export function ctxcJson(args, env = process.env) {
  const cli = join(repoRoot, 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 120_000 });
  const shown = `node dist/cli.js ${args.join(' ')}`;
  if (r.status !== 0) {
    throw new Error(`${shown} failed (${r.error ? r.error.message : `exit ${r.status}`}):\n${(r.stderr || r.stdout || '').trim()}`);
  }
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${shown} did not print JSON; it printed:\n${r.stdout.slice(0, 500)}`);
  }
}

export function numberField(obj, field, command) {
  const value = obj && obj[field];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new Error(`${command} printed no integer .${field}; its top-level keys are ${JSON.stringify(Object.keys(obj || {}))}`);
  }
  return value;
}
