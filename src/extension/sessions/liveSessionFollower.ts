// Which agent session the meter follows: the one it is pinned to (MeterFocus), else, with
// contextCompactor.follow `auto`, the session of this workspace that was written last. The
// followed session is registered in the store as a conversation (with the count the Sessions view
// made), so Compact, Inspect and Usage act on it, and is offered to the meter whenever its agent
// writes to it; MeterFocus decides whether it takes the meter (a focused transcript editor and a
// pin hold against it). With `editor` or `off` only a pinned session is followed. After a
// compaction into an agent, the session it wrote is shown (and pinned when the original was).
//
// A Copilot Chat session file does not take the meter from @compactor's own chat: that chat is
// written to the same file.

import * as vscode from 'vscode';
import type { AgentSession } from '../../sessions/agentSession';
import type { LiveMeterUpdate } from '../../sessions/liveSessionMeter';
import type { ConversationStore } from '../conversationStore';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import type { FollowMode, SettingsStore } from '../settings';
import { transcriptKey, type MeterFocus } from '../meter/meterFocus';
import type { SessionConversations } from './sessionConversations';
import type { WorkspaceSessions } from './workspaceSessions';

/** Whether the meter may follow this session: metered, not a sub-agent (its parent is the
 *  conversation a person sees), and holding something. */
export function followable(s: AgentSession): boolean {
  return !s.error && s.messages > 0 && s.relation !== 'subagent';
}

export class LiveSessionFollower extends Disposable {
  private followed: AgentSession | undefined;
  private mode: FollowMode;
  private choosing: Promise<void> = Promise.resolve();
  private readonly followEmitter = this._register(new vscode.EventEmitter<AgentSession>());
  /** A session was put in the store as the one followed (with what it holds now). */
  readonly onDidFollow = this.followEmitter.event;

  constructor(
    private readonly store: ConversationStore,
    private readonly focus: MeterFocus,
    private readonly sessions: WorkspaceSessions,
    private readonly conversations: SessionConversations,
    settings: SettingsStore,
    private readonly log: Logger,
    /** A session the meter leaves alone unless pinned (a compaction of it was undone and the file kept). */
    private readonly setAside: (s: AgentSession) => boolean = () => false,
  ) {
    super();
    this.mode = settings.current.follow;
    this._register(sessions.onDidChange(() => this.choose()));
    this._register(
      sessions.onDidUpdateLive(({ file, update }) => {
        if (file === this.followed?.file) void this.show(update).catch((err) => this.log.error('following the live session failed', err));
      }),
    );
    this._register(
      settings.onDidChange((s) => {
        if (s.follow === this.mode) return;
        this.mode = s.follow;
        this.choose();
      }),
    );
    this._register(focus.onDidChangePin(() => this.choose()));
    // The active conversation went away (its editor closed): the followed session takes the meter.
    focus.setFallback(() => (this.followed ? this.conversations.keyOf(this.followed) : undefined));
  }

  /** The session the meter follows, if any. */
  get session(): AgentSession | undefined {
    return this.followed;
  }

  /** Settles when the follower has caught up with the last listing (tests). */
  settled(): Promise<void> {
    return this.choosing;
  }

  /** After a compaction into an agent: the session it wrote (`file`, listed by now) is shown in the
   *  meter, and followed as its agent writes to it; a pin on the original (`from`) moves to it. */
  followWritten(file: string, from: string): Promise<void> {
    return this.queue(async () => {
      const written = this.sessions.byFile(file);
      if (!written || !followable(written)) return;
      const target = await this.conversations.open(written);
      this.focus.show(target.key, 'written', from);
      if (this.wanted()?.file === file && this.followed?.file !== file) await this.follow(written);
    });
  }

  /** The session the meter should follow: the pinned one, else (auto) the newest followable one. */
  private wanted(): AgentSession | undefined {
    const pinned = this.focus.pinned;
    const pin = pinned ? this.sessions.sessions.find((s) => this.conversations.keyOf(s) === pinned && followable(s)) : undefined;
    if (pin) return pin;
    return this.mode === 'auto' ? this.sessions.sessions.find((s) => followable(s) && !this.setAside(s)) : undefined;
  }

  /** Looks again at what to follow (a compaction into an agent was undone); settles when done. */
  refollow(): Promise<void> {
    this.choose();
    return this.choosing;
  }

  /** Follows the wanted session, or nothing. */
  private choose(): void {
    void this.queue(async () => {
      const next = this.wanted();
      if (!next) {
        if (this.followed) this.stop();
        // The session glanced at will not be counted here (it cannot be read, or is not followable).
        if (this.sessions.hasListed) this.focus.clearGlance();
        return;
      }
      if (next.file === this.followed?.file) {
        this.followed = next;
        return;
      }
      await this.follow(next);
    });
  }

  private async follow(next: AgentSession): Promise<void> {
    this.followed = next;
    const update = await this.sessions.pin(next.file);
    if (update && next.file === this.followed?.file) await this.show(update);
  }

  private queue(work: () => Promise<void>): Promise<void> {
    const run = async () => {
      if (!this.isDisposed) await work();
    };
    this.choosing = this.choosing.then(run).catch((err) => this.log.error('following the live session failed', err));
    return this.choosing;
  }

  /** Puts what the followed session holds now into the store (with its count), and offers it to the
   *  meter. */
  private async show(update: LiveMeterUpdate): Promise<void> {
    const session = update.session;
    if (!update.result || !update.report || this.isDisposed) return;
    if (session.file === this.followed?.file) this.followed = session;
    const target = await this.conversations.put(session, update.result, update.report);
    if (this.mayTakeMeter(session)) this.focus.show(target.key, 'session');
    if (session.file === this.followed?.file) this.followEmitter.fire(session);
  }

  /** @compactor's chat keeps the meter from Copilot Chat's file of the same chat. */
  private mayTakeMeter(session: AgentSession): boolean {
    return !(session.agent === 'copilot-chat' && this.store.active()?.kind === 'chat');
  }

  /** Stops following: the session leaves the meter; a focused transcript editor gets it back
   *  (unless following is off). */
  private stop(): void {
    const followed = this.followed;
    this.followed = undefined;
    void this.sessions.pin(undefined);
    if (!followed) return;
    const editor = vscode.window.activeTextEditor;
    this.focus.release(this.conversations.keyOf(followed), editor && this.mode !== 'off' ? transcriptKey(editor.document.uri) : undefined);
  }
}
