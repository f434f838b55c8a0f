// A Claude Code compaction as its session file records it, read for the hook that repairs it:
// the last compact boundary, the summary Claude Code wrote after it, the messages it kept
// verbatim, and the conversation it summarized.
//
// What Claude Code 2.1.328 writes (verified with the real CLI, ../shared/AGENTS.md): a
// `{"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":L,…}` line,
// its `compactMetadata` ({trigger, preTokens, preservedMessages: {allUuids}}), then a user line
// with `isCompactSummary: true` whose parent is the boundary. The messages in
// preservedMessages are sent verbatim after the summary ("the summary was written without seeing
// them"). What was summarized is the chain that ended at L: walked back along parentUuid and, at
// an earlier boundary, on through its logicalParentUuid, so an earlier era's facts count too.
// Lines on abandoned branches (rewinds) and sub-agent lines are not on that chain.

import { importClaudeCode } from '../../engine/conversation/importers/claudeCode';
import { isObject, obj, str, type JsonObject } from '../../engine/conversation/importers/jsonShape';
import { parseJsonl, stripBom, type JsonlLine } from '../../engine/conversation/importers/jsonText';
import { messageText, type Message } from '../../engine/conversation/model';

export interface CompactionRecord {
  /** The boundary line's uuid. */
  boundary: string;
  /** Its 1-based line number in the file. */
  line: number;
  trigger?: string;
  /** Claude Code's own count of the tokens before it. */
  preTokens?: number;
  /** The summary as sent: the isCompactSummary line's text. */
  summary: string;
  /** What the agent carries on with: the summary and the messages kept verbatim. */
  contextText: string;
  /** The conversation the summary stands for (the kept messages left out), in order. */
  summarized: Message[];
  /** The model the session used, when it names one. */
  model?: string;
}

export type CompactionRead = { ok: true; compaction: CompactionRecord } | { ok: false; reason: string };

function isBoundary(v: unknown): v is JsonObject {
  return isObject(v) && v['type'] === 'system' && v['subtype'] === 'compact_boundary';
}

/** The text of a user line's content, string or blocks. */
function contentText(v: JsonObject): string {
  const message = obj(v, 'message');
  const content = message?.['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) && typeof b['text'] === 'string' ? b['text'] : '')).join('\n');
}

/** Everything a message carries that a reader can see: text and tool call arguments. */
function visibleText(m: Message): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`);
  return [messageText(m), ...calls].filter(Boolean).join('\n');
}

function linesText(lines: readonly JsonlLine[], raw: readonly string[]): string {
  return lines.map((l) => raw[l.line - 1]).join('\n');
}

/** The messages of some of the file's lines, as the importer reads them (in the order given). */
function messagesOf(lines: readonly JsonlLine[], raw: readonly string[], sourcePath: string | undefined): { messages: Message[]; model?: string } {
  if (lines.length === 0) return { messages: [] };
  const result = importClaudeCode(linesText(lines, raw), { wholeFile: true, ...(sourcePath ? { sourcePath } : {}) });
  return { messages: result.conversation.messages, ...(result.conversation.meta.model ? { model: result.conversation.meta.model } : {}) };
}

/**
 * The file's last compaction, if it comes after line `afterLine` (0: any). Never throws for a
 * file it cannot use: the reason comes back instead.
 */
export function readLastCompaction(text: string, opts: { afterLine?: number; sourcePath?: string } = {}): CompactionRead {
  const clean = stripBom(text);
  const raw = clean.split('\n');
  const { lines } = parseJsonl(clean);
  let boundaryAt = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isBoundary(lines[i]!.value)) {
      boundaryAt = i;
      break;
    }
  }
  if (boundaryAt < 0) return { ok: false, reason: 'the transcript holds no compact boundary' };
  const boundaryLine = lines[boundaryAt]!;
  const boundary = boundaryLine.value as JsonObject;
  if (boundaryLine.line <= (opts.afterLine ?? 0))
    return { ok: false, reason: `the last compact boundary (line ${boundaryLine.line}) is not newer than line ${opts.afterLine}` };
  const uuid = str(boundary, 'uuid');
  if (!uuid) return { ok: false, reason: `the compact boundary on line ${boundaryLine.line} has no uuid` };

  const summaryLine = lines.slice(boundaryAt + 1).find((l) => isObject(l.value) && l.value['isCompactSummary'] === true && l.value['parentUuid'] === uuid);
  if (!summaryLine) return { ok: false, reason: `no summary line (isCompactSummary) follows the compact boundary on line ${boundaryLine.line}` };
  const summary = contentText(summaryLine.value as JsonObject);

  const byUuid = new Map<string, JsonlLine>();
  for (const l of lines) {
    const id = isObject(l.value) ? str(l.value, 'uuid') : undefined;
    if (id !== undefined && !byUuid.has(id)) byUuid.set(id, l);
  }
  const meta = obj(boundary, 'compactMetadata');
  const preservedMeta = meta ? obj(meta, 'preservedMessages') : undefined;
  const preservedIds = preservedMeta?.['allUuids'] ?? preservedMeta?.['uuids'];
  const kept = new Set(Array.isArray(preservedIds) ? preservedIds.filter((x): x is string => typeof x === 'string') : []);

  // The summarized chain: back from the boundary's logical parent, through earlier boundaries.
  const chain: JsonlLine[] = [];
  const visited = new Set<JsonlLine>();
  let next = str(boundary, 'logicalParentUuid');
  while (next !== undefined) {
    const at = byUuid.get(next);
    if (!at || visited.has(at) || !isObject(at.value)) break;
    visited.add(at);
    const v = at.value;
    if (isBoundary(v)) {
      next = str(v, 'logicalParentUuid');
      continue;
    }
    if (v['isSidechain'] !== true) chain.push(at);
    const parent = v['parentUuid'];
    next = typeof parent === 'string' ? parent : undefined;
  }
  chain.reverse();

  const summarizedLines = chain.filter((l) => !kept.has(str(l.value as JsonObject, 'uuid') ?? ''));
  const keptLines = chain.filter((l) => kept.has(str(l.value as JsonObject, 'uuid') ?? ''));
  const summarized = messagesOf(summarizedLines, raw, opts.sourcePath);
  const keptMessages = messagesOf(keptLines, raw, opts.sourcePath).messages;
  const trigger = meta ? str(meta, 'trigger') : undefined;
  const preTokens = meta?.['preTokens'];
  return {
    ok: true,
    compaction: {
      boundary: uuid,
      line: boundaryLine.line,
      ...(trigger ? { trigger } : {}),
      ...(typeof preTokens === 'number' ? { preTokens } : {}),
      summary,
      contextText: [summary, ...keptMessages.map(visibleText)].join('\n\n'),
      summarized: summarized.messages,
      ...(summarized.model ? { model: summarized.model } : {}),
    },
  };
}
