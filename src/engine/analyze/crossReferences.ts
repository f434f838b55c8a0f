// The cross-reference detector: which later messages mention a
// message's files, identifiers or error signatures. Built with an inverted index, so it is
// linear in the number of references, not quadratic in the number of messages.
//
// A later mention of a key links back to two earlier messages: the one that introduced the key
// (its first mention) and the most recent one before it (the latest state of that file or
// error). Linking to every earlier mention would make a file read 300 times produce 45,000 links
// that say nothing more.

import type { MessageRefs } from './analysis';

/** Basenames too common to identify a file on their own. */
const GENERIC_BASENAMES: ReadonlySet<string> = new Set([
  '__init__.py',
  'index.ts',
  'index.js',
  'index.tsx',
  'index.html',
  'main.py',
  'main.go',
  'main.rs',
  'mod.rs',
  'lib.rs',
  'setup.py',
  'package.json',
  'readme.md',
  'readme',
  'conftest.py',
  'utils.py',
  'utils.ts',
  'test.py',
  'tests.py',
  'models.py',
  'views.py',
  'settings.py',
  'makefile',
  'dockerfile',
  'license',
]);

/**
 * Index keys for a message's references. A file is keyed by its full path, its last two
 * segments and (unless generic) its basename, so "/repo/src/a.py", "src/a.py" and "a.py" meet.
 */
export function referenceKeys(refs: MessageRefs): string[] {
  const keys = new Set<string>();
  for (const f of refs.files) {
    const parts = f.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
    if (parts.length === 0) continue;
    keys.add(`f:${parts.join('/')}`);
    if (parts.length >= 2) keys.add(`f:${parts.slice(-2).join('/')}`);
    const base = parts[parts.length - 1]!;
    if (!GENERIC_BASENAMES.has(base.toLowerCase())) keys.add(`f:${base}`);
  }
  for (const id of refs.identifiers) keys.add(`i:${id}`);
  for (const e of refs.errors) keys.add(`e:${e}`);
  return [...keys];
}

export interface CrossReferences {
  /** For each message, the later messages referring back to it (ascending). */
  referencedBy: number[][];
  /** For each message, the earlier messages it refers back to (ascending). */
  refersTo: number[][];
}

export function findCrossReferences(keysPerMessage: readonly (readonly string[])[]): CrossReferences {
  const n = keysPerMessage.length;
  const first = new Map<string, number>();
  const latest = new Map<string, number>();
  const by: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  const to: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (let j = 0; j < n; j++) {
    for (const key of keysPerMessage[j]!) {
      const f = first.get(key);
      if (f === undefined) {
        first.set(key, j);
        latest.set(key, j);
        continue;
      }
      const l = latest.get(key)!;
      for (const i of f === l ? [f] : [f, l]) {
        if (i === j) continue;
        by[i]!.add(j);
        to[j]!.add(i);
      }
      latest.set(key, j);
    }
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { referencedBy: by.map(sorted), refersTo: to.map(sorted) };
}
