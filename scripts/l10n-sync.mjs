// Keeps the runtime string bundles in step with the code: collects every vscode.l10n.t('…')
// literal in src/extension.ts and src/extension/**, writes l10n/bundle.l10n.json (English, the
// strings themselves) and prunes l10n/bundle.l10n.zh-cn.json to the strings still in use,
// listing the ones that still need a translation. test/extension/extensionL10n.test.ts checks the result.
// Run: node scripts/l10n-sync.mjs
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (full.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** The same extraction the test uses: the first argument of l10n.t when it is a string literal. */
export function extractL10nStrings(source) {
  const out = [];
  const re = /l10n\.t\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g;
  for (const m of source.matchAll(re)) out.push(JSON.parse(m[1].startsWith("'") ? `"${m[1].slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : m[1]));
  return out;
}

const files = [join(root, 'src/extension.ts'), ...walk(join(root, 'src/extension'))];
const strings = [];
for (const f of files) for (const s of extractL10nStrings(readFileSync(f, 'utf8'))) if (!strings.includes(s)) strings.push(s);

const english = Object.fromEntries(strings.map((s) => [s, s]));
writeFileSync(join(root, 'l10n/bundle.l10n.json'), `${JSON.stringify(english, null, 2)}\n`);

const zhPath = join(root, 'l10n/bundle.l10n.zh-cn.json');
let zh = {};
try {
  zh = JSON.parse(readFileSync(zhPath, 'utf8'));
} catch {
  // No Chinese bundle yet: every key is missing.
}
const kept = {};
const missing = [];
for (const s of strings) {
  if (typeof zh[s] === 'string' && zh[s]) kept[s] = zh[s];
  else missing.push(s);
}
writeFileSync(zhPath, `${JSON.stringify(kept, null, 2)}\n`);
console.log(`${strings.length} strings; zh-cn missing ${missing.length}`);
for (const s of missing) console.log(`  missing zh-cn: ${JSON.stringify(s)}`);
process.exitCode = missing.length > 0 ? 1 : 0;
