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

import type { ConversationMeta, ImportResult, ImportWarning, ToolCall } from '../model';
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

/** The messages of one read, the models its banners name (in order) and its usage records. */
interface ReadSessions {
  drafts: MessageDraft[];
  models: string[];
  usage: UsageRecord[];
}

/** An output run opening a session right after an assistant message of the session before: read
 *  with that session it answers that message's call, read alone it needs a synthetic call. */
interface OpeningRun {
  prev: MessageDraft;
  call: ToolCall;
  synthetic: MessageDraft;
}

/**
 * An aider history read a piece at a time, in one pass: push() its text cut anywhere, then end()
 * gives what importAider gives for the whole text. A 50 MB history read from a file in pieces is
 * never one string (two bytes a character once it holds one character beyond Latin-1), which
 * would stay in the heap, dead, long after the import.
 *
 * Lines are split as text.split(/\r?\n/) splits them. Every session is read on: at each session
 * header the one read so far becomes "earlier", so the last header starts the live session.
 */
export class AiderReader {
  private readonly whole: boolean;
  /** The part of the last line not ended yet. */
  private carry = '';
  private lineIndex = 0;
  private headers = 0;
  /** The 0-based line of the last session header (where the live session starts). */
  private lastHeader = 0;
  /** Whether a line before the first session header has words: a first session needs no header. */
  private wordsBefore = false;
  private readonly drafts: MessageDraft[] = [];
  private readonly models: string[] = [];
  /** The usage records of the session read last (only the live session's are kept). */
  private usage: UsageRecord[] = [];
  /** Where the session read last starts in drafts and models. */
  private sessionDrafts = 0;
  private sessionModels = 0;
  private opening: OpeningRun | undefined;
  private timestamp: string | undefined;
  private kind: Kind | undefined;
  private buf: string[] = [];
  private startLine = 0;
  /** Blank lines seen after an output run, kept only if the run continues. */
  private blanksInOutput = 0;

  constructor(private readonly opts: ImportOptions = {}) {
    this.whole = !!opts.wholeFile;
  }

  /** The next piece of the history's text. */
  push(text: string): void {
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', pos)) {
      let line = text.slice(pos, nl);
      if (this.carry !== '') {
        line = this.carry + line;
        this.carry = '';
      }
      this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
      pos = nl + 1;
    }
    if (pos < text.length) this.carry += text.slice(pos);
  }

  /** The import of everything pushed. */
  end(): ImportResult {
    this.line(this.carry);
    this.carry = '';
    this.flush();
    const opts = this.opts;
    const cut = this.whole ? 0 : this.lastHeader;
    const liveDrafts = this.drafts.slice(this.sessionDrafts);
    if (this.opening) liveDrafts.unshift(this.opening.synthetic);
    const live: ReadSessions = { drafts: liveDrafts, models: this.models.slice(this.sessionModels), usage: this.usage };
    const meta: ConversationMeta = {};
    if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
    const warnings: ImportWarning[] = [];
    // Chat sessions before the live one (a first session needs no header: text before the first one).
    const sessions = (cut > 0 ? this.headers - 1 : 0) + (this.wordsBefore ? 1 : 0);
    if (cut === 0 || sessions === 0) {
      if (live.models[0]) meta.model = live.models[0];
      if (live.drafts.length === 0) warnings.push({ position: 'file', message: 'no aider messages found' });
      return withReportedUsage(finishImport(live.drafts, { format: 'aider', meta, warnings }), live.usage);
    }
    const earlier = { drafts: this.drafts.slice(0, this.sessionDrafts), models: this.models.slice(0, this.sessionModels) };
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

  private line(line: string): void {
    const i = this.lineIndex++;
    const lineNo = i + 1;
    const session = SESSION.exec(line);
    if (session) {
      this.flush();
      if (!this.whole) {
        // The session read so far becomes an earlier one; its opening run answers the call before it.
        if (this.opening) this.opening.prev.toolCalls = [this.opening.call];
        this.opening = undefined;
        this.sessionDrafts = this.drafts.length;
        this.sessionModels = this.models.length;
        this.usage = [];
        this.lastHeader = i;
      }
      this.headers++;
      this.timestamp = `${session[1]}T${session[2]}`;
      return;
    }
    if (this.headers === 0 && !this.wordsBefore && line.trim() !== '') this.wordsBefore = true;
    if (USER.test(line)) {
      this.begin('user', lineNo);
      this.buf.push(line.slice(5).replace(TRAILING_BREAK, ''));
      return;
    }
    if (OUTPUT.test(line)) {
      if (this.kind === 'output') for (; this.blanksInOutput > 0; this.blanksInOutput--) this.buf.push('');
      this.begin('output', lineNo);
      this.buf.push(line.slice(2).replace(TRAILING_BREAK, ''));
      return;
    }
    if (line.trim() === '') {
      if (this.kind === 'user') this.flush();
      else if (this.kind === 'output') this.blanksInOutput++;
      else if (this.kind === 'assistant') this.buf.push('');
      return;
    }
    this.begin('assistant', lineNo);
    this.buf.push(line);
  }

  private begin(k: Kind, lineNo: number): void {
    if (this.kind !== k) {
      this.flush();
      this.kind = k;
      this.startLine = lineNo;
    }
  }

  // Every body is a copy of its own (compactString): one cut from the history would keep the
  // whole history's text alive as long as the conversation.
  private flush(): void {
    const kind = this.kind;
    if (kind === undefined) return;
    const { drafts, buf, timestamp } = this;
    const at = this.startLine;
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
      const synthetic = (): MessageDraft => ({
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: [],
        toolCalls: [call],
        ...(timestamp ? { timestamp } : {}),
        source: sourceMeta('aider', { line: at, extra: { synthetic: true } }),
      });
      if (prev && prev.role === 'assistant' && !prev.toolCalls) {
        // Before the session read last: decided by whether a later header makes this one earlier.
        if (!this.whole && drafts.length - 1 < this.sessionDrafts) this.opening = { prev, call, synthetic: synthetic() };
        else prev.toolCalls = [call];
      } else {
        drafts.push(synthetic());
      }
      buf.forEach((l, k) => {
        const m = MAIN_MODEL.exec(l);
        if (m) this.models.push(compactString(m[1]!));
        const record = this.whole ? undefined : tokensRecord(l, at + k);
        if (record) this.usage.push(record);
      });
      drafts.push(
        toolResultDraft(id, textParts(body), false, sourceMeta('aider', { line: at }), { toolName: AIDER_TOOL_NAME, ...(timestamp ? { timestamp } : {}) }),
      );
    }
    this.kind = undefined;
    this.buf = [];
    this.blanksInOutput = 0;
  }
}

export function importAider(text: string, opts: ImportOptions = {}): ImportResult {
  const reader = new AiderReader(opts);
  reader.push(text);
  return reader.end();
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
