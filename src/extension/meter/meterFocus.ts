// The one owner of what the meter shows — the conversation the status bar counts and that Compact,
// Inspect and Show Context Usage act on when no other is named. Everything that would move it asks
// here with a reason: a focused transcript editor, the live agent session the follower picked,
// Open Transcript…, Inspect, @compactor, a session a compaction just wrote. Here alone the store's
// active conversation is set.
//
// The user can pin the meter to one conversation (a session, a transcript, a chat): then nothing
// automatic moves it (a focused editor, another session written to), Open Transcript… unpins it, and
// a compaction of the pinned session into its agent moves the pin to the session it wrote. A switch
// the user did not ask for is said in the status bar for a few seconds, naming what the meter shows
// now.

import * as vscode from 'vscode';
import type { ConversationStore } from '../conversationStore';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { notificationText } from '../notificationText';

/** Why the meter would move:
 *  editor   a transcript editor got the focus (automatic);
 *  session  the live agent session the follower picked, as its agent writes (automatic);
 *  inspect  the inspector was opened on it;
 *  chat     @compactor was asked in that chat;
 *  opened   Open Transcript… (unpins);
 *  written  the session a compaction just wrote into its agent (the pin follows it);
 *  undone   the original again, after its compaction into its agent was undone (the pin follows). */
export type FocusReason = 'editor' | 'session' | 'inspect' | 'chat' | 'opened' | 'written' | 'undone';

/** The conversation key of a transcript file. */
export function transcriptKey(uri: vscode.Uri): string {
  return uri.toString();
}

const AUTOMATIC: ReadonlySet<FocusReason> = new Set(['editor', 'session']);

/** The longest a command waits for the session the meter glances at to be counted. */
export const GLANCE_WAIT_MS = 60_000;

/** How long a switch the user did not ask for is said in the status bar. */
export const SWITCH_MESSAGE_MS = 6_000;

/** What the meter shows of a session found but not read yet: the tokens of its last request, as
 *  its agent recorded them. A conversation taking the meter replaces it. */
export interface MeterGlance {
  /** The session's file. */
  file: string;
  label: string;
  tokens: number;
  window: number;
  /** Who recorded the figure (the agent's name). */
  source: string;
}

export interface FocusChange {
  key: string | undefined;
  pinned: string | undefined;
}

export class MeterFocus extends Disposable {
  private pinnedKey: string | undefined;
  /** What shows the meter when the active conversation goes away (the live session). */
  private fallback: (() => string | undefined) | undefined;
  private switchMessage: vscode.Disposable | undefined;
  private glanced: MeterGlance | undefined;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<FocusChange>());
  private readonly glanceEmitter = this._register(new vscode.EventEmitter<MeterGlance | undefined>());
  /** The pin changed (the active conversation's changes are the store's onDidChangeActive). */
  readonly onDidChangePin = this.changeEmitter.event;
  /** The glance changed (shown, or replaced by a conversation). */
  readonly onDidChangeGlance = this.glanceEmitter.event;

  constructor(
    private readonly store: ConversationStore,
    private readonly log: Logger,
  ) {
    super();
    this._register(
      store.onDidChangeActive((active) => {
        if (active) {
          // A conversation shows now: the glance has done its work.
          if (this.glanced) this.setGlance(undefined);
          return;
        }
        // The pinned conversation went away (its editor closed): the pin goes with it.
        if (this.pinnedKey && !store.get(this.pinnedKey)) this.setPin(undefined);
        const next = this.fallback?.();
        if (next && store.get(next)) this.activate(next, 'session');
      }),
    );
    this._register({ dispose: () => this.switchMessage?.dispose() });
  }

  /** The conversation the meter is pinned to, if any. */
  get pinned(): string | undefined {
    return this.pinnedKey;
  }

  /** What the meter shows while no conversation does, if anything. */
  get glance(): MeterGlance | undefined {
    return this.glanced;
  }

  /** Shows a session found but not read yet, until a conversation takes the meter; false (and
   *  nothing shown) when one shows already. */
  showGlance(glance: MeterGlance): boolean {
    if (this.store.active()) return false;
    this.setGlance(glance);
    return true;
  }

  /** Takes the glance away (its session will not be counted: it cannot be read, or is followed no more). */
  clearGlance(): void {
    if (this.glanced) this.setGlance(undefined);
  }

  /** Settles once the session the meter glances at is counted (or after `ms`): a command run
   *  meanwhile acts on it. At once when nothing is glanced at. */
  settled(ms = GLANCE_WAIT_MS): Promise<void> {
    if (!this.glanced) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        listener.dispose();
        clearTimeout(timer);
        resolve();
      };
      const listener = this.onDidChangeGlance((g) => g === undefined && done());
      const timer = setTimeout(done, ms);
    });
  }

  private setGlance(glance: MeterGlance | undefined): void {
    this.glanced = glance;
    this.glanceEmitter.fire(glance);
  }

  /** Who takes the meter when its conversation goes away (the live session follower). */
  setFallback(fallback: () => string | undefined): void {
    this.fallback = fallback;
  }

  /** Asks for `key` to show in the meter; true when it does. A pin holds against everything but
   *  Open Transcript… (which unpins), the pinned session's own compaction (`from`: the pin moves
   *  to what it wrote) and its undo (the pin moves back). A focused transcript editor holds against
   *  the live session. */
  show(key: string, reason: FocusReason, from?: string): boolean {
    if (!this.store.get(key)) return false;
    const pinned = this.pinnedKey;
    if (pinned !== undefined && pinned !== key) {
      if (reason === 'opened') this.setPin(undefined);
      else if ((reason === 'written' || reason === 'undone') && from === pinned) this.setPin(key);
      else if (this.store.get(pinned)) return false;
      else this.setPin(undefined);
    }
    if (reason === 'session' && this.editorHoldsTranscript()) return false;
    this.activate(key, reason);
    return true;
  }

  /** Gives the meter up for `key` (its session is no longer followed): the focused transcript
   *  editor's conversation takes it, else nothing. A pinned conversation stays. */
  release(key: string, editorKey: string | undefined): void {
    if (this.store.active()?.key !== key || this.pinnedKey === key) return;
    this.activate(editorKey && this.store.get(editorKey) ? editorKey : undefined, 'editor');
  }

  /** Pins the meter to `key` (shown now), or unpins it (undefined). */
  pin(key: string | undefined): void {
    if (key !== undefined && !this.store.get(key)) return;
    this.setPin(key);
    if (key !== undefined) this.activate(key, 'opened');
  }

  private setPin(key: string | undefined): void {
    if (key === this.pinnedKey) return;
    this.pinnedKey = key;
    this.log.info(key ? `the meter is pinned to ${this.store.get(key)?.label ?? key}` : 'the meter is no longer pinned');
    this.changeEmitter.fire({ key: this.store.active()?.key, pinned: key });
  }

  private activate(key: string | undefined, reason: FocusReason): void {
    const before = this.store.active();
    this.store.setActive(key);
    const now = this.store.active();
    if (!before || !now || before.key === now.key || !AUTOMATIC.has(reason)) return;
    // A switch the user did not ask for: said, naming what the meter shows now.
    this.switchMessage?.dispose();
    this.switchMessage = vscode.window.setStatusBarMessage(
      `$(arrow-swap) ${notificationText(vscode.l10n.t('The meter now shows {0} (was {1}).', now.label, before.label))}`,
      SWITCH_MESSAGE_MS,
    );
  }

  /** Whether the focused editor holds a transcript the store knows (it keeps the meter). */
  private editorHoldsTranscript(): boolean {
    const editor = vscode.window.activeTextEditor;
    return !!editor && !!this.store.get(transcriptKey(editor.document.uri));
  }
}

export function registerMeterFocus(context: vscode.ExtensionContext, store: ConversationStore, log: Logger): MeterFocus {
  const focus = new MeterFocus(store, log);
  context.subscriptions.push(focus);
  return focus;
}
