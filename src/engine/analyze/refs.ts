// What a message mentions that later messages can refer back to: file paths, code identifiers
// and error signatures. Used by the cross-reference detector here, and by the "Files and Code
// Sections" and "Errors and fixes" builders and the information-loss detector.
//
// All extractors are pure, deterministic and linear in the text; results are unique, in a
// documented order, and capped (limits default to analyze/constants.ts).

import { keptList, NONE } from '../conversation/messageMemo';
import { isUserAuthored, type Message, type ToolCall } from '../conversation/model';
import { detached } from '../tokens/pieceCounter';
import type { MessageRefs } from './analysis';
import { toolCallArgumentText } from './analysisText';
import { ANALYZE_CONSTANTS } from './constants';
import { userWords } from './injectedContext';

export interface RefLimits {
  maxFiles: number;
  maxIdentifiers: number;
  maxErrors: number;
  /** Longest error signature, in characters ("…" marks a cut). */
  maxErrorChars: number;
}

export const DEFAULT_REF_LIMITS: RefLimits = {
  maxFiles: ANALYZE_CONSTANTS.REFS_MAX_FILES,
  maxIdentifiers: ANALYZE_CONSTANTS.REFS_MAX_IDENTIFIERS,
  maxErrors: ANALYZE_CONSTANTS.REFS_MAX_ERRORS,
  maxErrorChars: ANALYZE_CONSTANTS.ERROR_SIGNATURE_MAX_CHARS,
};

// ── File paths ────────────────────────────────────────────────────────────────────────────

/** Extensions that make "name.ext" a file. A whitelist, so that versions (1.2.3), domains
 *  (example.com), abbreviations (e.g.) and dotted code (os.path) are not files. */
export const FILE_EXTENSIONS =
  'py|pyi|pyx|pyc|ipynb|js|jsx|mjs|cjs|ts|tsx|mts|cts|json|jsonl|json5|jsonc|md|mdx|markdown|rst|txt|yml|yaml|toml|ini|cfg|conf|env|lock|log|csv|tsv|xml|html|htm|css|scss|sass|less|vue|svelte|astro|rs|go|mod|sum|java|kt|kts|scala|groovy|gradle|c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm|cs|csproj|sln|fs|fsx|vb|swift|rb|erb|php|pl|pm|lua|r|jl|dart|ex|exs|erl|hrl|hs|ml|mli|clj|cljs|elm|nim|zig|sol|sh|bash|zsh|fish|ps1|psm1|bat|cmd|sql|graphql|gql|proto|tf|tfvars|hcl|dockerfile|mk|cmake|patch|diff|svg|png|jpg|jpeg|gif|webp|ico|pdf|zip|gz|tgz|tar|whl|wasm|so|dll|dylib|exe|db|sqlite|pem|crt|jar|class|vsix|tex|bib|adoc|po|properties|plist|xaml|ejs|hbs|njk|jinja|j2|pug|coffee|cu|cuh|ino|qml|snap|orig|bak|rej|pth|pkl|npy|parquet|ipynb|j2';

/** Files without an extension that are still files. */
const EXTENSIONLESS_FILES =
  'Makefile|Dockerfile|Containerfile|Rakefile|Gemfile|Procfile|Jenkinsfile|Vagrantfile|Brewfile|Pipfile|README|LICENSE|CHANGELOG|CODEOWNERS|\\.gitignore|\\.gitattributes|\\.gitmodules|\\.dockerignore|\\.npmrc|\\.nvmrc|\\.env|\\.editorconfig|\\.prettierrc|\\.eslintrc|\\.babelrc|\\.bashrc|\\.zshrc|\\.profile';

const NOT_IN_PATH_BEFORE = String.raw`(?<![\w@$%+~./\\-])`;
/** A folder separator: "/", "\\", or "\\\\" (a Windows path as JSON escapes it, read raw). */
const SEP = String.raw`(?:\\{1,2}|/)`;
const ROOT = String.raw`(?:[A-Za-z]:${SEP}|~?/|\.{1,2}${SEP})?`;
/** A folder or file name: plain, or a framework's route segment — a group "(protected)", a
 *  parameter "[id]", a catch-all "[...slug]" (Next.js, SvelteKit, Nuxt) — so a path keeps its
 *  leading folders. */
const NAME = String.raw`(?:\.?[\w@$+-][\w@$.+-]*|\([\w@$.+-]+\)|\[{1,2}(?:\.\.\.)?[\w@$.+-]+\]{1,2}[\w@$.+-]*)`;
const DIRS = String.raw`(?:${NAME}${SEP})*`;

const PATH_WITH_EXT = new RegExp(`${NOT_IN_PATH_BEFORE}${ROOT}${DIRS}${NAME}\\.(?:${FILE_EXTENSIONS})(?![\\w-]|\\.[\\w-])`, 'g');
const PATH_WITHOUT_EXT = new RegExp(`${NOT_IN_PATH_BEFORE}${ROOT}${DIRS}(?:${EXTENSIONLESS_FILES})(?![\\w.-])`, 'g');
/** Two paths glued by a newline written as "\\n" (an escaped string read raw) or mistyped "/n":
 *  a file name with its extension, then the escape, then the next path. A folder named like a
 *  product ("next.js/") is not a file, so it is not split. */
const GLUED = new RegExp(
  String.raw`(?<!\b(?:next|vue|node|nuxt|react|three|chart|d3|ember|backbone|express))(\.(?:${FILE_EXTENSIONS}))(?:\\+[ntr]|/n)(?=[\w.~@$(\[/\\])`,
  'g',
);
/** Cheap pre-check: the full expression (with its folder prefix) only runs when a name occurs. */
const EXTENSIONLESS_NEEDLE = new RegExp(EXTENSIONLESS_FILES);
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+|\bwww\.[^\s"'<>)\]]+/gi;

/** Names with a file extension that are almost always products, not files. */
const NOT_FILES: ReadonlySet<string> = new Set([
  'node.js',
  'vue.js',
  'next.js',
  'nuxt.js',
  'react.js',
  'express.js',
  'three.js',
  'chart.js',
  'd3.js',
  'ember.js',
  'backbone.js',
  'docs.rs',
  'asp.net',
  // calls that look like a name with an extension
  'console.log',
  'logger.log',
  'math.log',
  'this.log',
  'self.log',
]);

/** An extension on its own (".ts", ".d.ts"): a kind of file, not a file. */
const BARE_EXTENSION =
  /^\.(?:d\.)?(?:ts|tsx|js|jsx|mjs|cjs|py|pyi|json|md|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|css|scss|html|vue|svelte|yml|yaml|toml|sh|txt|sql|swift)$/;

/** A diff header line ("diff --git a/x b/x", "--- a/x", "+++ b/x"): its a/ and b/ are not folders. */
const DIFF_HEADER_BEFORE = /(?:^|\n)(?:diff --git [^\n]*|--- |\+\+\+ )$/;

/** Forward slashes, no "./" segments, no duplicate slashes, no trailing punctuation. */
export function normalizeFilePath(path: string): string {
  let p = path.trim().replace(/\\/g, '/');
  p = p.replace(/\/{2,}/g, '/').replace(/\/(?:\.\/)+/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p.replace(/[.,;:]+$/, '');
}

function pushPath(out: string[], seen: Set<string>, raw: string, max: number): void {
  if (out.length >= max) return;
  const p = normalizeFilePath(raw);
  if (!p || seen.has(p)) return;
  const base = p.slice(p.lastIndexOf('/') + 1);
  if (NOT_FILES.has(base.toLowerCase()) && !p.includes('/')) return;
  if (BARE_EXTENSION.test(p)) return;
  // "a.m", "e.g": a one-letter name without a folder is an abbreviation, not a file.
  if (!p.includes('/') && /^[A-Za-z]\.[A-Za-z]$/.test(base)) return;
  seen.add(p);
  out.push(p);
}

/**
 * File paths in free text: unix (/a/b.py), windows (C:\a\b.py), home (~/x.md) and relative
 * (src/a.ts, ./x.py, ../y.go, a.py) paths with a known extension, plus well-known files without
 * one (Makefile, Dockerfile, README, .gitignore). URLs are skipped, and so are version numbers,
 * domain names and dotted code, which have no file extension. Returns normalized paths
 * (normalizeFilePath), unique, in order of first appearance, at most `max`.
 */
export function extractFilePaths(text: string, max: number = DEFAULT_REF_LIMITS.maxFiles): string[] {
  const out: string[] = [];
  if (!text || max <= 0) return out;
  const unglued = text.includes('\\') || text.includes('/n') ? text.replace(GLUED, '$1 ') : text;
  const clean = unglued.includes('://') || unglued.includes('www.') ? unglued.replace(URL, ' ') : unglued;
  const found: { at: number; path: string }[] = [];
  // Every extension starts with a letter: a text with no dot before one names no such path.
  if (DOT_LETTER.test(clean)) for (const m of clean.matchAll(PATH_WITH_EXT)) found.push({ at: m.index, path: m[0] });
  if (EXTENSIONLESS_NEEDLE.test(clean)) {
    for (const m of clean.matchAll(PATH_WITHOUT_EXT)) found.push({ at: m.index, path: m[0] });
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  for (const f of found) {
    let path = f.path;
    if (/^[ab]\//.test(path) && DIFF_HEADER_BEFORE.test(clean.slice(Math.max(0, clean.lastIndexOf('\n', f.at - 1)), f.at))) path = path.slice(2);
    pushPath(out, seen, path, max);
    if (out.length >= max) break;
  }
  return out;
}

/** Argument keys whose string value is a file path (Claude Code, Cline, OpenHands, SWE-agent, MCP tools). */
const PATH_KEYS: ReadonlySet<string> = new Set([
  'file_path',
  'filepath',
  'filePath',
  'path',
  'paths',
  'file',
  'files',
  'filename',
  'fileName',
  'notebook_path',
  'target_file',
  'targetFile',
  'source_path',
  'dest_path',
  'destination',
  'old_path',
  'new_path',
  'relative_workspace_path',
  'absolute_path',
  'uri',
]);

/** Argument keys whose string value is a command line or script that may name files. */
const COMMAND_KEYS: ReadonlySet<string> = new Set(['command', 'cmd', 'script', 'commands', 'args', 'argv', 'shell']);

/**
 * File paths a tool call names: the values of path-like argument keys ({"file_path": …},
 * {"path": …}, {"paths": […]}) taken as given (even without an extension), and the paths inside
 * command-like values ({"command": "cat x.py"}). File contents ("content", "new_string") are not
 * read: they are the file, not references to it. Unparsable arguments are scanned as text.
 */
export function extractToolCallPaths(call: ToolCall, max: number = DEFAULT_REF_LIMITS.maxFiles): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    for (const p of extractFilePaths(call.arguments, max)) pushPath(out, seen, p, max);
    return out;
  }
  const visit = (value: unknown, key: string | undefined, depth: number): void => {
    if (out.length >= max || depth > 4) return;
    if (typeof value === 'string') {
      if (key !== undefined && PATH_KEYS.has(key)) {
        if (value.length <= 500 && !value.includes('\n') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
          pushPath(out, seen, value.replace(/^file:\/\//, ''), max);
        }
      } else if (key !== undefined && COMMAND_KEYS.has(key)) {
        for (const p of extractFilePaths(value, max)) pushPath(out, seen, p, max);
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) visit(v, key, depth + 1);
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) visit(v, k, depth + 1);
    }
  };
  visit(args, undefined, 0);
  return out;
}

// ── Identifiers ───────────────────────────────────────────────────────────────────────────

/** UpperCamelCase: capitals, a run of lower case, then a capital (TypeError, QuerySet,
 *  XMLHttpRequest). Each run is forced, so a long token that fails costs linear time. */
const UPPER_CAMEL = /\b[A-Z][A-Z0-9]*[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g;
/** lowerCamelCase (getUserName, useState). */
const LOWER_CAMEL = /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g;
/** snake_case, SCREAMING_CASE and dunder names (file_path, TIME_ZONE, __init__). */
const SNAKE = /\b_{0,2}[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_{0,2}(?![\w])|\b__[a-z][a-z0-9]*__\b/g;
/** Dotted calls (os.path.join(), self.assertEqual()) and dotted module paths of 3+ parts
 *  (django.db.backends.mysql). They start only where a chain starts, never inside one (a long
 *  chain that fails would otherwise be rescanned from every link). */
const DOTTED_CALL = /(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?=\()/g;
const DOTTED_PATH = /(?<![\w.])[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}\b/g;
/** What the camel-case expressions cannot match without. */
const CAPITAL = /[A-Z]/;
/** What a dotted call or path cannot match without. */
const DOT_LETTER_OR_UNDERSCORE = /\.[A-Za-z_]/;
/** What a path with an extension cannot match without. */
const DOT_LETTER = /\.[A-Za-z]/;
const TLDS = /\.(?:com|org|net|io|dev|edu|gov|co|uk|cn|de|jp|ai|app|info|xyz)$/;
const FILE_LIKE = new RegExp(`\\.(?:${FILE_EXTENSIONS})$`);

/**
 * Code identifiers: CamelCase (two humps or more), lowerCamelCase, snake_case / SCREAMING_CASE
 * / dunder names, dotted calls (`os.path.join`, written without the parentheses, "self." and
 * "this." dropped) and dotted module paths of three parts or more. Domain names and file names
 * are not identifiers. Returns unique names, the most frequent first (ties: first appearance),
 * at most `max`.
 */
export function extractIdentifiers(text: string, max: number = DEFAULT_REF_LIMITS.maxIdentifiers): string[] {
  if (!text || max <= 0) return [];
  const counts = new Map<string, { n: number; at: number }>();
  const add = (name: string, at: number) => {
    const e = counts.get(name);
    if (e) e.n++;
    else counts.set(name, { n: 1, at });
  };
  // Each expression runs only on a text with what it cannot match without (most messages have
  // no capital inside a word, no underscore, no dotted name): the same matches, in the same order.
  if (CAPITAL.test(text)) {
    for (const m of text.matchAll(UPPER_CAMEL)) add(m[0], m.index);
    for (const m of text.matchAll(LOWER_CAMEL)) add(m[0], m.index);
  }
  if (text.includes('_')) for (const m of text.matchAll(SNAKE)) add(m[0], m.index);
  if (DOT_LETTER_OR_UNDERSCORE.test(text)) {
    if (text.includes('(')) {
      for (const m of text.matchAll(DOTTED_CALL)) {
        const name = m[0].replace(/^(?:self|this|cls)\./, '');
        if (!FILE_LIKE.test(name)) add(name, m.index);
      }
    }
    for (const m of text.matchAll(DOTTED_PATH)) {
      const name = m[0];
      if (TLDS.test(name) || FILE_LIKE.test(name) || text[m.index + name.length] === '(') continue;
      add(name, m.index);
    }
  }
  if (counts.size === 0) return [];
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[1].at - b[1].at)
    .slice(0, max)
    .map(([name]) => name);
}

// ── Error signatures ──────────────────────────────────────────────────────────────────────

interface SignaturePattern {
  /** Run the expression only when the text contains this (cheap pre-check), or always. */
  needle?: string | RegExp;
  re: RegExp;
  /** The signature for a match, or undefined to skip it. */
  sig(m: RegExpMatchArray): string | undefined;
}

/** A docstring's "Raises:" / "Throws:" section documents exceptions; none happened. (Each
 *  skipped line starts with exactly one matched blank: unambiguous, no backtracking blow-up.) */
const RAISES_HEADER = /(?:^|\n)[ \t]*(?:Raises|Throws|Exceptions|Errors)[ \t]*:?[ \t]*\n(?:[ \t][^\n]*\n)*[ \t]+$/;
/** How far back to look for such a header. */
const RAISES_LOOKBACK_CHARS = 400;

function inRaisesSection(m: RegExpMatchArray): boolean {
  const input = m.input ?? '';
  const at = m.index ?? 0;
  // Only an indented line can be inside a docstring section.
  const lineStart = input.lastIndexOf('\n', at - 1) + 1;
  if (!/^[ \t]+$/.test(input.slice(lineStart, at))) return false;
  return RAISES_HEADER.test(input.slice(Math.max(0, at - RAISES_LOOKBACK_CHARS), at));
}

const EXCEPTION_NAME = String.raw`(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault)`;

const SIGNATURE_PATTERNS: readonly SignaturePattern[] = [
  // Python / JS / Java exceptions with a message: "ValueError: invalid literal", "TypeError: x is not a function".
  {
    needle: /(?:Error|Exception|Exit|Interrupt|Failure|Fault):/,
    re: new RegExp(String.raw`(?<![\w.])(${EXCEPTION_NAME}): +(\S[^\n]*)`, 'g'),
    sig: (m) => (inRaisesSection(m) ? undefined : `${m[1]}: ${m[2]}`),
  },
  // A bare exception name on its own line (pytest "E   AssertionError", the last line of a traceback).
  {
    needle: /(?:Error|Exception|Exit|Interrupt|Failure|Fault)[ \t]*(?:\n|$)/,
    re: new RegExp(String.raw`^[ \t>E|]*(${EXCEPTION_NAME})[ \t]*$`, 'gm'),
    sig: (m) => m[1],
  },
  // Node's generic "Error: …" at the start of a line or after "Uncaught".
  { needle: 'Error: ', re: /(?:^[ \t]*|Uncaught )Error: +(\S[^\n]*)/gm, sig: (m) => `Error: ${m[1]}` },
  // TypeScript: "error TS2345: Argument of type …".
  { needle: 'error TS', re: /\berror (TS\d+): *([^\n]*)/g, sig: (m) => `error ${m[1]}: ${m[2]}` },
  // Rust: "error[E0308]: mismatched types".
  { needle: 'error[E', re: /\berror\[(E\d{4})\]: *([^\n]*)/g, sig: (m) => `error[${m[1]}]: ${m[2]}` },
  // Compilers, cargo, git, pip: "error: …", "fatal: …", "file.c:3:5: error: …", "ERROR: …".
  {
    needle: /(?:error|fatal|ERROR|FATAL): /,
    re: /(?:^[ \t]*|:\d+:(?:\d+:)? )(error|fatal|ERROR|FATAL): +(\S[^\n]*)/gm,
    sig: (m) => `${m[1]!.toLowerCase()}: ${m[2]}`,
  },
  // pytest: "FAILED tests/test_x.py::test_y - AssertionError" and "ERROR tests/x.py::test".
  { needle: '::', re: /^(FAILED|ERROR) +(\S+::\S+)/gm, sig: (m) => `${m[1]} ${m[2]}` },
  // jest / vitest summaries: "Tests: 2 failed, 5 passed".
  { needle: ' failed', re: /^[ \t]*Tests?:[ \t]+(\d+) failed/gm, sig: (m) => `Tests: ${m[1]} failed` },
  // npm: "npm ERR! code ERESOLVE".
  { needle: 'npm ERR!', re: /^npm ERR! +(\S[^\n]*)/gm, sig: (m) => `npm ERR! ${m[1]}` },
  // Go panics and runtime fatals.
  { needle: /(?:panic|fatal error): /, re: /^(panic|fatal error): +(\S[^\n]*)/gm, sig: (m) => `${m[1]}: ${m[2]}` },
  // Shells.
  { needle: ': command not found', re: /(?:^|: )([^\s:]+): command not found/gm, sig: (m) => `${m[1]}: command not found` },
  { needle: ': No such file or directory', re: /(?<![^\s:'"`])([^\s:'"`]+): No such file or directory/g, sig: (m) => `${m[1]}: No such file or directory` },
  { needle: 'Segmentation fault', re: /\bSegmentation fault\b/g, sig: () => 'Segmentation fault' },
  // Non-zero exit codes: "exit code 1", "exited with code 2", "returncode: 1", mini-swe-agent's <returncode>1</returncode>.
  {
    needle: /returncode|exit|return ?code/i,
    re: /<returncode>\s*(-?\d+)\s*<\/returncode>|\b(?:exit(?:ed)?(?: with)?(?: exit)? (?:code|status)|exit_code|return ?code|returncode)[:=]?\s*(-?\d+)/gi,
    sig: (m) => {
      const code = m[1] ?? m[2];
      return code !== undefined && Number(code) !== 0 ? `exit code ${Number(code)}` : undefined;
    },
  },
];

/** Python's traceback ends with the exception line, whatever the class is called
 *  ("django.core.exceptions.ImproperlyConfigured: …"): the first unindented line after it. */
// Each skipped line is unambiguous (one leading blank, then anything): no backtracking blow-up.
const TRACEBACK = /Traceback \(most recent call last\):\r?\n(?:[ \t][^\n]*\n|\r?\n)*([A-Za-z_][\w.]*)(?::[ \t]*([^\n]*)|[ \t]*)(?=\r?\n|$)/g;

function cut(text: string, maxChars: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= maxChars ? t : `${t.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
}

/**
 * Error signatures in text: exception lines (Python, JS, Java; a traceback's last line),
 * "error TS2345: …", Rust "error[E0308]: …", compiler/git/pip "error:"/"fatal:" lines, pytest
 * "FAILED a.py::test_b", jest "Tests: N failed", "npm ERR! …", Go panics, "x: command not found",
 * "x: No such file or directory", "Segmentation fault" and non-zero exit codes ("exit code 1").
 * Whitespace is collapsed and each is cut to `maxChars`. Unique, in order of appearance, at
 * most `max`.
 */
export function extractErrorSignatures(
  text: string,
  max: number = DEFAULT_REF_LIMITS.maxErrors,
  maxChars: number = DEFAULT_REF_LIMITS.maxErrorChars,
): string[] {
  if (!text || max <= 0) return [];
  const found: { at: number; sig: string }[] = [];
  if (text.includes('Traceback (most recent call last):')) {
    for (const m of text.matchAll(TRACEBACK)) {
      const msg = m[2]?.trim();
      found.push({ at: m.index + m[0].lastIndexOf(m[1]!), sig: msg ? `${m[1]}: ${msg}` : m[1]! });
    }
  }
  for (const p of SIGNATURE_PATTERNS) {
    if (p.needle !== undefined && (typeof p.needle === 'string' ? !text.includes(p.needle) : !p.needle.test(text))) continue;
    for (const m of text.matchAll(p.re)) {
      const sig = p.sig(m);
      if (sig) found.push({ at: m.index, sig });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    const s = cut(f.sig, maxChars);
    if (!s || seen.has(s)) continue;
    seen.add(s);
    out.push(s);
    if (out.length >= max) break;
  }
  return out;
}

// ── One message ───────────────────────────────────────────────────────────────────────────

/** The text refs are read from: text and thinking parts; a person's own words only (the files
 *  an agent lists as open tabs were not named by them). */
function refText(m: Message): string {
  let out = '';
  for (const p of m.content) {
    if (p.type === 'text' || p.type === 'thinking') out = out ? `${out}\n${p.text}` : p.text;
  }
  return isUserAuthored(m) ? userWords(out) : out;
}

/**
 * Everything a message mentions: files (tool-call arguments first, then the text), identifiers
 * (text and tool-call argument values, not their keys) and error signatures (text only: an error in a command line
 * is not an error that happened).
 */
export function extractMessageRefs(m: Message, limits: RefLimits = DEFAULT_REF_LIMITS): MessageRefs {
  const text = refText(m);
  const files: string[] = [];
  const seen = new Set<string>();
  for (const call of m.toolCalls ?? []) {
    for (const p of extractToolCallPaths(call, limits.maxFiles)) pushPath(files, seen, p, limits.maxFiles);
  }
  for (const p of extractFilePaths(text, limits.maxFiles)) pushPath(files, seen, p, limits.maxFiles);
  let idText = text;
  for (const call of m.toolCalls ?? []) idText += `\n${toolCallArgumentText(call)}`;
  const identifiers = extractIdentifiers(idText, limits.maxIdentifiers);
  const errors = extractErrorSignatures(text, limits.maxErrors, limits.maxErrorChars);
  if (files.length === 0 && identifiers.length === 0 && errors.length === 0) return NO_REFS;
  // Each kept as a string of its own: a name cut from a long text would keep the whole text alive
  // for as long as the analysis lives.
  const own = (xs: string[]) => keptList(xs.map(detached));
  return { files: own(files), identifiers: own(identifiers), errors: own(errors) };
}

/** The refs of a message that mentions nothing (most of a long chat): one object for all of them. */
const NO_REFS: MessageRefs = Object.freeze({ files: NONE, identifiers: NONE, errors: NONE });
