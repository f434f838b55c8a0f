// Gemini API content (`{role, parts: [Part]}`), as Gemini CLI and its fork Qwen Code store it:
// a Part is `{text}` (with `thought: true` for thinking), `{functionCall: {id?, name, args}}`,
// `{functionResponse: {id?, name, response}}`, or media (`inlineData`, `fileData`). Both importers
// turn their records into message drafts here, so a tool call and its result read the same whichever
// agent wrote them.

import type { ContentPart, SourceMeta, ToolCall } from '../model';
import { RESENT_EXTRA } from '../exporters/sessionParts';
import { argumentsText, assistantItemType, imagePart, plainDraft, textParts, toolResultDraft } from './contentParts';
import { stringifySafely } from './jsonText';
import { isObject, obj, str, type JsonObject } from './jsonShape';
import type { MessageDraft } from './toolPairing';

/** A Part list as text, the way Gemini CLI's `partListUnionToString` shows it (tool parts named in
 *  brackets): what it tests for the prefixes of user turns it does not resume. */
export function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return isObject(parts) ? partsText([parts]) : '';
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (!isObject(p)) continue;
    else if (isObject(p['functionCall'])) out += `[Function Call: ${str(p['functionCall'], 'name') ?? ''}]`;
    else if (isObject(p['functionResponse'])) out += `[Function Response: ${str(p['functionResponse'], 'name') ?? ''}]`;
    else if (typeof p['text'] === 'string') out += p['text'];
  }
  return out;
}

/** A Part list as given: a string is one text part, an object one part. */
export function partList(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) return content;
  return isObject(content) ? [content] : [];
}

function mediaPart(p: JsonObject): ContentPart | undefined {
  const inline = obj(p, 'inlineData');
  if (inline) return imagePart(str(inline, 'mimeType'), (str(inline, 'mimeType') ?? '').startsWith('image/') ? 'image' : 'media');
  const file = obj(p, 'fileData');
  if (file) return { type: 'text', text: `[file: ${str(file, 'fileUri') ?? str(file, 'mimeType') ?? 'attached'}]` };
  return undefined;
}

/** A functionResponse's `response` as the text the model reads: its `output` (or `content`) when
 *  that is text, else the whole object as JSON. An `error` field makes it an error. */
function responseParts(response: unknown): { parts: ContentPart[]; isError: boolean } {
  if (typeof response === 'string') return { parts: textParts(response), isError: false };
  if (!isObject(response)) return { parts: [], isError: false };
  const isError = response['error'] !== undefined && response['error'] !== null;
  for (const key of ['output', 'content', 'result']) {
    const v = response[key];
    if (typeof v === 'string' && Object.keys(response).length === 1) return { parts: textParts(v), isError };
  }
  return { parts: textParts(stringifySafely(response) ?? ''), isError };
}

/**
 * Tool call ids of one conversation: a call without an id gets one made from where it is, and a
 * result whose id no open call has answers the oldest open call of its tool. A second result for a call
 * already answered (Gemini CLI sends a tool turn's results twice after a resume: once from the
 * call's record, once from their own) is no tool result, counted in `repeats`: the model has the
 * result already, and a copy would double the turn for the compaction (userTurnDrafts reads a copy
 * that is sent as the harness's words).
 */
export class CallIds {
  private readonly open: { id: string; name: string }[] = [];
  private readonly answered = new Set<string>();
  repeats = 0;

  call(id: string | undefined, name: string, fallback: string): string {
    const given = id && id !== '' ? id : fallback;
    this.open.push({ id: given, name });
    return given;
  }

  /** The call a result answers; undefined for a repeat. */
  result(id: string | undefined, name: string | undefined): string | undefined {
    let found = id ? this.open.findIndex((c) => c.id === id) : -1;
    if (found === -1 && id && this.answered.has(id)) {
      this.repeats++;
      return undefined;
    }
    // A call stored without its id (a compression's history) is answered by its tool's name.
    if (found === -1) found = this.open.findIndex((c) => c.name === name);
    // A result of no call seen: toolPairing makes it a note, with a warning.
    if (found === -1) return id ?? `unknown_${name ?? 'tool'}`;
    const call = this.open[found]!;
    this.open.splice(found, 1);
    this.answered.add(call.id);
    return call.id;
  }
}

export interface ModelTurn {
  content: ContentPart[];
  calls: ToolCall[];
}

/** A model turn's parts: text, thinking (`thought: true`), tool calls. */
export function modelTurn(parts: readonly unknown[], ids: CallIds, where: string): ModelTurn {
  const content: ContentPart[] = [];
  const calls: ToolCall[] = [];
  parts.forEach((p, k) => {
    if (!isObject(p)) return;
    const call = obj(p, 'functionCall');
    if (call) {
      const name = str(call, 'name') ?? 'function';
      calls.push({ id: ids.call(str(call, 'id'), name, `${where}_${k}`), name, arguments: argumentsText(call['args'] ?? {}) });
      return;
    }
    if (typeof p['text'] === 'string') {
      if (p['thought'] === true) content.push({ type: 'thinking', text: p['text'] });
      else content.push(...textParts(p['text']));
      return;
    }
    const media = mediaPart(p);
    if (media) content.push(media);
  });
  return { content, calls };
}

/** An assistant draft of a model turn (none when it holds nothing). */
export function assistantDraft(turn: ModelTurn, source: SourceMeta, timestamp: string | undefined): MessageDraft | undefined {
  if (turn.content.length === 0 && turn.calls.length === 0) return undefined;
  return {
    role: 'assistant',
    itemType: assistantItemType(turn.content, turn.calls.length > 0),
    content: turn.content,
    ...(turn.calls.length > 0 ? { toolCalls: turn.calls } : {}),
    ...(timestamp ? { timestamp } : {}),
    source,
  };
}

/** A user turn's parts as drafts: each functionResponse a tool result (a repeated one left out), the
 *  rest one user message of `itemType`, in the order they came. */
export function userTurnDrafts(
  parts: readonly unknown[],
  ids: CallIds,
  itemType: MessageDraft['itemType'],
  source: SourceMeta,
  timestamp: string | undefined,
  /** A result answering a call already answered is sent again (Gemini CLI: a tool turn in the
   *  history a resume loaded); else it is a record of the same result, read once. */
  repeatsSent = false,
): MessageDraft[] {
  const drafts: MessageDraft[] = [];
  let text: ContentPart[] = [];
  const flush = () => {
    if (text.length > 0) drafts.push(plainDraft('user', itemType, text, source, timestamp));
    text = [];
  };
  for (const p of parts) {
    if (!isObject(p)) continue;
    const response = obj(p, 'functionResponse');
    if (response) {
      flush();
      const name = str(response, 'name');
      const { parts: out, isError } = responseParts(response['response']);
      const callId = ids.result(str(response, 'id'), name);
      if (callId !== undefined)
        drafts.push(toolResultDraft(callId, out, isError, source, { ...(name ? { toolName: name } : {}), ...(timestamp ? { timestamp } : {}) }));
      // A result the CLI sends a second time is counted as sent, as the harness's (not a result of
      // the conversation): a session written back leaves it out (exporters/sessionParts.ts).
      else if (repeatsSent && out.length > 0)
        drafts.push(plainDraft('user', 'SKILL_METADATA', out, { ...source, extra: { ...source.extra, [RESENT_EXTRA]: 'tool_result' } }, timestamp));
      continue;
    }
    if (typeof p['text'] === 'string') text.push(...textParts(p['text']));
    else {
      const media = mediaPart(p);
      if (media) text.push(media);
    }
  }
  flush();
  return drafts;
}
