// VS Code chat exports ("Chat: Export Chat…"): {requests[{message{text}, response[parts],
// variableData, result{metadata}, modelId?, timestamp?}]}.
//
// Each request is the user's message (USER_MESSAGE; attached context such as #file variables is
// named in source.extra.attachments, its content is not in the export) and the reply. When
// result.metadata.toolCallRounds is present (agent mode), it is the real sequence the model
// produced: one assistant message per round with its tool calls, then each call's result from
// result.metadata.toolCallResults (a call without a recorded result gets the synthetic one).
// Otherwise the reply is the response parts: Markdown `value`s joined, inline references as
// `name`, thinking parts as thinking; UI-only parts (tool invocation notices, edit groups, code
// block URIs, progress) carry no model text and are left out.

import type { ContentPart, ConversationMeta, ImportResult, ImportWarning, ToolCall } from '../model';
import { argumentsText, assistantItemType, plainDraft, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stripBom } from './jsonText';
import { arr, isObject, num, obj, str, type JsonObject } from './jsonShape';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

export function importVsCodeChat(text: string, opts: ImportOptions = {}): ImportResult {
  return fromVsCodeChatValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

export function looksLikeVsCodeChat(v: unknown): boolean {
  return isObject(v) && Array.isArray(v['requests']);
}

/** `format`: 'copilot-chat' when the value was replayed from VS Code's chat session log. */
export function fromVsCodeChatValue(value: unknown, opts: ImportOptions = {}, format: 'vscode-chat' | 'copilot-chat' = 'vscode-chat'): ImportResult {
  const file = opts.sourcePath;
  const requests = isObject(value) ? arr(value, 'requests') : undefined;
  if (!requests) {
    throw new TranscriptError({
      file,
      position: 'top level',
      expected: "a VS Code chat export: an object with a 'requests' array",
      found: describeJsonValue(value),
    });
  }
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const drafts: MessageDraft[] = [];

  requests.forEach((req, index) => {
    const position = `requests[${index}]`;
    if (!isObject(req)) {
      warnings.push({ position, message: `expected a request object, found ${describeJsonValue(req)}; skipped` });
      return;
    }
    const modelId = str(req, 'modelId');
    if (modelId) meta.model ??= modelId;
    const ts = num(req, 'timestamp');
    const timestamp = ts !== undefined && Math.abs(ts) < 8.64e15 ? new Date(ts).toISOString() : undefined;
    const requestId = str(req, 'requestId');
    const message = obj(req, 'message');
    const userText = message ? (str(message, 'text') ?? '') : '';
    const attachments = variableNames(req);
    const userSrc = sourceMeta(format, { index, sourceId: requestId, ...(attachments ? { extra: { attachments } } : {}) });
    if (!message) warnings.push({ position: `${position}.message`, message: 'request without a message; kept empty' });
    drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(userText), userSrc, timestamp));

    const replySrc = sourceMeta(format, { index, ...(requestId ? { sourceId: `${requestId}/response` } : {}) });
    const metadata = obj(obj(req, 'result') ?? {}, 'metadata');
    const rounds = metadata ? arr(metadata, 'toolCallRounds') : undefined;
    if (rounds && rounds.length > 0) {
      const results = obj(metadata!, 'toolCallResults') ?? {};
      rounds.forEach((round, r) => {
        if (!isObject(round)) return;
        const content = textParts(str(round, 'response') ?? '');
        const calls: ToolCall[] = [];
        (arr(round, 'toolCalls') ?? []).forEach((c, k) => {
          if (!isObject(c) || !str(c, 'name')) return;
          calls.push({ id: str(c, 'id') ?? `vscode_${index}_${r}_${k}`, name: str(c, 'name')!, arguments: argumentsText(c['arguments']) });
        });
        const d: MessageDraft = {
          role: 'assistant',
          itemType: assistantItemType(content, calls.length > 0),
          content,
          ...(timestamp ? { timestamp } : {}),
          source: { ...replySrc, ...(replySrc.sourceId ? { sourceId: `${replySrc.sourceId}/${r}` } : {}) },
        };
        if (calls.length > 0) d.toolCalls = calls;
        drafts.push(d);
        for (const c of calls) {
          const res = results[c.id];
          if (res === undefined) continue;
          drafts.push(toolResultDraft(c.id, toolResultParts(res), false, sourceMeta(format, { index }), { toolName: c.name }));
        }
      });
    } else {
      const content = responseParts(arr(req, 'response') ?? []);
      drafts.push({ role: 'assistant', itemType: assistantItemType(content, false), content, ...(timestamp ? { timestamp } : {}), source: replySrc });
    }
  });
  if (requests.length === 0) warnings.push({ position: 'requests', message: 'the export holds no requests' });
  return finishImport(drafts, { format, meta, warnings });
}

function variableNames(req: JsonObject): string | undefined {
  const vars = arr(obj(req, 'variableData') ?? {}, 'variables') ?? [];
  const names = vars.map((v) => (isObject(v) ? (str(v, 'name') ?? str(v, 'id')) : undefined)).filter((n): n is string => !!n);
  return names.length > 0 ? names.join(', ') : undefined;
}

/** The reply as the user saw it: Markdown values joined, references by name, thinking kept apart. */
function responseParts(parts: unknown[]): ContentPart[] {
  let text = '';
  const thinking: string[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    const kind = str(p, 'kind');
    const value = p['value'];
    if (kind === 'thinking') {
      const t = typeof value === 'string' ? value : Array.isArray(value) ? value.filter((x) => typeof x === 'string').join('') : '';
      if (t) thinking.push(t);
    } else if ((kind === undefined || kind === 'markdownContent') && (typeof value === 'string' || isObject(value))) {
      text += typeof value === 'string' ? value : (str(value as JsonObject, 'value') ?? '');
    } else if (kind === 'inlineReference') {
      const ref = obj(p, 'inlineReference');
      const name =
        str(p, 'name') ?? (ref ? (str(ref, 'name') ?? baseName(str(ref, 'path') ?? str(ref, 'fsPath') ?? str(obj(ref, 'uri') ?? {}, 'path') ?? '')) : '');
      if (name) text += `\`${name}\``;
    }
  }
  return [...thinking.map((t) => ({ type: 'thinking' as const, text: t })), ...textParts(text)];
}

function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(i + 1);
}

/** A tool result as stored by Copilot: {content: [{value}|…]} or a string. */
function toolResultParts(res: unknown): ContentPart[] {
  if (typeof res === 'string') return textParts(res);
  const content = isObject(res) ? arr(res, 'content') : Array.isArray(res) ? res : undefined;
  if (!content) return [];
  const texts: string[] = [];
  for (const c of content) {
    if (typeof c === 'string') texts.push(c);
    else if (isObject(c) && typeof c['value'] === 'string') texts.push(c['value']);
    else if (isObject(c) && typeof c['text'] === 'string') texts.push(c['text']);
  }
  return textParts(texts.join('\n'));
}
