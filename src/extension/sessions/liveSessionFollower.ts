// Which conversation the meter shows, beyond transcripts in editors: with contextCompactor.follow
// `auto`, the agent session of this workspace that was written last — registered in the store as
// a conversation, so Compact, Inspect and Usage act on it — becomes the active one whenever the
// agent writes to it, unless the focused editor holds a transcript (that one wins). With `editor`
// or `off` no session is followed. The meter itself only renders the active conversation.
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
import { transcriptKey } from '../transcripts/transcriptTracker';
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

  constructor(
    private readonly store: ConversationStore,
    private readonly sessions: WorkspaceSessions,
    private readonly conversations: SessionConversations,
    settings: SettingsStore,
    private readonly log: Logger,
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
        const before = this.mode;
        this.mode = s.follow;
        if (before === 'auto') this.stop();
        this.choose();
      }),
    );
    // The active conversation went away (its editor closed): the live session takes the meter.
    this._register(
      store.onDidChangeActive((active) => {
        if (active || this.mode !== 'auto' || !this.followed) return;
        const key = this.conversations.keyOf(this.followed);
        if (store.get(key)) store.setActive(key);
      }),
    );
  }

  /** The session the meter follows, if any. */
  get session(): AgentSession | undefined {
    return this.followed;
  }

  /** Settles when the follower has caught up with the last listing (tests). */
  settled(): Promise<void> {
    return this.choosing;
  }

  /** Follows the newest followable session (auto mode), or nothing. */
  private choose(): void {
    const run = async () => {
      if (this.isDisposed) return;
      const next = this.mode === 'auto' ? this.sessions.sessions.find(followable) : undefined;
      if (!next) {
        if (this.followed) this.stop();
        return;
      }
      if (next.file === this.followed?.file) {
        this.followed = next;
        return;
      }
      this.followed = next;
      const update = await this.sessions.pin(next.file);
      if (update && next.file === this.followed?.file) await this.show(update);
    };
    this.choosing = this.choosing.then(run).catch((err) => this.log.error('following the live session failed', err));
  }

  /** Puts what the followed session holds now into the store, and makes it the meter's
   *  conversation unless a transcript editor has the focus. */
  private async show(update: LiveMeterUpdate): Promise<void> {
    const session = update.session;
    if (!update.result || this.mode !== 'auto' || this.isDisposed) return;
    if (session.file === this.followed?.file) this.followed = session;
    await this.conversations.put(session, update.result, { activate: this.mayTakeMeter(session) });
  }

  /** A focused transcript editor keeps the meter; @compactor's chat keeps it from Copilot Chat's
   *  file of the same chat. */
  private mayTakeMeter(session: AgentSession): boolean {
    const editor = vscode.window.activeTextEditor;
    if (editor && this.store.get(transcriptKey(editor.document.uri))) return false;
    if (session.agent === 'copilot-chat' && this.store.active()?.kind === 'chat') return false;
    return true;
  }

  /** Stops following: the session leaves the meter; a focused transcript editor gets it back
   *  (unless following is off). */
  private stop(): void {
    const followed = this.followed;
    this.followed = undefined;
    void this.sessions.pin(undefined);
    if (!followed) return;
    const key = this.conversations.keyOf(followed);
    if (this.store.active()?.key !== key) return;
    const editor = vscode.window.activeTextEditor;
    const editorKey = editor && this.mode !== 'off' ? transcriptKey(editor.document.uri) : undefined;
    this.store.setActive(editorKey && this.store.get(editorKey) ? editorKey : undefined);
  }
}
