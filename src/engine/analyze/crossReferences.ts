// The cross-reference detector: which later messages mention a
// message's files, identifiers or error signatures. Built with an inverted index, so it is
// linear in the number of references, not quadratic in the number of messages.
//
// A later mention of a key links back to two earlier messages: the one that introduced the key
// (its first mention) and the most recent one before it (the latest state of that file or
// error). Linking to every earlier mention would make a file read 300 times produce 45,000 links
// that say nothing more.

import { NONE } from '../conversation/messageMemo';
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
export function referenceKeys(refs: MessageRefs): readonly string[] {
  if (refs.files.length === 0 && refs.identifiers.length === 0 && refs.errors.length === 0) return NONE;
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
  referencedBy: (readonly number[])[];
  /** For each message, the earlier messages it refers back to (ascending). */
  refersTo: (readonly number[])[];
}

/** Where a scan stands: each key's first and latest mention, and the links so far. */
export interface CrossReferenceScan extends CrossReferences {
  /** Each key's first and latest mention: one index while they are the same message (most keys
   *  of a long conversation are mentioned once), else both. */
  mentions: Map<string, number | [first: number, latest: number]>;
}

export function crossReferenceScan(): CrossReferenceScan {
  return { mentions: new Map(), referencedBy: [], refersTo: [] };
}

/** Scans keysPerMessage[from…] into `scan` (the messages before `from` were scanned into it
 *  already). A later message only adds itself to earlier lists, so a list handed out before is
 *  never changed: one that gains a link is replaced by a copy. */
export function advanceCrossReferences(scan: CrossReferenceScan, keysPerMessage: readonly (readonly string[])[], from: number): void {
  const n = keysPerMessage.length;
  const { mentions, referencedBy: by, refersTo } = scan;
  // The messages whose list this scan made (the others were handed out before, or are the shared empty one).
  const own = new Set<number>();
  // The earlier messages the current one refers back to (made for the few that refer back).
  let to: Set<number> | undefined;
  const link = (i: number, j: number) => {
    const list = by[i]!;
    // j is the largest index so far: the list stays ascending, and a repeat is its last entry.
    if (list[list.length - 1] === j) return;
    if (own.has(i)) (list as number[]).push(j);
    else {
      own.add(i);
      by[i] = list.concat(j);
    }
    (to ??= new Set()).add(i);
  };
  for (let j = from; j < n; j++) {
    // Most messages are referred back to by none: they share one empty list.
    by.push(NONE);
    for (const key of keysPerMessage[j]!) {
      const seen = mentions.get(key);
      if (seen === undefined) {
        mentions.set(key, j);
        continue;
      }
      const f = typeof seen === 'number' ? seen : seen[0];
      const l = typeof seen === 'number' ? seen : seen[1];
      if (f !== j) link(f, j);
      if (l !== f && l !== j) link(l, j);
      if (f === j) continue;
      if (typeof seen === 'number') mentions.set(key, [f, j]);
      else seen[1] = j;
    }
    if (to === undefined) refersTo.push(NONE);
    else {
      refersTo.push([...to].sort((a, b) => a - b));
      to = undefined;
    }
  }
}
