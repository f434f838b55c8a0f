// Which format a transcript is in, and the one entry point that imports any of them.
//
// The file name decides when it is telling (*.aider.chat.history.md; *.jsonl is Claude Code unless
// its lines are chat messages or it holds one JSON document);
// otherwise the content does: aider's Markdown headers, JSONL whose first line starts a Codex
// rollout (session_meta) or a VS Code chat session log ({kind: 0, v}) or looks like Claude Code,
// or the keys of the parsed JSON. Plain [{role, content}] lists that carry nothing
// Anthropic-specific read as OpenAI (the two are the same there).

import type { ImportResult, SourceFormat } from '../model';
import { importAider, looksLikeAider } from './aider';
import { fromAnthropicValue } from './anthropic';
import { isClineConversation } from './cline';
import { fromClineCliValue, looksLikeClineCliSession } from './clineCli';
import { importClaudeCode, importClaudeCodeLines } from './claudeCode';
import { looksLikeClaudeCodeEntry } from './claudeCodeEntries';
import { importCodex, importCodexLines, looksLikeCodexRolloutLine } from './codex';
import { importCopilotChat, looksLikeChatSessionLog } from './copilotChat';
import { importGeminiCli, looksLikeGeminiSessionDocument, looksLikeGeminiSessionHeader } from './geminiCli';
import { importCopilotCli, importCopilotCliLines, looksLikeCopilotCliEvent } from './copilotCli';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stripBom, type JsonlResult } from './jsonText';
import { arr, isObject, str } from './jsonShape';
import { fromLongMemEvalValue, looksLikeLongMemEval } from './longMemEval';
import { fromMiniSweAgentValue, looksLikeMiniSweAgent } from './miniSweAgent';
import { fromOpenAIValue } from './openai';
import { fromOpenHandsValue, looksLikeOpenHands } from './openHands';
import { importQwenCode, looksLikeQwenRecord } from './qwenCode';
import { fromOpencodeValue, looksLikeOpencodeExport } from './opencode';
import { fromSweAgentValue, looksLikeSweAgent } from './sweAgent';
import { withReportedUsage } from './reportedUsage';
import { describeJsonValue, TranscriptError } from './transcriptError';
import { fromVsCodeChatValue, looksLikeVsCodeChat } from './vscodeChat';

const EXPECTED_ANY =
  'a transcript: JSON (OpenAI or Anthropic messages, Cline history or Cline CLI session, VS Code chat export, SWE-agent or mini-swe-agent trajectory, OpenHands events, LongMemEval, an opencode export), Claude Code JSONL, a Codex rollout, a Copilot CLI events.jsonl, a Gemini CLI or Qwen Code session, a VS Code chat session log, or aider Markdown';
/** The agents whose session logs are JSON lines, named when a JSONL file is none of them. */
const JSONL_AGENTS =
  'Claude Code (~/.claude/projects/…/<session>.jsonl), Codex (rollout-….jsonl), Copilot CLI (session-state/<id>/events.jsonl), Gemini CLI and Qwen Code sessions, VS Code chat session logs';
/** Lines of a JSONL file looked at for a Claude Code entry (its first lines may be bookkeeping). */
const CLAUDE_SNIFF_LINES = 50;

/** Detects the format without importing. Throws a TranscriptError when nothing fits. */
export function detectFormat(text: string, fileName?: string): SourceFormat {
  return sniff(stripBom(text), fileName).format;
}

export function importTranscript(text: string, opts: ImportOptions = {}): ImportResult {
  const clean = stripBom(text);
  const sniffed = opts.format ? { format: opts.format } : sniff(clean, opts.sourcePath);
  const result = importAs(sniffed.format, clean, sniffed.value, opts);
  return opts.usage && opts.usage.length > 0 ? withReportedUsage(result, opts.usage) : result;
}

/** The agent log a JSONL file is, by its first line (a complete object): a Codex rollout, a VS
 *  Code chat session log, a Gemini CLI or Qwen Code session, a Copilot CLI events file or a Claude
 *  Code session — in that order, as detection checks them. */
export function agentLogFormat(firstLine: unknown): 'codex' | 'copilot-chat' | 'gemini-cli' | 'qwen-code' | 'copilot-cli' | 'claude-code' | undefined {
  if (looksLikeCodexRolloutLine(firstLine)) return 'codex';
  if (looksLikeGeminiSessionHeader(firstLine)) return 'gemini-cli';
  if (looksLikeQwenRecord(firstLine)) return 'qwen-code';
  if (looksLikeChatSessionLog(firstLine)) return 'copilot-chat';
  if (looksLikeCopilotCliEvent(firstLine)) return 'copilot-cli';
  return looksLikeClaudeCodeEntry(firstLine) ? 'claude-code' : undefined;
}

/** A Claude Code session, a Codex rollout or a Copilot CLI events file from its lines, parsed as
 *  they were read (a file read as a stream): what importTranscript gives for the whole text. */
export function importSessionLines(format: 'claude-code' | 'codex' | 'copilot-cli', lines: JsonlResult, opts: ImportOptions = {}): ImportResult {
  if (format === 'copilot-cli') return importCopilotCliLines(lines, opts);
  return format === 'codex' ? importCodexLines(lines, opts) : importClaudeCodeLines(lines, opts);
}

interface Sniffed {
  format: SourceFormat;
  /** The parsed JSON when detection had to parse it (never parsed twice). */
  value?: unknown;
}

function sniff(text: string, fileName: string | undefined): Sniffed {
  const name = (fileName ?? '').toLowerCase();
  const file = fileName;
  if (text.trim() === '') throw new TranscriptError({ file, position: 'byte 0', expected: EXPECTED_ANY, found: 'an empty file' });
  if (name.endsWith('.aider.chat.history.md')) return { format: 'aider' };
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') {
    if (looksLikeAider(text)) return { format: 'aider' };
    const scalar = parsedScalar(text);
    if (scalar.ok) throw new TranscriptError({ file, position: 'top level', expected: EXPECTED_ANY, found: describeJsonValue(scalar.value) });
    throw new TranscriptError({
      file,
      position: 'line 1, column 1',
      expected: EXPECTED_ANY,
      found: `text starting ${JSON.stringify(text.trimStart().slice(0, 20))}`,
    });
  }
  const firstLine = firstLineValue(text);
  const agent = agentLogFormat(firstLine);
  if (agent !== undefined && agent !== 'claude-code') return { format: agent };
  if (isJsonl(text, firstLine)) return { format: 'claude-code' };
  const lines = firstLine !== undefined && secondLineIsObject(text);
  if (lines || name.endsWith('.jsonl')) {
    // JSONL of chat messages (one {role, content} per line) reads as a message list, and one JSON
    // document saved as .jsonl by its content; other JSON lines are Claude Code's only when one of
    // their first lines is a Claude Code entry (its first lines may be bookkeeping). Anything else
    // is refused, naming what it holds: read as Claude Code it would give no messages at all.
    const messages = messagesPerLine(text, file);
    if (messages) return { format: formatOfValue(messages, name, file), value: messages };
    if (!lines) {
      try {
        const value: unknown = JSON.parse(text);
        return { format: formatOfValue(value, name, file), value };
      } catch {
        // not one document: JSON lines, or broken
      }
    }
    const among = firstLinesKind(text);
    // No line is JSON at all: the Claude Code importer says so, with the line.
    if (among === 'claude-code' || (among === 'none' && name.endsWith('.jsonl'))) return { format: 'claude-code' };
    if (among === 'json') {
      throw new TranscriptError({
        file,
        position: 'line 1',
        expected: `a session log of a supported agent: ${JSONL_AGENTS}; or JSON lines of chat messages`,
        found: `JSON lines of an unknown kind (the first: ${describeFirstLine(firstLine)})`,
      });
    }
  }
  // A document on one line that is an object was parsed whole as the first line: not again.
  const value = firstLine !== undefined && !/\S\s*\n\s*\S/.test(text) ? firstLine : parseJsonDocument(text, file);
  return { format: formatOfValue(value, name, file), value };
}

/** Whether the second non-blank line starts a JSON object: JSON lines, not one document. */
function secondLineIsObject(text: string): boolean {
  const m = /^[^\n]*\n\s*(\S)/.exec(text.slice(text.search(/\S/)));
  return m?.[1] === '{';
}

/** What the first lines hold: a Claude Code entry, other JSON objects only, or no JSON object. */
function firstLinesKind(text: string): 'claude-code' | 'json' | 'none' {
  let json = false;
  for (const l of text.split('\n', CLAUDE_SNIFF_LINES + 1).slice(0, CLAUDE_SNIFF_LINES)) {
    const t = l.trim();
    if (!t.startsWith('{') || !t.endsWith('}')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (looksLikeClaudeCodeEntry(v)) return 'claude-code';
      json = true;
    } catch {
      // a line cut short or not JSON: the next one may tell
    }
  }
  return json ? 'json' : 'none';
}

/** What a JSONL file's first line is, for the refusal: its keys and, when it has one, its type. */
function describeFirstLine(v: unknown): string {
  if (v === undefined) return 'not one complete JSON object';
  const type = isObject(v) ? str(v, 'type') : undefined;
  return `${describeJsonValue(v)}${type !== undefined ? ` of type '${type.slice(0, 60)}'` : ''}`;
}

/** JSONL whose first line is a chat message ({role, content}, no 'type'): the lines as a list. */
function messagesPerLine(text: string, file: string | undefined): unknown[] | undefined {
  const lines = text.split('\n');
  let first: unknown;
  try {
    first = JSON.parse(lines.find((l) => l.trim() !== '') ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(first) || typeof first['role'] !== 'string' || 'type' in first) return undefined;
  const out: unknown[] = [];
  lines.forEach((l, i) => {
    if (l.trim() !== '') out.push(parseJsonDocument(l, file, i));
  });
  return out;
}

/** A JSON number, string, true/false/null: valid JSON, but not a transcript. */
function parsedScalar(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.length > 1_000_000) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function firstNonSpace(text: string): string {
  const m = /\S/.exec(text);
  return m ? m[0] : '';
}

/** The first non-blank line parsed, when it is a complete JSON object on its own. */
function firstLineValue(text: string): unknown {
  const start = text.search(/\S/);
  const nl = text.indexOf('\n', start);
  const line = (nl === -1 ? text.slice(start) : text.slice(start, nl)).trim();
  if (!line.startsWith('{') || !line.endsWith('}')) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** JSONL: the first line (`firstLine`: its value, firstLineValue) is a complete object that looks like a
 *  Claude Code entry, and more follow. */
function isJsonl(text: string, firstLine: unknown): boolean {
  const nl = text.indexOf('\n', text.search(/\S/));
  // One line: `firstLine` (firstLineValue) is the whole document when it is an object, and nothing
  // else is a Claude Code entry; a 20 MB message list is not parsed an extra time to learn that.
  if (nl === -1) return looksLikeClaudeCodeEntry(firstLine);
  const line = text.slice(0, nl).trim();
  if (!line.startsWith('{') || !line.endsWith('}')) return false;
  try {
    return looksLikeClaudeCodeEntry(JSON.parse(line));
  } catch {
    return false;
  }
}

export function formatOfValue(value: unknown, name: string, file?: string): SourceFormat {
  if (looksLikeGeminiSessionDocument(value)) return 'gemini-cli';
  if (looksLikeMiniSweAgent(value) || (name.endsWith('.traj.json') && isObject(value) && Array.isArray(value['messages']))) return 'mini-swe-agent';
  if (looksLikeSweAgent(value)) return 'swe-agent';
  if (looksLikeVsCodeChat(value)) return 'vscode-chat';
  if (looksLikeLongMemEval(value)) return 'longmemeval';
  if (looksLikeOpenHands(value)) return 'openhands';
  if (looksLikeClineCliSession(value)) return 'cline';
  if (looksLikeOpencodeExport(value)) return 'opencode';
  const list = Array.isArray(value) ? value : isObject(value) ? arr(value, 'messages') : undefined;
  if (list) {
    if (list.length > 0 && !list.some((m) => isObject(m) && typeof m['role'] === 'string')) {
      // Messages carry a role; a list where none does is not a conversation (reading it would give
      // only empty notes).
      throw new TranscriptError({
        file,
        position: Array.isArray(value) ? 'top level' : 'messages',
        expected: `${EXPECTED_ANY}; a message list needs objects with a 'role'`,
        found: rolelessList(list),
      });
    }
    if (isClineConversation(list)) return 'cline';
    return looksAnthropic(value, list) ? 'anthropic' : 'openai';
  }
  throw new TranscriptError({ file, position: 'top level', expected: EXPECTED_ANY, found: describeJsonValue(value) });
}

/** "an array of 10 objects, none with a 'role' (keys: a, b)" for the error above. */
function rolelessList(list: readonly unknown[]): string {
  const objects = list.filter(isObject);
  if (objects.length === 0) return `${describeJsonValue(list)} holding no objects (the first is ${describeJsonValue(list[0])})`;
  const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const shown = keys.length === 0 ? 'no keys' : `keys: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
  const what = objects.length === list.length ? `an array of ${list.length} objects` : `an array of ${list.length} (${objects.length} objects)`;
  return `${what}, none with a 'role' (${shown})`;
}

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);
const OPENAI_ROLES = new Set(['system', 'developer', 'tool', 'function']);

function looksAnthropic(value: unknown, list: unknown[]): boolean {
  if (isObject(value)) {
    if ('system' in value) return true;
    const tools = arr(value, 'tools');
    if (tools?.some((t) => isObject(t) && 'input_schema' in t)) return true;
    if (tools?.some((t) => isObject(t) && str(t, 'type') === 'function')) return false;
  }
  for (const m of list) {
    if (!isObject(m)) continue;
    const role = str(m, 'role');
    if (role && OPENAI_ROLES.has(role)) return false;
    if ('tool_calls' in m || 'tool_call_id' in m || 'function_call' in m) return false;
    const c = m['content'];
    if (Array.isArray(c)) {
      for (const b of c) {
        if (!isObject(b)) continue;
        const t = str(b, 'type');
        if (t && ANTHROPIC_BLOCKS.has(t)) return true;
        if (t === 'image' && isObject(b['source'])) return true;
        if (t === 'image_url' || t === 'input_audio') return false;
      }
    }
  }
  return false;
}

function importAs(format: SourceFormat, text: string, value: unknown, opts: ImportOptions): ImportResult {
  const parsed = () => (value !== undefined ? value : parseJsonDocument(text, opts.sourcePath));
  switch (format) {
    case 'aider':
      return importAider(text, opts);
    case 'claude-code':
      return importClaudeCode(text, opts);
    case 'codex':
      return importCodex(text, opts);
    case 'copilot-chat':
      return importCopilotChat(text, opts);
    case 'gemini-cli':
      return importGeminiCli(text, opts);
    case 'qwen-code':
      return importQwenCode(text, opts);
    case 'copilot-cli':
      return importCopilotCli(text, opts);
    case 'openai':
      return fromOpenAIValue(parsed(), opts);
    case 'anthropic':
      return fromAnthropicValue(parsed(), opts);
    case 'cline': {
      const v = parsed();
      return looksLikeClineCliSession(v) ? fromClineCliValue(v, opts) : fromAnthropicValue(v, opts);
    }
    case 'mini-swe-agent':
      return fromMiniSweAgentValue(parsed(), opts);
    case 'swe-agent':
      return fromSweAgentValue(parsed(), opts);
    case 'vscode-chat':
      return fromVsCodeChatValue(parsed(), opts);
    case 'openhands':
      return fromOpenHandsValue(parsed(), opts);
    case 'longmemeval':
      return fromLongMemEvalValue(parsed(), opts);
    case 'opencode':
      return fromOpencodeValue(parsed(), opts);
    default:
      throw new TranscriptError({ file: opts.sourcePath, position: 'top level', expected: `a format that can be imported (not '${format}')` });
  }
}
