// Transcript files as conversations: the meter follows the focused editor when it holds a
// transcript that imports (unless the contextCompactor.follow setting is off; MeterFocus decides,
// so a pin holds); edits and
// on-disk growth re-import it (debounced), and the store recounts only what changed. The file is
// only ever read.

import * as vscode from 'vscode';
import type { CompactionEngine } from '../compactionEngine';
import type { ConversationStore } from '../conversationStore';
import { Disposable, toDisposable } from '../lifecycle';
import type { Logger } from '../log';
import { transcriptKey, type MeterFocus } from '../meter/meterFocus';
import { UserFacingError } from '../log';
import { siblingUsage } from '../../files/siblingUsage';
import { looksLikeTranscript } from './transcriptDetection';

/** Quiet time after the last change before a document is re-imported: typing or an agent
 *  appending lines produces bursts of change events, and one import per burst is enough. */
export const REIMPORT_DEBOUNCE_MS = 300;

function fileLabel(uri: vscode.Uri): string {
  const parts = uri.path.split('/');
  return parts[parts.length - 1] || uri.toString();
}

export class TranscriptTracker extends Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Document version last imported, per key: focusing an unchanged editor imports nothing. */
  private readonly imported = new Map<string, number>();
  /** Imports in flight, per key, so two triggers share one import. */
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: ConversationStore,
    private readonly focus: MeterFocus,
    private readonly engine: CompactionEngine,
    private readonly log: Logger,
    /** Whether focusing an editor makes its transcript the active conversation. */
    private readonly followsEditors: () => boolean = () => true,
  ) {
    super();
    this._register(vscode.window.onDidChangeActiveTextEditor((editor) => void this.follow(editor)));
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.scheduleReimport(e.document)));
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc)));
    this._register(
      toDisposable(() => {
        for (const t of this.timers.values()) clearTimeout(t);
        this.timers.clear();
      }),
    );
    void this.follow(vscode.window.activeTextEditor);
  }

  /** Makes the focused editor's transcript the active conversation (other editors leave it as it is). */
  async follow(editor: vscode.TextEditor | undefined): Promise<void> {
    if (!editor || !this.followsEditors()) return;
    const doc = editor.document;
    const key = transcriptKey(doc.uri);
    if (this.imported.get(key) === doc.version && this.store.get(key)) {
      this.focus.show(key, 'editor');
      return;
    }
    if (!looksLikeTranscript(doc.fileName, doc.getText().slice(0, 8192))) return;
    const ok = await this.importDocument(doc, false);
    // Focus may have moved on while importing.
    if (ok && vscode.window.activeTextEditor?.document === doc) this.focus.show(key, 'editor');
  }

  /** "Open Transcript…": import (errors shown to the user), open in an editor, show it in the meter. */
  async open(uri: vscode.Uri): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await this.importDocument(doc, true);
    this.focus.show(transcriptKey(uri), 'opened');
    await vscode.window.showTextDocument(doc, { preview: false });
    this.focus.show(transcriptKey(uri), 'opened');
  }

  private importDocument(doc: vscode.TextDocument, explicit: boolean): Promise<boolean> {
    const key = transcriptKey(doc.uri);
    const running = this.inFlight.get(key);
    if (running && !explicit) return running;
    const work = this.doImport(doc, explicit).finally(() => {
      if (this.inFlight.get(key) === work) this.inFlight.delete(key);
    });
    this.inFlight.set(key, work);
    return work;
  }

  private async doImport(doc: vscode.TextDocument, explicit: boolean): Promise<boolean> {
    const key = transcriptKey(doc.uri);
    const version = doc.version;
    const label = fileLabel(doc.uri);
    let result;
    // Usage kept beside the transcript (Cline's ui_messages.json), for files on disk.
    const usage = doc.uri.scheme === 'file' ? await siblingUsage(doc.uri.fsPath) : undefined;
    try {
      result = this.engine.importTranscript(doc.getText(), doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString(), usage);
    } catch (err) {
      if (explicit)
        throw err instanceof Error && err.name === 'TranscriptError'
          ? err
          : new UserFacingError(vscode.l10n.t('{0} is not a transcript Context Compactor can read: {1}', label, (err as Error).message));
      this.log.info(`not importing ${label}: ${(err as Error).message}`);
      return false;
    }
    if (result.warnings.length > 0) {
      const first = result.warnings.slice(0, 3).map((w) => `${w.position}: ${w.message}`);
      this.log.warn(`${label}: ${result.warnings.length} import warning(s): ${first.join('; ')}${result.warnings.length > 3 ? ' …' : ''}`);
    }
    await this.store.upsertSource(key, result.conversation, { label, kind: 'transcript', uri: doc.uri });
    this.imported.set(key, version);
    return true;
  }

  private scheduleReimport(doc: vscode.TextDocument): void {
    const key = transcriptKey(doc.uri);
    if (!this.store.get(key)) return;
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (doc.isClosed || this.imported.get(key) === doc.version) return;
        void this.importDocument(doc, false).catch((err) => this.log.error(`re-importing ${fileLabel(doc.uri)} failed`, err));
      }, REIMPORT_DEBOUNCE_MS),
    );
  }

  private forget(doc: vscode.TextDocument): void {
    const key = transcriptKey(doc.uri);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.imported.delete(key);
    this.store.remove(key);
  }

  /** Resolves when pending re-imports have run (tests; a clean shutdown). */
  async settle(): Promise<void> {
    while (this.timers.size > 0 || this.inFlight.size > 0) {
      await new Promise((r) => setTimeout(r, REIMPORT_DEBOUNCE_MS / 3));
      await Promise.all([...this.inFlight.values()].map((p) => p.catch(() => undefined)));
    }
  }
}

export function registerTranscriptTracking(
  context: vscode.ExtensionContext,
  store: ConversationStore,
  focus: MeterFocus,
  engine: CompactionEngine,
  log: Logger,
  followsEditors?: () => boolean,
): TranscriptTracker {
  const tracker = new TranscriptTracker(store, focus, engine, log, followsEditors);
  context.subscriptions.push(tracker);
  return tracker;
}
