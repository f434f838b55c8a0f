// The agent sessions feature: the Sessions view in the Context Compactor view container, the
// meter following the live session, and the view's commands (Inspect, Compact…, Resume in
// Terminal, Reveal File, Refresh). Nothing is read before it is needed: the sessions are looked
// for once the meter follows them (contextCompactor.follow `auto`, the default) or the view is
// shown, and then kept up to date from the agents' folders.

import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import type { SourceFormat } from '../../engine/conversation/model';
import { resolveModel } from '../../engine/tokens/modelRegistry';
import type { FoundSession } from '../../sessions/agentSession';
import { agentById } from '../../sessions/agents/registry';
import { glanceAt } from '../../sessions/sessionGlance';
import * as vscode from 'vscode';
import type { AgentSession } from '../../sessions/agentSession';
import type { CommandDeps } from '../commands/commandDeps';
import { compactConversationFlow } from '../commands/compactCommand';
import { SESSION_COMMANDS, SESSIONS_VIEW_ID } from '../ids';
import { Disposable, toDisposable } from '../lifecycle';
import { guarded, UserFacingError } from '../log';
import { sessionSourcesOf } from '../settings';
import { LiveSessionFollower } from './liveSessionFollower';
import { resumeInTerminal } from './resumeTerminal';
import { SessionConversations } from './sessionConversations';
import { SessionsTree, type SessionsNode } from './sessionsTree';
import { sessionLabel } from './sessionText';
import { agentName, storeOwning } from '../../sessions/agents/registry';
import { EventBatcher, SessionWatchers, watchRoots, type SessionPlaces } from './sessionWatch';
import { resumableAgent, writeBackFor } from './sessionWriteBack';
import { undoWritten } from './undoWritten';
import { WorkspaceSessions } from './workspaceSessions';
import { WrittenSessions } from './writtenSessions';

/** Quiet time after a file event before the sessions are read again, and the longest wait while
 *  an agent keeps writing: the meter moves well within a second of an append. */
export const SESSION_EVENT_DELAY_MS = 150;
export const SESSION_EVENT_MAX_DELAY_MS = 500;
/** Relative times in the view ("5 min ago") are redrawn this often while it is visible. */
const RELATIVE_TIME_REFRESH_MS = 60_000;

/** Where this window's sessions are: its workspace folders, the home and environment of the
 *  extension host, the globalStorage folder beside this extension's own (Cline, Roo Code), and the
 *  workspace's own storage folder (Copilot Chat's chatSessions). */
export function sessionPlaces(context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'storageUri'>): SessionPlaces {
  const env = process.env;
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    env,
    home: env['HOME'] || homedir(),
    globalStorage: [dirname(context.globalStorageUri.fsPath)],
    workspaceStorage: context.storageUri ? [dirname(context.storageUri.fsPath)] : [],
  };
}

/** What the workspace remembers of the session the meter followed last, to show it at once after a
 *  reload (a glance at its last request) while the sessions are found and counted. */
const FOLLOWED_KEY = 'contextCompactor.followedSession';
interface RememberedSession {
  file: string;
  agent: string;
  format?: SourceFormat;
  label: string;
}

export class SessionsFeature extends Disposable {
  readonly sessions: WorkspaceSessions;
  readonly conversations: SessionConversations;
  readonly follower: LiveSessionFollower;
  readonly tree: SessionsTree;
  readonly view: vscode.TreeView<SessionsNode>;
  /** The compactions written into agents, for Undo. */
  readonly written: WrittenSessions;
  private readonly watchers: SessionWatchers;
  private started = false;

  constructor(
    private readonly context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'storageUri' | 'workspaceState'>,
    private readonly deps: CommandDeps,
  ) {
    super();
    const places = () => sessionPlaces(context);
    const sources = () => sessionSourcesOf(deps.settings.current);
    // Counted with the store's counters: a session's count in the view is the meter's.
    this.sessions = this._register(new WorkspaceSessions(places, sources, deps.log, (model) => deps.store.counterForModel(model)));
    this.written = new WrittenSessions(context.globalStorageUri.fsPath, deps.log);
    void this.written.load();
    this.conversations = new SessionConversations(deps.store, this.sessions, (s) =>
      writeBackFor(s, {
        deps,
        places,
        keyOf: (x) => this.conversations.keyOf(x),
        written: async (w, from) => {
          await this.written.add({
            from: { key: this.conversations.keyOf(from), file: from.file, label: sessionLabel(from) },
            written: { agent: w.agent, id: w.id, file: w.file, cwd: w.cwd },
            at: new Date().toISOString(),
          });
          return this.showWritten(w.file, from);
        },
      }),
    );
    this.follower = this._register(
      new LiveSessionFollower(deps.store, deps.focus, this.sessions, this.conversations, deps.settings, deps.log, (s) =>
        this.written.setAside(s.file, s.mtimeMs),
      ),
    );
    deps.store.setUndoElsewhere({
      canUndo: (key) => !!this.written.undoable((file) => this.conversations.keyOf({ file }), key),
      undo: async (key) => {
        const record = this.written.undoable((file) => this.conversations.keyOf({ file }), key);
        if (!record) return false;
        return undoWritten(
          {
            store: deps.store,
            focus: deps.focus,
            log: deps.log,
            sessions: this.sessions,
            conversations: this.conversations,
            written: this.written,
            places,
            refollow: () => this.follower.refollow(),
          },
          record,
        );
      },
    });
    this.tree = this._register(new SessionsTree(this.sessions, () => this.follower.session?.file));
    this.view = this._register(vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    const batcher = this._register(new EventBatcher((events) => void this.sessions.filesChanged(events), SESSION_EVENT_DELAY_MS, SESSION_EVENT_MAX_DELAY_MS));
    this.watchers = this._register(new SessionWatchers((path, kind) => batcher.add(path, kind)));

    this._register(
      this.sessions.onDidChange(() => {
        this.view.message = undefined;
        this.tree.refresh();
      }),
    );
    // While sessions are found and counted, the view says so (its progress bar).
    let listed: (() => void) | undefined;
    this._register(
      this.sessions.onDidChangeBusy((busy) => {
        listed?.();
        listed = undefined;
        if (busy) void vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW_ID } }, () => new Promise<void>((resolve) => (listed = resolve)));
      }),
    );
    this._register(toDisposable(() => listed?.()));
    this._register(this.sessions.onDidFind((found) => void this.glanceNewest(found)));
    this._register(
      this.follower.onDidFollow((s) => {
        const remembered: RememberedSession = { file: s.file, agent: s.agent, label: sessionLabel(s), ...(formatOf(s) ? { format: formatOf(s)! } : {}) };
        const before = context.workspaceState.get<RememberedSession>(FOLLOWED_KEY);
        if (before?.file !== remembered.file || before.label !== remembered.label) void context.workspaceState.update(FOLLOWED_KEY, remembered);
      }),
    );
    this._register(this.view.onDidChangeVisibility((e) => e.visible && this.start()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()));
    let sourcesKey = JSON.stringify(sources());
    const countingOf = (s: typeof deps.settings.current) => `${s.model}\u0000${s.maxContextTokens}`;
    let counting = countingOf(deps.settings.current);
    this._register(
      deps.settings.onDidChange((s) => {
        const key = JSON.stringify(sessionSourcesOf(s));
        if (s.follow === 'auto') this.start();
        if (countingOf(s) !== counting) {
          counting = countingOf(s);
          if (this.started) void this.sessions.recount();
        }
        if (key === sourcesKey) return;
        sourcesKey = key;
        this.restart();
      }),
    );
    const timer = setInterval(() => this.view.visible && this.tree.refresh(), RELATIVE_TIME_REFRESH_MS);
    this._register(toDisposable(() => clearInterval(timer)));
    if (deps.settings.current.follow === 'auto' || this.view.visible) this.start();
  }

  /** Starts watching and listing (once). */
  start(): void {
    if (this.started || this.isDisposed) return;
    this.started = true;
    this.view.message = vscode.l10n.t("Looking for this workspace's agent sessions…");
    void this.glanceRemembered();
    this.restart();
  }

  /** The meter at once, before anything is listed: the session it followed last, at a glance. */
  private async glanceRemembered(): Promise<void> {
    const r = this.context.workspaceState.get<RememberedSession>(FOLLOWED_KEY);
    if (!r || typeof r.file !== 'string' || this.deps.settings.current.follow !== 'auto' || this.deps.focus.pinned) return;
    await this.glance(r, r.label);
  }

  /** The newest session found, at a glance, while the listing reads and counts them all. */
  private async glanceNewest(found: readonly FoundSession[]): Promise<void> {
    if (this.deps.focus.glance || this.deps.settings.current.follow !== 'auto' || this.deps.focus.pinned) return;
    const newest = found.find((f) => f.relation !== 'subagent' && !this.written.setAside(f.file, f.mtimeMs));
    if (newest) await this.glance(newest);
  }

  private async glance(s: Pick<FoundSession, 'file' | 'agent' | 'format' | 'title'>, label?: string): Promise<void> {
    if (this.deps.store.active()) return;
    const g = await glanceAt(s, label === undefined).catch((err: unknown) => {
      this.deps.log.warn(`glancing at ${s.file} failed: ${(err as Error).message}`);
      return undefined;
    });
    if (!g || this.deps.store.active() || this.isDisposed) return;
    const settings = this.deps.settings.current;
    const window = settings.maxContextTokens > 0 ? settings.maxContextTokens : (g.usage.window ?? resolveModel(g.usage.model ?? settings.model).contextWindow);
    const shown = this.deps.focus.showGlance({
      file: s.file,
      label: label ?? sessionLabel({ agent: s.agent, id: basename(s.file), title: g.title ?? '' }),
      tokens: g.usage.tokens,
      window,
      source: agentName(s.agent),
    });
    if (shown) this.deps.log.info(`the meter shows ${s.file} at a glance: ${g.usage.tokens} tokens as its last request recorded`);
  }

  /** Watches the folders the settings and workspace folders give now, and lists again. */
  private restart(): void {
    if (!this.started || this.isDisposed) return;
    this.watchers.watch(watchRoots(sessionPlaces(this.context), sessionSourcesOf(this.deps.settings.current)));
    void this.sessions.refresh();
  }

  /** A session just written: listed at once, shown in the meter (a pin on the session it came from
   *  moves to it), and its row shown under the one it came from. False when the listing does not
   *  show it (written where this workspace's sessions are not looked for). */
  private async showWritten(file: string, from: AgentSession): Promise<boolean> {
    this.start();
    await this.sessions.refresh();
    if (!this.sessions.byFile(file)) return false;
    // Not awaited: the compaction that wrote it still holds its conversation, which the follower
    // may be waiting on.
    void this.follower.followWritten(file, this.conversations.keyOf(from));
    if (!this.view.visible) return true;
    await Promise.resolve(this.view.reveal(this.tree.nodeOf(file), { select: false, focus: false, expand: true })).catch((err: unknown) =>
      this.deps.log.warn(`showing ${file} in the Sessions view failed: ${(err as Error).message}`),
    );
    return true;
  }

  // ───────────── commands ─────────────

  /** The session a command acts on: the row it was run on, else the one the meter follows. */
  sessionOf(arg: unknown): AgentSession {
    const file = isSessionNode(arg) ? arg.file : this.follower.session?.file;
    const s = file ? this.sessions.byFile(file) : undefined;
    if (!s) throw new UserFacingError(vscode.l10n.t('No agent session is selected. Pick one in the Sessions view.'));
    return s;
  }

  async inspect(arg: unknown): Promise<void> {
    const target = await this.conversations.open(this.sessionOf(arg));
    this.deps.focus.show(target.key, 'inspect');
    await this.deps.inspector.show(target.key);
  }

  /** The inspector on the session, its context chart in view. */
  async chart(arg: unknown): Promise<void> {
    const target = await this.conversations.open(this.sessionOf(arg));
    this.deps.focus.show(target.key, 'inspect');
    await this.deps.inspector.show(target.key, 'chart');
  }

  /** Pins the meter to the session (read now), so it follows that one whatever else is written. */
  async pin(arg: unknown): Promise<void> {
    const session = this.sessionOf(arg);
    if (session.error) throw new UserFacingError(vscode.l10n.t('{0} cannot be read: {1}', sessionLabel(session), session.error));
    const target = await this.conversations.open(session);
    this.deps.focus.pin(target.key);
  }

  async compact(arg: unknown): Promise<unknown> {
    const session = this.sessionOf(arg);
    if (session.error) throw new UserFacingError(vscode.l10n.t('{0} cannot be read: {1}', sessionLabel(session), session.error));
    const target = await this.conversations.open(session);
    return compactConversationFlow(this.deps, target);
  }

  async resume(arg: unknown): Promise<vscode.Terminal> {
    const session = this.sessionOf(arg);
    const agent = resumableAgent(session);
    if (!agent)
      throw new UserFacingError(vscode.l10n.t('{0} cannot resume a session from a file: use Compact… for a handoff prompt.', agentName(session.agent)));
    const folders = sessionPlaces(this.context).folders;
    return resumeInTerminal({ agent, id: session.id, cwd: session.cwd ?? folders[0] ?? dirname(session.file) });
  }

  /** The file in the system's file manager where there is one (desktop), else in an editor. */
  async reveal(arg: unknown): Promise<void> {
    const file = this.sessionOf(arg).file;
    // A session of an agent's store (opencode's database) is revealed as the store's file.
    const uri = vscode.Uri.file(storeOwning(file)?.store.fileOf(file) ?? file);
    const desktop = vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
    if (desktop && (await vscode.commands.getCommands(true)).includes('revealFileInOS')) {
      await vscode.commands.executeCommand('revealFileInOS', uri);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}

/** The format a session's file is read as (its agent's only format, when it has one). */
function formatOf(s: Pick<AgentSession, 'agent'>): SourceFormat | undefined {
  const formats = agentById(s.agent)?.formats ?? [];
  return formats.length === 1 ? formats[0] : undefined;
}

function isSessionNode(v: unknown): v is { kind: 'session'; file: string } {
  return typeof v === 'object' && v !== null && (v as SessionsNode).kind === 'session' && typeof (v as { file?: unknown }).file === 'string';
}

export function registerSessions(context: vscode.ExtensionContext, deps: CommandDeps): SessionsFeature {
  const feature = new SessionsFeature(context, deps);
  const register = (id: string, action: string, fn: (arg: unknown) => Promise<unknown>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, (arg: unknown) => guarded(deps.log, action, () => fn(arg))));
  context.subscriptions.push(feature);
  register(SESSION_COMMANDS.refresh, vscode.l10n.t('Refresh Sessions'), async () => {
    feature.start();
    await feature.sessions.refresh();
  });
  register(SESSION_COMMANDS.inspect, vscode.l10n.t('Inspect Session'), (arg) => feature.inspect(arg));
  register(SESSION_COMMANDS.compact, vscode.l10n.t('Compact Session'), (arg) => feature.compact(arg));
  register(SESSION_COMMANDS.resume, vscode.l10n.t('Resume in Terminal'), (arg) => feature.resume(arg));
  register(SESSION_COMMANDS.reveal, vscode.l10n.t('Reveal Session File'), (arg) => feature.reveal(arg));
  register(SESSION_COMMANDS.pin, vscode.l10n.t('Pin the Meter to This Session'), (arg) => feature.pin(arg));
  register(SESSION_COMMANDS.chart, vscode.l10n.t('Show Context Chart'), (arg) => feature.chart(arg));
  return feature;
}
