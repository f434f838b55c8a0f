// The inspector webview reaches the rest of the code only through src/shared (protocol.ts for
// the messages, engineNames.ts for the engine's names): no import of src/engine or
// src/extension, so neither can change under it unseen.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISIONS, SECTION_NAMES } from '../src/shared/engineNames';
import { DECISIONS as ENGINE_DECISIONS } from '../src/engine/result';
import { SECTION_NAMES as ENGINE_SECTION_NAMES } from '../src/engine/sections';
import { repoRoot } from './helpers/transcripts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^'"]*?['"]([^'"]+)['"]/gm;

describe('webview imports', () => {
  it('every import that leaves webview-ui/src lands in src/shared', () => {
    const src = join(repoRoot, 'webview-ui', 'src');
    const offenders: string[] = [];
    for (const file of tsFiles(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1]!;
        if (!spec.startsWith('.')) continue;
        const target = relative(repoRoot, resolve(file, '..', spec));
        if (!target.startsWith('webview-ui/') && !target.startsWith('src/shared/')) offenders.push(`${relative(repoRoot, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('src/shared hands on the engine names themselves', () => {
    expect(SECTION_NAMES).toBe(ENGINE_SECTION_NAMES);
    expect(DECISIONS).toBe(ENGINE_DECISIONS);
  });
});
