// src/engine and webview-ui must stay free of the vscode runtime, the openai SDK and Node I/O
// (DESIGN.md): the same engine runs in the extension host, the CLI, the tests and a browser.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/transcripts';

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const FORBIDDEN = /^(vscode|openai(\/.*)?|fs|fs\/promises|path|os|child_process|http|https|net|crypto|node:.*)$/;
// `import type` is allowed: types vanish at build time.
const RUNTIME_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function runtimeImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(RUNTIME_IMPORT)) found.push((m[1] ?? m[2])!);
  return found;
}

describe('layering', () => {
  it('finds runtime imports and ignores type-only ones (the checker itself works)', () => {
    const src = `import type { X } from 'vscode';\nimport { readFile } from 'node:fs';\nconst o = require('openai');\nexport { a } from './a';`;
    expect(runtimeImports(src)).toEqual(['node:fs', 'openai', './a']);
  });

  for (const layer of ['src/engine', 'webview-ui/src']) {
    it(`${layer} has no runtime import of vscode, openai, fs or node:*`, () => {
      const offenders: string[] = [];
      for (const file of tsFiles(join(repoRoot, layer))) {
        for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
          if (FORBIDDEN.test(spec)) offenders.push(`${file.slice(repoRoot.length + 1)} imports ${spec}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
