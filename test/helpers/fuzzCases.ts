// Seeded mutations of real transcripts for the fuzz suite (test/cli/fuzzTranscripts.corpus.test.ts): the
// shared transcripts cut down to a size that imports and compacts in milliseconds, then truncated,
// bit-flipped, shuffled, given huge lines, nested 100,000 deep, or broken as UTF-8. Deterministic:
// the same seed gives the same cases, byte for byte.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fixturesDir, transcriptFiles, transcriptPath } from './transcripts';

/** A small, fast, seeded PRNG (mulberry32): numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Seed {
  /** File name the case is written under (the extension decides some format detection). */
  name: string;
  bytes: Buffer;
}

/** Longest array kept when a JSON transcript is cut down, and longest string. */
const KEEP_ITEMS = 10;
const KEEP_CHARS = 3_000;
/** JSONL lines and Markdown bytes kept. */
const KEEP_LINES = 60;
const KEEP_BYTES = 40_000;

function shrinkValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > KEEP_CHARS ? v.slice(0, KEEP_CHARS) : v;
  if (Array.isArray(v)) return v.slice(0, depth === 0 ? KEEP_ITEMS * 2 : KEEP_ITEMS).map((x) => shrinkValue(x, depth + 1));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrinkValue(x, depth + 1)]));
  return v;
}

/** One seed per transcript: the shared ones cut down, and the repo's fixtures. */
export function seedCorpus(): Seed[] {
  const files = [...transcriptFiles().map(transcriptPath), `${fixturesDir}/afi-core.aider.chat.history.md`, `${fixturesDir}/chinese-refactor.json`];
  return files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const name = basename(file);
    let out: string;
    if (name.endsWith('.jsonl')) out = text.split('\n').slice(0, KEEP_LINES).join('\n');
    else if (name.endsWith('.md')) out = text.slice(0, text.lastIndexOf('\n', KEEP_BYTES) + 1);
    else {
      const v = shrinkValue(JSON.parse(text));
      // LongMemEval: one instance with a few sessions is plenty.
      out = JSON.stringify(Array.isArray(v) ? v.slice(0, 2) : v, null, 1);
    }
    return { name, bytes: Buffer.from(out, 'utf8') };
  });
}

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);

/** 100,000 nested arrays: JSON.parse takes it, anything that recurses over it overflows. */
export const DEEP = 100_000;
const deepArray = (n = DEEP) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n = DEEP) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

function lines(b: Buffer): string[] {
  return b.toString('latin1').split('\n');
}
const fromLines = (ls: string[]) => Buffer.from(ls.join('\n'), 'latin1');

const NOISE_WORDS = [
  'error',
  'at',
  'src/app.ts:12',
  'function',
  '{',
  '}',
  '=>',
  'undefined',
  '0x1f',
  'const',
  'return',
  '404',
  'GET',
  '/api/v1',
  'token',
  '…',
  '中文',
  '😀',
  'ok',
];

/** `size` characters of log-like text: words, paths, numbers, some CJK and emoji. */
function noise(r: Rand, size: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < size) {
    const w = r() < 0.3 ? Math.floor(r() * 1e6).toString(36) : NOISE_WORDS[int(r, NOISE_WORDS.length)]!;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
}

export interface Mutation {
  name: string;
  apply(b: Buffer, r: Rand): Buffer;
}

/** Each mutation works on bytes (latin1 round-trips every byte), so UTF-8 can break anywhere. */
export const MUTATIONS: Mutation[] = [
  { name: 'truncate', apply: (b, r) => b.subarray(0, int(r, b.length)) },
  {
    name: 'flip bytes',
    apply: (b, r) => {
      const c = Buffer.from(b);
      for (let k = 1 + int(r, 8); k > 0 && c.length; k--) {
        const at = int(r, c.length);
        c[at] = c[at]! ^ (1 << int(r, 8));
      }
      return c;
    },
  },
  {
    name: 'shuffle lines',
    apply: (b, r) => {
      const ls = lines(b);
      for (let i = ls.length - 1; i > 0; i--) {
        const j = int(r, i + 1);
        [ls[i], ls[j]] = [ls[j]!, ls[i]!];
      }
      return fromLines(ls);
    },
  },
  {
    name: 'drop or repeat a line',
    apply: (b, r) => {
      const ls = lines(b);
      const i = int(r, ls.length);
      if (r() < 0.5) ls.splice(i, 1);
      else ls.splice(i, 0, ls[i]!, ls[i]!);
      return fromLines(ls);
    },
  },
  {
    name: 'huge line',
    apply: (b, r) => {
      const ls = lines(b);
      const kind = int(r, 3);
      // A pasted log or a minified bundle (0.5–2 MB), or one character repeated (a line of '=').
      const huge =
        kind === 0
          ? '='.repeat(200_000 + int(r, 200_000))
          : kind === 1
            ? JSON.stringify({ type: 'user', message: { role: 'user', content: noise(r, 500_000 + int(r, 1_500_000)) } })
            : `"${noise(r, 500_000 + int(r, 1_500_000))}`;
      ls.splice(int(r, ls.length + 1), 0, huge);
      return fromLines(ls);
    },
  },
  {
    name: 'deep nesting',
    apply: (b, r) => {
      const text = b.toString('latin1');
      const kind = int(r, 4);
      if (kind === 0)
        return Buffer.from(
          `${text.trimEnd()}\n${JSON.stringify({ type: 'user', uuid: 'deep', message: { role: 'user', content: 'X' } }).replace('"X"', deepArray())}\n`,
          'latin1',
        );
      if (kind === 1) return Buffer.from(`[${deepArray()}, ${text}]`, 'latin1');
      // Replace a string value somewhere inside with a deep array or object.
      const at = [...text.matchAll(/:\s*"(?:[^"\\]|\\.)*"/g)];
      if (at.length === 0) return Buffer.from(deepArray(), 'latin1');
      const m = at[int(r, at.length)]!;
      const deep = kind === 2 ? deepArray() : deepObject();
      return Buffer.from(`${text.slice(0, m.index)}: ${deep}${text.slice(m.index! + m[0].length)}`, 'latin1');
    },
  },
  {
    name: 'invalid UTF-8',
    apply: (b, r) => {
      const bad = [[0xff], [0xc3, 0x28], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]][int(r, 7)]!;
      const at = int(r, b.length + 1);
      return Buffer.concat([b.subarray(0, at), Buffer.from(bad), b.subarray(at)]);
    },
  },
  {
    name: 'retype a value',
    apply: (b, r) => {
      const text = b.toString('latin1');
      const keys = [
        ...text.matchAll(/"(role|content|type|message|messages|tool_calls|tool_call_id|text|id|history|requests|response|name|input|arguments)"\s*:\s*/g),
      ];
      if (keys.length === 0) return b;
      const m = keys[int(r, keys.length)]!;
      const value = ['null', '42', '[]', '{}', 'true', '"tool"', '[null]', '[{"type":"tool_result"}]', '{"role":"tool"}'][int(r, 9)]!;
      // The new value goes in front of the old one, which then usually breaks the syntax too.
      const end = m.index! + m[0].length;
      return Buffer.from(r() < 0.5 ? `${text.slice(0, end)}${value}, "was": ${text.slice(end)}` : `${text.slice(0, end)}${value}${text.slice(end)}`, 'latin1');
    },
  },
  {
    name: 'line ends and marks',
    apply: (b, r) => {
      const k = int(r, 3);
      if (k === 0) return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
      if (k === 1) return Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
      return Buffer.concat([b.subarray(0, int(r, b.length)), Buffer.from([0]), b.subarray(int(r, b.length))]);
    },
  },
];

/** Values a tree edit puts in: wrong types, empty shapes, other roles and block types, lone
 *  surrogates, long strings, and objects that break naive code (a "toString" that is no function). */
const ODD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  '',
  'x',
  true,
  [],
  {},
  [null],
  { type: 'tool_use' },
  { type: 'tool_result', tool_use_id: 'nowhere' },
  { role: 'tool' },
  { role: 'user', content: [{ type: 'text' }] },
  '\ud800 lone surrogate',
  'w'.repeat(100_000),
  { toString: 1, valueOf: 2 },
  { __proto__: { polluted: true } },
  { constructor: 'x', hasOwnProperty: 1 },
  [[[['nested']]]],
];

/** Every path in a JSON value, up to `max` of them (a path is the keys and indexes down to it). */
function paths(v: unknown, max: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: { v: unknown; p: (string | number)[] }[] = [{ v, p: [] }];
  while (stack.length && out.length < max) {
    const { v: x, p } = stack.pop()!;
    out.push(p);
    if (Array.isArray(x)) x.forEach((c, i) => stack.push({ v: c, p: [...p, i] }));
    else if (x && typeof x === 'object') for (const [k, c] of Object.entries(x)) stack.push({ v: c, p: [...p, k] });
  }
  return out;
}

/** Replaces, deletes or duplicates a few nodes of a parsed value (the text stays valid JSON). */
function editTree(v: unknown, r: Rand): unknown {
  const all = paths(v, 5_000).filter((p) => p.length > 0);
  for (let k = 1 + int(r, 4); k > 0 && all.length; k--) {
    const path = all[int(r, all.length)]!;
    let parent = v as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (!parent || typeof parent !== 'object') continue;
    const choice = int(r, 4);
    if (choice === 0 && !Array.isArray(parent)) delete parent[last];
    else if (choice === 1 && Array.isArray(parent)) parent.splice(Number(last), 0, parent[Number(last)]);
    else parent[last] = structuredClone(ODD_VALUES[int(r, ODD_VALUES.length)]);
  }
  return v;
}

MUTATIONS.push({
  name: 'tree edit',
  apply: (b, r) => {
    const text = b.toString('utf8');
    try {
      return Buffer.from(JSON.stringify(editTree(JSON.parse(text), r), null, 1), 'utf8');
    } catch {
      // JSONL: edit one line that parses.
      const ls = text.split('\n');
      const i = int(r, ls.length);
      try {
        ls[i] = JSON.stringify(editTree(JSON.parse(ls[i]!), r));
      } catch {
        return b;
      }
      return Buffer.from(ls.join('\n'), 'utf8');
    }
  },
});

export interface FuzzCase {
  id: number;
  seed: string;
  mutations: string[];
  name: string;
  bytes: Buffer;
}

/** `count` cases from `seed`: each a corpus seed with one to three mutations. */
export function fuzzCases(seed: number, count: number, corpus: Seed[] = seedCorpus()): FuzzCase[] {
  const r = prng(seed);
  const out: FuzzCase[] = [];
  for (let id = 0; id < count; id++) {
    const base = corpus[id % corpus.length]!;
    let bytes = base.bytes;
    const names: string[] = [];
    for (let k = 1 + int(r, 3); k > 0; k--) {
      const m = MUTATIONS[int(r, MUTATIONS.length)]!;
      bytes = m.apply(bytes, r);
      names.push(m.name);
    }
    out.push({ id, seed: base.name, mutations: names, name: base.name, bytes });
  }
  return out;
}
