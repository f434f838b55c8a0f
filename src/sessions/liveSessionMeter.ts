// The meter of one session as its agent writes it, for the status bar that follows the live
// session. A JSONL session (Claude Code, Codex, a chat session log) is followed: each update reads
// only the bytes appended since the last one (JsonlFollower) and counts again from the lines held in
// memory, so however long the session grows the disk gives only what is new. Any other session file
// (Cline's JSON, which its agent rewrites whole) is read again. Updates are asynchronous and
// serialized by the follower; an update that finds nothing new says so (`changed: false`).

import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AgentSession, FoundSession } from './agentSession';
import { JsonlFollower } from './jsonlFollower';
import { importSessionText, meterRead, meterSession, type CounterFor } from './sessionCatalog';

export interface LiveMeterUpdate {
  session: AgentSession;
  /** False when nothing was appended since the last update (the session is the same object). */
  changed: boolean;
}

export class LiveSessionMeter {
  private readonly follower: JsonlFollower | undefined;
  private lines: string[] = [];
  private last: AgentSession | undefined;

  constructor(
    private readonly found: FoundSession,
    private readonly counterFor: CounterFor,
  ) {
    this.follower = extname(found.file) === '.jsonl' ? new JsonlFollower(found.file) : undefined;
  }

  async update(): Promise<LiveMeterUpdate> {
    if (!this.follower) {
      const s = await stat(this.found.file).catch(() => undefined);
      if (this.last && s && s.size === this.last.size && s.mtimeMs === this.last.mtimeMs) return { session: this.last, changed: false };
      const found = s ? { ...this.found, size: s.size, mtimeMs: s.mtimeMs } : this.found;
      return this.settle(await meterSession(found, this.counterFor));
    }
    const r = await this.follower.read();
    if (r.reset) this.lines = [];
    this.lines.push(...r.lines);
    if (this.last && !r.reset && r.lines.length === 0) return { session: this.last, changed: false };
    const s = await stat(this.found.file).catch(() => undefined);
    const found = { ...this.found, size: r.offset, mtimeMs: s?.mtimeMs ?? Date.now() };
    const text = this.lines.join('\n');
    const read = r.missing
      ? { error: `${this.found.file}: the session file is gone` }
      : text.includes('\u0000')
        ? { error: `${this.found.file}: expected text (UTF-8), found a NUL byte: this looks like a binary file` }
        : importSessionText(found, () => text);
    return this.settle(await meterRead(found, read, this.counterFor));
  }

  private settle(session: AgentSession): LiveMeterUpdate {
    this.last = session;
    return { session, changed: true };
  }
}
