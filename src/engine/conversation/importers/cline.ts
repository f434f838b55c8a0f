// Cline / Roo Code specifics on top of the Anthropic shape (api_conversation_history.json).
//
// Cline calls tools with XML inside the assistant's text (`<read_file><path>a.ts</path></read_file>`)
// and answers in the next user turn with text blocks that start `[read_file for 'a.ts'] Result:`.
// Here the XML becomes real tool calls (ids `cline_<message>_<k>`, arguments the JSON of the
// parameters) and is taken out of the text so nothing is counted twice; each `Result:` segment
// becomes a TOOL_RESULT paired by name and order with those calls. "Tool [x] was not executed …"
// is the result of that call (an error).
//
// The user's own words are `<task>…</task>` (the first request), `<feedback>…</feedback>`,
// `<answer>…</answer>` (to ask_followup_question) and `<user_message>…</user_message>` (after a
// task resumption): each becomes a USER_MESSAGE holding just those words, after the results.
// `<environment_details>` is what the harness adds about the editor, not the user's words: it stays
// with the last tool result of the turn (it travelled with the results), or — in a turn without
// results — becomes a SKILL_METADATA note, like the other harness texts ("[TASK RESUMPTION] …",
// "[ERROR] You did not use a tool …").

import type { ContentPart, ImportWarning, SourceMeta, ToolCall } from '../model';
import { userBlocks } from './anthropicBlocks';
import { plainDraft, toolResultDraft } from './contentParts';
import { isObject, str } from './jsonShape';
import type { MessageDraft } from './toolPairing';
import { stringifySafely } from './jsonText';

/** Cline's and Roo Code's tool names, so XML calls are recognised even when no result names them. */
export const CLINE_TOOL_NAMES: readonly string[] = [
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'new_task',
  'plan_mode_respond',
  'act_mode_respond',
  'load_mcp_documentation',
  'switch_mode',
  'fetch_instructions',
  'codebase_search',
  'update_todo_list',
  'web_fetch',
  'condense',
  'summarize_task',
  'new_rule',
  'report_bug',
];

/** Parameters whose value is file content: their closing tag is the last one (content may hold it). */
const CONTENT_PARAMS = new Set(['content', 'diff']);

const RESULT_HEADER = /^\[([A-Za-z_][\w-]*)(?: for '([\s\S]*?)')?[^\]\n]*\] Result:/;
const NOT_EXECUTED = /^Tool \[([A-Za-z_][\w-]*)\] was not executed/;
const ENVIRONMENT = /^\s*<environment_details>/;
const HARNESS = /^\s*\[(?:TASK RESUMPTION|ERROR|Response interrupted)[^\]]*\]/;
const USER_WORDS = /<(task|feedback|answer|user_message)>\s*([\s\S]*?)\s*<\/\1>/g;
const CLINE_MARKER = /^\s*(?:<task>|<environment_details>|\[[A-Za-z_][\w-]*(?: for '[\s\S]*?')?[^\]\n]*\] Result:)/;

export function isClineConversation(list: readonly unknown[]): boolean {
  for (const m of list) {
    if (!isObject(m) || m['role'] !== 'user') continue;
    const c = m['content'];
    const texts = typeof c === 'string' ? [c] : Array.isArray(c) ? c.map((b) => (isObject(b) ? (str(b, 'text') ?? '') : '')) : [];
    if (texts.some((t) => CLINE_MARKER.test(t))) return true;
  }
  return false;
}

/** Tool names the next user turn's result headers mention. */
function resultNames(next: unknown): Set<string> {
  const names = new Set<string>();
  if (!isObject(next)) return names;
  const c = next['content'];
  const texts = typeof c === 'string' ? [c] : Array.isArray(c) ? c.map((b) => (isObject(b) ? (str(b, 'text') ?? '') : '')) : [];
  for (const t of texts) {
    const m = RESULT_HEADER.exec(t) ?? NOT_EXECUTED.exec(t);
    if (m) names.add(m[1]!);
  }
  return names;
}

/** The assistant draft with its XML tool calls made real (and removed from its text). */
export function withClineToolCalls(d: MessageDraft, messageIndex: number, nextRaw: unknown): MessageDraft {
  const names = new Set([...CLINE_TOOL_NAMES, ...resultNames(nextRaw)]);
  const calls: ToolCall[] = [];
  const content: ContentPart[] = [];
  for (const part of d.content) {
    if (part.type !== 'text') {
      content.push(part);
      continue;
    }
    const parsed = extractXmlCalls(part.text, names);
    for (const c of parsed.calls) {
      calls.push({ id: `cline_${messageIndex}_${calls.length}`, name: c.name, arguments: stringifySafely(c.params) ?? '{}' });
    }
    if (parsed.text !== '') content.push({ type: 'text', text: parsed.text });
  }
  if (calls.length === 0) return d;
  return { ...d, itemType: 'ASSISTANT_MESSAGE', content, toolCalls: calls };
}

export interface XmlCall {
  name: string;
  params: Record<string, string>;
}

/** Finds `<tool>…</tool>` calls of known tools; returns the text without them. Linear scans
 *  with indexOf only: no backtracking regex over file-sized parameter values. */
export function extractXmlCalls(text: string, names: ReadonlySet<string>): { text: string; calls: XmlCall[] } {
  const calls: XmlCall[] = [];
  let rest = '';
  let i = 0;
  const open = /<([a-z_][a-z0-9_]*)>/g;
  for (;;) {
    open.lastIndex = i;
    let m: RegExpExecArray | null;
    while ((m = open.exec(text)) && !names.has(m[1]!));
    if (!m) break;
    const name = m[1]!;
    const bodyStart = m.index + m[0].length;
    const close = text.indexOf(`</${name}>`, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    calls.push({ name, params: xmlParams(text.slice(bodyStart, bodyEnd)) });
    rest += text.slice(i, m.index);
    i = close === -1 ? text.length : close + name.length + 3;
  }
  rest += text.slice(i);
  return { text: calls.length > 0 ? rest.trim() : text, calls };
}

function xmlParams(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  const open = /<([a-z_][a-z0-9_]*)>/g;
  let i = 0;
  for (;;) {
    open.lastIndex = i;
    const m = open.exec(body);
    if (!m) break;
    const name = m[1]!;
    const start = m.index + m[0].length;
    const closeTag = `</${name}>`;
    const close = CONTENT_PARAMS.has(name) ? body.lastIndexOf(closeTag) : body.indexOf(closeTag, start);
    if (close < start) {
      params[name] = trimParam(name, body.slice(start));
      break;
    }
    params[name] = trimParam(name, body.slice(start, close));
    i = close + closeTag.length;
  }
  return params;
}

function trimParam(name: string, v: string): string {
  return CONTENT_PARAMS.has(name) ? v.replace(/^\r?\n/, '').replace(/\r?\n$/, '') : v.trim();
}

interface Segment {
  kind: 'result' | 'user' | 'harness';
  parts: ContentPart[];
  /** Result segments: the tool the header names, and whether it reports a failure. */
  tool?: string;
  isError?: boolean;
}

/** A Cline user turn → tool results (paired with the previous assistant's calls), then the user's
 *  own words, then harness notes. */
export function clineUserDrafts(blocks: unknown[], src: SourceMeta, previous: MessageDraft | undefined, warnings: ImportWarning[]): MessageDraft[] {
  const position = src.index !== undefined ? `messages[${src.index}].content` : 'content';
  const { results, parts } = userBlocks(blocks, position, warnings);
  const out: MessageDraft[] = results.map((r) => toolResultDraft(r.toolCallId, r.content, r.isError, { ...src, role: 'user' }));

  const segments: Segment[] = [];
  let current: Segment | undefined;
  let lastResult: Segment | undefined;
  for (const { part } of parts) {
    if (part.type !== 'text') {
      if (current) current.parts.push(part);
      else segments.push((current = { kind: 'user', parts: [part] }));
      continue;
    }
    const t = part.text;
    const header = RESULT_HEADER.exec(t) ?? NOT_EXECUTED.exec(t);
    if (header) {
      current = { kind: 'result', parts: [part], tool: header[1]!, isError: NOT_EXECUTED.test(t) };
      segments.push(current);
      lastResult = current;
    } else if (ENVIRONMENT.test(t)) {
      if (lastResult) lastResult.parts.push(part);
      else segments.push({ kind: 'harness', parts: [part] });
      current = undefined;
    } else if (HARNESS.test(t)) {
      segments.push({ kind: 'harness', parts: [part] });
      current = undefined;
    } else if (/<task>/.test(t)) {
      segments.push({ kind: 'user', parts: [part] });
      current = undefined;
    } else if (current) {
      current.parts.push(part);
    } else {
      segments.push((current = { kind: 'user', parts: [part] }));
    }
  }

  const userDrafts: MessageDraft[] = [];
  const harnessDrafts: MessageDraft[] = [];
  const calls = previous?.toolCalls ?? [];
  const paired = new Set<string>(results.map((r) => r.toolCallId));
  for (const seg of segments) {
    // The user's own words come out of whatever segment carries them.
    const words: string[] = [];
    const kept: ContentPart[] = [];
    for (const p of seg.parts) {
      if (p.type !== 'text' || !p.text.includes('<')) {
        kept.push(p);
        continue;
      }
      let stripped = p.text;
      for (const m of p.text.matchAll(USER_WORDS)) {
        if (m[2]!.trim() !== '') words.push(m[2]!);
        stripped = stripped.replace(m[0], '');
      }
      if (stripped.trim() !== '') kept.push(stripped === p.text ? p : { type: 'text', text: stripped.trim() });
    }
    for (const w of words) userDrafts.push(plainDraft('user', 'USER_MESSAGE', [{ type: 'text', text: w }], src));

    if (seg.kind === 'result') {
      const text = kept.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      const isError = seg.isError || /The tool execution failed|<error>/.test(text);
      let call = calls.find((c) => !paired.has(c.id) && c.name === seg.tool) ?? calls.find((c) => !paired.has(c.id));
      if (!call && previous) {
        // A result whose call the text did not show (an older tool syntax): give the call back to
        // the assistant turn it answers, so the pair stays valid.
        call = { id: `cline_${previous.source?.index ?? 'x'}_${calls.length}`, name: seg.tool!, arguments: '{}' };
        previous.toolCalls = [...(previous.toolCalls ?? []), call];
        previous.itemType = 'ASSISTANT_MESSAGE';
        calls.push(call);
      }
      const id = call?.id ?? '';
      paired.add(id);
      out.push(toolResultDraft(id, kept, isError, { ...src, role: 'user' }, { toolName: seg.tool! }));
    } else if (seg.kind === 'harness') {
      if (kept.length > 0) harnessDrafts.push(plainDraft('user', 'SKILL_METADATA', kept, src));
    } else if (kept.length > 0 && words.length === 0) {
      userDrafts.push(plainDraft('user', 'USER_MESSAGE', kept, src));
    } else if (kept.length > 0) {
      harnessDrafts.push(plainDraft('user', 'SKILL_METADATA', kept, src));
    }
  }
  return [...out, ...userDrafts, ...harnessDrafts];
}
