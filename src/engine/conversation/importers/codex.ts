// Codex CLI rollouts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, one
// `{timestamp, type, payload}` per line (older rollouts wrote the items bare, after a first line
// `{id, timestamp, instructions, git}`).
//
// What is read is what Codex sends when the session is resumed, replayed as Codex replays it:
// - `response_item` lines append to the history: `message` (developer/system → SYSTEM_PROMPT; user;
//   assistant), `reasoning` (thinking: its summary text, the encrypted content kept as the
//   signature), `function_call` / `custom_tool_call` / `local_shell_call` (tool calls of the
//   assistant turn they follow), `function_call_output` / `custom_tool_call_output` (their results;
//   `success: false` is an error), `web_search_call` (a note in the assistant's text).
// - A `compacted` line replaces the history with its `replacement_history` (the summary plus what
//   Codex kept); without one (older rollouts) with the items before the first user turn, the user
//   messages, and the summary text as a user message.
// - An `event_msg` `thread_rolled_back` drops the last `num_turns` user turns.
// - session_meta's `base_instructions` (Codex 0.169 and later) are sent first on every request: a
//   SYSTEM_PROMPT message before the history, never replaced by a compaction.
// Items a compaction replaced or a rollback dropped are ImportResult.history (counted, not sent).
// Record types this version does not know (codexRecords.ts) are read by what they can be: a
// response item is sent, so its text is counted; anything else is skipped; one warning names them.
//
// A user message is USER_MESSAGE when a person wrote it: the text of an `event_msg` `user_message`
// (an `item_completed` UserMessage since Codex 0.171), or any user text that is not one of the
// harness's own (environment context, AGENTS.md instructions, shell command echoes, aborted-turn
// notes), which are SKILL_METADATA; a message that holds both as separate parts (the IDE extension
// sends the environment block and the request in one message) becomes a SKILL_METADATA message of
// the harness's parts and a USER_MESSAGE of the rest. What the IDE puts around the request inside
// the person's text ("# Context from my IDE setup:" … "## My request for Codex:") stays in the
// message; analyze/injectedContext.ts reads past it. A user message holding a compaction summary
// (Codex's own, or the 8 sections) is COMPACTION_SUMMARY.
// meta: model from the last `turn_context`, cwd / sessionId / agentVersion from `session_meta`, title
// as Codex derives it (the first user turn).
// meta.reportedUsage: the last `token_count` event written after a response of the history read.
// Its `info.last_token_usage` is that one request's usage (Codex adds it to `total_token_usage`, the
// running sum over the session, which is no context size): `input_tokens`, the cached share
// included, is what the model read. Codex 0.169 writes it after the tool outputs of that response,
// so its answer is the last assistant message before it. A token_count that follows no response since the last
// compaction or rollback (the compaction's own request, a context-window error Codex fills in
// itself) is passed over.

import { CODEX_PROVENANCE_FIELD } from '../exporters/codexRollout';
import { readInherited } from '../inherited';
import type { ConversationMeta, ImportResult, ImportWarning, ItemType, ToolCall } from '../model';
import { argumentsText, assistantItemType, plainDraft, setSessionFacts, sourceMeta, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonl, stripBom, type JsonlLine, type JsonlResult } from './jsonText';
import { arr, isObject, num, obj, str, type JsonObject } from './jsonShape';
import { looksLikeCompactionSummary } from './summaryRecognition';
import { withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';
import { MAX_LINE_WARNINGS } from './claudeCodeEntries';
import { contentParts, messageText, outputParts } from './codexContent';
import { baseInstructionsText, codexTitle, completedUserText, countedItemText, itemKind, NewCodexTypes, MODELED_ITEMS, usageRecord } from './codexRecords';

/** Text Codex itself puts in user messages (not typed by the person). */
const HARNESS_USER_TEXT =
  /^\s*(?:<(?:environment_context|user_instructions|user_shell_command|turn_aborted|subagent_notification|skills_instructions|permissions instructions|collaboration_mode)\b|# AGENTS\.md instructions for )/i;
/** The opening of the summary message Codex writes when it compacts a session itself. */
const CODEX_SUMMARY = /^\s*Another language model started to solve this problem/;
/** Item types that belong to the assistant's turn. */
const ASSISTANT_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);
/** The source id of the system message made of session_meta's base instructions. */
export const CODEX_BASE_INSTRUCTIONS_ID = 'session_meta.base_instructions';

interface Item {
  value: JsonObject;
  line: number;
  timestamp?: string;
  /** Position inside a compacted line's replacement_history. */
  index?: number;
}

/** Whether a parsed first line starts a Codex rollout. */
export function looksLikeCodexRolloutLine(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v['type'] === 'session_meta' && isObject(v['payload'])) return true;
  // Older rollouts: a bare first line {id, timestamp, instructions?, git?}.
  return typeof v['id'] === 'string' && typeof v['timestamp'] === 'string' && !('type' in v) && ('instructions' in v || 'git' in v);
}

export function importCodex(text: string, opts: ImportOptions = {}): ImportResult {
  return importCodexLines(parseJsonl(stripBom(text)), opts);
}

/** The same, from lines already parsed (a file read as a stream: jsonText.ts JsonlParser). */
export function importCodexLines({ lines, bad }: JsonlResult, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  if (lines.length === 0) {
    const first = bad[0];
    throw new TranscriptError({
      file,
      position: first ? `line ${first.line}` : 'line 1',
      expected: 'JSON lines (a Codex rollout: {timestamp, type, payload} per line)',
      found: first ? first.message : 'no lines',
    });
  }
  const warnings: ImportWarning[] = [];
  bad.slice(0, MAX_LINE_WARNINGS).forEach((b) => warnings.push({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); line skipped` }));
  if (bad.length > MAX_LINE_WARNINGS)
    warnings.push({ position: `line ${bad[MAX_LINE_WARNINGS]!.line}`, message: `${bad.length - MAX_LINE_WARNINGS} more lines were not valid JSON; skipped` });

  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const replay = replayRollout(lines, meta, warnings);
  const live = toDrafts(replay.base ? [replay.base, ...replay.items] : replay.items, replay);
  const newTypes = replay.newTypes.warning();
  if (newTypes) warnings.push(newTypes);
  const result = withReportedUsage(finishImport(live, { format: 'codex', meta, warnings }), replay.usage);
  if (replay.history.length === 0) return result;
  const { reportedUsage: _live, ...historyMeta } = meta;
  const history = finishImport(toDrafts(replay.history, replay), { format: 'codex', meta: historyMeta, warnings: [] });
  const historyLines = new Set(replay.history.map((i) => i.line)).size;
  warnings.push({
    position: 'file',
    message: `${replay.history.length} item${replay.history.length === 1 ? ' is' : 's are'} not sent when the session is resumed (${[
      replay.beforeCompaction > 0 ? `${replay.beforeCompaction} replaced by a compaction` : '',
      replay.rolledBack > 0 ? `${replay.rolledBack} rolled back` : '',
    ]
      .filter(Boolean)
      .join(', ')}): read as history, not counted`,
  });
  return {
    ...result,
    history: { conversation: history.conversation, lines: historyLines, beforeBoundary: replay.beforeCompaction, otherBranches: replay.rolledBack },
  };
}

interface Replay {
  items: Item[];
  history: Item[];
  beforeCompaction: number;
  rolledBack: number;
  /** Texts of `event_msg` user_message events: what the person typed. */
  userTexts: Set<string>;
  /** Summary texts of `compacted` lines. */
  summaries: Set<string>;
  /** token_count events that follow a response, in file order. */
  usage: UsageRecord[];
  /** session_meta's base instructions as a developer message. */
  base?: Item;
  newTypes: NewCodexTypes;
}

function replayRollout(lines: readonly JsonlLine[], meta: ConversationMeta, warnings: ImportWarning[]): Replay {
  let items: Item[] = [];
  const history: Item[] = [];
  let beforeCompaction = 0;
  let rolledBack = 0;
  const userTexts = new Set<string>();
  const summaries = new Set<string>();
  const usage: UsageRecord[] = [];
  const newTypes = new NewCodexTypes();
  let base: Item | undefined;
  /** A response came since the last compaction or rollback: a token_count now is its usage. */
  let answered = false;
  let notObjects = 0;

  // Bookkeeping lines (world_state, token_usage_record, other event_msg kinds) carry nothing the
  // model is sent, and pass silently.
  for (const { line, value } of lines) {
    if (!isObject(value)) {
      if (notObjects++ < MAX_LINE_WARNINGS)
        warnings.push({ position: `line ${line}`, message: `expected a JSON object, found ${describeJsonValue(value)}; line skipped` });
      continue;
    }
    const timestamp = str(value, 'timestamp');
    const type = str(value, 'type');
    const payload = obj(value, 'payload');
    if (type === undefined && looksLikeCodexRolloutLine(value)) {
      sessionMeta(value, meta);
      continue;
    }
    if (payload === undefined) {
      // Older rollouts wrote response items bare; their state lines ({record_type}) carry nothing.
      if (type !== undefined && MODELED_ITEMS.has(type)) {
        items.push({ value, line, ...(timestamp ? { timestamp } : {}) });
        if (isAnswerItem(value)) answered = true;
      }
      continue;
    }
    if (type !== undefined) newTypes.line(type);
    switch (type) {
      case 'session_meta': {
        // The thread's own session_meta comes first; later ones (a fork embeds its parent's) do not
        // change what is sent.
        const text = base === undefined && meta.sessionId === undefined ? baseInstructionsText(payload) : undefined;
        if (text) base = { value: { type: 'message', role: 'developer', id: CODEX_BASE_INSTRUCTIONS_ID, content: [{ type: 'input_text', text }] }, line };
        sessionMeta(payload, meta);
        break;
      }
      case 'turn_context': {
        const model = str(payload, 'model');
        if (model) meta.model = model;
        break;
      }
      case 'response_item':
        newTypes.item(str(payload, 'type') ?? '(no type)');
        items.push({ value: payload, line, ...(timestamp ? { timestamp } : {}) });
        if (isAnswerItem(payload)) answered = true;
        break;
      case 'compacted': {
        const message = str(payload, 'message') ?? '';
        if (message) summaries.add(message);
        const replacement = arr(payload, 'replacement_history');
        const before = items;
        if (replacement) {
          items = replacement.filter(isObject).map((v, index) => ({ value: v, line, index, ...(timestamp ? { timestamp } : {}) }));
        } else {
          const firstUser = before.findIndex((i) => isPersonTurn(i.value, userTexts));
          const initial = firstUser === -1 ? before : before.slice(0, firstUser);
          const users = before.filter((i) => isPersonTurn(i.value, userTexts));
          const summary: Item = {
            value: { type: 'message', role: 'user', content: [{ type: 'input_text', text: message }] },
            line,
            ...(timestamp ? { timestamp } : {}),
          };
          items = [...initial, ...users, summary];
        }
        const kept = new Set(items);
        for (const i of before) {
          if (kept.has(i)) continue;
          history.push(i);
          beforeCompaction++;
        }
        answered = false;
        break;
      }
      case 'event_msg': {
        const kind = str(payload, 'type');
        if (kind !== undefined) newTypes.event(kind);
        const typed = kind === 'user_message' ? str(payload, 'message') : kind === 'item_completed' ? completedUserText(payload) : undefined;
        if (typed) {
          userTexts.add(typed.trim());
          const title = codexTitle(typed);
          if (title) meta.title ??= title;
        } else if (kind === 'token_count') {
          const record = answered ? usageRecord(payload, line) : undefined;
          if (record) usage.push(record);
        } else if (kind === 'thread_rolled_back') {
          const n = num(payload, 'num_turns') ?? 0;
          const dropped = dropLastTurns(items, n, userTexts);
          history.push(...dropped);
          rolledBack += dropped.length;
          items = items.slice(0, items.length - dropped.length);
          answered = false;
        }
        break;
      }
      default:
        break;
    }
  }
  if (notObjects > MAX_LINE_WARNINGS) warnings.push({ position: 'file', message: `${notObjects - MAX_LINE_WARNINGS} more lines were not objects; skipped` });
  if (items.length === 0 && history.length === 0)
    warnings.push({ position: 'file', message: 'the rollout holds no response items (nothing Codex would send)' });
  return { items, history, beforeCompaction, rolledBack, userTexts, summaries, usage, newTypes, ...(base ? { base } : {}) };
}

/** An item the model produced (what a response is made of). */
function isAnswerItem(v: JsonObject): boolean {
  const type = str(v, 'type');
  return type !== undefined && (ASSISTANT_ITEMS.has(type) || (type === 'message' && str(v, 'role') === 'assistant'));
}

function sessionMeta(p: JsonObject, meta: ConversationMeta): void {
  setSessionFacts(meta, { sessionId: str(p, 'id'), cwd: str(p, 'cwd'), agentVersion: str(p, 'cli_version') });
  const provider = str(p, 'model_provider');
  if (provider) meta.modelProvider ??= provider;
  // A rollout we wrote: what it takes over from its original (inherited.ts).
  const ours = obj(p, CODEX_PROVENANCE_FIELD);
  const inherited = ours ? readInherited(ours['inherited']) : undefined;
  if (inherited) meta.inherited = inherited;
  const model = str(p, 'model') ?? inherited?.model;
  if (model) meta.model ??= model;
}

/** The last `n` user turns (from a person's message to the end), as Codex's rollback drops them. */
function dropLastTurns(items: readonly Item[], n: number, userTexts: Set<string>): Item[] {
  if (n <= 0) return [];
  const starts = items.map((i, k) => (isPersonTurn(i.value, userTexts) ? k : -1)).filter((k) => k >= 0);
  if (starts.length === 0) return [];
  const cut = n >= starts.length ? starts[0]! : starts[starts.length - n]!;
  return items.slice(cut);
}

/** A user message a person wrote (what starts a turn): the text Codex recorded as typed, or text
 *  that is not the harness's own — in any of its parts (the IDE extension sends the environment
 *  block and the request as two parts of one message). */
function isPersonTurn(item: JsonObject, userTexts: Set<string>): boolean {
  if (str(item, 'type') !== 'message' || str(item, 'role') !== 'user') return false;
  const text = messageText(item);
  return userTexts.has(text.trim()) || !HARNESS_USER_TEXT.test(text) || personParts(item, userTexts).person.length > 0;
}

/** A user message's content items split into the harness's own and the rest. */
function personParts(item: JsonObject, userTexts: Set<string>): { harness: unknown[]; person: unknown[] } {
  const harness: unknown[] = [];
  const person: unknown[] = [];
  const content = item['content'];
  for (const c of Array.isArray(content) ? content : []) {
    const t = isObject(c) ? str(c, 'text') : undefined;
    if (t !== undefined && t.trim() === '') continue;
    if (t !== undefined && HARNESS_USER_TEXT.test(t) && !userTexts.has(t.trim())) harness.push(c);
    else person.push(c);
  }
  return { harness, person };
}

/** A user message as drafts: one, typed by its text; or, when it holds the harness's own text
 *  beside the person's (an environment block and the request as parts of one message), the
 *  harness's parts as SKILL_METADATA, then the person's as USER_MESSAGE. */
function userDrafts(i: Item, replay: Replay): MessageDraft[] {
  const v = i.value;
  const type = userItemType(messageText(v), replay);
  const split = type === 'SKILL_METADATA' ? personParts(v, replay.userTexts) : undefined;
  if (!split || split.person.length === 0 || split.harness.length === 0) return [plainDraft('user', type, contentParts(v), source(i), i.timestamp)];
  return [
    plainDraft('user', 'SKILL_METADATA', contentParts({ content: split.harness }), source(i), i.timestamp),
    plainDraft('user', 'USER_MESSAGE', contentParts({ content: split.person }), source(i), i.timestamp),
  ];
}

function userItemType(text: string, replay: Replay): ItemType {
  const t = text.trim();
  if (replay.userTexts.has(t)) return 'USER_MESSAGE';
  if (CODEX_SUMMARY.test(t) || [...replay.summaries].some((s) => s.length > 0 && t.includes(s.trim())) || looksLikeCompactionSummary(t))
    return 'COMPACTION_SUMMARY';
  return HARNESS_USER_TEXT.test(t) ? 'SKILL_METADATA' : 'USER_MESSAGE';
}

function toDrafts(items: readonly Item[], replay: Replay): MessageDraft[] {
  const drafts: MessageDraft[] = [];
  let assistant: MessageDraft | undefined;
  const assistantDraft = (i: Item): MessageDraft => {
    if (!assistant) {
      assistant = { role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [], ...(i.timestamp ? { timestamp: i.timestamp } : {}), source: source(i) };
      drafts.push(assistant);
    }
    return assistant;
  };
  const addCall = (i: Item, call: ToolCall) => {
    const d = assistantDraft(i);
    d.toolCalls = [...(d.toolCalls ?? []), call];
  };

  for (const i of items) {
    const v = i.value;
    const type = str(v, 'type') ?? '(no type)';
    if (type === 'message') {
      const role = str(v, 'role');
      const parts = contentParts(v);
      if (role === 'assistant') {
        assistantDraft(i).content.push(...parts);
        continue;
      }
      assistant = undefined;
      if (role === 'developer' || role === 'system') {
        drafts.push(plainDraft('system', 'SYSTEM_PROMPT', parts, { ...source(i), ...(role === 'developer' ? { role } : {}) }, i.timestamp));
      } else {
        drafts.push(...userDrafts(i, replay));
      }
    } else if (type === 'reasoning') {
      const summary = (arr(v, 'summary') ?? []).map((s) => (isObject(s) ? (str(s, 'text') ?? '') : '')).filter(Boolean);
      const content = (arr(v, 'content') ?? []).map((s) => (isObject(s) ? (str(s, 'text') ?? '') : '')).filter(Boolean);
      const signature = str(v, 'encrypted_content');
      const text = [...summary, ...content].join('\n');
      if (text !== '' || signature) assistantDraft(i).content.push({ type: 'thinking', text, ...(signature ? { signature } : {}) });
    } else if (type === 'function_call') {
      addCall(i, {
        id: str(v, 'call_id') ?? str(v, 'id') ?? `codex_${i.line}_${i.index ?? 0}`,
        name: str(v, 'name') ?? 'function',
        arguments: argumentsText(v['arguments']),
      });
    } else if (type === 'custom_tool_call') {
      addCall(i, {
        id: str(v, 'call_id') ?? str(v, 'id') ?? `codex_${i.line}_${i.index ?? 0}`,
        name: str(v, 'name') ?? 'custom_tool',
        arguments: argumentsText(v['input']),
      });
    } else if (type === 'local_shell_call') {
      addCall(i, {
        id: str(v, 'call_id') ?? str(v, 'id') ?? `codex_${i.line}_${i.index ?? 0}`,
        name: 'local_shell',
        arguments: argumentsText(v['action'] ?? {}),
      });
    } else if (type === 'web_search_call') {
      const action = obj(v, 'action');
      const query = action ? str(action, 'query') : undefined;
      assistantDraft(i).content.push({ type: 'text', text: `[web search${query ? `: ${query}` : ''}]` });
    } else if (OUTPUT_ITEMS.has(type)) {
      assistant = undefined;
      const { parts, isError } = outputParts(v['output']);
      drafts.push(toolResultDraft(str(v, 'call_id') ?? '', parts, isError, source(i), i.timestamp ? { timestamp: i.timestamp } : {}));
    } else if (itemKind(type) === 'counted') {
      // Sent to the model, not modeled: its text is counted within the turn it belongs to.
      assistantDraft(i).content.push({ type: 'text', text: countedItemText(v) });
    }
  }
  for (const d of drafts) if (d.role === 'assistant') d.itemType = assistantItemType(d.content, (d.toolCalls?.length ?? 0) > 0);
  return drafts;
}

function source(i: Item) {
  const id = str(i.value, 'id');
  return sourceMeta('codex', { line: i.line, ...(i.index !== undefined ? { index: i.index } : {}), ...(id ? { sourceId: id } : {}) });
}
