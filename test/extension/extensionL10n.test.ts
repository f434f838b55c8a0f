// Every runtime string goes through vscode.l10n.t and has an English and a Simplified Chinese
// entry; a string added without its translation fails here (run node scripts/l10n-sync.mjs).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/transcripts';

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (full.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Every host file, the inspector panel host included: they share one bundle per language. */
const files = [join(repoRoot, 'src/extension.ts'), ...walk(join(repoRoot, 'src/extension'))];
const sources = files.map((f) => ({ file: f, text: readFileSync(f, 'utf8') }));

function literalValue(lit: string): string {
  if (lit.startsWith('"')) return JSON.parse(lit) as string;
  return JSON.parse(`"${lit.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string;
}

const calls = sources.flatMap(({ file, text }) =>
  [...text.matchAll(/l10n\.t\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g)].map((m) => ({ file, value: literalValue(m[1]!) })),
);
const en = JSON.parse(readFileSync(join(repoRoot, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
const zh = JSON.parse(readFileSync(join(repoRoot, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]!).sort();
}

describe('localization', () => {
  it('finds the runtime strings', () => {
    expect(calls.length).toBeGreaterThan(80);
  });

  it('calls l10n.t with a string literal only, so every string can be extracted', () => {
    for (const { file, text } of sources) {
      const all = [...text.matchAll(/l10n\.t\(/g)].length;
      const literal = [...text.matchAll(/l10n\.t\(\s*(?:'|")/g)].length;
      expect(literal, file).toBe(all);
    }
  });

  it('has an English and a Simplified Chinese entry for every string, with the same placeholders', () => {
    const missingEn = calls.filter((c) => en[c.value] === undefined).map((c) => c.value);
    const missingZh = calls.filter((c) => !zh[c.value]).map((c) => c.value);
    expect(missingEn).toEqual([]);
    expect(missingZh).toEqual([]);
    for (const { value } of calls) expect(placeholders(zh[value]!), value).toEqual(placeholders(value));
  });

  it('keeps no stale entries in the bundles', () => {
    const used = new Set(calls.map((c) => c.value));
    expect(Object.keys(en).filter((k) => !used.has(k))).toEqual([]);
    expect(Object.keys(zh).filter((k) => !used.has(k))).toEqual([]);
  });

  it('translates the strings a person reads (not left in English)', () => {
    const untranslated = Object.entries(zh).filter(
      ([k, v]) => k === v && /[a-z]{4,}/.test(k) && !['Context Compactor', 'Markdown', 'OpenAI JSON', 'Anthropic JSON'].includes(k),
    );
    expect(untranslated).toEqual([]);
  });
});

describe('what a person reads', () => {
  it('names no internal design documents (the settings once said "seed 003: 80%")', () => {
    for (const name of ['package.nls.json', 'package.nls.zh-cn.json', 'l10n/bundle.l10n.json', 'l10n/bundle.l10n.zh-cn.json']) {
      const text = readFileSync(join(repoRoot, name), 'utf8');
      expect(text.match(/seed ?0\d\d/gi), name).toBeNull();
    }
  });
});
