// The README is what a person reads first: its commands, settings and command names must stay
// true to the manifest and to CI.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/transcripts';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  contributes: {
    configuration: { properties: Record<string, { default: unknown }> };
    commands: { command: string; title: string }[];
    chatParticipants: { name: string; commands: { name: string }[] }[];
  };
};
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('README', () => {
  it("gives the two commands, and .ci/run runs the README's test command exactly", () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
    const ci = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');
    expect(ci.split('\n')).toContain('npm install && npm test');
    for (const script of ['demo', 'test', 'test:e2e', 'bench', 'bench:quality', 'package']) expect(manifest.scripts[script]).toBeDefined();
  });

  it('lists every setting with its default, and no setting the manifest does not have', () => {
    const rows = new Map<string, string>();
    for (const m of readme.matchAll(/^\| `(contextCompactor\.[\w.]+)` \| `([^`]*)` \|/gm)) rows.set(m[1]!, m[2]!);
    const props = manifest.contributes.configuration.properties;
    expect([...rows.keys()].sort()).toEqual(Object.keys(props).sort());
    for (const [key, { default: value }] of Object.entries(props)) {
      expect(rows.get(key), key).toBe(typeof value === 'string' ? (value === '' ? '""' : value) : JSON.stringify(value));
    }
  });

  it('names every command and every chat slash command', () => {
    for (const c of manifest.contributes.commands) {
      const title = nls[c.title.replace(/^%|%$/g, '')]!;
      expect(readme, title).toContain(title);
    }
    for (const p of manifest.contributes.chatParticipants) {
      expect(readme).toContain(`@${p.name}`);
      for (const c of p.commands) expect(readme).toContain(`| \`/${c.name}`);
    }
  });

  it('shows pictures that exist', () => {
    const pictures = [...readme.matchAll(/\]\((media\/[^)]+\.png)\)/g)].map((m) => m[1]!);
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    for (const p of pictures) expect(() => readFileSync(join(repoRoot, p)), p).not.toThrow();
  });
});
