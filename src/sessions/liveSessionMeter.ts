// The meter of one session as its agent writes it, for the status bar that follows the live
// session. A JSONL session (Claude Code, Codex, a chat session log) is followed: each update reads
// only the bytes appended since the last one (JsonlFollower). A Claude Code session or a Codex
// rollout keeps its lines parsed, so an update parses only the new lines, imports from the parsed
// ones and counts only what changed: the messages that came out equal to the last update's are the
// last update's objects, whose counts the counter remembers. Any other JSONL is imported again from
// its lines held as text; any other session file (Cline's JSON, which its agent rewrites whole) is
// read again. Updates are asynchronous and serialized by the follower; an update that finds
// nothing new says so (`changed: false`).

import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { agentLogFormat, importSessionLines } from '../engine/conversation/importers/detect';
import { JsonlParser } from '../engine/conversation/importers/jsonText';
import { isTranscriptError } from '../engine/conversation/importers/transcriptError';
import type { ImportResult, Message } from '../engine/conversation/model';
import type { AgentSession, FoundSession } from './agentSession';
import { JsonlFollower } from './jsonlFollower';
import { importSessionText, meterRead, readSession, SESSION_MAX_BYTES, type CounterFor, type SessionRead } from './sessionCatalog';

export interface LiveMeterUpdate {
  session: AgentSession;
  /** False when nothing was appended since the last update (the session is the same object). */
  changed: boolean;
  /** The session as its agent resumes it, from the same read (none for an empty file or one that
   *  could not be read): the extension shows this conversation in its meter. */
  result?: ImportResult;
}

/** How the lines read so far are kept: parsed (an agent log read as lines), or as text (anything
 *  else, imported whole each time), or not decided yet (no line with anything in it so far). */
type Lines = { kind: 'undecided' } | { kind: 'parsed'; format: 'claude-code' | 'codex'; parser: JsonlParser } | { kind: 'text'; lines: string[] };

export class LiveSessionMeter {
  private readonly follower: JsonlFollower | undefined;
  private kept: Lines = { kind: 'undecided' };
  /** Lines read since the start (text mode needs them all; the others the blank ones before the first). */
  private pending: string[] = [];
  private nul = false;
  private last: AgentSession | undefined;
  private lastResult: ImportResult | undefined;
  private lastMessages: { live: readonly Message[]; history: readonly Message[] } = { live: [], history: [] };

  constructor(
    private readonly found: FoundSession,
    private readonly counterFor: CounterFor,
  ) {
    this.follower = extname(found.file) === '.jsonl' ? new JsonlFollower(found.file) : undefined;
  }

  async update(): Promise<LiveMeterUpdate> {
    if (!this.follower) {
      const s = await stat(this.found.file).catch(() => undefined);
      if (this.last && s && s.size === this.last.size && s.mtimeMs === this.last.mtimeMs) return this.unchanged(this.last);
      const found = s ? { ...this.found, size: s.size, mtimeMs: s.mtimeMs } : this.found;
      const read = await readSession(found, SESSION_MAX_BYTES);
      return this.settle(await meterRead(found, read, this.counterFor), read);
    }
    const r = await this.follower.read();
    if (r.reset) this.restart();
    for (const line of r.lines) this.take(line);
    if (this.last && !r.reset && r.lines.length === 0) return this.unchanged(this.last);
    const s = await stat(this.found.file).catch(() => undefined);
    const found = { ...this.found, size: r.offset, mtimeMs: s?.mtimeMs ?? Date.now() };
    const read: SessionRead = r.missing
      ? { error: `${this.found.file}: the session file is gone` }
      : this.nul
        ? { error: `${this.found.file}: expected text (UTF-8), found a NUL byte: this looks like a binary file` }
        : this.importLines(found);
    return this.settle(await meterRead(found, read, this.counterFor), read);
  }

  private restart(): void {
    this.kept = { kind: 'undecided' };
    this.pending = [];
    this.nul = false;
    this.lastMessages = { live: [], history: [] };
  }

  /** One complete line (without its line end) as the follower gives it. */
  private take(line: string): void {
    if (line.includes('\u0000')) this.nul = true;
    if (this.kept.kind === 'undecided') {
      this.pending.push(line);
      if (line.trim() === '') return;
      const kept = this.decide(line);
      if (kept.kind === 'parsed') for (const l of this.pending) kept.parser.push(`${l}\n`);
      else kept.lines.push(...this.pending);
      this.kept = kept;
      this.pending = [];
      return;
    }
    if (this.kept.kind === 'parsed') this.kept.parser.push(`${line}\n`);
    else this.kept.lines.push(line);
  }

  /** Parsed when the session's format (given, or read from its first line as the importers'
   *  detection reads it) is a Claude Code session or a Codex rollout. */
  private decide(firstLine: string): Exclude<Lines, { kind: 'undecided' }> {
    let format = this.found.format;
    if (format === undefined) {
      try {
        format = agentLogFormat(JSON.parse(firstLine));
      } catch {
        format = undefined;
      }
    }
    return format === 'claude-code' || format === 'codex' ? { kind: 'parsed', format, parser: new JsonlParser() } : { kind: 'text', lines: [] };
  }

  private importLines(found: FoundSession): SessionRead {
    const kept = this.kept;
    if (kept.kind === 'undecided') return {};
    if (kept.kind === 'text') return importSessionText(found, () => kept.lines.join('\n'));
    try {
      const result = importSessionLines(kept.format, { lines: kept.parser.lines.slice(), bad: kept.parser.badLines }, { sourcePath: found.file, ...(found.format ? { format: found.format } : {}) });
      return { result: this.reuse(result) };
    } catch (e) {
      if (isTranscriptError(e)) return { error: e.message };
      throw e;
    }
  }

  /** The import with every message equal to the last update's (by value) replaced by that
   *  object, so the counter finds its count by identity instead of reading it again. */
  private reuse(result: ImportResult): ImportResult {
    const same = (prev: readonly Message[], next: Message[]) => next.map((m, i) => (prev[i] !== undefined && sameData(prev[i], m) ? prev[i]! : m));
    const live = same(this.lastMessages.live, result.conversation.messages);
    const history = result.history ? same(this.lastMessages.history, result.history.conversation.messages) : [];
    this.lastMessages = { live, history };
    return {
      ...result,
      conversation: { ...result.conversation, messages: live },
      ...(result.history ? { history: { ...result.history, conversation: { ...result.history.conversation, messages: history } } } : {}),
    };
  }

  private unchanged(session: AgentSession): LiveMeterUpdate {
    return { session, changed: false, ...(this.lastResult ? { result: this.lastResult } : {}) };
  }

  private settle(session: AgentSession, read: SessionRead): LiveMeterUpdate {
    this.last = session;
    this.lastResult = 'result' in read ? read.result : undefined;
    return { session, changed: true, ...(this.lastResult ? { result: this.lastResult } : {}) };
  }
}

/** Deep equality of plain data (what JSON holds): the same object is equal at once, and strings
 *  shared with the parsed lines compare by identity first. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
