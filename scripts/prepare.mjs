// `npm install` runs this (the `prepare` script): it builds dist/, so `npx ctxc` works right after
// `npm install` in a fresh clone. An install without dev dependencies (`npm install --omit=dev`)
// has no esbuild: it says so and leaves the build to `npm run build`, instead of failing the install.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  createRequire(join(root, 'package.json')).resolve('esbuild');
} catch {
  console.warn('prepare: esbuild is not installed (dev dependencies left out); run `npm install` with them, then `npm run build`, to build dist/.');
  process.exit(0);
}
const r = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
