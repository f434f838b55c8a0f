// opencode sessions, in the shape `opencode export` prints — `{info: {id, directory, version, title,
// …}, messages: [{info, parts}]}` — which is also how the Node layer hands over a session it read
// from opencode's SQLite store (sessions/agents/opencode/store.ts).
//
// What is read is what opencode (1.18.33) sends when the session goes on:
// - messages in (time.created, id) order; after the last finished compaction only its user message
//   (sent as "What did we do so far?"), the summary (an assistant message with `summary: true`), the
//   recent turns the compaction kept (`tail_start_id`: sent after the summary, though older), and
//   what followed. Everything before is ImportResult.history.
// - user parts: text (not `ignored`; `synthetic` ones opencode adds are sent too: a message of only
//   those is SKILL_METADATA), file (a placeholder), compaction, subtask;
// - assistant parts: text, reasoning (thinking), tool (the call, then its result: the output, the
//   error, "[Tool execution was interrupted]" for one that never ended, "[Old tool result content
//   cleared]" for one opencode pruned); each step-start begins a new assistant turn. A message that
//   ended in an error is not sent, unless it was aborted after producing something.
// `opencode run` wraps a prompt that holds a space in double quotes (and stores it so): the person's
// words are read without them.
// meta.reportedUsage: the `tokens` of the last request recorded (a step-finish's, else the
// message's): `input` counts only what was neither read from nor written to the cache, so the
// request's size is input + cache.read + cache.write. A summary's own request is not the context.

import type { ContentPart, ConversationMeta, ImportResult, ImportWarning, ItemType } from '../model';
import { argumentsText, imagePart, plainDraft, setSessionFacts, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { OPENCODE_PROVENANCE_FIELD } from '../exporters/opencodeSession';
import { readInherited } from '../inherited';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { isObject, num, obj, str, type JsonObject } from './jsonShape';
import { tokenField, withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

/** What opencode sends in place of a compaction part. */
export const OPENCODE_COMPACTION_QUESTION = 'What did we do so far?';
const SUBTASK_TEXT = 'The following tool was executed by the user';
const INTERRUPTED = '[Tool execution was interrupted]';
const CLEARED = '[Old tool result content cleared]';
/** Titles opencode gives before it has made one. */
const DEFAULT_TITLE = /^(?:New session|Child session) - \d{4}-/;

/** Whether a session title is one opencode gives before it has made one (not worth showing). */
export function isDefaultOpencodeTitle(title: string): boolean {
  return DEFAULT_TITLE.test(title);
}
/** Part types opencode keeps that are not sent to the model. */
const NOT_SENT = new Set(['step-finish', 'snapshot', 'patch', 'agent', 'retry']);

/** Whether a parsed value is an opencode session export. */
export function looksLikeOpencodeExport(v: unknown): boolean {
  if (!isObject(v) || !isObject(v['info']) || !Array.isArray(v['messages'])) return false;
  const id = str(v['info'], 'id');
  if (!id?.startsWith('ses')) return false;
  const first: unknown = v['messages'][0];
  return first === undefined || (isObject(first) && isObject(first['info']) && Array.isArray(first['parts']));
}

interface Entry {
  info: JsonObject;
  parts: JsonObject[];
  /** Position in the export's list. */
  index: number;
}

export function fromOpencodeValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  if (!looksLikeOpencodeExport(value))
    throw new TranscriptError({
      file,
      position: 'top level',
      expected: 'an opencode session ({info: {id: "ses_…"}, messages: [{info, parts}]})',
      found: describeJsonValue(value),
    });
  const session = (value as JsonObject)['info'] as JsonObject;
  const warnings: ImportWarning[] = [];
  const entries = readEntries((value as JsonObject)['messages'] as unknown[], warnings);
  const { sent, before, since } = sentMessages(entries);

  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  setSessionFacts(meta, { sessionId: str(session, 'id'), cwd: str(session, 'directory'), agentVersion: str(session, 'version') });
  const title = str(session, 'title');
  if (title && !DEFAULT_TITLE.test(title)) meta.title = title;
  // The model of the last answer, with its provider (opencode names a model by both).
  const answered = [...entries].reverse().find((e) => str(e.info, 'role') === 'assistant' && str(e.info, 'modelID'));
  const sessionModel = obj(session, 'model');
  const model = answered
    ? { id: str(answered.info, 'modelID'), provider: str(answered.info, 'providerID') }
    : { id: str(sessionModel ?? {}, 'id'), provider: str(sessionModel ?? {}, 'providerID') };
  if (model.id) meta.model = model.id;
  if (model.id && model.provider) meta.modelProvider = model.provider;
  // A session we wrote: what it takes over from its original until opencode answers (inherited.ts).
  const ours = obj(obj(session, 'metadata') ?? {}, OPENCODE_PROVENANCE_FIELD);
  const inherited = ours ? readInherited(ours['inherited']) : undefined;
  if (inherited) meta.inherited = inherited;

  const skipped = new Map<string, number>();
  const live = toDrafts(sent, skipped, since);
  if (skipped.size > 0)
    warnings.push({
      position: 'messages',
      message: `skipped parts of types the conversation does not model: ${[...skipped].map(([t, n]) => `${t} (${n})`).join(', ')}`,
    });
  if (entries.length === 0) warnings.push({ position: 'messages', message: 'the session holds no messages yet' });
  const result = withReportedUsage(finishImport(live.drafts, { format: 'opencode', meta, warnings }), live.usage);
  if (before.length === 0) return result;
  const { reportedUsage: _live, ...historyMeta } = meta;
  const history = finishImport(toDrafts(before, new Map()).drafts, { format: 'opencode', meta: historyMeta, warnings: [] });
  warnings.push({
    position: 'messages',
    message: `${before.length} message${before.length === 1 ? ' is' : 's are'} before the last compaction and not sent when the session goes on: read as history, not counted`,
  });
  return { ...result, history: { conversation: history.conversation, lines: before.length, beforeBoundary: before.length, otherBranches: 0 } };
}

function readEntries(list: readonly unknown[], warnings: ImportWarning[]): Entry[] {
  const out: Entry[] = [];
  list.forEach((m, index) => {
    if (!isObject(m) || !isObject(m['info']) || !Array.isArray(m['parts'])) {
      warnings.push({ position: `messages[${index}]`, message: `expected {info, parts}, found ${describeJsonValue(m)}; skipped` });
      return;
    }
    out.push({ info: m['info'], parts: m['parts'].filter(isObject), index });
  });
  const id = (e: Entry) => str(e.info, 'id') ?? '';
  return out.sort((a, b) => createdOf(a) - createdOf(b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0) || a.index - b.index);
}

const createdOf = (e: Entry) => num(obj(e.info, 'time') ?? {}, 'created') ?? 0;
const isUser = (e: Entry) => str(e.info, 'role') === 'user';
const compactionPart = (e: Entry) => e.parts.find((p) => str(p, 'type') === 'compaction');
const finishedSummary = (e: Entry) => str(e.info, 'role') === 'assistant' && e.info['summary'] === true && !!e.info['finish'] && !e.info['error'];

/** The messages opencode sends, and those before its last compaction (its filterCompacted). */
function sentMessages(entries: readonly Entry[]): { sent: Entry[]; before: Entry[]; since: number } {
  const summarized = new Set<string>();
  let cut = 0;
  let tailStart: string | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (tailStart !== undefined) {
      if (str(e.info, 'id') === tailStart) {
        cut = i;
        break;
      }
      continue;
    }
    const part = isUser(e) && summarized.has(str(e.info, 'id') ?? '') ? compactionPart(e) : undefined;
    if (part) {
      const tail = str(part, 'tail_start_id');
      if (tail === undefined || tail === str(e.info, 'id')) {
        cut = i;
        break;
      }
      tailStart = tail;
      continue;
    }
    if (finishedSummary(e)) summarized.add(str(e.info, 'parentID') ?? '');
  }
  let sent = entries.slice(cut);
  // The recent turns a compaction kept are sent after its summary.
  const w = lastIndex(sent, (e) => isUser(e) && compactionPart(e)?.['tail_start_id'] !== undefined);
  if (w >= 0) {
    const question = sent[w]!;
    const j = sent.findIndex((e, k) => k > w && finishedSummary(e) && str(e.info, 'parentID') === str(question.info, 'id'));
    const v = sent.findIndex((e) => str(e.info, 'id') === compactionPart(question)!['tail_start_id']);
    if (v >= 0 && v < w && j > w) sent = [...sent.slice(w, j + 1), ...sent.slice(v, w), ...sent.slice(j + 1)];
  }
  // A request made before the last summary measured a context that is not sent any more.
  const summary = sent[lastIndex(sent, finishedSummary)];
  return { sent, before: entries.slice(0, cut), since: summary ? createdOf(summary) : Number.NEGATIVE_INFINITY };
}

function lastIndex<T>(list: readonly T[], test: (v: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

/** `opencode run`'s quoting of a prompt that holds a space undone: the words as typed. */
export function unquoteRunPrompt(text: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"$/s.exec(text);
  return m && m[1]!.includes(' ') ? m[1]!.replace(/\\"/g, '"') : text;
}

function toDrafts(entries: readonly Entry[], skipped: Map<string, number>, since = Number.NEGATIVE_INFINITY): { drafts: MessageDraft[]; usage: UsageRecord[] } {
  const drafts: MessageDraft[] = [];
  const usage: UsageRecord[] = [];
  const skip = (type: string) => skipped.set(type, (skipped.get(type) ?? 0) + 1);
  for (const e of entries) {
    const timestamp = isoTime(e.info);
    const src = (sourceId: string | undefined) => sourceMeta('opencode', { index: drafts.length, ...(sourceId ? { sourceId } : {}) });
    if (isUser(e)) {
      const parts: ContentPart[] = [];
      let person = false;
      let harness = false;
      for (const p of e.parts) {
        const type = str(p, 'type') ?? '(no type)';
        if (type === 'text') {
          const text = str(p, 'text') ?? '';
          if (p['ignored'] === true || text === '') continue;
          if (p['synthetic'] === true) harness = true;
          else person = true;
          parts.push(...textParts(p['synthetic'] === true ? text : unquoteRunPrompt(text)));
        } else if (type === 'file') {
          const mime = str(p, 'mime') ?? '';
          if (mime === 'text/plain' || mime === 'application/x-directory') continue;
          parts.push(imagePart(mime || undefined, `file ${str(p, 'filename') ?? ''}`.trim()));
          person = true;
        } else if (type === 'compaction') {
          parts.push({ type: 'text', text: OPENCODE_COMPACTION_QUESTION });
          harness = true;
        } else if (type === 'subtask') {
          parts.push({ type: 'text', text: SUBTASK_TEXT });
          harness = true;
        } else if (!NOT_SENT.has(type)) skip(type);
      }
      if (parts.length === 0) continue;
      const itemType: ItemType = person || !harness ? 'USER_MESSAGE' : 'SKILL_METADATA';
      drafts.push(plainDraft('user', itemType, parts, src(str(e.info, 'id')), timestamp));
      continue;
    }
    if (str(e.info, 'role') !== 'assistant' || !isSent(e)) continue;
    assistantDrafts(e, drafts, createdOf(e) > since ? usage : [], skip, timestamp);
  }
  return { drafts, usage };
}

/** An assistant message that ended in an error is not sent, unless it was aborted with something in it. */
function isSent(e: Entry): boolean {
  const error = e.info['error'];
  if (!error) return true;
  const aborted = isObject(error) && str(error, 'name') === 'MessageAbortedError';
  return aborted && e.parts.some((p) => !['step-start', 'reasoning', 'step-finish'].includes(str(p, 'type') ?? ''));
}

function assistantDrafts(e: Entry, drafts: MessageDraft[], usage: UsageRecord[], skip: (t: string) => void, timestamp: string | undefined): void {
  const summary = e.info['summary'] === true;
  let step: { draft: MessageDraft; results: MessageDraft[] } | undefined;
  const steps: { draft: MessageDraft; results: MessageDraft[]; tokens?: JsonObject }[] = [];
  const open = (sourceId: string | undefined) => {
    const draft: MessageDraft = {
      role: 'assistant',
      itemType: summary ? 'COMPACTION_SUMMARY' : 'ASSISTANT_MESSAGE',
      content: [],
      ...(timestamp ? { timestamp } : {}),
      source: sourceMeta('opencode', { sourceId: sourceId ?? str(e.info, 'id') }),
    };
    step = { draft, results: [] };
    steps.push(step);
    return step;
  };
  for (const p of e.parts) {
    const type = str(p, 'type') ?? '(no type)';
    if (type === 'step-start') {
      open(steps.length === 0 ? str(e.info, 'id') : str(p, 'id'));
      continue;
    }
    if (type === 'step-finish') {
      const tokens = obj(p, 'tokens');
      if (tokens && steps.length > 0) steps[steps.length - 1]!.tokens = tokens;
      continue;
    }
    const s = step ?? open(str(e.info, 'id'));
    if (type === 'text') s.draft.content.push(...textParts(str(p, 'text') ?? ''));
    else if (type === 'reasoning') {
      const text = str(p, 'text') ?? '';
      if (text.trim() !== '') s.draft.content.push({ type: 'thinking', text });
    } else if (type === 'tool') toolCall(p, s);
    else if (!NOT_SENT.has(type)) skip(type);
  }
  // The message's own tokens are those of its last request when no step-finish recorded any.
  const own = obj(e.info, 'tokens');
  if (own && steps.length > 0 && !steps.some((s) => s.tokens)) steps[steps.length - 1]!.tokens = own;
  for (const s of steps) {
    if (s.draft.content.length === 0 && !s.draft.toolCalls) continue;
    const at = drafts.length;
    s.draft.source = { ...s.draft.source!, index: at };
    drafts.push(s.draft);
    s.results.forEach((r) => drafts.push({ ...r, source: { ...r.source!, index: drafts.length } }));
    const record = summary || !s.tokens ? undefined : usageRecord(s.tokens, at, e.index);
    if (record) usage.push(record);
  }
}

function toolCall(p: JsonObject, step: { draft: MessageDraft; results: MessageDraft[] }): void {
  const state = obj(p, 'state') ?? {};
  const id = str(p, 'callID') ?? str(p, 'id') ?? `opencode_${step.results.length}`;
  const name = str(p, 'tool') ?? 'tool';
  step.draft.toolCalls = [...(step.draft.toolCalls ?? []), { id, name, arguments: argumentsText(state['input'] ?? {}) }];
  const status = str(state, 'status');
  let text: string;
  let isError = false;
  if (status === 'completed') text = obj(state, 'time')?.['compacted'] ? CLEARED : outputText(state['output']);
  else if (status === 'error') {
    const interrupted = obj(state, 'metadata');
    const output = interrupted?.['interrupted'] === true ? str(interrupted, 'output') : undefined;
    text = output ?? str(state, 'error') ?? '';
    isError = output === undefined;
  } else {
    text = INTERRUPTED;
    isError = true;
  }
  step.results.push(
    toolResultDraft(id, textParts(text), isError, sourceMeta('opencode', { ...(str(p, 'id') ? { sourceId: `${str(p, 'id')}:result` } : {}) }), {
      toolName: name,
    }),
  );
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output) && typeof output['text'] === 'string') return output['text'];
  return argumentsText(output ?? '');
}

/** A request's tokens, answered by the draft at `at`; `index`: the message's place in the export. */
function usageRecord(tokens: JsonObject, at: number, index: number): UsageRecord | undefined {
  const input = tokenField(tokens, 'input') ?? 0;
  const cache = obj(tokens, 'cache') ?? {};
  const cacheRead = tokenField(cache, 'read') ?? 0;
  const cacheWrite = tokenField(cache, 'write') ?? 0;
  const output = tokenField(tokens, 'output');
  const total = input + cacheRead + cacheWrite;
  if (total <= 0) return undefined;
  return {
    usage: {
      tokens: total,
      source: 'opencode',
      index,
      parts: { input, ...(cacheWrite ? { cacheWrite } : {}), ...(cacheRead ? { cacheRead } : {}), ...(output !== undefined ? { output } : {}) },
    },
    answer: { index: at, match: 'exact' },
  };
}

function isoTime(info: JsonObject): string | undefined {
  const t = num(obj(info, 'time') ?? {}, 'created');
  return t !== undefined && t > 0 ? new Date(t).toISOString() : undefined;
}
