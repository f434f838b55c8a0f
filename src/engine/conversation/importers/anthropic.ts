// Anthropic Messages: a bare array, or a request body {system?, messages, tools?, model?}. Cline and
// Roo Code's api_conversation_history.json is the same shape; when Cline's markers are present the
// user turns are read by cline.ts instead (format 'cline').
//
// Assistant blocks text/thinking/redacted_thinking/tool_use/image → one message (THINKING when it
// holds only thinking). In a user turn every tool_result block becomes its own TOOL_RESULT message
// (role 'tool', source.role 'user'), placed first as the API requires; the remaining text and
// images stay one USER_MESSAGE — unless the text is harness boilerplate such as Claude Code's
// "[Request interrupted by user]", which becomes a SKILL_METADATA note (not user-authored).
// An assistant message that carries the API's `usage` (a saved response: `messages.push(response)`)
// records what its request cost: the last one is meta.reportedUsage (see reportedUsage.ts).

import type { ContentPart, ConversationMeta, ImportResult, ImportWarning, ItemType, ToolDefinition } from '../model';
import { assistantBlocks, contentBlocks, userBlocks } from './anthropicBlocks';
import { clineUserDrafts, isClineConversation, withClineToolCalls } from './cline';
import { assistantItemType, plainDraft, sourceMeta, toolDefinitionsDraft, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stripBom } from './jsonText';
import { arr, isObject, str } from './jsonShape';
import { messagesOf, toolDefinition } from './openai';
import { looksLikeCompactionSummary } from './summaryRecognition';
import { messageUsage, withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue } from './transcriptError';
import type { SourceFormat, SourceMeta } from '../model';

/** Text Claude Code / the API client writes into a user turn that no person typed. */
const HARNESS_TEXT = /^\[Request interrupted by user[^\]]*\]\s*$/;

export function importAnthropic(text: string, opts: ImportOptions = {}): ImportResult {
  return fromAnthropicValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

export function fromAnthropicValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const { list, body } = messagesOf(value, opts.sourcePath, 'Anthropic messages');
  const format: SourceFormat = isClineConversation(list) ? 'cline' : 'anthropic';
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
  const drafts: MessageDraft[] = [];

  if (body) {
    const model = str(body, 'model');
    if (model) meta.model = model;
    const system = systemContent(body['system'], warnings);
    if (system.length > 0) drafts.push(plainDraft('system', 'SYSTEM_PROMPT', system, sourceMeta(format, { extra: { system: true } })));
    const defs = anthropicToolDefinitions(arr(body, 'tools') ?? [], warnings);
    if (defs.length > 0) drafts.push(toolDefinitionsDraft(defs, sourceMeta(format, { extra: { tools: true } })));
  }

  let previousAssistant: MessageDraft | undefined;
  const usage: UsageRecord[] = [];
  list.forEach((raw, index) => {
    const position = `messages[${index}]`;
    if (!isObject(raw)) {
      warnings.push({ position, message: `expected an object with 'role' and 'content', found ${describeJsonValue(raw)}; skipped` });
      return;
    }
    const role = str(raw, 'role');
    const timestamp = str(raw, 'ts') ?? undefined;
    const blocks = contentBlocks(raw['content'], `${position}.content`, warnings);
    const src = sourceMeta(format, { index });
    if (role === 'assistant') {
      const { content, calls } = assistantBlocks(blocks, `${position}.content`, warnings);
      let d: MessageDraft = { role: 'assistant', itemType: assistantItemType(content, calls.length > 0), content, source: src };
      if (calls.length > 0) d.toolCalls = calls;
      if (format === 'cline' && calls.length === 0) d = withClineToolCalls(d, index, list[index + 1]);
      drafts.push(d);
      previousAssistant = d;
      const record = messageUsage(raw, index);
      if (record) usage.push(record);
    } else if (role === 'user') {
      if (format === 'cline') {
        drafts.push(...clineUserDrafts(blocks, src, previousAssistant, warnings));
      } else {
        drafts.push(...anthropicUserDrafts(blocks, src, `${position}.content`, warnings, timestamp));
      }
      previousAssistant = undefined;
    } else if (role === 'system') {
      const content = systemContent(raw['content'], warnings);
      drafts.push(plainDraft('system', 'SYSTEM_PROMPT', content, src));
    } else {
      warnings.push({
        position: `${position}.role`,
        message: `expected 'user' or 'assistant', found ${role === undefined ? 'no role' : `'${role}'`}; kept as a note`,
      });
      drafts.push(plainDraft('user', 'SKILL_METADATA', systemContent(raw['content'], warnings), { ...src, ...(role ? { role } : {}) }));
    }
  });
  if (list.length === 0) warnings.push({ position: 'top level', message: 'the transcript holds no messages' });
  return withReportedUsage(finishImport(drafts, { format, meta, warnings }), usage);
}

/** A user turn: its tool results first (one message each), then the user's own text and images,
 *  with harness boilerplate split off as SKILL_METADATA. */
export function anthropicUserDrafts(
  blocks: unknown[],
  src: SourceMeta,
  position: string,
  warnings: ImportWarning[],
  timestamp?: string,
  classify: (text: string) => ItemType = classifyAnthropicUserText,
): MessageDraft[] {
  const { results, parts } = userBlocks(blocks, position, warnings);
  const out: MessageDraft[] = results.map((r) => toolResultDraft(r.toolCallId, r.content, r.isError, { ...src, role: 'user' }, timestamp ? { timestamp } : {}));
  let group: { itemType: ItemType; content: ContentPart[] } | undefined;
  const flush = () => {
    if (group && group.content.length > 0) out.push(plainDraft('user', group.itemType, group.content, src, timestamp));
    group = undefined;
  };
  for (const { part } of parts) {
    // Images belong with the text around them; only text decides what a group is.
    const itemType = part.type === 'text' ? classify(part.text) : (group?.itemType ?? 'USER_MESSAGE');
    if (!group || group.itemType !== itemType) {
      flush();
      group = { itemType, content: [] };
    }
    group.content.push(part);
  }
  flush();
  return out;
}

export function classifyAnthropicUserText(text: string): ItemType {
  if (HARNESS_TEXT.test(text)) return 'SKILL_METADATA';
  if (looksLikeCompactionSummary(text)) return 'COMPACTION_SUMMARY';
  return 'USER_MESSAGE';
}

/** The system prompt: a string or text blocks. */
function systemContent(v: unknown, warnings: ImportWarning[]): ContentPart[] {
  const blocks = contentBlocks(v, 'system', warnings);
  const out: ContentPart[] = [];
  for (const b of blocks) {
    if (isObject(b) && typeof b['text'] === 'string' && b['text'] !== '') out.push({ type: 'text', text: b['text'] });
  }
  return out;
}

function anthropicToolDefinitions(tools: unknown[], warnings: ImportWarning[]): ToolDefinition[] {
  const defs: ToolDefinition[] = [];
  tools.forEach((t, k) => {
    if (!isObject(t) || !str(t, 'name')) {
      warnings.push({ position: `tools[${k}]`, message: `expected {name, description?, input_schema}, found ${describeJsonValue(t)}; skipped` });
      return;
    }
    defs.push(toolDefinition(str(t, 'name')!, str(t, 'description'), t['input_schema']));
  });
  return defs;
}
