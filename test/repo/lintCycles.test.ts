// The import-cycle rule (scripts/lint/noImportCycle.mjs) fails a circle of modules — through type-only
// imports, `export … from` and import() too, and however long — names the path, and passes imports
// that only go one way. The repository's own config runs it on product code (the last test).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { localPlugin } from '../../scripts/lint/noImportCycle.mjs';
import { repoRoot } from '../helpers/transcripts';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const eslint = new ESLint({
  cwd: dir,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { local: localPlugin }, rules: { 'local/no-import-cycle': 'error' } },
  ],
});

/** Writes the files, then lints them all: each file's messages (empty ones left out). */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  const sub = mkdtempSync(join(dir, 'case-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(sub, name), text);
  const results = await eslint.lintFiles(Object.keys(files).map((n) => join(sub, n)));
  const out: Record<string, string[]> = {};
  for (const r of results)
    if (r.messages.length > 0) out[r.filePath.slice(sub.length + 1)] = r.messages.map((m) => m.message.replaceAll(`${sub.slice(dir.length + 1)}/`, ''));
  return out;
}

describe('no import cycles, type imports included', () => {
  it('fails two modules that import each other’s types only, naming the circle on both', async () => {
    const found = await lint({
      'a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
      'b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
    });
    expect(found).toEqual({
      'a.ts': [expect.stringContaining('a.ts → b.ts → a.ts')],
      'b.ts': [expect.stringContaining('b.ts → a.ts → b.ts')],
    });
  });

  it('fails a longer circle through export … from and import()', async () => {
    const found = await lint({
      'a.ts': "export { b } from './b';\n",
      'b.ts': "import { c } from './c.js';\nexport const b = c;\n",
      'c.ts': "export const c = () => import('./a');\n",
    });
    expect(Object.keys(found).sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(found['c.ts']).toEqual([expect.stringMatching(/c\.ts → a\.ts → b\.ts → c\.ts.*Move what both need/)]);
  });

  it('passes imports that go one way, packages and a module importing itself by name', async () => {
    const found = await lint({
      'types.ts': 'export type T = { n: number };\n',
      'a.ts': "import type { T } from './types';\nimport { join } from 'node:path';\nexport const a = (t: T) => join(String(t.n));\n",
      'b.ts': "import { a } from './a';\nimport type { T } from './types';\nexport const b = (t: T) => a(t);\n",
    });
    expect(found).toEqual({});
  });

  it('is on for the product code in the repository’s config', async () => {
    const config = (await new ESLint({ cwd: repoRoot }).calculateConfigForFile(join(repoRoot, 'src/engine/compactor.ts'))) as {
      rules: Record<string, unknown>;
    };
    expect(config.rules['local/no-import-cycle']).toEqual([2]);
  });
});
