// OpenAI Chat Completions messages: a bare array, or a request body {messages, tools?, model?}.
//
// system/developer → SYSTEM_PROMPT; user → USER_MESSAGE; assistant → ASSISTANT_MESSAGE (tool_calls
// kept, `reasoning_content`/`reasoning` as a thinking part, THINKING when that is all there is);
// tool → TOOL_RESULT. Legacy `function_call` / role 'function' pairs are read as tool calls with
// synthesized ids. `tools` (or legacy `functions`) become one TOOL_DEFINITIONS message after the
// leading system messages. A user or system message shaped like our own 8-section summary is a
// COMPACTION_SUMMARY again. Messages that are not objects, or have an unknown role, are warned
// about; unknown roles are kept as SKILL_METADATA notes (never as something the user wrote).
// An assistant message that carries `usage` (or LangChain's `usage_metadata`) records what its
// request cost: the last one is meta.reportedUsage (see reportedUsage.ts).

import type { ContentPart, ConversationMeta, ImportResult, ImportWarning, ToolCall, ToolDefinition } from '../model';
import { argumentsText, assistantItemType, imagePart, plainDraft, sourceMeta, textParts, toolDefinitionsDraft, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stripBom } from './jsonText';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import { looksLikeCompactionSummary } from './summaryRecognition';
import { messageUsage, withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

const ROLE_ALIASES: Record<string, 'system' | 'user' | 'assistant' | 'tool'> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  model: 'assistant',
  ai: 'assistant',
  tool: 'tool',
};

export function importOpenAI(text: string, opts: ImportOptions = {}): ImportResult {
  return fromOpenAIValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

/** The messages array of a bare list or a request body, or a TranscriptError naming the shape. */
export function messagesOf(value: unknown, file: string | undefined, what: string): { list: unknown[]; body?: JsonObject } {
  if (Array.isArray(value)) return { list: value };
  if (isObject(value)) {
    const list = arr(value, 'messages');
    if (list) return { list, body: value };
  }
  throw new TranscriptError({
    file,
    position: 'top level',
    expected: `${what}: an array of messages or an object with a 'messages' array`,
    found: describeJsonValue(value),
  });
}

export function fromOpenAIValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const { list, body } = messagesOf(value, opts.sourcePath, 'OpenAI chat messages');
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
  const model = body ? str(body, 'model') : undefined;
  if (model) meta.model = model;

  const drafts: MessageDraft[] = [];
  /** Legacy function_call ids waiting for their role 'function' answer, by function name. */
  const legacyPending = new Map<string, string[]>();
  const usage: UsageRecord[] = [];

  list.forEach((raw, index) => {
    const src = sourceMeta('openai', { index });
    if (!isObject(raw)) {
      warnings.push({ position: `messages[${index}]`, message: `expected an object with a 'role', found ${describeJsonValue(raw)}; skipped` });
      return;
    }
    const roleText = str(raw, 'role');
    const name = str(raw, 'name');
    const role = roleText === 'function' ? 'function' : roleText ? ROLE_ALIASES[roleText.toLowerCase()] : undefined;
    if (roleText && ROLE_ALIASES[roleText.toLowerCase()] && roleText !== role) src.role = roleText;
    const content = openAIContent(raw['content'], `messages[${index}].content`, warnings);
    const named = <T extends MessageDraft>(d: T): T => (name && d.role !== 'tool' ? { ...d, name } : d);

    if (role === 'system' || role === 'user') {
      const text = content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      const itemType = looksLikeCompactionSummary(text) ? 'COMPACTION_SUMMARY' : role === 'system' ? 'SYSTEM_PROMPT' : 'USER_MESSAGE';
      drafts.push(named(plainDraft(role, itemType, content, src)));
    } else if (role === 'assistant') {
      const reasoning = str(raw, 'reasoning_content') ?? str(raw, 'reasoning');
      const parts: ContentPart[] = reasoning ? [{ type: 'thinking', text: reasoning }, ...content] : content;
      const calls: ToolCall[] = [];
      const toolCalls = arr(raw, 'tool_calls') ?? [];
      toolCalls.forEach((c, k) => {
        const fn = isObject(c) ? obj(c, 'function') : undefined;
        const callName = fn ? str(fn, 'name') : undefined;
        if (!isObject(c) || !fn || !callName) {
          warnings.push({
            position: `messages[${index}].tool_calls[${k}]`,
            message: `expected {id, type: 'function', function: {name, arguments}}, found ${describeJsonValue(c)}; skipped`,
          });
          return;
        }
        calls.push({ id: str(c, 'id') ?? `call_${index}_${k}`, name: callName, arguments: argumentsText(fn['arguments']) });
      });
      const legacy = obj(raw, 'function_call');
      if (legacy && str(legacy, 'name')) {
        const id = `call_${index}_legacy`;
        calls.push({ id, name: str(legacy, 'name')!, arguments: argumentsText(legacy['arguments']) });
        const q = legacyPending.get(str(legacy, 'name')!) ?? [];
        q.push(id);
        legacyPending.set(str(legacy, 'name')!, q);
      }
      const d: MessageDraft = { role: 'assistant', itemType: assistantItemType(parts, calls.length > 0), content: parts, source: src };
      if (calls.length > 0) d.toolCalls = calls;
      const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      if (calls.length === 0 && looksLikeCompactionSummary(text)) d.itemType = 'COMPACTION_SUMMARY';
      drafts.push(named(d));
      const record = messageUsage(raw, index);
      if (record) usage.push(record);
    } else if (role === 'tool') {
      const id = str(raw, 'tool_call_id') ?? '';
      if (!id) warnings.push({ position: `messages[${index}]`, message: "tool message without 'tool_call_id'" });
      drafts.push(toolResultDraft(id, content, false, src, name ? { toolName: name } : {}));
    } else if (role === 'function') {
      const fnName = name ?? '';
      const id = legacyPending.get(fnName)?.shift() ?? `call_${index}_unmatched`;
      drafts.push(toolResultDraft(id, content, false, { ...src, role: 'function' }, fnName ? { toolName: fnName } : {}));
    } else {
      warnings.push({ position: `messages[${index}].role`, message: `unknown role ${roleText === undefined ? '(missing)' : `'${roleText}'`}; kept as a note` });
      drafts.push(plainDraft('user', 'SKILL_METADATA', content, { ...src, ...(roleText ? { role: roleText } : {}) }));
    }
  });

  const defs = body ? openAIToolDefinitions(body, warnings) : [];
  if (defs.length > 0) {
    let at = 0;
    while (at < drafts.length && drafts[at]!.itemType === 'SYSTEM_PROMPT') at++;
    drafts.splice(at, 0, toolDefinitionsDraft(defs, sourceMeta('openai', { extra: { tools: true } })));
  }
  if (list.length === 0) warnings.push({ position: 'top level', message: 'the transcript holds no messages' });
  return withReportedUsage(finishImport(drafts, { format: 'openai', meta, warnings }), usage);
}

/** OpenAI content: a string, null, or an array of parts (text, image_url, input_audio, file, refusal). */
export function openAIContent(v: unknown, position: string, warnings: ImportWarning[]): ContentPart[] {
  if (typeof v === 'string') return textParts(v);
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) {
    warnings.push({ position, message: `expected a string or an array of parts, found ${describeJsonValue(v)}; ignored` });
    return [];
  }
  const out: ContentPart[] = [];
  v.forEach((p, k) => {
    if (typeof p === 'string') {
      out.push(...textParts(p));
      return;
    }
    if (!isObject(p)) {
      warnings.push({ position: `${position}[${k}]`, message: `expected a content part, found ${describeJsonValue(p)}; ignored` });
      return;
    }
    const type = str(p, 'type');
    if (type === 'text' || type === 'input_text' || type === 'output_text') out.push(...textParts(str(p, 'text') ?? ''));
    else if (type === 'refusal') out.push(...textParts(str(p, 'refusal') ?? ''));
    else if (type === 'image_url' || type === 'input_image') {
      const url = str(p, 'image_url') ?? (obj(p, 'image_url') ? str(obj(p, 'image_url')!, 'url') : undefined);
      const media = url?.startsWith('data:') ? url.slice(5, url.indexOf(';') > 0 ? url.indexOf(';') : 5) : undefined;
      out.push(imagePart(media || undefined));
    } else {
      warnings.push({ position: `${position}[${k}]`, message: `content part of type '${type ?? '(none)'}' is not carried; kept as a placeholder` });
      out.push({ type: 'text', text: `[${type ?? 'unknown'} part]` });
    }
  });
  return out;
}

function openAIToolDefinitions(body: JsonObject, warnings: ImportWarning[]): ToolDefinition[] {
  const defs: ToolDefinition[] = [];
  (arr(body, 'tools') ?? []).forEach((t, k) => {
    const fn = isObject(t) ? (obj(t, 'function') ?? t) : undefined;
    const name = fn ? str(fn, 'name') : undefined;
    if (!fn || !name) {
      const type = isObject(t) ? str(t, 'type') : undefined;
      if (type) defs.push({ name: type });
      else warnings.push({ position: `tools[${k}]`, message: `expected {type: 'function', function: {name, …}}, found ${describeJsonValue(t)}; skipped` });
      return;
    }
    defs.push(toolDefinition(name, str(fn, 'description'), fn['parameters']));
  });
  (arr(body, 'functions') ?? []).forEach((f) => {
    if (isObject(f) && str(f, 'name')) defs.push(toolDefinition(str(f, 'name')!, str(f, 'description'), f['parameters']));
  });
  return defs;
}

export function toolDefinition(name: string, description: string | undefined, parameters: unknown): ToolDefinition {
  const d: ToolDefinition = { name };
  if (description !== undefined) d.description = description;
  if (parameters !== undefined) d.parameters = parameters;
  return d;
}
