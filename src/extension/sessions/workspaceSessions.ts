// The agent sessions of this workspace, as the Sessions view and the meter see them: found by the
// sources of src/sessions, metered, and kept up to date as the agents write. A full listing runs
// when files appear or go away; a file that changed is metered again alone. A session being
// written gets a live meter (LiveSessionMeter), which reads only the bytes appended since its last
// read, so a long session growing by a line costs that line; a few live meters are kept, the
// followed session's always. Everything is asynchronous, serialized, and cancelled by a newer
// listing or by disposal.

import * as vscode from 'vscode';
import type { ImportResult } from '../../engine/conversation/model';
import type { TokenReport } from '../../engine/tokens/report';
import type { AgentId, AgentSession, FoundSession } from '../../sessions/agentSession';
import { statOf } from '../../sessions/diskReads';
import { LiveSessionMeter, type LiveMeterUpdate } from '../../sessions/liveSessionMeter';
import { SESSION_MAX_BYTES } from '../../sessions/diskReads';
import { findSessions, meterRead, readSession, SessionCatalog, SessionFigures, type CounterFor } from '../../sessions/sessionCatalog';
import { Disposable, toDisposable } from '../lifecycle';
import type { Logger } from '../log';
import type { FileEvents, SessionPlaces } from './sessionWatch';

/** Sessions followed by their appended bytes at once: the followed one and the latest written. */
const LIVE_METERS = 4;
/** A long listing is shown every this many sessions. */
const PUBLISH_EVERY = 25;
/** A changed file the last listing did not include (another workspace's rollout, a task index)
 *  may be a session now: it is looked for again, but no more often than this. */
const UNKNOWN_CHANGE_INTERVAL_MS = 3_000;

export interface LiveSessionUpdate {
  file: string;
  update: LiveMeterUpdate;
}

/** A session as read now, with its one count. */
export type SessionReadNow = { result: ImportResult; report: TokenReport } | { error: string };

export class WorkspaceSessions extends Disposable {
  private catalog: SessionCatalog;
  private found = new Map<string, FoundSession>();
  private list: AgentSession[] = [];
  /** Live meters by file, least recently used first. */
  private readonly live = new Map<string, LiveSessionMeter>();
  private pinned: string | undefined;
  private abort: AbortController | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private generation = 0;
  private listed = false;
  private lastFullListing = 0;
  private unknownTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<readonly AgentSession[]>());
  private readonly liveEmitter = this._register(new vscode.EventEmitter<LiveSessionUpdate>());
  private readonly findEmitter = this._register(new vscode.EventEmitter<readonly FoundSession[]>());
  private readonly busyEmitter = this._register(new vscode.EventEmitter<boolean>());
  private busy = 0;
  /** The list changed (newest first). */
  readonly onDidChange = this.changeEmitter.event;
  /** A live meter read something new: the session and what it now holds. */
  readonly onDidUpdateLive = this.liveEmitter.event;
  /** A listing found the session files (newest first), before reading them. */
  readonly onDidFind = this.findEmitter.event;
  /** A listing started (true) or every listing ended (false). */
  readonly onDidChangeBusy = this.busyEmitter.event;

  constructor(
    private readonly places: () => SessionPlaces,
    private readonly sources: () => Readonly<Record<AgentId, boolean>>,
    private readonly log: Logger,
    /** How a session naming a model (or none) is counted: the store's counters, so a session's
     *  count here is the meter's. */
    private readonly counterFor?: CounterFor,
  ) {
    super();
    this.catalog = new SessionCatalog(counterFor);
    this._register(
      toDisposable(() => {
        this.abort?.abort();
        clearTimeout(this.unknownTimer);
        this.live.clear();
      }),
    );
  }

  /** The sessions, newest first. */
  get sessions(): readonly AgentSession[] {
    return this.list;
  }

  /** Whether a listing has completed (before that, an empty list means "not looked yet"). */
  get hasListed(): boolean {
    return this.listed;
  }

  byFile(file: string): AgentSession | undefined {
    return this.list.find((s) => s.file === file);
  }

  /** Counts every session again (the counting settings changed). */
  recount(): Promise<void> {
    this.catalog = new SessionCatalog(this.counterFor);
    this.live.clear();
    return this.refresh();
  }

  /** Lists every session again; a listing under way is cancelled. The sessions are found first (what
   *  was found is announced: onDidFind), then metered newest first, one per turn of the queue, so a
   *  pinned session's update or a changed file is read between two of them (the meter does not wait
   *  for the whole listing). */
  refresh(): Promise<void> {
    const generation = ++this.generation;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.setBusy(1);
    return this.listAll(generation, abort).finally(() => this.setBusy(-1));
  }

  private async listAll(generation: number, abort: AbortController): Promise<void> {
    try {
      const found = await this.run(async () => {
        if (generation !== this.generation || this.isDisposed) return undefined;
        this.lastFullListing = Date.now();
        const p = this.places();
        const all = await findSessions({ ...p, agents: this.sources(), signal: abort.signal });
        abort.signal.throwIfAborted();
        this.found = new Map(all.map((f) => [f.file, f]));
        for (const file of [...this.live.keys()]) if (!this.found.has(file)) this.live.delete(file);
        return all.sort((a, b) => b.mtimeMs - a.mtimeMs);
      });
      if (!found) return;
      if (!this.isDisposed) this.findEmitter.fire(found);
      // Newest first, shown as they are metered: the live session is followed at once, and a
      // workspace with many sessions fills the view in steps (rows not metered yet keep their
      // last figures).
      const previous = new Map(this.list.map((s) => [s.file, s]));
      const out: AgentSession[] = [];
      for (const [i, f] of found.entries()) {
        out.push(
          await this.run(async () => {
            abort.signal.throwIfAborted();
            return this.meter(this.found.get(f.file) ?? f, abort.signal);
          }),
        );
        if (i === 0 || (i + 1) % PUBLISH_EVERY === 0) {
          const rest = found.slice(i + 1).flatMap((r) => previous.get(r.file) ?? []);
          this.publish(this.newest([...out, ...rest]));
        }
      }
      abort.signal.throwIfAborted();
      this.listed = true;
      this.publish(this.newest(out));
    } catch (err) {
      if (abort.signal.aborted || this.isDisposed) return;
      this.log.error('listing the agent sessions failed', err);
    }
  }

  /** `sessions`, each replaced by the list's own entry when that one was read later (a file event
   *  handled between two turns of the listing). */
  private newest(sessions: AgentSession[]): AgentSession[] {
    const now = new Map(this.list.map((s) => [s.file, s]));
    return sessions.map((s) => {
      const later = now.get(s.file);
      return later && (later.mtimeMs > s.mtimeMs || later.size > s.size) ? later : s;
    });
  }

  private setBusy(delta: number): void {
    const was = this.busy > 0;
    this.busy += delta;
    if (was !== this.busy > 0 && !this.isDisposed) this.busyEmitter.fire(this.busy > 0);
  }

  /** A batch of file events: the sessions that changed are metered again; anything else (a file
   *  created or deleted, a change the listing does not know) needs a listing. */
  filesChanged(events: FileEvents): Promise<void> {
    if (events.structural) return this.refresh();
    const known = [...events.changed].filter((f) => this.found.has(f));
    if (known.length < events.changed.size) this.refreshUnknownLater();
    if (known.length === 0) return Promise.resolve();
    return this.run(async () => {
      if (this.isDisposed) return;
      const out = [...this.list];
      for (const file of known) {
        const f = this.found.get(file);
        const st = await statOf(file);
        if (!f || !st) {
          void this.refresh();
          continue;
        }
        const fresh: FoundSession = { ...f, size: st.size, mtimeMs: st.mtimeMs };
        this.found.set(file, fresh);
        // A session being written is read by its appended bytes from now on.
        if (!this.live.has(file) && file.endsWith('.jsonl')) this.addLive(fresh);
        const session = await this.meter(fresh);
        const i = out.findIndex((s) => s.file === file);
        if (i >= 0) out[i] = session;
        else out.push(session);
      }
      this.publish(out);
    });
  }

  /** Follows `file` by its appended bytes until another file is pinned (undefined: none), and
   *  returns what it holds now. */
  async pin(file: string | undefined): Promise<LiveMeterUpdate | undefined> {
    this.pinned = file;
    if (file === undefined) return undefined;
    const f = this.found.get(file);
    if (!f) return undefined;
    return this.run(async () => {
      const meter = this.live.get(file) ?? this.addLive(f);
      return this.updateLive(file, meter);
    });
  }

  /** What a session holds now, as its agent resumes it, with its count: from its live meter when it
   *  has one, else read once. The reason when it cannot be read or is empty. */
  async read(session: AgentSession): Promise<SessionReadNow> {
    const f = this.found.get(session.file);
    if (!f) return { error: vscode.l10n.t('{0} is no longer listed.', session.file) };
    const meter = this.live.get(session.file);
    if (meter) {
      const u = await this.run(() => this.updateLive(session.file, meter));
      return u.result && u.report ? { result: u.result, report: u.report } : { error: u.session.error ?? vscode.l10n.t('The session is empty.') };
    }
    const st = await statOf(f.file);
    const found = st ? { ...f, size: st.size, mtimeMs: st.mtimeMs } : f;
    const read = await readSession(found, SESSION_MAX_BYTES);
    if ('error' in read) return read;
    if (!read.result) return { error: vscode.l10n.t('The session is empty.') };
    const figures = new SessionFigures();
    await meterRead(found, read, this.catalog.counterFor, figures);
    return { result: read.result, report: figures.last! };
  }

  private async meter(f: FoundSession, signal?: AbortSignal): Promise<AgentSession> {
    const meter = this.live.get(f.file);
    if (meter) return { ...(await this.updateLive(f.file, meter)).session, children: [] };
    return this.catalog.meter(f, signal ? { signal } : {});
  }

  private async updateLive(file: string, meter: LiveSessionMeter): Promise<LiveMeterUpdate> {
    const update = await meter.update();
    // Most recently used last.
    this.live.delete(file);
    this.live.set(file, meter);
    if (update.changed && !this.isDisposed) this.liveEmitter.fire({ file, update });
    return update;
  }

  private addLive(f: FoundSession): LiveSessionMeter {
    const meter = new LiveSessionMeter(f, this.catalog.counterFor);
    this.live.set(f.file, meter);
    for (const file of this.live.keys()) {
      if (this.live.size <= LIVE_METERS) break;
      if (file !== this.pinned && file !== f.file) this.live.delete(file);
    }
    return meter;
  }

  private refreshUnknownLater(): void {
    if (this.unknownTimer !== undefined || this.isDisposed) return;
    const wait = Math.max(0, this.lastFullListing + UNKNOWN_CHANGE_INTERVAL_MS - Date.now());
    this.unknownTimer = setTimeout(() => {
      this.unknownTimer = undefined;
      void this.refresh();
    }, wait);
  }

  private publish(sessions: AgentSession[]): void {
    this.list = sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.file.localeCompare(b.file));
    if (!this.isDisposed) this.changeEmitter.fire(this.list);
  }

  private run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
