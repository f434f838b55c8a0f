// The fake's one state: what was shown and answered, registered and configured. resetState()
// starts afresh (resetFake in control.ts); modules read `state` (a live binding).

import { type CancellationToken, type CancellationTokenSource, EventEmitter, ProgressLocation, type Uri } from './api';
import type { FakeChatParticipant, LanguageModelChatLike } from './chatApi';
import type {
  FakeOutputChannel,
  FakeProgress,
  FakeStatusBarItem,
  FakeTerminal,
  FakeTextDocument,
  FakeTextEditor,
  FakeTreeView,
  FakeWebviewPanel,
  QuickPickItemLike,
  ShownMessage,
} from './types';
import { type FakeFileSystemWatcher } from './watcher';
import { extname } from 'node:path';
import type * as vscode from 'vscode';

/** VS Code keeps a progress notification on screen at least this long, even when its task ends
 *  sooner (workbench progressService: "Show progress for at least 800ms"). */
export const PROGRESS_NOTIFICATION_MIN_MS = 800;

export function notificationsOnScreen(): string[] {
  const now = Date.now();
  return state.progress
    .filter(
      (p) => p.location === ProgressLocation.Notification && (p.endedAt === undefined || now < Math.max(p.endedAt, p.startedAt + PROGRESS_NOTIFICATION_MIN_MS)),
    )
    .map((p) => p.title ?? '');
}

// ───────────────────────────── state ─────────────────────────────

/** A scripted answer: the value, or a function of what was asked. */
export type Answer<T, A extends unknown[] = []> = T | ((...args: A) => T | Promise<T>);

function freshState() {
  return {
    answers: {
      /** Answers for showInformationMessage / showWarningMessage / showErrorMessage, in order of calls. */
      info: [] as Answer<string | undefined, [ShownMessage]>[],
      warning: [] as Answer<string | undefined, [ShownMessage]>[],
      error: [] as Answer<string | undefined, [ShownMessage]>[],
      quickPick: [] as Answer<QuickPickItemLike | QuickPickItemLike[] | undefined, [readonly QuickPickItemLike[], vscode.QuickPickOptions | undefined]>[],
      inputBox: [] as Answer<string | undefined, [vscode.InputBoxOptions | undefined]>[],
      saveDialog: [] as Answer<Uri | undefined, [vscode.SaveDialogOptions | undefined]>[],
      openDialog: [] as Answer<Uri[] | undefined, [vscode.OpenDialogOptions | undefined]>[],
    },
    messages: [] as ShownMessage[],
    quickPicks: [] as { items: readonly QuickPickItemLike[]; options: vscode.QuickPickOptions | undefined }[],
    inputBoxes: [] as (vscode.InputBoxOptions | undefined)[],
    progress: [] as FakeProgress[],
    /** Set to a function to control withProgress tasks (e.g. cancel the token mid-way). */
    onProgress: undefined as ((token: CancellationTokenSource) => void) | undefined,
    statusBarItems: [] as FakeStatusBarItem[],
    /** Whether workspace.fs.delete takes useTrash (a desktop's file system does, a remote server's does not). */
    fileSystemTrash: true,
    /** Files deleted with useTrash, in order. */
    trashed: [] as string[],
    /** Transient status bar messages (window.setStatusBarMessage), newest last. */
    statusBarMessages: [] as { text: string; hideAfterMs?: number; disposed: boolean }[],
    outputChannels: [] as FakeOutputChannel[],
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    /** Calls to commands the fake does not implement (built-ins such as setContext). */
    executed: [] as { command: string; args: unknown[] }[],
    contextKeys: new Map<string, unknown>(),
    config: new Map<string, unknown>(),
    documents: [] as FakeTextDocument[],
    shownDocuments: [] as FakeTextDocument[],
    clipboard: '',
    chatParticipants: [] as FakeChatParticipant[],
    lmModels: [] as LanguageModelChatLike[],
    /** Tools registered with lm.registerTool, by name. */
    lmTools: new Map<string, vscode.LanguageModelTool<unknown>>(),
    /** MCP server definition providers (VS Code 1.101's API, on only after fake.setMcpApi(true)). */
    mcpProviders: new Map<string, { provideMcpServerDefinitions(token: CancellationToken): unknown }>(),
    workspaceRoot: undefined as string | undefined,
    language: 'en',
    webviewPanels: [] as FakeWebviewPanel[],
    webviewSerializers: new Map<string, unknown>(),
    treeViews: [] as FakeTreeView[],
    terminals: [] as FakeTerminal[],
    watchers: [] as FakeFileSystemWatcher[],
    activeEditor: undefined as FakeTextEditor | undefined,
  };
}

export let state = freshState();

/** Everything back as a fresh window has it (resetFake disposes what needs disposing first). */
export function resetState(): void {
  state = freshState();
}

export const configEmitter = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
export const activeEditorEmitter = new EventEmitter<FakeTextEditor | undefined>();
export const changeDocEmitter = new EventEmitter<{ document: FakeTextDocument; contentChanges: unknown[]; reason: undefined }>();
export const openDocEmitter = new EventEmitter<FakeTextDocument>();
export const closeDocEmitter = new EventEmitter<FakeTextDocument>();
export const lmModelsEmitter = new EventEmitter<void>();
export const workspaceFoldersEmitter = new EventEmitter<{ added: unknown[]; removed: unknown[] }>();

export async function answer<T, A extends unknown[]>(queue: Answer<T, A>[], fallback: T, ...args: A): Promise<T> {
  if (queue.length === 0) return fallback;
  const a = queue.shift()!;
  return typeof a === 'function' ? await (a as (...x: A) => T | Promise<T>)(...args) : a;
}

export function languageOf(path: string): string {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.jsonl') return 'jsonl';
  if (ext === '.md') return 'markdown';
  if (ext === '.ts') return 'typescript';
  return 'plaintext';
}

export function makeDocument(uri: Uri, text: string, languageId: string, untitled: boolean): FakeTextDocument {
  let content = text;
  const doc: FakeTextDocument = {
    uri,
    fileName: untitled ? uri.path : uri.fsPath,
    languageId,
    isUntitled: untitled,
    isDirty: untitled,
    isClosed: false,
    version: 1,
    get lineCount() {
      return content.split('\n').length;
    },
    getText: () => content,
  };
  (doc as FakeTextDocument & { setText(t: string): void }).setText = (t: string) => {
    content = t;
    doc.version++;
  };
  return doc;
}

/** Sets (or, with undefined, removes) a setting and fires onDidChangeConfiguration, as the
 *  Settings editor does. */
export function setConfig(key: string, value: unknown): void {
  if (value === undefined) state.config.delete(key);
  else state.config.set(key, value);
  configEmitter.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) });
}
