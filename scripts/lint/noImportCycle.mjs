// ESLint rule: no module reaches itself again through its imports — type-only imports included
// (import-x/no-cycle skips `import type`, yet a type-level circle ties two modules together just
// as much: neither can move or be understood without the other). Relative imports, `export … from`
// and `import()` are followed; packages are not. The graph is read with TypeScript's own import
// scanner (ts.preProcessFile), each file once per process and again only when it changes.

import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.mts', '.tsx', '/index.ts'];

/** file → { mtimeMs, imports: resolved files } */
const scanned = new Map();

/** The file a relative specifier names, or undefined (a package, or nothing there). */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e)]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

function importsOfText(file, text) {
  const info = ts.preProcessFile(text, true, true);
  return [...new Set(info.importedFiles.map((i) => resolveSpecifier(file, i.fileName)).filter((f) => f !== undefined && /\.m?tsx?$/.test(f)))];
}

function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const known = scanned.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.imports;
  const imports = importsOfText(file, readFileSync(file, 'utf8'));
  scanned.set(file, { mtimeMs, imports });
  return imports;
}

/** A path of imports from `start` back to `target` (start first), or undefined. */
function pathBack(start, target) {
  const seen = new Set([start]);
  const parent = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const next of importsOf(at)) {
      if (next === target) {
        const path = [at];
        for (let p = at; parent.has(p);) path.unshift((p = parent.get(p)));
        return path;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      parent.set(next, at);
      queue.push(next);
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles between modules, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle (type imports included): {{path}}. Move what both need into a module of its own.' },
  },
  create(context) {
    const file = resolve(context.filename);
    const cwd = context.cwd;
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const target = resolveSpecifier(file, spec);
      if (target === undefined || target === file) return;
      const back = pathBack(target, file);
      if (!back) return;
      const path = [file, ...back, file].map((f) => relative(cwd, f)).join(' → ');
      context.report({ node, messageId: 'cycle', data: { path } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const localPlugin = { rules: { 'no-import-cycle': noImportCycle } };
