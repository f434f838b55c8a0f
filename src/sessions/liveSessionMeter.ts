// The meter of one session as its agent writes it, for the status bar that follows the live
// session. A JSONL session (Claude Code, Codex, a chat session log) is followed: each update reads
// only the bytes appended since the last one (JsonlFollower). A Claude Code session or a Codex
// rollout keeps its lines parsed, so an update parses only the new lines. A Claude Code session is
// imported as it grows (ClaudeCodeGrowingImport): lines that extend the chain the CLI resumes are
// read on top of the last import, and only the open tail of messages is made again; anything else
// (a rewind, a compaction) imports it whole again. A Codex rollout is imported again from its parsed
// lines (a later event can change how an earlier item reads). The counts are kept between updates
// (SessionFigures: a TokenLedger of the messages), so an update counts the messages that are not
// the same objects as last time. Any other JSONL is imported again from its lines held as text; any
// other session file (Cline's JSON, which its agent rewrites whole) is read again. Updates are
// asynchronous and serialized by the follower; an update that finds nothing new says so
// (`changed: false`).
//
// The listing's limit holds here too: a session file over SESSION_MAX_BYTES is not read, and the
// session comes back with the listing's error for it ("the file is 200 MB, more than the 64 MB
// read"); what was kept of it is dropped, so following a session never holds more than that.

import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ClaudeCodeGrowingImport } from '../engine/conversation/importers/claudeCode';
import { agentLogFormat, importSessionLines } from '../engine/conversation/importers/detect';
import { JsonlParser } from '../engine/conversation/importers/jsonText';
import { isTranscriptError } from '../engine/conversation/importers/transcriptError';
import type { ImportResult } from '../engine/conversation/model';
import type { TokenReport } from '../engine/tokens/report';
import type { AgentSession, FoundSession } from './agentSession';
import { JsonlFollower } from './jsonlFollower';
import { notAFileError, overLimitError, SESSION_MAX_BYTES } from './diskReads';
import { importSessionText, meterRead, readSession, SessionFigures, transcriptErrorRead, type CounterFor, type SessionRead } from './sessionCatalog';

export interface LiveMeterUpdate {
  session: AgentSession;
  /** False when nothing was appended since the last update (the session is the same object). */
  changed: boolean;
  /** The session as its agent resumes it, from the same read (none for an empty file or one that
   *  could not be read): the extension shows this conversation in its meter. */
  result?: ImportResult;
  /** Its token report, the one the session's listing figures come from (with `result`). */
  report?: TokenReport;
}

/** How the lines read so far are kept: parsed (an agent log read as lines), or as text (anything
 *  else, imported whole each time), or not decided yet (no line with anything in it so far). */
type Lines =
  | { kind: 'undecided' }
  | { kind: 'parsed'; format: 'claude-code'; parser: JsonlParser; growing: ClaudeCodeGrowingImport }
  | { kind: 'parsed'; format: 'codex' | 'copilot-cli'; parser: JsonlParser }
  | { kind: 'text'; lines: string[] };

export class LiveSessionMeter {
  private readonly follower: JsonlFollower | undefined;
  private kept: Lines = { kind: 'undecided' };
  /** Lines read since the start (text mode needs them all; the others the blank ones before the first). */
  private pending: string[] = [];
  private nul = false;
  private last: AgentSession | undefined;
  private lastResult: ImportResult | undefined;
  private figures = new SessionFigures();

  constructor(
    private readonly found: FoundSession,
    private readonly counterFor: CounterFor,
  ) {
    this.follower = extname(found.file) === '.jsonl' ? new JsonlFollower(found.file, { maxBytes: SESSION_MAX_BYTES }) : undefined;
  }

  /** Bytes the follower read or copied so far (its work; none for a file read whole). */
  get bytesTouched(): number {
    return this.follower?.bytesTouched ?? 0;
  }

  async update(): Promise<LiveMeterUpdate> {
    if (!this.follower) {
      const s = await stat(this.found.file).catch(() => undefined);
      if (this.last && s && s.size === this.last.size && s.mtimeMs === this.last.mtimeMs) return this.unchanged(this.last);
      const found = s ? { ...this.found, size: s.size, mtimeMs: s.mtimeMs } : this.found;
      const read = await readSession(found, SESSION_MAX_BYTES);
      return this.settle(await meterRead(found, read, this.counterFor, this.figures), read);
    }
    const r = await this.follower.read();
    if (r.reset || r.tooLarge !== undefined || r.notFile !== undefined) this.restart();
    for (const line of r.lines) this.take(line);
    if (r.tooLarge !== undefined || r.notFile !== undefined) {
      // Unread: the same answer as last time until it changes.
      const size = r.tooLarge ?? 0;
      if (this.last?.error && this.last.size === size && !this.lastResult) return this.unchanged(this.last);
      const found = { ...this.found, size, mtimeMs: r.mtimeMs ?? Date.now() };
      const read: SessionRead = { error: r.notFile !== undefined ? notAFileError(this.found.file, r.notFile) : overLimitError(size, SESSION_MAX_BYTES) };
      return this.settle(await meterRead(found, read, this.counterFor, this.figures), read);
    }
    if (this.last && !r.reset && r.lines.length === 0) return this.unchanged(this.last);
    const found = { ...this.found, size: r.offset, mtimeMs: r.mtimeMs ?? Date.now() };
    const read: SessionRead = r.missing
      ? { error: `${this.found.file}: the session file is gone` }
      : this.nul
        ? { error: `${this.found.file}: expected text (UTF-8), found a NUL byte: this looks like a binary file` }
        : this.importLines(found);
    return this.settle(await meterRead(found, read, this.counterFor, this.figures), read);
  }

  private restart(): void {
    this.kept = { kind: 'undecided' };
    this.pending = [];
    this.nul = false;
    this.figures = new SessionFigures();
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
   *  detection reads it) is a Claude Code session, a Codex rollout or a Copilot CLI events file. */
  private decide(firstLine: string): Exclude<Lines, { kind: 'undecided' }> {
    let format = this.found.format;
    if (format === undefined) {
      try {
        format = agentLogFormat(JSON.parse(firstLine));
      } catch {
        format = undefined;
      }
    }
    const sourcePath = this.found.file;
    if (format === 'claude-code') return { kind: 'parsed', format, parser: new JsonlParser(), growing: new ClaudeCodeGrowingImport({ sourcePath, format }) };
    return format === 'codex' || format === 'copilot-cli' ? { kind: 'parsed', format, parser: new JsonlParser() } : { kind: 'text', lines: [] };
  }

  private importLines(found: FoundSession): SessionRead {
    const kept = this.kept;
    if (kept.kind === 'undecided') return {};
    if (kept.kind === 'text') return importSessionText(found, () => kept.lines.join('\n'));
    try {
      if (kept.format === 'claude-code') return { result: kept.growing.read(kept.parser.parsed) };
      const opts = { sourcePath: found.file, ...(found.format ? { format: found.format } : {}) };
      return { result: importSessionLines(kept.format, { lines: kept.parser.lines.slice(), bad: kept.parser.badLines }, opts) };
    } catch (e) {
      if (isTranscriptError(e)) return transcriptErrorRead(e);
      throw e;
    }
  }

  private unchanged(session: AgentSession): LiveMeterUpdate {
    return { session, changed: false, ...this.read() };
  }

  private settle(session: AgentSession, read: SessionRead): LiveMeterUpdate {
    this.last = session;
    this.lastResult = 'result' in read ? read.result : undefined;
    return { session, changed: true, ...this.read() };
  }

  /** What the last read holds, with its report. */
  private read(): Pick<LiveMeterUpdate, 'result' | 'report'> {
    const report = this.figures.last;
    return this.lastResult ? { result: this.lastResult, ...(report ? { report } : {}) } : {};
  }
}
