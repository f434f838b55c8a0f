// Gemini CLI sessions: `~/.gemini/tmp/<project>/chats/session-<minute>-<id8>.jsonl` (and the single
// JSON documents older versions wrote, `session-….json`), read as Gemini CLI resumes them
// (`loadConversationRecord`, then `convertSessionToClientHistory`, in 0.61):
//
// - Records are applied in file order. A header `{sessionId, projectHash, startTime, lastUpdated,
//   kind}` (written again by each resume in the same minute) sets the session's facts; a message
//   `{id, timestamp, type, content}` is added — or, when a message with its id is there already,
//   replaces it where it stands (a tool turn is written twice, the second time with `toolCalls`);
//   `{"$set": {…}}` patches the facts (`summary` is the title) and `{"$set": {"messages": […]}}`
//   REPLACES the whole list (each resume writes the history again; a compression writes the
//   summary and what it kept); `{"$rewindTo": id}` drops that message and every later one.
// - What is sent: `info`, `error` and `warning` messages never are; a user message whose text
//   starts with `/`, `?`, `<session_context>` or `<hook_context>` (or is empty) is dropped — the
//   CLI puts a fresh `<session_context>` (date, OS, workspace tree) first, read here as context
//   (SKILL_METADATA) from the stored one; a `gemini` message is its content parts, its `thoughts`
//   and a functionCall per `toolCalls` entry, followed by the results those entries hold as a user
//   turn of functionResponse parts (so a tool turn in the history a resume loaded — a `$set` of
//   messages — is sent with its results twice, its user record of them being the copy: read as the
//   harness's words, SKILL_METADATA marked resent — counted as sent, left out of a session written
//   back — and said; recorded since the resume, the two records are the one result sent once).
// - A user message holding a compression summary (`<state_snapshot>…`, Gemini CLI's own, or the 8
//   sections) is COMPACTION_SUMMARY; the model's "Got it…" after it is an ordinary answer.
// - Messages a `$set` of messages or a rewind took out, and the user messages the CLI drops, are
//   ImportResult.history (counted, not sent).
// meta.reportedUsage: `tokens.input` of the last gemini message sent that records one (the
// prompt of the request it answered; `cached` is part of it); meta.firstReportedUsage, the first
// one's, on which a session written back measures its overhead (a resume sends earlier tool
// results again, more often than the file shows). meta.model: the last gemini
// message's `model`; meta.sessionId from the header; meta.title from `$set.summary`;
// meta.inherited from the header of a session we wrote. The file names no working directory (only
// its sha256, projectHash) and no CLI version.

import type { ConversationMeta, ImportResult, ImportWarning, ItemType, ReportedUsage } from '../model';
import { GEMINI_PROVENANCE_FIELD } from '../exporters/geminiSession';
import { RESENT_EXTRA } from '../exporters/sessionParts';
import { readInherited } from '../inherited';
import { plainDraft, setSessionFacts, sourceMeta } from './contentParts';
import { MAX_LINE_WARNINGS } from './claudeCodeEntries';
import { finishImport } from './finish';
import { assistantDraft, CallIds, modelTurn, partList, partsText, userTurnDrafts } from './geminiParts';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, parseJsonl, stripBom, type JsonlLine } from './jsonText';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import { tokenField } from './reportedUsage';
import { looksLikeCompactionSummary } from './summaryRecognition';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

/** User text Gemini CLI does not send again when it resumes a session (tested trimmed). */
export const GEMINI_NOT_RESUMED = /^(?:\/|\?|<session_context>|<hook_context>)/;
const SESSION_CONTEXT = /^<session_context>/;
const STATE_SNAPSHOT = /^<state_snapshot>/;

/** A session file's header: `{sessionId, projectHash, …}`, no message fields. */
export function looksLikeGeminiSessionHeader(v: unknown): boolean {
  return isObject(v) && typeof v['sessionId'] === 'string' && typeof v['projectHash'] === 'string' && !('type' in v) && !('uuid' in v);
}

/** A session of the older versions: one JSON document, the header with its `messages`. */
export function looksLikeGeminiSessionDocument(v: unknown): boolean {
  return looksLikeGeminiSessionHeader(v) && Array.isArray((v as JsonObject)['messages']);
}

interface Entry {
  record: JsonObject;
  line: number;
  /** Position in the list of a `$set` of messages or a document. */
  index?: number;
}

interface Replay {
  live: Map<string, Entry>;
  /** Taken out by a `$set` of messages, or rewound, by id (the last version). */
  gone: Map<string, { entry: Entry; rewound: boolean }>;
  header: boolean;
}

export function importGeminiCli(text: string, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const clean = stripBom(text);
  const jsonl = parseJsonl(clean);
  const firstGood = jsonl.lines[0];
  const warnings: ImportWarning[] = [];
  let lines: readonly JsonlLine[] = jsonl.lines;
  if (!firstGood || jsonl.bad.some((b) => b.line < firstGood.line)) {
    // Not JSON lines from the first: one JSON document (older versions), or an error naming where.
    lines = [{ line: 1, value: parseJsonDocument(clean, file) }];
  } else {
    jsonl.bad.slice(0, MAX_LINE_WARNINGS).forEach((b) => warnings.push({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); line skipped` }));
  }
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const replay = replayRecords(lines, meta, warnings);
  if (!replay.header && replay.live.size === 0 && replay.gone.size === 0) {
    throw new TranscriptError({
      file,
      position: 'line 1',
      expected: 'a Gemini CLI session (a header {sessionId, projectHash} and message records {id, type, content})',
      found: describeJsonValue(lines[0]?.value),
    });
  }
  if (!replay.header) warnings.push({ position: 'file', message: 'no session header (sessionId, projectHash): Gemini CLI does not resume this file' });

  const live = toDrafts([...replay.live.values()]);
  if (live.model ?? meta.inherited?.model) meta.model = live.model ?? meta.inherited?.model;
  const result = finishImport(live.drafts, { format: 'gemini-cli', meta, warnings });
  const tied = (usage: RecordedUsage | undefined): ReportedUsage | undefined => {
    const answer = usage && [...result.conversation.messages].reverse().find((m) => m.role === 'assistant' && m.source?.sourceId === usage.recordId);
    return answer ? { ...usage.figure, atMessageId: answer.id } : undefined;
  };
  const last = tied(live.usage);
  if (last) result.conversation.meta.reportedUsage = last;
  const first = live.firstUsage === live.usage ? last : tied(live.firstUsage);
  if (first) result.conversation.meta.firstReportedUsage = first;
  if (live.repeats > 0)
    warnings.push({
      position: 'file',
      message: `${live.repeats} tool result${live.repeats === 1 ? ' is' : 's are'} sent twice (Gemini CLI resends the results of a tool turn recorded before a resume): the copies are counted as sent, and left out of a session written back`,
    });

  const dropped = [...replay.gone.values()].filter((g) => !replay.live.has(String(g.entry.record['id'])));
  const historyEntries = [...dropped.map((g) => g.entry), ...live.notResumed].sort((a, b) => a.line - b.line || (a.index ?? 0) - (b.index ?? 0));
  if (historyEntries.length === 0) return result;
  const rewound = dropped.filter((g) => g.rewound).length;
  const replaced = dropped.length - rewound;
  const { reportedUsage: _live, firstReportedUsage: _first, ...historyMeta } = meta;
  const history = finishImport(toDrafts(historyEntries, true).drafts, { format: 'gemini-cli', meta: historyMeta, warnings: [] });
  warnings.push({
    position: 'file',
    message: `${historyEntries.length} message${historyEntries.length === 1 ? ' is' : 's are'} not sent when the session is resumed (${[
      replaced > 0 ? `${replaced} replaced by a compression or a later snapshot` : '',
      rewound > 0 ? `${rewound} rewound` : '',
      live.notResumed.length > 0 ? `${live.notResumed.length} starting with /, ? or <hook_context>, which Gemini CLI drops` : '',
    ]
      .filter(Boolean)
      .join(', ')}): read as history, not counted`,
  });
  return {
    ...result,
    history: {
      conversation: history.conversation,
      lines: new Set(historyEntries.map((e) => e.line)).size,
      beforeBoundary: replaced,
      otherBranches: rewound + live.notResumed.length,
    },
  };
}

function replayRecords(lines: readonly JsonlLine[], meta: ConversationMeta, warnings: ImportWarning[]): Replay {
  const live = new Map<string, Entry>();
  const gone: Replay['gone'] = new Map();
  let header = false;
  let unknown = 0;
  const take = (id: string, rewound: boolean) => {
    gone.set(id, { entry: live.get(id)!, rewound });
    live.delete(id);
  };
  const addList = (list: unknown[], line: number) =>
    list.forEach((m, index) => {
      if (isObject(m) && typeof m['id'] === 'string') live.set(m['id'], { record: m, line, index });
    });
  const facts = (o: JsonObject) => {
    setSessionFacts(meta, { sessionId: str(o, 'sessionId') });
    const summary = str(o, 'summary');
    if (summary) meta.title = summary;
    // A session we wrote: what it takes over from its original (inherited.ts).
    const ours = obj(o, GEMINI_PROVENANCE_FIELD);
    const inherited = ours ? readInherited(ours['inherited']) : undefined;
    if (inherited) meta.inherited = inherited;
  };
  for (const { line, value } of lines) {
    if (!isObject(value)) {
      if (unknown++ < MAX_LINE_WARNINGS)
        warnings.push({ position: `line ${line}`, message: `expected a JSON object, found ${describeJsonValue(value)}; line skipped` });
      continue;
    }
    if (typeof value['$rewindTo'] === 'string') {
      const ids = [...live.keys()];
      const at = ids.indexOf(value['$rewindTo']);
      for (const id of at === -1 ? ids : ids.slice(at)) take(id, true);
    } else if (typeof value['id'] === 'string') {
      // Map.set keeps a replaced message where it stood, as the CLI's own map does.
      live.set(value['id'], { record: value, line });
    } else if (isObject(value['$set'])) {
      const set = value['$set'];
      const list = arr(set, 'messages');
      if (list) {
        for (const id of [...live.keys()]) take(id, false);
        addList(list, line);
      }
      facts(set);
    } else if (typeof value['sessionId'] === 'string' && typeof value['projectHash'] === 'string') {
      header = true;
      facts(value);
      const list = arr(value, 'messages');
      if (list) addList(list, line);
    } else if (unknown++ < MAX_LINE_WARNINGS) {
      warnings.push({ position: `line ${line}`, message: 'not a Gemini CLI record (a header, a message with an id, $set or $rewindTo); line skipped' });
    }
  }
  return { live, gone, header };
}

interface Drafts {
  drafts: MessageDraft[];
  notResumed: Entry[];
  repeats: number;
  /** The last gemini message's model. */
  model?: string;
  /** The usage of the last and of the first request recorded. */
  usage?: RecordedUsage;
  firstUsage?: RecordedUsage;
}

/** A request's usage, on the gemini record that answered it. */
interface RecordedUsage {
  recordId: string;
  figure: Omit<ReportedUsage, 'atMessageId'>;
}

/** The messages as Gemini CLI sends them (`all`: every user message, for the history). */
function toDrafts(entries: readonly Entry[], all = false): Drafts {
  const out: Drafts = { drafts: [], notResumed: [], repeats: 0 };
  const ids = new CallIds();
  let context = false;
  for (const entry of entries) {
    const r = entry.record;
    const id = String(r['id']);
    const type = str(r, 'type');
    const source = sourceMeta('gemini-cli', { line: entry.line, index: entry.index, sourceId: id });
    const timestamp = str(r, 'timestamp');
    if (type === 'user') {
      const text = partsText(r['content']).trim();
      if (text === '') continue;
      if (SESSION_CONTEXT.test(text)) {
        // The CLI renders one anew, first, when it resumes: the stored one stands for it (and, as
        // a reminder the agent renders itself, is left out of a session written back).
        const rendered = { ...source, extra: { attachment: 'session_context' } };
        if (!context || all) out.drafts.push(plainDraft('user', 'SKILL_METADATA', [{ type: 'text', text }], rendered, timestamp));
        context = true;
        continue;
      }
      if (!all && GEMINI_NOT_RESUMED.test(text)) {
        out.notResumed.push(entry);
        continue;
      }
      const itemType: ItemType = STATE_SNAPSHOT.test(text) || looksLikeCompactionSummary(text) ? 'COMPACTION_SUMMARY' : 'USER_MESSAGE';
      // In the history a resume loaded (a $set of messages), a tool turn's results are sent twice:
      // from the gemini message's toolCalls and from this record; recorded since, once.
      out.drafts.push(...userTurnDrafts(partList(r['content']), ids, itemType, source, timestamp, entry.index !== undefined));
    } else if (type === 'gemini') {
      const parts = partList(r['content']);
      const inContent = parts.some((p) => isObject(p) && (isObject(p['functionCall']) || p['thought'] === true));
      const calls = inContent ? [] : (arr(r, 'toolCalls') ?? []).filter(isObject);
      const turn = modelTurn(inContent ? parts : [...thoughtParts(r), ...parts, ...calls.map(callPart)], ids, id);
      const draft = assistantDraft(turn, source, timestamp);
      if (draft) out.drafts.push(draft);
      out.model = str(r, 'model') ?? out.model;
      const results = calls.flatMap(resultParts);
      if (draft && results.length > 0) out.drafts.push(...userTurnDrafts(results, ids, 'USER_MESSAGE', { ...source, sourceId: `${id}_response` }, timestamp));
      const tokens = obj(r, 'tokens');
      const input = tokens ? tokenField(tokens, 'input') : undefined;
      if (draft && tokens && input !== undefined && input > 0) {
        const cached = tokenField(tokens, 'cached');
        const output = tokenField(tokens, 'output');
        out.usage = {
          recordId: id,
          figure: {
            tokens: input,
            source: 'gemini-cli',
            ...(entry.index === undefined ? { line: entry.line } : { index: entry.index }),
            parts: { input, ...(cached !== undefined ? { cacheRead: cached } : {}), ...(output !== undefined ? { output } : {}) },
          },
        };
        out.firstUsage ??= out.usage;
      }
    }
    // info, error and warning messages are the CLI's own notes: never sent.
  }
  out.repeats = out.drafts.filter((d) => d.source?.extra?.[RESENT_EXTRA] !== undefined).length;
  return out;
}

/** A gemini message's `thoughts` ({subject, description}) as the CLI sends them: thought parts. */
function thoughtParts(r: JsonObject): JsonObject[] {
  return (arr(r, 'thoughts') ?? []).filter(isObject).map((t) => {
    const subject = str(t, 'subject');
    const description = str(t, 'description') ?? '';
    return { text: subject ? `**${subject}** ${description}` : description, thought: true };
  });
}

function callPart(c: JsonObject): JsonObject {
  return { functionCall: { id: str(c, 'id'), name: str(c, 'name') ?? 'function', args: c['args'] ?? {} } };
}

/** The functionResponse parts a `toolCalls` entry's `result` holds (text is its output). */
function resultParts(c: JsonObject): unknown[] {
  const result = c['result'];
  if (typeof result === 'string') return [{ functionResponse: { id: str(c, 'id'), name: str(c, 'name'), response: { output: result } } }];
  return result === undefined || result === null ? [] : partList(result);
}
