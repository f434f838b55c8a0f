// "Files and Code Sections": every file the session
// read, created, edited, searched or ran, with its last action and the code that matters (the
// latest content written to it, long code folded as "[code folded: N lines]"), plus
// the files a person mentioned. Sources: tool calls (path arguments, shell command lines,
// heredocs), tool outputs that confirm writes ("Applied edit to …", "File created
// successfully at: …"), aider's SEARCH/REPLACE blocks, and paths the person wrote. A path only
// the assistant wrote is not listed: nothing touched it. Files only seen in tool output
// (listings, grep hits) are named on one optional line, as such. A relative path and an absolute path
// ending in it are the same file. On re-compaction a file keeps its latest state: the new
// entry replaces the earlier one; files not touched since stay.

import { extractFilePaths, normalizeFilePath } from '../analyze/refs';
import { declined } from './errorsAndFixes';
import { keyByInlineCode, previousItems, replaceByKey } from './previousItems';
import { fromMessage, recency, type BuilderContext } from './sectionBuilder';
import type { SectionItem } from './sectionItems';
import { distinctForms } from './sectionItems';
import type { FileAction, SpanMessage, SpanToolCall } from './spanView';
import { fence, foldCode, inlineCode, listItem } from '../text/textCut';

type Action = FileAction | 'mentioned by the user';

interface FileRecord {
  path: string;
  actions: Action[];
  last: Action;
  firstPos: number;
  lastPos: number;
  /** The latest code written to it (read when the entry is made). */
  code: (() => string) | undefined;
  sourceIds: string[];
  /** The sources as a set, once there are enough of them to look one up by (addSource). */
  sourceSet: Set<string> | undefined;
}

/** Sources from which a file's are looked up in a set rather than the list: most files have one
 *  or two, and a set for each of 100,000 files at every attempt was most of the section's work. */
const SOURCE_SET_FROM = 8;

/** Adds `id` to the file's sources, once. */
function addSource(f: FileRecord, id: string): void {
  if (f.sourceSet) {
    if (f.sourceSet.has(id)) return;
    f.sourceSet.add(id);
  } else {
    if (f.sourceIds.includes(id)) return;
    if (f.sourceIds.length + 1 >= SOURCE_SET_FROM) f.sourceSet = new Set([...f.sourceIds, id]);
  }
  f.sourceIds.push(id);
}

/** normalizeFilePath of the paths met lately: the same paths come back at every attempt. */
const NORMALIZED_PATHS = new Map<string, string>();
const NORMALIZED_PATHS_MAX = 65_536;

function normalizedPath(raw: string): string {
  let p = NORMALIZED_PATHS.get(raw);
  if (p === undefined) {
    if (NORMALIZED_PATHS.size >= NORMALIZED_PATHS_MAX) NORMALIZED_PATHS.clear();
    NORMALIZED_PATHS.set(raw, (p = normalizeFilePath(raw)));
  }
  return p;
}

const ACTED: ReadonlySet<Action> = new Set<Action>(['created', 'edited', 'deleted', 'read', 'searched', 'ran', 'used']);

const PRIORITY: Record<Action, number> = {
  created: 1,
  deleted: 1,
  edited: 1,
  'mentioned by the user': 0.8,
  read: 0.6,
  ran: 0.55,
  searched: 0.45,
  used: 0.4,
};

const GROUP: Record<Action, number> = { created: 0, edited: 0, deleted: 0, read: 1, ran: 2, searched: 2, used: 2, 'mentioned by the user': 3 };

/** Argument keys holding the new content of an edit. */
const CODE_KEYS = ['new_string', 'new_str', 'content', 'file_text', 'code', 'diff', 'patch', 'new_content', 'replace'];

/** Tool output lines that confirm a write, with the path they name; and aider's answered
 *  prompts (the path on the line before the question): "Add file to the chat? … y" puts the
 *  whole file in front of the model (a read), "Create new file? … y" creates it. */
const WRITE_CONFIRMATIONS: { re: RegExp; action: FileAction }[] = [
  { re: /\bApplied edit to\s+(\S+)/g, action: 'edited' },
  { re: /^(\S+)[ \t]*\nAdd file to the chat\?[^\n]*:[ \t]*y(?:es)?[ \t]*$/gm, action: 'read' },
  { re: /^(\S+)[ \t]*\nCreate new file\?[^\n]*:[ \t]*y(?:es)?[ \t]*$/gm, action: 'created' },
  { re: /\bFile created successfully at:?\s+(\S+)/g, action: 'created' },
  { re: /\bThe file\s+(\S+)\s+has been (?:updated|edited|modified)/g, action: 'edited' },
  { re: /\b(?:Created|Wrote to) file:?\s+(\S+)/g, action: 'created' },
];

/** aider: a file name line, a fence, then <<<<<<< SEARCH … ======= … >>>>>>> REPLACE. */
const SEARCH_REPLACE = /^([^\n`]*?)\n```[^\n]*\n<{5,9} SEARCH[^\n]*\n[\s\S]*?\n={5,9}\n([\s\S]*?)\n?>{5,9} REPLACE/gm;

/** Heredoc into a file: cat <<'EOF' > path … EOF. */
const HEREDOC =
  /<<-?\s*['"]?(\w+)['"]?[^\n]*?>\s*["']?([\w./~+-]+)[^\n]*\n([\s\S]*?)\n\s*\1\s*(?:\n|$)|>\s*["']?([\w./~+-]+)["']?\s*<<-?\s*['"]?(\w+)['"]?[^\n]*\n([\s\S]*?)\n\s*\5\s*(?:\n|$)/g;

function editCode(call: SpanToolCall): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(call.call.arguments);
  } catch {
    return undefined;
  }
  if (args === null || typeof args !== 'object') return undefined;
  const o = args as Record<string, unknown>;
  for (const k of CODE_KEYS) if (typeof o[k] === 'string' && (o[k] as string).trim()) return o[k] as string;
  // MultiEdit: edits[].new_string, the last one.
  if (Array.isArray(o.edits)) {
    const last = [...o.edits].reverse().find((e) => e && typeof e === 'object' && typeof (e as Record<string, unknown>).new_string === 'string');
    if (last) return (last as Record<string, string>).new_string;
  }
  return undefined;
}

function heredocs(command: string): Map<string, string> {
  const out = new Map<string, string>();
  HEREDOC.lastIndex = 0;
  for (let m = HEREDOC.exec(command); m !== null; m = HEREDOC.exec(command)) {
    const path = m[2] ?? m[4];
    const body = m[3] ?? m[6];
    if (path && body !== undefined) out.set(normalizeFilePath(path), body);
  }
  return out;
}

/** Extensions a bare name (no folder) must end in to be read as a file in tool output: output
 *  is full of dotted code (`django.db`, `self.db`, `logger.conf`) whose last part merely looks
 *  like an extension. */
const FILE_EXTENSION =
  /\.(?:py|pyi|ipynb|ts|tsx|js|jsx|mjs|cjs|json|jsonc|md|mdx|rst|txt|toml|ya?ml|ini|cfg|sh|bash|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|css|scss|less|html?|vue|svelte|sql|swift|lock|xml|csv|tsv|gradle|proto|tf)$/i;

/** A dotted name with no folder that is no known kind of file: a module or an attribute. */
function looksLikeModule(path: string): boolean {
  return !path.includes('/') && !path.startsWith('.') && !FILE_EXTENSION.test(path) && /^[\w-]+(?:\.[\w-]+)+$/.test(path);
}

function extensionOf(path: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(path);
  return m ? m[1]!.toLowerCase() : '';
}

/** A file one message acts on, and the code it writes there when it writes some (not blank;
 *  read again when needed, so the memo does not hold every file's contents). */
interface FileTouch {
  path: string;
  action: FileAction;
  code: (() => string) | undefined;
  /** The call that acts on it (for a call's files). */
  callId?: string;
}

/** What one message gives the section: the files its calls act on, the writes its tool output
 *  confirms, and aider's SEARCH/REPLACE edits in its text. */
interface FileReading {
  calls: FileTouch[];
  confirmed: FileTouch[];
  edits: FileTouch[];
}

const NO_FILES: FileReading = { calls: [], confirmed: [], edits: [] };

function codeOf(read: () => string | undefined): (() => string) | undefined {
  const code = read();
  return code !== undefined && code.trim() ? () => read()! : undefined;
}

function readFiles(sm: SpanMessage, calls: readonly SpanToolCall[]): FileReading {
  const out: FileReading = { calls: [], confirmed: [], edits: [] };
  for (const call of calls) {
    const edit = call.kind === 'edit' && !call.command;
    for (const f of call.files) {
      const path = normalizeFilePath(f.path);
      const writes = f.action === 'edited' || f.action === 'created';
      const read = () => (call.command ? heredocs(call.command).get(path) : undefined) ?? (writes && edit ? editCode(call) : undefined);
      out.calls.push({ path: f.path, action: f.action, code: codeOf(read), callId: call.call.id });
    }
  }
  if (sm.message.toolResult) {
    for (const { re, action } of WRITE_CONFIRMATIONS) {
      re.lastIndex = 0;
      for (let m = re.exec(sm.text); m !== null; m = re.exec(sm.text)) {
        for (const p of extractFilePaths(m[1]!.replace(/[.,:;]+$/, ''), 1)) out.confirmed.push({ path: p, action, code: undefined });
      }
    }
  } else if (sm.assistant && sm.text.includes('SEARCH')) {
    SEARCH_REPLACE.lastIndex = 0;
    for (let m = SEARCH_REPLACE.exec(sm.text); m !== null; m = SEARCH_REPLACE.exec(sm.text)) {
      const name = m[1]!.trim().replace(/^[#*`\s]+|[*`:\s]+$/g, '');
      const paths = extractFilePaths(name, 1);
      const code = m[2]!;
      if (paths.length > 0) out.edits.push({ path: paths[0]!, action: 'edited', code: code.trim() ? () => code : undefined });
    }
  }
  return out.calls.length + out.confirmed.length + out.edits.length === 0 ? NO_FILES : out;
}

export function buildFilesAndCode(ctx: BuilderContext): SectionItem[] {
  const { view, c } = ctx;
  const files = new Map<string, FileRecord>();
  const outputOnly = new Map<string, number>();
  const touch = (rawPath: string, action: Action, pos: number, id: string, code?: () => string) => {
    const path = normalizedPath(rawPath);
    if (!path || path.length > 300) return;
    let f = files.get(path);
    if (!f) {
      // Made with its first action and source (lists of one, no room to spare).
      f = { path, actions: [action], last: action, firstPos: pos, lastPos: pos, code: undefined, sourceIds: [id], sourceSet: undefined };
      files.set(path, f);
    }
    // A mention after an action does not replace the action as "last".
    if (ACTED.has(action) || !f.actions.some((a) => ACTED.has(a))) {
      f.last = action;
      f.lastPos = Math.max(f.lastPos, pos);
    }
    if (!f.actions.includes(action)) f.actions.push(action);
    if (code !== undefined) f.code = code;
    addSource(f, id);
  };

  // A call the person declined did nothing to its files (Errors and fixes names it).
  const rejected = new Set<string>();
  for (const call of view.calls) if (call.resultPos !== undefined && declined(ctx, view.messages[call.resultPos]!)) rejected.add(call.call.id);
  for (const sm of view.messages) {
    if (sm.summary) continue;
    const id = sm.message.id;
    const calls = view.callsAt.get(sm.pos) ?? [];
    const read = fromMessage(ctx, sm, 'files', (x) => readFiles(x, calls));
    for (const t of read.calls) if (t.callId === undefined || !rejected.has(t.callId)) touch(t.path, t.action, sm.pos, id, t.code);
    if (sm.message.toolResult) {
      for (const t of read.confirmed) touch(t.path, t.action, sm.pos, id);
      for (const p of sm.analysis?.refs.files ?? []) if (!files.has(p)) outputOnly.set(p, outputOnly.get(p) ?? sm.pos);
      continue;
    }
    for (const t of read.edits) touch(t.path, t.action, sm.pos, id, t.code);
    // A path the person wrote is one they pointed at; a path only the assistant wrote was
    // touched by nobody (it may be a guess, an example or a module name).
    if (sm.userAuthored) for (const p of sm.analysis?.refs.files ?? extractFilePaths(sm.text)) touch(p, 'mentioned by the user', sm.pos, id);
  }

  // A relative path and the absolute path that ends in it are one file: fold into the longer.
  const paths = [...files.keys()].sort((a, b) => b.length - a.length);
  /** Each path under every part of it after a slash: the paths that end in "/" + that part. */
  const endingIn = new Map<string, string[]>();
  for (const p of paths) {
    for (let k = p.indexOf('/'); k >= 0; k = p.indexOf('/', k + 1)) {
      const tail = p.slice(k + 1);
      const list = endingIn.get(tail);
      if (list) list.push(p);
      else endingIn.set(tail, [p]);
    }
  }
  for (const short of paths) {
    if (short.startsWith('/') || short.startsWith('~')) continue;
    const longer = endingIn.get(short) ?? [];
    if (longer.length !== 1) continue;
    const into = files.get(longer[0]!)!;
    const from = files.get(short)!;
    for (const a of from.actions) if (!into.actions.includes(a)) into.actions.push(a);
    if (from.lastPos >= into.lastPos && (ACTED.has(from.last) || !ACTED.has(into.last))) {
      into.last = from.last;
      into.lastPos = from.lastPos;
    }
    into.code = from.lastPos >= into.lastPos ? (from.code ?? into.code) : (into.code ?? from.code);
    into.firstPos = Math.min(into.firstPos, from.firstPos);
    for (const s of from.sourceIds) addSource(into, s);
    files.delete(short);
  }

  const items: SectionItem[] = [];
  for (const f of files.values()) {
    const acted = f.actions.some((a) => ACTED.has(a));
    const others = f.actions.filter((a) => a !== f.last && (ACTED.has(a) || !acted));
    const head = `${inlineCode(f.path)} — ${f.last}${others.length > 0 ? ` (also ${others.join(', ')})` : ''}`;
    const forms = [listItem(head)];
    if (f.code !== undefined) forms.push(listItem(`${head}\n${fence(foldCode(f.code(), c).text, extensionOf(f.path))}`));
    items.push({
      key: `file:${f.path}`,
      forms: distinctForms(forms),
      required: acted || f.actions.includes('mentioned by the user'),
      priority: PRIORITY[f.last] + 0.3 * recency(view, f.lastPos),
      order: GROUP[f.last] * 1_000_000 + f.firstPos,
      sourceIds: f.sourceIds,
    });
  }
  // A file keeps its latest state: an entry from this span replaces the earlier summary's.
  const merged = ctx.previous ? replaceByKey(previousItems(ctx.previous, { required: true, priority: 0.35, keyOf: keyByInlineCode('file') }), items) : items;
  const seenOnly = [...outputOnly.entries()].filter(([p]) => !files.has(p) && !looksLikeModule(p)).slice(0, c.FILES_MENTIONED_MAX);
  if (seenOnly.length > 0) {
    merged.push({
      key: 'files:output',
      forms: [listItem(`Also seen in tool output: ${seenOnly.map(([p]) => inlineCode(p)).join(', ')}`)],
      required: false,
      priority: 0.2,
      order: 9_000_000,
      sourceIds: [],
    });
  }
  return merged;
}
