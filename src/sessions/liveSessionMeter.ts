// The meter of one session as its agent writes it, for the status bar that follows the live
// session. A JSONL session (Claude Code, Codex, a chat session log) is followed: each update reads
// only the bytes appended since the last one (JsonlFollower) and counts again from the lines held in
// memory, so however long the session grows the disk gives only what is new. Any other session file
// (Cline's JSON, which its agent rewrites whole) is read again. Updates are asynchronous and
// serialized by the follower; an update that finds nothing new says so (`changed: false`).

import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ImportResult } from '../engine/conversation/model';
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

export class LiveSessionMeter {
  private readonly follower: JsonlFollower | undefined;
  private lines: string[] = [];
  private last: AgentSession | undefined;
  private lastResult: ImportResult | undefined;

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
    if (r.reset) this.lines = [];
    this.lines.push(...r.lines);
    if (this.last && !r.reset && r.lines.length === 0) return this.unchanged(this.last);
    const s = await stat(this.found.file).catch(() => undefined);
    const found = { ...this.found, size: r.offset, mtimeMs: s?.mtimeMs ?? Date.now() };
    const text = this.lines.join('\n');
    const read = r.missing
      ? { error: `${this.found.file}: the session file is gone` }
      : text.includes('\u0000')
        ? { error: `${this.found.file}: expected text (UTF-8), found a NUL byte: this looks like a binary file` }
        : importSessionText(found, () => text);
    return this.settle(await meterRead(found, read, this.counterFor), read);
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
