// Building blocks the importers share: content parts, the tool-definitions header message and
// the tool-result message, so every format produces the same shapes.

import type { ContentPart, ConversationMeta, ImagePart, ItemType, Role, SourceFormat, SourceMeta, ToolDefinition } from '../model';
import { stringifySafely } from './jsonText';
import type { MessageDraft } from './toolPairing';

/** A text part, or none for empty text (an empty part bills nothing and exports as ""). */
export function textParts(text: string): ContentPart[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

export function imagePart(mediaType?: string, what = 'image'): ImagePart {
  return { type: 'image', placeholder: `[${what}${mediaType ? `: ${mediaType}` : ''}]`, ...(mediaType ? { mediaType } : {}) };
}

/** Tool definitions become one system-side header message. Its text is the JSON of the
 *  normalized definitions, so they are counted and look the same whatever the source format. */
export function toolDefinitionsDraft(defs: ToolDefinition[], source: SourceMeta): MessageDraft {
  return {
    role: 'system',
    itemType: 'TOOL_DEFINITIONS',
    content: textParts(stringifySafely(defs) ?? `[${defs.length} tool definitions]`),
    toolDefinitions: defs,
    source,
  };
}

export function toolResultDraft(
  toolCallId: string,
  content: ContentPart[],
  isError: boolean,
  source: SourceMeta,
  extra: { toolName?: string; timestamp?: string } = {},
): MessageDraft {
  return {
    role: 'tool',
    itemType: 'TOOL_RESULT',
    content,
    toolResult: { toolCallId, isError, ...(extra.toolName ? { toolName: extra.toolName } : {}) },
    ...(extra.timestamp ? { timestamp: extra.timestamp } : {}),
    source,
  };
}

export function plainDraft(role: Role, itemType: ItemType, content: ContentPart[], source: SourceMeta, timestamp?: string): MessageDraft {
  return { role, itemType, content, ...(timestamp ? { timestamp } : {}), source };
}

/** An assistant message that holds only thinking is a THINKING item. */
export function assistantItemType(content: ContentPart[], hasToolCalls: boolean): ItemType {
  if (!hasToolCalls && content.length > 0 && content.every((p) => p.type === 'thinking')) return 'THINKING';
  return 'ASSISTANT_MESSAGE';
}

/** Tool-call arguments as text: strings as given, anything else as JSON. */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '{}';
  return stringifySafely(v) ?? '"[arguments too deeply nested to keep]"';
}

export function sourceMeta(format: SourceFormat, fields: Omit<SourceMeta, 'format'>): SourceMeta {
  // Made empty and filled: an empty object has room for four fields in itself, where `{ format }`
  // has room for one and puts the next in a separate array (40 bytes more for every message).
  const out = {} as Record<string, unknown>;
  out['format'] = format;
  for (const k in fields) {
    const v = fields[k as keyof typeof fields];
    if (v !== undefined) out[k] = v;
  }
  return out as unknown as SourceMeta;
}

/** An agent session's own facts, each set when the source gives it (a later line overrides). */
export function setSessionFacts(
  meta: ConversationMeta,
  facts: { cwd?: string | undefined; sessionId?: string | undefined; agentVersion?: string | undefined },
): void {
  if (facts.cwd) meta.cwd = facts.cwd;
  if (facts.sessionId) meta.sessionId = facts.sessionId;
  if (facts.agentVersion) meta.agentVersion = facts.agentVersion;
}
