// Qwen Code sessions: `~/.qwen/projects/<cwd, non-alphanumerics as '-'>/chats/<sessionId>.jsonl`
// (QWEN_HOME moves ~/.qwen), read as Qwen Code resumes them (its transcript-records and
// session-api-history modules, in 0.24):
//
// - A record is `{uuid, parentUuid, sessionId, timestamp, type, …}` with type user, assistant,
//   tool_result or system; one without those fields is skipped. Records of the same uuid are
//   fragments of one (their parts joined, the last usage kept).
// - What is sent is the chain from the file's last conversation record back along parentUuid (to
//   null, or a parent the file does not hold), replayed in order: a record's `message`
//   (`{role: user|model, parts}`, Gemini's content) is appended (a `mid_turn_user_message` joins
//   the user turn before it); a `system` record sends nothing itself, except a `chat_compression`,
//   whose `compressedHistory` (the summary as a user turn, "Got it…", files it re-read) REPLACES
//   everything before it, and a `slash_command` result that takes back the command's own user turn.
//   `ui_telemetry` (one per API call, the memory extractor's included) and `attribution_snapshot`
//   are bookkeeping.
// - Parts: functionCall → tool calls of the assistant turn, functionResponse → tool results,
//   `thought: true` text → thinking. The first turn of a compressedHistory, and any user text shaped
//   like a summary, is COMPACTION_SUMMARY; a user record the person did not type (provenance other
//   than real_user, or a subtype: notifications, cron, goals) is SKILL_METADATA.
// - Records off that chain (rewinds) and before its last compression are ImportResult.history.
// meta.reportedUsage: `usageMetadata.promptTokenCount` of the last assistant record sent — the
// conversation's own request; the memory extractor's calls after each turn are only in ui_telemetry
// and never move it. meta.cwd, sessionId, agentVersion (`version`) from the records; meta.model from
// the last assistant's `model`; meta.inherited from the first record of a session we wrote.

import type { ConversationMeta, ImportResult, ImportWarning, ItemType } from '../model';
import { QWEN_PROVENANCE_FIELD } from '../exporters/qwenSession';
import { readInherited } from '../inherited';
import { setSessionFacts, sourceMeta } from './contentParts';
import { MAX_LINE_WARNINGS } from './claudeCodeEntries';
import { finishImport } from './finish';
import { assistantDraft, CallIds, modelTurn, partsText, userTurnDrafts } from './geminiParts';
import type { ImportOptions } from './importOptions';
import { parseJsonl, stripBom, type JsonlLine } from './jsonText';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import { tokenField, withReportedUsage, type UsageRecord } from './reportedUsage';
import { looksLikeCompactionSummary } from './summaryRecognition';
import type { MessageDraft } from './toolPairing';
import { TranscriptError } from './transcriptError';

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
/** System records that are not part of the conversation's chain (artifacts, managed-session data). */
const NOT_CONVERSATION = new Set([
  'session_artifact_event',
  'session_artifact_snapshot',
  'session_sources_snapshot',
  'managed_session_header_v1',
  'managed_session_event_v1',
  'managed_session_commit_v1',
]);
const STATE_SNAPSHOT = /^\s*<state_snapshot>/;

/** A Qwen Code record: chained like Claude Code's, but with Gemini content or Qwen's own fields. */
export function looksLikeQwenRecord(v: unknown): boolean {
  if (!isObject(v) || typeof v['uuid'] !== 'string' || typeof v['sessionId'] !== 'string' || !('parentUuid' in v)) return false;
  const message = obj(v, 'message');
  return 'provenance' in v || 'systemPayload' in v || (message !== undefined && Array.isArray(message['parts']));
}

interface Rec {
  value: JsonObject;
  line: number;
  uuid: string;
  parent: string | null;
}

/** One turn of what is sent, and where it came from. */
interface Item {
  role: string;
  parts: unknown[];
  rec: Rec;
  /** Position in a compression's compressedHistory. */
  compressed?: number;
}

export function importQwenCode(text: string, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const { lines, bad } = parseJsonl(stripBom(text));
  const warnings: ImportWarning[] = [];
  bad.slice(0, MAX_LINE_WARNINGS).forEach((b) => warnings.push({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); line skipped` }));
  const records = validRecords(lines, warnings);
  if (records.length === 0) {
    throw new TranscriptError({
      file,
      position: bad[0] ? `line ${bad[0].line}` : 'line 1',
      expected: 'Qwen Code records ({uuid, parentUuid, sessionId, type, …} per line)',
      found: lines.length === 0 ? 'no JSON lines' : 'no record with those fields',
    });
  }
  if (new Set(records.map((r) => r.value['sessionId'])).size > 1)
    warnings.push({ position: 'file', message: 'records of more than one sessionId: Qwen Code refuses to resume such a file' });
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  for (const r of records) {
    setSessionFacts(meta, { cwd: str(r.value, 'cwd'), sessionId: str(r.value, 'sessionId'), agentVersion: str(r.value, 'version') });
    if (r.value['type'] === 'assistant' && str(r.value, 'model')) meta.model = str(r.value, 'model');
  }
  // A session we wrote: what it takes over from its original (inherited.ts), on its first record.
  const ours = obj(records[0]!.value, QWEN_PROVENANCE_FIELD);
  const inherited = ours ? readInherited(ours['inherited']) : undefined;
  if (inherited) {
    meta.inherited = inherited;
    if (inherited.model) meta.model ??= inherited.model;
  }

  const chain = liveChain(records, warnings);
  const { items, before } = replay(chain);
  const ids = new CallIds();
  const drafts: MessageDraft[] = [];
  const usage: UsageRecord[] = [];
  for (const item of items) {
    const { drafts: made, usage: u } = itemDrafts(item, ids);
    drafts.push(...made);
    if (u) usage.push(u);
  }
  const result = withReportedUsage(finishImport(drafts, { format: 'qwen-code', meta, warnings }), usage);
  if (ids.repeats > 0) warnings.push({ position: 'file', message: `${ids.repeats} repeated tool result${ids.repeats === 1 ? '' : 's'} left out` });

  const onChain = new Set(chain);
  const offChain = records.filter((r) => !onChain.has(r) && isMaterial(r));
  const earlier = before.filter(isMaterial);
  if (offChain.length + earlier.length === 0) return result;
  const { reportedUsage: _live, ...historyMeta } = meta;
  const historyIds = new CallIds();
  const historyDrafts = [...earlier, ...offChain]
    .sort((a, b) => a.line - b.line)
    .flatMap((rec) => itemDrafts({ role: str(obj(rec.value, 'message')!, 'role') ?? 'user', parts: messageParts(rec), rec }, historyIds).drafts);
  const history = finishImport(historyDrafts, { format: 'qwen-code', meta: historyMeta, warnings: [] });
  const n = offChain.length + earlier.length;
  warnings.push({
    position: 'file',
    message: `${n} record${n === 1 ? ' is' : 's are'} not sent when the session is resumed (${[
      earlier.length > 0 ? `${earlier.length} before the last compression` : '',
      offChain.length > 0 ? `${offChain.length} off the chain Qwen Code resumes (rewinds)` : '',
    ]
      .filter(Boolean)
      .join(', ')}): read as history, not counted`,
  });
  return {
    ...result,
    history: { conversation: history.conversation, lines: n, beforeBoundary: earlier.length, otherBranches: offChain.length },
  };
}

function validRecords(lines: readonly JsonlLine[], warnings: ImportWarning[]): Rec[] {
  const out: Rec[] = [];
  let skipped = 0;
  for (const { line, value } of lines) {
    const ok =
      isObject(value) &&
      typeof value['uuid'] === 'string' &&
      value['uuid'] !== '' &&
      (typeof value['parentUuid'] === 'string' || value['parentUuid'] === null) &&
      typeof value['sessionId'] === 'string' &&
      value['sessionId'] !== '' &&
      typeof value['type'] === 'string' &&
      RECORD_TYPES.has(value['type']);
    if (!ok) {
      if (skipped++ < MAX_LINE_WARNINGS)
        warnings.push({
          position: `line ${line}`,
          message: 'not a Qwen Code record (uuid, parentUuid, sessionId, type user|assistant|tool_result|system); skipped',
        });
      continue;
    }
    out.push({ value, line, uuid: value['uuid'] as string, parent: (value['parentUuid'] as string | null) ?? null });
  }
  return out;
}

function isConversation(r: Rec): boolean {
  return !(r.value['type'] === 'system' && NOT_CONVERSATION.has(String(r.value['subtype'])));
}

/** A record that holds something a model is sent (a message). */
function isMaterial(r: Rec): boolean {
  return isObject(r.value['message']) && r.value['subtype'] !== 'realtime_message';
}

/** The chain Qwen Code resumes: from the last conversation record back along parentUuid, each uuid's
 *  fragments joined into its first record. */
function liveChain(records: readonly Rec[], warnings: ImportWarning[]): Rec[] {
  const fragments = new Map<string, Rec[]>();
  for (const r of records) {
    if (!isConversation(r)) continue;
    const list = fragments.get(r.uuid);
    if (list) list.push(r);
    else fragments.set(r.uuid, [r]);
  }
  const leaf = [...records].reverse().find(isConversation);
  const out: Rec[] = [];
  const seen = new Set<string>();
  for (let uuid: string | null = leaf?.uuid ?? null; uuid !== null;) {
    const list = fragments.get(uuid);
    if (!list) {
      warnings.push({
        position: 'file',
        message: `the chain reaches a parentUuid the file does not hold (${uuid.slice(0, 40)}): Qwen Code resumes from the record after it`,
      });
      break;
    }
    if (seen.has(uuid)) break;
    seen.add(uuid);
    out.push(joined(list));
    uuid = list[0]!.parent;
  }
  return out.reverse();
}

/** A record's fragments as one: their parts in order, the last usage, the first model. */
function joined(list: readonly Rec[]): Rec {
  if (list.length === 1) return list[0]!;
  const first = list[0]!;
  const value: JsonObject = { ...first.value };
  const parts: unknown[] = [];
  let role: string | undefined;
  for (const r of list) {
    const m = obj(r.value, 'message');
    if (m) {
      role ??= str(m, 'role');
      parts.push(...(arr(m, 'parts') ?? []));
    }
    if (isObject(r.value['usageMetadata'])) value['usageMetadata'] = r.value['usageMetadata'];
    if (value['model'] === undefined && r.value['model'] !== undefined) value['model'] = r.value['model'];
  }
  if (role !== undefined || parts.length > 0) value['message'] = { ...(role ? { role } : {}), parts };
  return { ...first, value };
}

function messageParts(r: Rec): unknown[] {
  const m = obj(r.value, 'message');
  return (m && arr(m, 'parts')) ?? [];
}

/** The turns sent, replayed along the chain; `before`: the chain's records a compression replaced. */
function replay(chain: readonly Rec[]): { items: Item[]; before: Rec[] } {
  let items: Item[] = [];
  let before: Rec[] = [];
  let lastMaterial: Rec | undefined;
  chain.forEach((rec, at) => {
    const v = rec.value;
    if (v['type'] === 'system') {
      const payload = obj(v, 'systemPayload');
      if (v['subtype'] === 'chat_compression' && payload && Array.isArray(payload['compressedHistory'])) {
        items = payload['compressedHistory']
          .filter(isObject)
          .map((c, i) => ({ role: str(c, 'role') ?? 'user', parts: arr(c, 'parts') ?? [], rec, compressed: i }));
        before = chain.slice(0, at);
        lastMaterial = undefined;
      } else if (v['subtype'] === 'slash_command' && payload && takesBackCommand(payload, lastMaterial)) {
        items.pop();
      }
      if (v['subtype'] === 'slash_command' && lastMaterial?.value['type'] === 'user') lastMaterial = undefined;
      return;
    }
    if (!isMaterial(rec)) return;
    const m = obj(v, 'message')!;
    const item: Item = { role: str(m, 'role') ?? (v['type'] === 'assistant' ? 'model' : 'user'), parts: arr(m, 'parts') ?? [], rec };
    const previous = items[items.length - 1];
    if (v['subtype'] === 'mid_turn_user_message' && previous?.role === 'user') previous.parts = [...previous.parts, ...item.parts];
    else items.push(item);
    lastMaterial = rec;
  });
  return { items, before };
}

/** A local slash command's result that was not sent takes back the user turn that typed it. */
function takesBackCommand(payload: JsonObject, previous: Rec | undefined): boolean {
  const outputs = arr(payload, 'outputHistoryItems');
  if (payload['phase'] !== 'result' || payload['sentToModel'] === true || !outputs || outputs.length === 0) return false;
  if (!outputs.every((o) => isObject(o) && o['type'] === 'assistant')) return false;
  if (!previous || previous.value['type'] !== 'user' || previous.value['subtype'] !== undefined) return false;
  const parts = messageParts(previous);
  return parts.length === 1 && isObject(parts[0]) && Object.keys(parts[0]).length === 1 && parts[0]['text'] === payload['rawCommand'];
}

function userItemType(item: Item, text: string): ItemType {
  if (item.compressed === 0 || STATE_SNAPSHOT.test(text) || looksLikeCompactionSummary(text)) return 'COMPACTION_SUMMARY';
  if (item.compressed !== undefined) return 'SKILL_METADATA';
  const v = item.rec.value;
  const typed =
    v['type'] === 'user' && (v['subtype'] === undefined || v['subtype'] === 'mid_turn_user_message') && (v['provenance'] ?? 'real_user') === 'real_user';
  return typed ? 'USER_MESSAGE' : 'SKILL_METADATA';
}

function itemDrafts(item: Item, ids: CallIds): { drafts: MessageDraft[]; usage?: UsageRecord } {
  const rec = item.rec;
  const source = sourceMeta('qwen-code', { line: rec.line, sourceId: item.compressed === undefined ? rec.uuid : `${rec.uuid}#${item.compressed}` });
  const timestamp = str(rec.value, 'timestamp');
  if (item.role === 'model') {
    const draft = assistantDraft(modelTurn(item.parts, ids, source.sourceId!), source, timestamp);
    if (!draft) return { drafts: [] };
    const u = item.compressed === undefined && rec.value['type'] === 'assistant' ? obj(rec.value, 'usageMetadata') : undefined;
    const input = u ? tokenField(u, 'promptTokenCount') : undefined;
    if (!u || input === undefined || input === 0) return { drafts: [draft] };
    const cached = tokenField(u, 'cachedContentTokenCount');
    const output = tokenField(u, 'candidatesTokenCount');
    return {
      drafts: [draft],
      usage: {
        usage: {
          tokens: input,
          source: 'qwen-code',
          line: rec.line,
          parts: { input, ...(cached ? { cacheRead: cached } : {}), ...(output !== undefined ? { output } : {}) },
        },
        answer: { line: rec.line, match: 'exact' },
      },
    };
  }
  return { drafts: userTurnDrafts(item.parts, ids, userItemType(item, partsText(item.parts)), source, timestamp) };
}
