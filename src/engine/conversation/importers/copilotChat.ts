// VS Code's own chat sessions on disk (Copilot Chat and every other participant), read-only:
// `workspaceStorage/<hash>/chatSessions/<id>.json` (older: the serialized session, `requests[]`)
// and `<id>.jsonl`, an append-only mutation log of that same object. Each log line is one entry:
//   {kind: 0, v}            the whole state (the first line; a later one starts over)
//   {kind: 1, k: path, v}   set the value at path (a list of property names and array indices)
//   {kind: 2, k: path, v?, i?}  at the array at path: cut it to length i when i is given, then
//                            append the items of v
//   {kind: 3, k: path}      delete the value at path
// The replayed state is read like a chat export (vscodeChat.ts), as format 'copilot-chat'.
// A line that is not JSON, or whose path leads nowhere, is a warning and is skipped (a session
// being written may end in a partial line); a log with no kind-0 entry is a TranscriptError.

import type { ImportResult, ImportWarning } from '../model';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, parseJsonl, stripBom } from './jsonText';
import { arr, isObject, num, str } from './jsonShape';
import { describeJsonValue, TranscriptError } from './transcriptError';
import { fromVsCodeChatValue } from './vscodeChat';
import { MAX_LINE_WARNINGS } from './claudeCodeEntries';

const ENTRY_INITIAL = 0;
const ENTRY_SET = 1;
const ENTRY_PUSH = 2;
const ENTRY_DELETE = 3;
/** Property names a path may never walk through: writing them would change an object's prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a parsed first line is the start of a chat session log. */
export function looksLikeChatSessionLog(v: unknown): boolean {
  return isObject(v) && v['kind'] === ENTRY_INITIAL && isObject(v['v']);
}

export function importCopilotChat(text: string, opts: ImportOptions = {}): ImportResult {
  const clean = stripBom(text);
  const first = clean.trimStart()[0];
  if (first === '{' && !isLogEntry(firstLineValue(clean))) {
    // The older chatSessions/<id>.json: the serialized session itself.
    return fromVsCodeChatValue(parseJsonDocument(clean, opts.sourcePath), opts, 'copilot-chat');
  }
  const warnings: ImportWarning[] = [];
  const state = replayChatSessionLog(clean, opts.sourcePath, warnings);
  const result = fromVsCodeChatValue(state, opts, 'copilot-chat');
  const title = isObject(state) ? str(state, 'customTitle') : undefined;
  if (title) result.conversation.meta.title = title;
  return { ...result, warnings: [...warnings, ...result.warnings] };
}

/** Any entry of the log (the first should be kind 0; replaying says so when it is not). */
function isLogEntry(v: unknown): boolean {
  return isObject(v) && typeof v['kind'] === 'number' && ('v' in v || 'k' in v);
}

function firstLineValue(text: string): unknown {
  const nl = text.indexOf('\n');
  try {
    return JSON.parse(nl === -1 ? text : text.slice(0, nl));
  } catch {
    return undefined;
  }
}

/** The object a chat session log describes, entry by entry. */
export function replayChatSessionLog(text: string, file: string | undefined, warnings: ImportWarning[]): unknown {
  const { lines, bad } = parseJsonl(text);
  bad.slice(0, MAX_LINE_WARNINGS).forEach((b) => warnings.push({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); entry skipped` }));
  let state: unknown;
  let skipped = 0;
  const skip = (line: number, message: string) => {
    if (skipped++ < MAX_LINE_WARNINGS) warnings.push({ position: `line ${line}`, message: `${message}; entry skipped` });
  };
  for (const { line, value } of lines) {
    if (!isObject(value)) {
      skip(line, `expected a log entry {kind, k, v}, found ${describeJsonValue(value)}`);
      continue;
    }
    const kind = num(value, 'kind');
    if (kind === ENTRY_INITIAL) {
      state = value['v'];
      continue;
    }
    if (state === undefined) {
      throw new TranscriptError({
        file,
        position: `line ${line}`,
        expected: 'a chat session log that starts with its whole state ({"kind":0,"v":…})',
        found: `an entry of kind ${describeJsonValue(value['kind'])} first`,
      });
    }
    const path = arr(value, 'k');
    if (!path || !path.every((p) => typeof p === 'number' || (typeof p === 'string' && !UNSAFE_KEYS.has(p)))) {
      skip(line, `expected a path 'k' of property names and indices, found ${describeJsonValue(value['k'])}`);
      continue;
    }
    const keys = path as (string | number)[];
    if (kind === ENTRY_SET || kind === ENTRY_DELETE) {
      if (keys.length === 0) {
        if (kind === ENTRY_SET) state = value['v'];
        continue;
      }
      const parent = walk(state, keys.slice(0, -1));
      if (!parent) {
        skip(line, `the path ${pathText(keys)} leads nowhere in the session`);
        continue;
      }
      const last = keys[keys.length - 1]!;
      if (kind === ENTRY_SET) (parent as Record<string | number, unknown>)[last] = value['v'];
      else delete (parent as Record<string | number, unknown>)[last];
    } else if (kind === ENTRY_PUSH) {
      const parent = keys.length === 0 ? undefined : walk(state, keys.slice(0, -1));
      const last = keys[keys.length - 1];
      const holder = parent as Record<string | number, unknown> | undefined;
      const target = holder && last !== undefined ? holder[last] : undefined;
      if (!holder || last === undefined || (target !== undefined && !Array.isArray(target))) {
        skip(line, `the path ${pathText(keys)} is not an array in the session`);
        continue;
      }
      const list = (target as unknown[] | undefined) ?? [];
      const cut = num(value, 'i');
      if (cut !== undefined && cut >= 0) list.length = Math.min(list.length, cut);
      const items = arr(value, 'v');
      if (items) list.push(...items);
      holder[last] = list;
    } else {
      skip(line, `unknown log entry kind ${describeJsonValue(value['kind'])}`);
    }
  }
  if (skipped > MAX_LINE_WARNINGS) warnings.push({ position: 'file', message: `${skipped - MAX_LINE_WARNINGS} more entries skipped` });
  if (state === undefined) {
    throw new TranscriptError({
      file,
      position: 'line 1',
      expected: 'a chat session log that starts with its whole state ({"kind":0,"v":…})',
      found: lines.length === 0 ? 'no entries' : 'no kind-0 entry',
    });
  }
  return state;
}

/** The object or array at path, or undefined when the path does not lead to one. */
function walk(root: unknown, keys: readonly (string | number)[]): object | undefined {
  let at: unknown = root;
  for (const k of keys) {
    if (typeof at !== 'object' || at === null || !Object.prototype.hasOwnProperty.call(at, k)) return undefined;
    at = (at as Record<string | number, unknown>)[k];
  }
  return typeof at === 'object' && at !== null ? at : undefined;
}

function pathText(keys: readonly (string | number)[]): string {
  return keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(root)';
}
