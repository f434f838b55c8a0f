// Rules of the inspector's source that a browser test would only catch by luck: no HTML string
// sinks anywhere (conversation text must stay text), colours only from the theme's variables
// (so light, dark and high-contrast themes all hold), and acquireVsCodeApi touched in one module.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/transcripts';

const SRC = join(repoRoot, 'webview-ui', 'src');

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full, ext));
    else if (name.endsWith(ext)) out.push(full);
  }
  return out;
}

/** Source without comments, so a comment that names a sink is not a finding. */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('inspector webview source rules', () => {
  const ts = files(SRC, '.ts');
  const css = files(SRC, '.css');

  it('finds the sources', () => {
    expect(ts.length).toBeGreaterThan(10);
    expect(css.map((f) => relative(SRC, f))).toContain(join('styles', 'inspector.css'));
  });

  it('has no HTML string sinks, eval or string timers', () => {
    const sinks =
      /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\s*\(|new Function\s*\(|setTimeout\(\s*['"`]|createContextualFragment|DOMParser/;
    const found = ts.filter((f) => sinks.test(code(f))).map((f) => relative(repoRoot, f));
    expect(found).toEqual([]);
  });

  it('calls acquireVsCodeApi in one module only', () => {
    const users = ts.filter((f) => /acquireVsCodeApi\s*\(/.test(code(f))).map((f) => relative(SRC, f));
    expect(users).toEqual([join('host', 'vscodeApi.ts')]);
  });

  it('takes every colour from a variable: no hex, rgb() or hsl() literals in the CSS', () => {
    for (const f of css) {
      const text = code(f);
      expect(text.match(/#[0-9a-fA-F]{3,8}\b/g) ?? [], f).toEqual([]);
      expect(text.match(/\b(rgba?|hsla?)\(/g) ?? [], f).toEqual([]);
    }
  });

  it('draws high-contrast borders from --vscode-contrastBorder', () => {
    const text = css.map(code).join('\n');
    expect(text).toContain('var(--vscode-contrastBorder');
    expect(text).toContain('var(--vscode-contrastActiveBorder');
  });
});
