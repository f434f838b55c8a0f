// aider's .aider.chat.history.md.
//
// `# aider chat started at <time>` opens a session; its time stamps the session's messages.
// A run of consecutive `#### ` lines is ONE user message (prefix stripped; aider ends every line
// with two spaces, a Markdown line break, which are stripped too). A run of `> ` lines (blank lines
// inside the run allowed) is aider's own output: the startup banner, "Tokens: … sent", "Applied
// edit to …", "Commit …", /run output, y/n prompts. Everything else is the assistant (SEARCH/REPLACE
// markers such as `>>>>>>> REPLACE` have no space after the first '>' and stay assistant text).
//
// aider's output is neither the user's words nor the model's, and a tool result without a call
// would be invalid for the APIs. So each `> ` run is the TOOL_RESULT of a call named 'aider'
// (arguments {}, id `aider_<line>`) made by the assistant message right before it; when the message
// right before is not an assistant's (the startup banner, output of a /command), a synthetic
// assistant message holding only that call is inserted (source.extra.synthetic). Token counts
// therefore include a few tokens of call overhead per output run.
//
// What is read is the last chat session: aider sends a new session none of the earlier ones (they
// are only restored with --restore-chat-history, and then summarized). Earlier sessions are
// ImportResult.history, with a warning that counts them; `wholeFile` reads every session.
// conversation.meta.model: the live session's first `Main model: <id> with …` (or `Model: <id>
// with …`) line, else the last one of an earlier session.
// conversation.meta.reportedUsage: the live session's last `> Tokens: 4.6k sent, …` line — what
// aider sent for the request its assistant message before that line answers (system prompt, repo
// map and the files in the chat included), printed rounded (±50 under 10k, ±500 above).

import type { ConversationMeta, ImportResult, ImportWarning } from '../model';
import { plainDraft, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { compactString } from '../../text/compactString';

const SESSION = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;
const USER = /^####(?: |$)/;
const OUTPUT = /^>(?: |$)/;
/** aider prints "Main model: <id> with …" (or "Model: <id> with …" when there is no weak model). */
const MAIN_MODEL = /^(?:Main )?[Mm]odel: (\S+) with /;
const TRAILING_BREAK = / {2}$/;
/** `Tokens: 4.6k sent, 1.2k cache write, 3.4k cache hit, 520 received.` (older versions: `1,234 sent`). */
const TOKENS = /^Tokens: ([\d.,]+k?) sent(?:, ([\d.,]+k?) cache write)?(?:, ([\d.,]+k?) cache hit)?(?:, ([\d.,]+k?) received)?/;
export const AIDER_TOOL_NAME = 'aider';

type Kind = 'user' | 'assistant' | 'output';

/** Calls `line` with each line of `text` from 0-based line `from` to `to` (exclusive; the end by
 *  default) and its number, as text.split(/\r?\n/) would give them: a history of a million lines
 *  is read without an array of them (40 MB for a 50 MB history). */
function forEachLine(text: string, line: (l: string, i: number) => void, from = 0, to = Number.POSITIVE_INFINITY): void {
  let pos = 0;
  let i = 0;
  for (; i < from; i++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return;
    pos = nl + 1;
  }
  for (; i < to; i++) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    line(text.slice(pos, end), i);
    if (nl < 0) return;
    pos = nl + 1;
  }
}

export function importAider(text: string, opts: ImportOptions = {}): ImportResult {
  const starts: number[] = [];
  /** Whether a line before the first session header has words: a first session needs no header. */
  let wordsBefore = false;
  forEachLine(text, (l, i) => {
    if (SESSION.test(l)) starts.push(i);
    else if (starts.length === 0 && l.trim() !== '') wordsBefore = true;
  });
  const cut = opts.wholeFile ? 0 : (starts[starts.length - 1] ?? 0);
  const live = readSessions(text, cut, Number.POSITIVE_INFINITY, !opts.wholeFile);
  const meta: ConversationMeta = {};
  if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
  const warnings: ImportWarning[] = [];
  // Chat sessions before the live one (a first session needs no header: text before the first one).
  const sessions = starts.filter((i) => i < cut).length + (wordsBefore ? 1 : 0);
  if (cut === 0 || sessions === 0) {
    if (live.models[0]) meta.model = live.models[0];
    if (live.drafts.length === 0) warnings.push({ position: 'file', message: 'no aider messages found' });
    return withReportedUsage(finishImport(live.drafts, { format: 'aider', meta, warnings }), live.usage);
  }
  const earlier = readSessions(text, 0, cut, false);
  const model = live.models[0] ?? earlier.models[earlier.models.length - 1];
  if (model) meta.model = model;
  warnings.push({
    position: `lines 1-${cut}`,
    message: `${sessions} earlier chat session${sessions === 1 ? ' is' : 's are'} not sent (aider starts each session afresh): read as history, not counted; --whole-file reads every session`,
  });
  if (live.drafts.length === 0) warnings.push({ position: `line ${cut + 1}`, message: 'the last chat session holds no messages yet' });
  const result = withReportedUsage(finishImport(live.drafts, { format: 'aider', meta, warnings }), live.usage);
  const historyMeta: ConversationMeta = {
    ...(opts.sourcePath ? { sourcePath: opts.sourcePath } : {}),
    ...(earlier.models[0] ? { model: earlier.models[0] } : {}),
  };
  const history = finishImport(earlier.drafts, { format: 'aider', meta: historyMeta, warnings: [] });
  return { ...result, history: { conversation: history.conversation, lines: cut, beforeBoundary: cut, otherBranches: 0, earlierSessions: sessions } };
}

interface ReadSessions {
  drafts: MessageDraft[];
  /** The models the banners name, in order. */
  models: string[];
  usage: UsageRecord[];
}

/** The messages of the lines [from, to) of the file (0-based). */
function readSessions(text: string, from: number, to: number, readUsage: boolean): ReadSessions {
  const drafts: MessageDraft[] = [];
  const models: string[] = [];
  const usage: UsageRecord[] = [];
  let timestamp: string | undefined;
  let kind: Kind | undefined;
  let buf: string[] = [];
  let startLine = 0;
  /** Blank lines seen after an output run, kept only if the run continues. */
  let blanksInOutput = 0;

  // Every body is a copy of its own (compactString): one cut from the history would keep the
  // whole history's text alive as long as the conversation.
  const flush = () => {
    if (kind === undefined) return;
    const at = startLine;
    if (kind === 'user') {
      drafts.push(
        plainDraft('user', 'USER_MESSAGE', textParts(compactString(buf.join('\n').replace(/\s+$/, ''))), sourceMeta('aider', { line: at }), timestamp),
      );
    } else if (kind === 'assistant') {
      const body = compactString(buf.join('\n').trim());
      if (body !== '') drafts.push(plainDraft('assistant', 'ASSISTANT_MESSAGE', textParts(body), sourceMeta('aider', { line: at }), timestamp));
    } else {
      const body = compactString(buf.join('\n').replace(/\s+$/, ''));
      const id = `aider_${at}`;
      const call = { id, name: AIDER_TOOL_NAME, arguments: '{}' };
      const prev = drafts[drafts.length - 1];
      if (prev && prev.role === 'assistant' && !prev.toolCalls) {
        prev.toolCalls = [call];
      } else {
        drafts.push({
          role: 'assistant',
          itemType: 'ASSISTANT_MESSAGE',
          content: [],
          toolCalls: [call],
          ...(timestamp ? { timestamp } : {}),
          source: sourceMeta('aider', { line: at, extra: { synthetic: true } }),
        });
      }
      buf.forEach((l, k) => {
        const m = MAIN_MODEL.exec(l);
        if (m) models.push(compactString(m[1]!));
        const record = readUsage ? tokensRecord(l, at + k) : undefined;
        if (record) usage.push(record);
      });
      drafts.push(
        toolResultDraft(id, textParts(body), false, sourceMeta('aider', { line: at }), { toolName: AIDER_TOOL_NAME, ...(timestamp ? { timestamp } : {}) }),
      );
    }
    kind = undefined;
    buf = [];
    blanksInOutput = 0;
  };
  const begin = (k: Kind, lineNo: number) => {
    if (kind !== k) {
      flush();
      kind = k;
      startLine = lineNo;
    }
  };

  forEachLine(
    text,
    (line, i) => {
      const lineNo = i + 1;
      const session = SESSION.exec(line);
      if (session) {
        flush();
        timestamp = `${session[1]}T${session[2]}`;
        return;
      }
      if (USER.test(line)) {
        begin('user', lineNo);
        buf.push(line.slice(5).replace(TRAILING_BREAK, ''));
        return;
      }
      if (OUTPUT.test(line)) {
        if (kind === 'output') for (; blanksInOutput > 0; blanksInOutput--) buf.push('');
        begin('output', lineNo);
        buf.push(line.slice(2).replace(TRAILING_BREAK, ''));
        return;
      }
      if (line.trim() === '') {
        if (kind === 'user') flush();
        else if (kind === 'output') blanksInOutput++;
        else if (kind === 'assistant') buf.push('');
        return;
      }
      begin('assistant', lineNo);
      buf.push(line);
    },
    from,
    to,
  );
  flush();
  return { drafts, models, usage };
}

/** A `Tokens: … sent` line of an output run (at file line `line`) as a record answered by the
 *  assistant message before it; the figures are aider's rounded ones. */
function tokensRecord(text: string, line: number): UsageRecord | undefined {
  const m = TOKENS.exec(text);
  if (!m) return undefined;
  const sent = aiderTokens(m[1]!);
  if (!sent || sent.value === 0) return undefined;
  const write = m[2] ? aiderTokens(m[2]) : undefined;
  const hit = m[3] ? aiderTokens(m[3]) : undefined;
  const received = m[4] ? aiderTokens(m[4]) : undefined;
  return {
    usage: {
      tokens: sent.value,
      source: 'aider',
      line,
      parts: {
        input: sent.value,
        ...(write ? { cacheWrite: write.value } : {}),
        ...(hit ? { cacheRead: hit.value } : {}),
        ...(received ? { output: received.value } : {}),
      },
      ...(sent.rounding > 0 ? { rounding: sent.rounding } : {}),
    },
    answer: { line, match: 'atOrBefore' },
  };
}

/** aider's token figures: `950`, `1,234`, `4.6k` (±50), `18k` (±500). */
export function aiderTokens(text: string): { value: number; rounding: number } | undefined {
  const k = text.endsWith('k');
  const digits = (k ? text.slice(0, -1) : text).replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(digits)) return undefined;
  const n = Number(digits);
  if (!k) return { value: Math.round(n), rounding: 0 };
  const decimals = digits.includes('.') ? digits.length - digits.indexOf('.') - 1 : 0;
  return { value: Math.round(n * 1000), rounding: 500 / 10 ** decimals };
}

export function looksLikeAider(text: string): boolean {
  return /^# aider chat started at /m.test(text.slice(0, 65_536)) || /^#### /m.test(text.slice(0, 4_096));
}
