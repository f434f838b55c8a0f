// The rank files are megabytes: loading them on extension activation would slow VS Code's
// start-up for every user. They must load on the first count that needs them, one
// encoding at a time. (This file runs in its own module graph, so nothing is loaded yet.)

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedEncoding } from '../../../src/engine/tokens/encoders';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { repoRoot } from '../../helpers/transcripts';

describe('lazy rank loading', () => {
  it('importing the token modules loads no ranks', () => {
    expect(loadedEncoding('o200k_base')).toBeUndefined();
    expect(loadedEncoding('cl100k_base')).toBeUndefined();
  });

  it('an estimate-only model loads no ranks either', async () => {
    const counter = await createTokenCounter('some-unknown-model');
    expect(counter.method).toBe('estimate');
    expect(counter.count('hello 你好')).toBeGreaterThan(0);
    expect(loadedEncoding('o200k_base')).toBeUndefined();
  });

  it('the first count for a model loads its encoding and only that one', async () => {
    const counter = await createTokenCounter('gpt-4o-mini');
    expect(counter.count('hello world')).toBe(2);
    expect(loadedEncoding('o200k_base')).toBeDefined();
    expect(loadedEncoding('cl100k_base')).toBeUndefined();
    // Later counters share the loaded encoding.
    const again = await createTokenCounter('claude-sonnet-4');
    expect(again.count('hello world')).toBe(2);
  });

  it('no token module imports a rank file statically', () => {
    const dir = join(repoRoot, 'src', 'engine', 'tokens');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8');
      expect(src, f).not.toMatch(/^\s*import\s[^(]*['"]js-tiktoken\/ranks/m);
      expect(src, f).not.toMatch(/^\s*import\s+(?!type\b)[^(]*['"]js-tiktoken(?:\/lite)?['"]/m);
    }
  });
});
