// GitHub Copilot CLI sessions: `~/.copilot/session-state/<uuid>/events.jsonl`, one event per line
// `{type, data, id, timestamp, parentId}` (verified with the real Copilot CLI 1.0.102, offline).
//
// What is read is what Copilot sends when the session is resumed: it rebuilds the history by
// replaying the events (the request bodies it sent were compared with this replay):
// - `system.message` {role, content}: the whole system prompt as sent; a later one replaces it
//   (Copilot writes one when the prompt changes, e.g. after a compaction). It goes first.
// - `user.message` {content, transformedContent}: `transformedContent` is what is sent — the
//   request (`content`) with a `<current_datetime>` line before it and, when a userPromptSubmitted
//   hook added context, a `<system_reminder>` after it. The request is the USER_MESSAGE; what
//   Copilot put around it is a SKILL_METADATA note on each side (counted, never the title).
// - `assistant.message` {content, toolRequests, reasoningText}: the answer and its tool calls
//   (arguments sent as the JSON of the object).
// - `tool.execution_complete` {toolCallId, success, result.content | error.message}: the result
//   sent on resume — `result.content`, or for a failed call `error.message` (the first request of a
//   failed call carries a longer text that is not kept).
// - `session.compaction_start` / `session.compaction_complete` {success, summaryContent}: the
//   messages before the start are replaced by one user message that quotes every request the
//   person made so far (`content`, in order, across compactions) and the summary:
//     Some of the conversation history has been summarized to free up context.
//
//     You were originally given instructions from a user over one or more turns. Here were the
//     user messages:
//     <user_message>
//     …
//     </user_message>
//
//     Here is a summary of the prior context:
//     <summary>
//     …
//     </summary>
//   (the middle paragraph only when there were requests). Messages added while a background
//   compaction ran stay after the summary. What it replaced is ImportResult.history.
// Events of sub-agents (`parentToolCallId`) belong to another conversation and are left out;
// `session.truncation` (Copilot dropping messages to fit) is not modelled and is warned about.
// meta: sessionId, cwd, agentVersion and model from `session.start` (cwd, model also from
// `session.resume` / `session.context_changed` / the answers). meta.reportedUsage: the last
// `session.usage_record`, whose `inputTokens` is the whole input of that request (verified: a
// prompt_tokens of 5,000 with 3,000 cached recorded 5,000; Anthropic's 1,000 + 3,000 cache reads +
// 400 cache writes recorded 4,400), answered by the next assistant message.

import { COPILOT_PROVENANCE_FIELD } from '../exporters/copilotCliSession';
import { readInherited } from '../inherited';
import type { ConversationMeta, ImportResult, ImportWarning, ItemType, SourceMeta } from '../model';
import { argumentsText, plainDraft, setSessionFacts, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { MAX_LINE_WARNINGS } from './claudeCodeEntries';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonl, stripBom, type JsonlResult } from './jsonText';
import { arr, isObject, num, obj, str, type JsonObject } from './jsonShape';
import { tokenField, withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

/** How Copilot opens the message that replaces compacted history. */
export const COPILOT_SUMMARY_OPENING = 'Some of the conversation history has been summarized to free up context.';

/** An event type: dotted lower-case words (`session.start`, `tool.execution_complete`). */
const EVENT_TYPE = /^[a-z]+(?:\.[a-z_]+)+$/;

/** Whether a parsed line is a Copilot CLI event. */
export function looksLikeCopilotCliEvent(v: unknown): boolean {
  return isObject(v) && typeof v['type'] === 'string' && EVENT_TYPE.test(v['type']) && isObject(v['data']) && typeof v['id'] === 'string' && 'parentId' in v;
}

/** The message Copilot sends in place of compacted history: the person's requests so far, quoted,
 *  and the summary. */
export function copilotSummaryText(requests: readonly string[], summary: string): string {
  const quoted =
    requests.length > 0
      ? `You were originally given instructions from a user over one or more turns. Here were the user messages:\n${requests
          .map((r) => `<user_message>\n${r}\n</user_message>`)
          .join('\n')}\n\n`
      : '';
  return `${COPILOT_SUMMARY_OPENING}\n\n${quoted}Here is a summary of the prior context:\n<summary>\n${summary}\n</summary>\n`;
}

export function importCopilotCli(text: string, opts: ImportOptions = {}): ImportResult {
  return importCopilotCliLines(parseJsonl(stripBom(text)), opts);
}

/** A draft with what the replay needs to know about it. */
interface Entry {
  draft: MessageDraft;
  /** The person's request, for a USER_MESSAGE: what a later compaction quotes. */
  request?: string;
}

export function importCopilotCliLines({ lines, bad }: JsonlResult, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  if (lines.length === 0) {
    const first = bad[0];
    throw new TranscriptError({
      file,
      position: first ? `line ${first.line}` : 'line 1',
      expected: 'JSON lines (a Copilot CLI events.jsonl: {type, data, id, timestamp, parentId} per line)',
      found: first ? first.message : 'no lines',
    });
  }
  const warnings: ImportWarning[] = [];
  bad.slice(0, MAX_LINE_WARNINGS).forEach((b) => warnings.push({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); line skipped` }));
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;

  const systems = new Map<string, MessageDraft>();
  let live: Entry[] = [];
  const history: MessageDraft[] = [];
  const requests: string[] = [];
  const starts = new Map<string, number>();
  const usage: UsageRecord[] = [];
  const toolNames = new Map<string, string>();
  let compactions = 0;
  let truncations = 0;
  let subAgent = 0;
  let notEvents = 0;

  for (const { line, value } of lines) {
    if (!isObject(value) || typeof value['type'] !== 'string' || !isObject(value['data'])) {
      if (notEvents++ < MAX_LINE_WARNINGS)
        warnings.push({ position: `line ${line}`, message: `expected an event {type, data, …}, found ${describeJsonValue(value)}; line skipped` });
      continue;
    }
    const type = value['type'];
    const data = value['data'];
    const timestamp = str(value, 'timestamp');
    const src = sourceMeta('copilot-cli', { line, ...(str(value, 'id') ? { sourceId: str(value, 'id') } : {}) });
    if (str(data, 'parentToolCallId') && (type.startsWith('assistant.') || type.startsWith('tool.') || type === 'session.usage_record')) {
      subAgent++;
      continue;
    }
    switch (type) {
      case 'session.start': {
        setSessionFacts(meta, { sessionId: str(data, 'sessionId'), cwd: contextCwd(data), agentVersion: str(data, 'copilotVersion') });
        // A session we wrote: what it takes over from its original (inherited.ts).
        const ours = obj(data, COPILOT_PROVENANCE_FIELD);
        const inherited = ours ? readInherited(ours['inherited']) : undefined;
        if (inherited) meta.inherited = inherited;
        const model = str(data, 'selectedModel') ?? inherited?.model;
        if (model) meta.model = model;
        break;
      }
      case 'session.resume':
      case 'session.context_changed':
        setSessionFacts(meta, { cwd: contextCwd(data) ?? str(data, 'cwd') });
        if (str(data, 'selectedModel')) meta.model = str(data, 'selectedModel');
        break;
      case 'system.message': {
        const role = str(data, 'role') === 'developer' ? 'developer' : 'system';
        systems.set(
          role,
          plainDraft('system', 'SYSTEM_PROMPT', textParts(str(data, 'content') ?? ''), role === 'developer' ? { ...src, role } : src, timestamp),
        );
        break;
      }
      case 'user.message':
        live.push(...userEntries(data, src, timestamp));
        break;
      case 'assistant.message': {
        const reasoning = str(data, 'reasoningText');
        const content = [...(reasoning ? [{ type: 'thinking' as const, text: reasoning }] : []), ...textParts(str(data, 'content') ?? '')];
        const draft = plainDraft('assistant', 'ASSISTANT_MESSAGE', content, src, timestamp);
        const calls = (arr(data, 'toolRequests') ?? []).filter(isObject).map((r, k) => {
          const id = str(r, 'toolCallId') ?? `copilot_${line}_${k}`;
          const name = str(r, 'name') ?? 'tool';
          toolNames.set(id, name);
          return { id, name, arguments: argumentsText(r['arguments']) };
        });
        if (calls.length > 0) draft.toolCalls = calls;
        else if (content.length > 0 && content.every((p) => p.type === 'thinking')) draft.itemType = 'THINKING';
        const model = str(data, 'model');
        if (model) meta.model = model;
        live.push({ draft });
        break;
      }
      case 'tool.execution_complete': {
        const id = str(data, 'toolCallId') ?? '';
        const ok = data['success'] === true;
        const result = obj(data, 'result');
        const error = obj(data, 'error');
        const text = (ok ? result && str(result, 'content') : ((error && str(error, 'message')) ?? (result && str(result, 'content')))) ?? '';
        const name = toolNames.get(id) ?? str(data, 'toolName');
        live.push({ draft: toolResultDraft(id, textParts(text), !ok, src, { ...(name ? { toolName: name } : {}), ...(timestamp ? { timestamp } : {}) }) });
        break;
      }
      case 'tool.execution_start': {
        const id = str(data, 'toolCallId');
        const name = str(data, 'toolName');
        if (id && name && !toolNames.has(id)) toolNames.set(id, name);
        break;
      }
      case 'session.compaction_start': {
        const attempt = str(data, 'compactionAttemptId');
        if (attempt) starts.set(attempt, live.length);
        break;
      }
      case 'session.compaction_complete': {
        const summary = str(data, 'summaryContent');
        const outcome = str(data, 'outcome');
        if (data['success'] !== true || summary === undefined || (outcome !== undefined && outcome !== 'applied')) break;
        const attempt = str(data, 'compactionAttemptId');
        const at = Math.min(attempt && starts.has(attempt) ? starts.get(attempt)! : live.length, live.length);
        const replaced = live.slice(0, at);
        for (const e of replaced) {
          if (e.request !== undefined) requests.push(e.request);
          history.push(e.draft);
        }
        const text = copilotSummaryText(requests, summary);
        live = [{ draft: plainDraft('user', 'COMPACTION_SUMMARY', textParts(text), src, timestamp) }, ...live.slice(at)];
        compactions++;
        break;
      }
      case 'session.truncation':
        truncations++;
        break;
      case 'session.usage_record': {
        const record = usageRecord(obj(data, 'usage'), line);
        if (record) usage.push(record);
        break;
      }
      default:
        // Bookkeeping (turn starts and ends, hooks, model call telemetry, shutdowns, …): nothing sent.
        break;
    }
  }
  if (notEvents > MAX_LINE_WARNINGS) warnings.push({ position: 'file', message: `${notEvents - MAX_LINE_WARNINGS} more lines were not events; skipped` });
  if (subAgent > 0) warnings.push({ position: 'file', message: `${subAgent} sub-agent event${subAgent === 1 ? '' : 's'} left out (another conversation)` });
  if (truncations > 0)
    warnings.push({
      position: 'file',
      message: `${truncations} truncation${truncations === 1 ? '' : 's'} (Copilot dropping messages to fit its window) not modelled: the count may be high`,
    });

  const drafts = [...(['system', 'developer'] as const).flatMap((r) => (systems.has(r) ? [systems.get(r)!] : [])), ...live.map((e) => e.draft)];
  const result = withReportedUsage(finishImport(drafts, { format: 'copilot-cli', meta, warnings }), usage);
  if (history.length === 0) return result;
  const { reportedUsage: _live, ...historyMeta } = meta;
  const replaced = finishImport(history, { format: 'copilot-cli', meta: historyMeta, warnings: [] });
  warnings.push({
    position: 'file',
    message: `${history.length} message${history.length === 1 ? ' was' : 's were'} replaced by ${compactions} compaction${compactions === 1 ? '' : 's'}: read as history, not counted`,
  });
  return {
    ...result,
    history: { conversation: replaced.conversation, lines: new Set(history.map((d) => d.source?.line)).size, beforeBoundary: history.length, otherBranches: 0 },
  };
}

function contextCwd(data: JsonObject): string | undefined {
  const context = obj(data, 'context');
  return context ? str(context, 'cwd') : undefined;
}

/** A user.message as sent: the request, and what Copilot put before and after it. */
function userEntries(data: JsonObject, src: SourceMeta, timestamp: string | undefined): Entry[] {
  const request = str(data, 'content') ?? '';
  const sent = str(data, 'transformedContent') ?? request;
  const typed = data['isAutopilotContinuation'] !== true && str(data, 'source') === undefined;
  const itemType: ItemType = typed ? 'USER_MESSAGE' : 'SKILL_METADATA';
  const at = request.trim() === '' ? -1 : sent.indexOf(request);
  if (at === -1) return [{ draft: plainDraft('user', itemType, textParts(sent), src, timestamp), ...(typed ? { request } : {}) }];
  const before = sent.slice(0, at).trim();
  const after = sent.slice(at + request.length).trim();
  const note = (text: string): Entry => ({ draft: plainDraft('user', 'SKILL_METADATA', textParts(text), src, timestamp) });
  return [
    ...(before !== '' ? [note(before)] : []),
    { draft: plainDraft('user', itemType, textParts(request), src, timestamp), ...(typed ? { request } : {}) },
    ...(after !== '' ? [note(after)] : []),
  ];
}

/** A usage record as the figure of its request, answered by the next assistant message. */
/** The input tokens one event records for a request of the session's own agent (a
 *  `session.usage_record` not of a sub-agent), else undefined: what the hook reads as a size. */
export function copilotRecordedInput(event: unknown): number | undefined {
  if (!isObject(event) || event['type'] !== 'session.usage_record' || !isObject(event['data']) || str(event['data'], 'parentToolCallId')) return undefined;
  return usageRecord(obj(event['data'], 'usage'), 0)?.usage.tokens;
}

function usageRecord(u: JsonObject | undefined, line: number): UsageRecord | undefined {
  if (!u) return undefined;
  const input = tokenField(u, 'inputTokens');
  if (input === undefined || input === 0) return undefined;
  const cacheRead = tokenField(u, 'cacheReadTokens');
  const cacheWrite = tokenField(u, 'cacheWriteTokens');
  const output = tokenField(u, 'outputTokens');
  const window = num(u, 'maxPromptTokens');
  return {
    usage: {
      tokens: input,
      source: 'copilot-cli',
      line,
      parts: { input, ...(cacheRead ? { cacheRead } : {}), ...(cacheWrite ? { cacheWrite } : {}), ...(output !== undefined ? { output } : {}) },
      ...(window !== undefined && window > 0 ? { contextWindow: Math.round(window) } : {}),
    },
    answer: { line, match: 'next' },
  };
}
