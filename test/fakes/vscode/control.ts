// Test control: `fake` scripts answers and reads what the extension did; resetFake() between tests.

import { Uri, ViewColumn } from './api';
import type { FakeChatParticipant, LanguageModelChatLike } from './chatApi';
import { lm, registerMcpServerDefinitionProvider } from './lm';
import { activeEditorEmitter, changeDocEmitter, closeDocEmitter, lmModelsEmitter, resetState, setConfig, state, workspaceFoldersEmitter } from './state';
import type { FakeOutputChannel, FakeStatusBarItem, FakeTextDocument, FakeTreeView } from './types';
import type * as vscode from 'vscode';

// ───────────────────────────── test control ─────────────────────────────

export const fake = {
  get state() {
    return state;
  },
  get answers() {
    return state.answers;
  },
  get messages() {
    return state.messages;
  },
  setConfig(key: string, value: unknown): void {
    setConfig(key, value);
  },
  /** Registered command handlers (the extension's own). */
  command(id: string): ((...args: unknown[]) => unknown) | undefined {
    return state.commands.get(id);
  },
  statusBarItem(id: string): FakeStatusBarItem | undefined {
    return state.statusBarItems.find((i) => i.id === id && !i.disposed);
  },
  outputChannel(name: string): FakeOutputChannel | undefined {
    return state.outputChannels.find((c) => c.name === name);
  },
  /** Sets the workspace folder (a real directory) that findFiles and asRelativePath use. */
  setWorkspaceRoot(dir: string | undefined): void {
    state.workspaceRoot = dir;
  },
  /** Replaces a document's text and fires onDidChangeTextDocument, as typing or a reload would. */
  editDocument(doc: FakeTextDocument, text: string): void {
    (doc as FakeTextDocument & { setText(t: string): void }).setText(text);
    changeDocEmitter.fire({ document: doc, contentChanges: [{ text }], reason: undefined });
  },
  closeDocument(doc: FakeTextDocument): void {
    doc.isClosed = true;
    state.documents = state.documents.filter((d) => d !== doc);
    if (state.activeEditor?.document === doc) {
      state.activeEditor = undefined;
      activeEditorEmitter.fire(undefined);
    }
    closeDocEmitter.fire(doc);
  },
  setActiveEditor(doc: FakeTextDocument | undefined): void {
    state.activeEditor = doc ? { document: doc, viewColumn: ViewColumn.One } : undefined;
    activeEditorEmitter.fire(state.activeEditor);
  },
  setLmModels(models: LanguageModelChatLike[]): void {
    state.lmModels = models;
    lmModelsEmitter.fire();
  },
  /** The chat participant registered under `id`. */
  chatParticipant(id: string): FakeChatParticipant | undefined {
    return state.chatParticipants.find((p) => p.id === id && !p.disposed);
  },
  /** The tree view registered under `id`. */
  treeView(id: string): FakeTreeView | undefined {
    return state.treeViews.find((v) => v.id === id && !v.disposed);
  },
  /** Reports a file event to the watchers whose pattern covers `path`, as VS Code's file watcher
   *  does after the disk changed (tests write the file first). Returns how many watchers heard it. */
  fileEvent(path: string, kind: 'create' | 'change' | 'delete'): number {
    const uri = Uri.file(path);
    let heard = 0;
    for (const w of state.watchers) {
      if (w.disposed || !w.covers(uri.fsPath)) continue;
      heard++;
      w.fire(kind, uri);
    }
    return heard;
  },
  /** Replaces the workspace folders (one, or none) and fires onDidChangeWorkspaceFolders. */
  changeWorkspaceRoot(dir: string | undefined): void {
    state.workspaceRoot = dir;
    workspaceFoldersEmitter.fire({ added: [], removed: [] });
  },
  /** The language model tool registered under `name`. */
  lmTool(name: string): vscode.LanguageModelTool<unknown> | undefined {
    return state.lmTools.get(name);
  },
  /** Gives the fake VS Code 1.101's MCP API (lm.registerMcpServerDefinitionProvider), which
   *  @types/vscode 1.95 does not describe; off after resetFake(), as in an older VS Code. */
  setMcpApi(on: boolean): void {
    const target = lm as Record<string, unknown>;
    if (on) target['registerMcpServerDefinitionProvider'] = registerMcpServerDefinitionProvider;
    else delete target['registerMcpServerDefinitionProvider'];
  },
};

export function resetFake(): void {
  for (const item of state.statusBarItems) item.dispose();
  resetState();
  fake.setMcpApi(false);
}
