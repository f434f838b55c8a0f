// Anthropic content blocks → the conversation model. Shared by the Anthropic/Cline importer and
// the Claude Code importer (its lines carry Anthropic messages).

import type { ContentPart, ImportWarning, ToolCall } from '../model';
import { argumentsText, imagePart, textParts } from './contentParts';
import { isObject, obj, str } from './jsonShape';
import { describeJsonValue } from './transcriptError';

/** A message's content as a list of blocks: a string is one text block. */
export function contentBlocks(v: unknown, position: string, warnings: ImportWarning[]): unknown[] {
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', text: v }];
  if (Array.isArray(v)) return v;
  if (v !== undefined && v !== null)
    warnings.push({ position, message: `expected a string or an array of content blocks, found ${describeJsonValue(v)}; ignored` });
  return [];
}

export interface AssistantBlocks {
  content: ContentPart[];
  calls: ToolCall[];
}

export function assistantBlocks(blocks: unknown[], position: string, warnings: ImportWarning[]): AssistantBlocks {
  const content: ContentPart[] = [];
  const calls: ToolCall[] = [];
  blocks.forEach((b, k) => {
    const at = `${position}[${k}]`;
    if (!isObject(b)) {
      warnings.push({ position: at, message: `expected a content block, found ${describeJsonValue(b)}; ignored` });
      return;
    }
    switch (str(b, 'type')) {
      case 'text':
        content.push(...textParts(str(b, 'text') ?? ''));
        return;
      case 'thinking': {
        const sig = str(b, 'signature');
        content.push({ type: 'thinking', text: str(b, 'thinking') ?? '', ...(sig ? { signature: sig } : {}) });
        return;
      }
      case 'redacted_thinking':
        // Only opaque data: kept in `signature` so the block can be sent back as it was.
        content.push({ type: 'thinking', text: '', redacted: true, signature: str(b, 'data') ?? '' });
        return;
      case 'tool_use': {
        const name = str(b, 'name');
        if (!name) {
          warnings.push({ position: at, message: 'tool_use block without a name; ignored' });
          return;
        }
        calls.push({ id: str(b, 'id') ?? `toolu_${position}_${k}`, name, arguments: argumentsText(b['input'] ?? {}) });
        return;
      }
      case 'image':
        content.push(imageOf(b));
        return;
      default:
        content.push(unknownBlock(b, at, warnings));
    }
  });
  return { content, calls };
}

export interface ToolResultBlock {
  toolCallId: string;
  content: ContentPart[];
  isError: boolean;
  /** Index of the block in the message. */
  index: number;
}

export interface UserBlocks {
  results: ToolResultBlock[];
  /** Everything else, in order: text and image parts with their block index. */
  parts: { part: ContentPart; index: number }[];
}

export function userBlocks(blocks: unknown[], position: string, warnings: ImportWarning[]): UserBlocks {
  const out: UserBlocks = { results: [], parts: [] };
  blocks.forEach((b, k) => {
    const at = `${position}[${k}]`;
    if (!isObject(b)) {
      if (typeof b === 'string') out.parts.push(...textParts(b).map((part) => ({ part, index: k })));
      else warnings.push({ position: at, message: `expected a content block, found ${describeJsonValue(b)}; ignored` });
      return;
    }
    switch (str(b, 'type')) {
      case 'tool_result':
        out.results.push({
          toolCallId: str(b, 'tool_use_id') ?? '',
          content: toolResultContent(b['content'], `${at}.content`, warnings),
          isError: b['is_error'] === true,
          index: k,
        });
        return;
      case 'text':
        out.parts.push(...textParts(str(b, 'text') ?? '').map((part) => ({ part, index: k })));
        return;
      case 'image':
        out.parts.push({ part: imageOf(b), index: k });
        return;
      default:
        out.parts.push({ part: unknownBlock(b, at, warnings), index: k });
    }
  });
  return out;
}

/** A tool_result's content: a string or text/image blocks (one level; nothing deeper is walked). */
export function toolResultContent(v: unknown, position: string, warnings: ImportWarning[]): ContentPart[] {
  if (typeof v === 'string') return textParts(v);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    warnings.push({ position, message: `expected a string or an array of blocks, found ${describeJsonValue(v)}; ignored` });
    return [];
  }
  const out: ContentPart[] = [];
  v.forEach((b, k) => {
    if (typeof b === 'string') out.push(...textParts(b));
    else if (isObject(b) && str(b, 'type') === 'text') out.push(...textParts(str(b, 'text') ?? ''));
    else if (isObject(b) && str(b, 'type') === 'image') out.push(imageOf(b));
    else if (isObject(b)) out.push(unknownBlock(b, `${position}[${k}]`, warnings));
    else warnings.push({ position: `${position}[${k}]`, message: `expected a content block, found ${describeJsonValue(b)}; ignored` });
  });
  return out;
}

function imageOf(b: Record<string, unknown>): ContentPart {
  const source = obj(b, 'source');
  return imagePart(source ? str(source, 'media_type') : undefined);
}

/** Blocks we do not model (documents, server tool blocks, search results, …): their text when they
 *  have one, else a placeholder naming the type; binary payloads are never carried. */
function unknownBlock(b: Record<string, unknown>, at: string, warnings: ImportWarning[]): ContentPart {
  const type = str(b, 'type') ?? '(no type)';
  warnings.push({ position: at, message: `content block of type '${type}' is not modelled; kept as text` });
  const text = str(b, 'text');
  if (text !== undefined) return { type: 'text', text };
  const source = obj(b, 'source');
  if (source && str(source, 'type') === 'text' && str(source, 'data') !== undefined) return { type: 'text', text: str(source, 'data')! };
  return { type: 'text', text: `[${type} block]` };
}
