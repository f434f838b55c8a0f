// The compacted span as the section builders read it: each message with its analysis, and
// every tool call with its kind, command line, the files it names and the position of its
// result. Built once per extraction so the eight builders do not repeat the walk.

import type { MessageAnalysis } from '../analyze/analysis';
import { userWords } from '../analyze/injectedContext';
import { extractFilePaths, extractToolCallPaths, normalizeFilePath } from '../analyze/refs';
import {
  COMMAND_WRAPPER,
  commandParts,
  normalizeToolName,
  SHELL_TOOLS,
  shellCommandKind,
  shellCommandOf,
  toolCallKind,
  type ToolKind,
} from '../analyze/toolKinds';
import { memoSlot, orNone, type MemoEntry, type MessageMemo } from '../conversation/messageMemo';
import { isUserAuthored, messageText, thinkingText, type Message, type ToolCall } from '../conversation/model';
import { splitInlineReasoning } from '../text/reasoning';

export interface SpanMessage {
  /** Position in the span. */
  pos: number;
  message: Message;
  analysis: MessageAnalysis | undefined;
  /** Visible text (text parts; for an assistant, without the reasoning written inline). */
  text: string;
  /** Thinking text (thinking parts, and an assistant's inline reasoning: text/reasoning.ts). */
  thinking: string;
  userAuthored: boolean;
  /** An assistant message (not a tool result). */
  assistant: boolean;
  /** A previous compaction summary. */
  summary: boolean;
  /** What the memo keeps for the message, when the view was built with one. */
  memo?: MemoEntry;
}

/** What a tool call did to one file. */
export type FileAction = 'created' | 'edited' | 'deleted' | 'read' | 'searched' | 'ran' | 'used';

export interface SpanToolCall {
  /** Span position of the assistant message holding the call. */
  pos: number;
  call: ToolCall;
  name: string;
  kind: ToolKind;
  /** The shell command line, for shell-like tools. */
  command: string | undefined;
  /** Files the call names, each with what the call did to it. */
  files: { path: string; action: FileAction }[];
  /** Span position of its result, if the result is in the span. */
  resultPos: number | undefined;
}

export interface SpanView {
  messages: SpanMessage[];
  calls: SpanToolCall[];
  /** For a result's span position, the call it answers. */
  callOfResult: Map<number, SpanToolCall>;
  /** Calls in each assistant message, by span position. */
  callsAt: Map<number, SpanToolCall[]>;
}

/** Tools that write a whole file (created, or overwritten) rather than patch it. */
const CREATE_TOOLS: ReadonlySet<string> = new Set(['write', 'write_file', 'create_file', 'write_to_file', 'create', 'filewrite']);

function parseArgs(call: ToolCall): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(call.arguments) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const ACTION_OF_KIND: Record<ToolKind, FileAction> = { edit: 'edited', test: 'ran', run: 'ran', search: 'searched', read: 'read', other: 'used' };

/** Redirect targets of a shell command part ("> out.txt", ">> log", "tee f", PowerShell's
 *  "Out-File -FilePath f"). Not an arrow ("=>") nor a comparison inside quoted code: the part is
 *  searched with its quoted strings blanked (quotedBlanked). */
const REDIRECT =
  /(?:^|[^0-9&<>=-])(>>?)\s*["']?([\w./~+\\:-]+)(?![\w(])|\btee\s+(?:-a\s+)?["']?([\w./~+\\:-]+)|\b(?:Out-File|Set-Content|Add-Content)\s+(?:-(?:FilePath|Path|LiteralPath)\s+)?["']?([\w./~+\\:-]+)/gi;
/** Redirect targets that are devices, not files: Unix /dev/…, Windows NUL and CON, PowerShell $null. */
const DEVICE_TARGET = /^(?:\/dev\/|(?:nul|con|prn)$|\$null$)/i;

/** The text with each quoted string's characters replaced by spaces (same length, positions kept). */
function quotedBlanked(part: string): string {
  return part.replace(/'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g, (q) => ' '.repeat(q.length));
}

/** Commands that delete the files they name (Unix, git, Windows cmd and PowerShell). */
const DELETE_COMMAND = /^(?:sudo\s+)?(?:rm|unlink|git\s+rm|del|erase|Remove-Item|ri)\b/i;

/** Sub-commands of editor tools that carry a "command" argument which is not a shell line. */
const EDITOR_SUBCOMMANDS = /^(?:view|create|str_replace|insert|undo_edit|write|append)$/;

/** A quoted message option (git commit -m "…", --message '…'): prose, not files. */
const MESSAGE_OPTION = /(?:^|\s)(?:-m|--message)(?:\s+|=)(?:"(?:[^"\\]|\\.)*"|'[^']*')/g;

/** A shell word: a quoted string (kept with its quotes) or a run of other characters. */
const SHELL_WORD = /'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+(?:(?:'[^']*'|"(?:[^"\\]|\\.)*")[^\s'"]*)*/g;

/** Programs whose first operand is a pattern or a script, not a file (`grep "from django.conf
 *  import settings" base.py`, `sed -i '/import pytz/a from x import y' base.py`). */
const PATTERN_FIRST = /^(?:grep|egrep|fgrep|rg|ag|ack|sed|awk|gawk|mawk|jq)$/;
/** Options whose value is code or a pattern (`python -c "…"`, `grep -e PAT`, `sed -e SCRIPT`). */
const CODE_OPTION = /^(?:-c|-e|--regexp|--expression|--eval)$/;
/** Options of those programs that take a separate numeric or word value (`grep -A 3`). */
const VALUE_OPTION = /^-(?:[ABCmd]|-max-count|-context|-after-context|-before-context)$/;

/** A command part without the words that are code, patterns or prose rather than file names:
 *  the pattern or script of grep/sed/awk, the value of -c/-e, and quoted text with spaces. */
export function fileOperandText(part: string): string {
  const words = part.replace(COMMAND_WRAPPER, '').match(SHELL_WORD) ?? [];
  const program = (words[0] ?? '').replace(/^.*\//, '');
  const keep: string[] = [];
  let patternTaken = !PATTERN_FIRST.test(program);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (i > 0 && CODE_OPTION.test(w)) {
      i++; // its value is code or a pattern
      if (PATTERN_FIRST.test(program)) patternTaken = true;
      continue;
    }
    if (i > 0 && PATTERN_FIRST.test(program) && VALUE_OPTION.test(w)) {
      i++;
      continue;
    }
    if (i > 0 && !patternTaken && !w.startsWith('-')) {
      patternTaken = true; // the pattern / script
      continue;
    }
    if (/^['"]/.test(w) && /\s/.test(w)) continue; // quoted prose or code
    keep.push(w);
  }
  return keep.join(' ');
}

/** Interpreters whose first argument that is not an option is the file they run. */
const INTERPRETER =
  /^(?:python[\d.]*|node|nodejs|bash|sh|zsh|ruby|perl|php|deno(?:\s+run)?|bun(?:\s+run)?|tsx|ts-node|npx\s+(?:tsx|ts-node)|go\s+run|Rscript|lua|java)$/;

/** The file a run command executes: the program itself ("./build.sh") or the script an
 *  interpreter runs ("python -u repro.py"); undefined when it runs none of its file names. */
function executedFile(part: string): string | undefined {
  const words = part.replace(COMMAND_WRAPPER, '').split(/\s+/);
  let i = 0;
  for (let j = 2; j >= 1; j--) {
    if (words.length > j && INTERPRETER.test(words.slice(0, j).join(' '))) {
      i = j;
      while (i < words.length && words[i]!.startsWith('-')) i++;
      break;
    }
  }
  const word = words[i];
  return word ? extractFilePaths(word)[0] : undefined;
}

/** Per-file actions of a shell command line: each part (split at && || ; | newlines) is judged
 *  on its own, so `cat a.py && sed -i s/x/y/ b.py` reads a.py and edits b.py. A redirect target
 *  is created (>) or edited (>>, tee); the other files of the part get the part's kind judged
 *  without its redirects. Heredoc bodies are file contents, not commands. */
export function shellFileActions(command: string): { path: string; action: FileAction }[] {
  const out: { path: string; action: FileAction }[] = [];
  const seen = new Map<string, number>();
  const add = (path: string, action: FileAction) => {
    const at = seen.get(path);
    if (at === undefined) {
      seen.set(path, out.length);
      out.push({ path, action });
    } else if (ACTION_RANK[action] > ACTION_RANK[out[at]!.action]) out[at]!.action = action;
  };
  for (const raw of commandParts(command)) {
    const part = raw.trim();
    if (!part) continue;
    const targets = new Map<string, FileAction>();
    const bare = quotedBlanked(part);
    let rest = part;
    REDIRECT.lastIndex = 0;
    for (let m = REDIRECT.exec(bare); m !== null; m = REDIRECT.exec(bare)) {
      // The target as written (quotes blanked only to find it).
      const t = part.slice(m.index + m[0].length - (m[2] ?? m[3] ?? m[4])!.length, m.index + m[0].length);
      rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
      if (DEVICE_TARGET.test(t)) continue;
      // A redirect target is a file whatever its name ("base.py.tmp", "out.log.1").
      const named = extractFilePaths(t);
      for (const p of named.length > 0 ? named : [normalizeFilePath(t)])
        if (p) targets.set(p, m[1] === '>' || /^(?:Out-File|Set-Content)/i.test(m[0].trim()) ? 'created' : 'edited');
    }
    const kind = shellCommandKind(rest);
    const action = DELETE_COMMAND.test(rest) ? 'deleted' : ACTION_OF_KIND[kind];
    // A run command runs one file (the program, or the script an interpreter is given); the
    // other files it names are only used ("git add a.md" runs nothing called a.md).
    const runs = action === 'ran' && kind === 'run';
    const ran = runs ? executedFile(rest) : undefined;
    for (const p of extractFilePaths(fileOperandText(part.replace(MESSAGE_OPTION, ' ')))) add(p, targets.get(p) ?? (runs && p !== ran ? 'used' : action));
    for (const [p, a] of targets) if (!seen.has(p)) add(p, a);
  }
  return out;
}

const ACTION_RANK: Record<FileAction, number> = { deleted: 6, created: 5, edited: 4, ran: 3, read: 2, searched: 1, used: 0 };

function isShellCommand(name: string, command: string | undefined): command is string {
  if (command === undefined || !command.trim()) return false;
  return SHELL_TOOLS.has(name) || !EDITOR_SUBCOMMANDS.test(command.trim());
}

/** The patch a call carries in the apply_patch format (Codex, Copilot): its raw arguments, or
 *  the string argument (or shell word) that holds it. */
function patchOf(call: ToolCall): string | undefined {
  if (!call.arguments.includes('*** Begin Patch')) return undefined;
  let found: string | undefined;
  const visit = (v: unknown, depth: number): void => {
    if (found !== undefined || depth > 3) return;
    if (typeof v === 'string') {
      if (v.includes('*** Begin Patch')) found = v;
    } else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v as Record<string, unknown>)) visit(x, depth + 1);
  };
  try {
    visit(JSON.parse(call.arguments) as unknown, 0);
  } catch {
    return call.arguments;
  }
  return found;
}

const PATCH_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$/gm;

/** The files a patch in the apply_patch format acts on, by its headers: "*** Add File:" created,
 *  "*** Update File:" edited, "*** Delete File:" deleted, "*** Move to:" created. The paths the
 *  patched code mentions are not acted on. */
export function patchFileActions(patch: string): { path: string; action: FileAction }[] {
  const out = new Map<string, FileAction>();
  for (const m of patch.matchAll(PATCH_HEADER)) {
    const path = normalizeFilePath(m[2] ?? m[3]!);
    const action: FileAction = m[3] !== undefined || m[1] === 'Add' ? 'created' : m[1] === 'Delete' ? 'deleted' : 'edited';
    if (path) out.set(path, action);
  }
  return [...out].map(([path, action]) => ({ path, action }));
}

function callFiles(call: ToolCall, kind: ToolKind, command: string | undefined): { path: string; action: FileAction }[] {
  const name = normalizeToolName(call.name);
  const patch = patchOf(call);
  if (patch !== undefined) return patchFileActions(patch);
  // A shell line is read by its parts: a file named only inside a commit message or a heredoc
  // was not acted on, so an empty result stands.
  if (isShellCommand(name, command)) return shellFileActions(command);
  const args = parseArgs(call);
  let action = ACTION_OF_KIND[kind];
  if (kind === 'edit') {
    const sub = typeof args?.command === 'string' ? args.command : undefined;
    if (CREATE_TOOLS.has(name) || sub === 'create') action = 'created';
    else if (sub === 'view') action = 'read';
  }
  return extractToolCallPaths(call).map((path) => ({ path, action }));
}

/** What the view holds of one message that depends on the message alone (memoized). */
interface MessageFields {
  text: string;
  thinking: string;
  userAuthored: boolean;
  assistant: boolean;
  summary: boolean;
  calls: readonly Pick<SpanToolCall, 'call' | 'name' | 'kind' | 'command' | 'files'>[];
}

const FIELDS = memoSlot<MessageFields>('spanView.fields');

function fieldsOf(m: Message): MessageFields {
  const assistant = m.role === 'assistant' && m.toolResult === undefined;
  const userAuthored = isUserAuthored(m);
  // A person's message is read by their own words: what an agent injected is context.
  const text = userAuthored ? userWords(messageText(m)) : messageText(m);
  // Reasoning written inline in an assistant's text (<think>…</think>) is thinking, like a
  // thinking part: `text` is the answer the reader sees.
  const inline = assistant ? splitInlineReasoning(text) : undefined;
  const parts = thinkingText(m);
  const thinking = inline?.reasoning ? (parts ? `${parts}\n\n${inline.reasoning}` : inline.reasoning) : parts;
  return {
    text: inline ? inline.visible : text,
    thinking,
    userAuthored,
    assistant,
    summary: m.itemType === 'COMPACTION_SUMMARY',
    calls: orNone(
      (m.toolCalls ?? []).map((call) => {
        const kind = toolCallKind(call);
        const raw = shellCommandOf(call);
        const command = isShellCommand(normalizeToolName(call.name), raw) ? raw : undefined;
        return { call, name: call.name, kind, command, files: callFiles(call, kind, command) };
      }),
    ),
  };
}

/** The view of `span` (with `analyses` aligned to it). `memo` keeps what each message alone
 *  gives (its text, its calls and the files they name) for the next view of the same messages. */
export function buildSpanView(span: readonly Message[], analyses: readonly (MessageAnalysis | undefined)[], memo?: MessageMemo): SpanView {
  const entries = memo ? span.map((m) => memo.entry(m)) : undefined;
  const fields = span.map((m, pos) => (entries ? memo!.getIn(entries[pos]!, FIELDS, () => fieldsOf(m)) : fieldsOf(m)));
  const messages: SpanMessage[] = span.map((m, pos) => {
    const f = fields[pos]!;
    const sm: SpanMessage = {
      pos,
      message: m,
      analysis: analyses[pos],
      text: f.text,
      thinking: f.thinking,
      userAuthored: f.userAuthored,
      assistant: f.assistant,
      summary: f.summary,
    };
    if (entries) sm.memo = entries[pos]!;
    return sm;
  });
  const calls: SpanToolCall[] = [];
  const byId = new Map<string, SpanToolCall>();
  const callOfResult = new Map<number, SpanToolCall>();
  const callsAt = new Map<number, SpanToolCall[]>();
  for (const sm of messages) {
    const m = sm.message;
    const made = fields[sm.pos]!.calls;
    if (made.length > 0) {
      const here: SpanToolCall[] = [];
      for (const f of made) {
        const c: SpanToolCall = { pos: sm.pos, call: f.call, name: f.name, kind: f.kind, command: f.command, files: f.files, resultPos: undefined };
        calls.push(c);
        here.push(c);
        byId.set(f.call.id, c);
      }
      callsAt.set(sm.pos, here);
    }
    if (m.toolResult) {
      const c = byId.get(m.toolResult.toolCallId);
      if (c && c.resultPos === undefined) {
        c.resultPos = sm.pos;
        callOfResult.set(sm.pos, c);
      }
    }
  }
  return { messages, calls, callOfResult, callsAt };
}

/** The view of the first `n` messages of a view (positions unchanged): the span, when the view
 *  also holds the messages kept after it. */
export function viewPrefix(view: SpanView, n: number): SpanView {
  if (n >= view.messages.length) return view;
  const last = PREFIXES.get(view);
  if (last?.n === n) return last.prefix;
  const prefix = cutView(view, n);
  PREFIXES.set(view, { n, prefix });
  return prefix;
}

/** The last prefix cut from each view: a plan cuts the span from its timeline for the span's
 *  content and again for its sections (views are never changed, so the cut holds). */
const PREFIXES = new WeakMap<SpanView, { n: number; prefix: SpanView }>();

function cutView(view: SpanView, n: number): SpanView {
  const byCall = new Map<SpanToolCall, SpanToolCall>();
  for (const c of view.calls) if (c.pos < n) byCall.set(c, c.resultPos !== undefined && c.resultPos >= n ? { ...c, resultPos: undefined } : c);
  const calls = [...byCall.values()];
  const callOfResult = new Map<number, SpanToolCall>();
  view.callOfResult.forEach((c, pos) => {
    if (pos < n && byCall.has(c)) callOfResult.set(pos, byCall.get(c)!);
  });
  const callsAt = new Map<number, SpanToolCall[]>();
  // A position's list is shared when none of its calls changed (most: only calls answered
  // after the cut do); lists are never changed once made.
  const same = (c: SpanToolCall) => byCall.get(c) === c;
  view.callsAt.forEach((cs, pos) => {
    if (pos < n) callsAt.set(pos, cs.every(same) ? cs : cs.map((c) => byCall.get(c)!));
  });
  return { messages: view.messages.slice(0, n), calls, callOfResult, callsAt };
}

/** A short description of a call for the summary: its command line, or name(main argument), or
 *  the name and the files it acts on (a patch). */
export function describeCall(c: SpanToolCall): string {
  if (c.command !== undefined && c.command.trim()) return c.command.trim();
  const args = parseArgs(c.call);
  if (args) {
    for (const k of ['file_path', 'path', 'pattern', 'query', 'url', 'command', 'description', 'prompt']) {
      const v = args[k];
      if (typeof v === 'string' && v.trim()) return `${c.name} ${v.trim()}`;
    }
  }
  return c.files.length > 0 ? `${c.name} ${c.files.map((f) => f.path).join(', ')}` : c.name;
}
