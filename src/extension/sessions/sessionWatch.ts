// Watching the folders where the agents write this workspace's sessions. VS Code's file watcher
// sees a folder outside the workspace only through a RelativePattern on an absolute base (a plain
// glob covers the workspace folders alone); a base that does not exist yet is watched once it is
// created. Patterns with a '/' or '**' are watched recursively, so each base is as narrow as the
// layout allows: the project folder of each workspace folder, not all of ~/.claude/projects.
// Events are gathered and handed on in batches: an agent writes many lines a second.

import * as vscode from 'vscode';
import type { AgentId } from '../../sessions/agentSession';
import type { AgentPlaces } from '../../sessions/agents/agent';
import { AGENT_MODULES } from '../../sessions/agents/registry';
import { Disposable, toDisposable } from '../lifecycle';

/** Where the sessions are looked for: the same inputs the listing takes. */
export type SessionPlaces = AgentPlaces;

export interface WatchRoot {
  agent: AgentId;
  /** An absolute folder. */
  base: string;
  /** A glob relative to it. */
  pattern: string;
}

/** The folders (and patterns) that hold the sessions of the enabled agents. */
export function watchRoots(p: SessionPlaces, enabled: Readonly<Record<AgentId, boolean>>): WatchRoot[] {
  return AGENT_MODULES.filter((a) => enabled[a.id] !== false).flatMap((a) => a.watch(p).map((w) => ({ agent: a.id, ...w })));
}

export type FileEventKind = 'create' | 'change' | 'delete';

/** One batch of file events: the files that changed, and whether any was created or deleted. */
export interface FileEvents {
  changed: Set<string>;
  /** A file appeared or went away: the listing must look again. */
  structural: boolean;
}

/** Calls `flush` with the events gathered since the last call, `delayMs` after the last event and
 *  at most `maxDelayMs` after the first of a batch, so a steady stream still gets through. */
export class EventBatcher extends Disposable {
  private pending: FileEvents = { changed: new Set(), structural: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private first = 0;

  constructor(
    private readonly flush: (events: FileEvents) => void,
    private readonly delayMs: number,
    private readonly maxDelayMs: number,
  ) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  add(path: string, kind: FileEventKind): void {
    if (this.isDisposed) return;
    this.pending.changed.add(path);
    if (kind !== 'change') this.pending.structural = true;
    const now = Date.now();
    if (this.timer === undefined) this.first = now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.delayMs, this.first + this.maxDelayMs - now));
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.timer = undefined;
    const events = this.pending;
    this.pending = { changed: new Set(), structural: false };
    this.flush(events);
  }
}

/** VS Code file watchers on the roots; each event goes to `onEvent`. Recreated whole when the
 *  roots change (settings, workspace folders). */
export class SessionWatchers extends Disposable {
  private watchers: vscode.Disposable[] = [];
  private signature = '';

  constructor(private readonly onEvent: (path: string, kind: FileEventKind) => void) {
    super();
    this._register(toDisposable(() => this.clear()));
  }

  watch(roots: readonly WatchRoot[]): void {
    const signature = JSON.stringify(roots.map((r) => [r.base, r.pattern]));
    if (signature === this.signature || this.isDisposed) return;
    this.signature = signature;
    this.clear();
    for (const r of roots) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(r.base), r.pattern));
      this.watchers.push(
        w,
        w.onDidCreate((u) => this.onEvent(u.fsPath, 'create')),
        w.onDidChange((u) => this.onEvent(u.fsPath, 'change')),
        w.onDidDelete((u) => this.onEvent(u.fsPath, 'delete')),
      );
    }
  }

  private clear(): void {
    for (const w of this.watchers.splice(0).reverse()) w.dispose();
  }
}
