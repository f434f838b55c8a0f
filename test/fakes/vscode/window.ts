// window: messages, quick picks, progress, the status bar, output channels, editors, webview
// panels, tree views and terminals.

import {
  type CancellationToken,
  CancellationTokenSource,
  Disposable,
  EventEmitter,
  type FakeOf,
  type ProgressLocation,
  StatusBarAlignment,
  type TreeItem,
  Uri,
  ViewColumn,
} from './api';
import { activeEditorEmitter, answer, notificationsOnScreen, state } from './state';
import type {
  FakeOutputChannel,
  FakeProgress,
  FakeStatusBarItem,
  FakeTerminal,
  FakeTextDocument,
  FakeTextEditor,
  FakeTreeRow,
  FakeTreeView,
  FakeWebview,
  FakeWebviewPanel,
  QuickPickItemLike,
  ShownMessage,
  WebviewPanelOptions,
} from './types';
import { workspace } from './workspace';
import type * as vscode from 'vscode';

// ───────────────────────────── window ─────────────────────────────

function showMessage(kind: ShownMessage['kind'], message: string, ...rest: unknown[]): Promise<string | undefined> {
  let options: { modal?: boolean; detail?: string } | undefined;
  if (rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null && !('title' in (rest[0] as object))) {
    options = rest.shift() as { modal?: boolean; detail?: string };
  }
  const items = rest.map((r) => (typeof r === 'string' ? r : (r as { title: string }).title));
  const shown: ShownMessage = { kind, message, modal: !!options?.modal, items, notificationsOnScreen: notificationsOnScreen() };
  if (options?.detail !== undefined) shown.detail = options.detail;
  state.messages.push(shown);
  return answer(state.answers[kind], undefined, shown);
}

function createStatusBarItem(
  idOrAlignment?: string | StatusBarAlignment,
  alignmentOrPriority?: StatusBarAlignment | number,
  maybePriority?: number,
): FakeStatusBarItem {
  const id = typeof idOrAlignment === 'string' ? idOrAlignment : `item-${state.statusBarItems.length}`;
  const alignment = (typeof idOrAlignment === 'string' ? alignmentOrPriority : idOrAlignment) ?? StatusBarAlignment.Left;
  const priority = typeof idOrAlignment === 'string' ? maybePriority : (alignmentOrPriority as number | undefined);
  const item: FakeStatusBarItem = {
    id,
    alignment: alignment as StatusBarAlignment,
    priority,
    name: undefined,
    text: '',
    tooltip: undefined,
    color: undefined,
    backgroundColor: undefined,
    command: undefined,
    accessibilityInformation: undefined,
    visible: false,
    disposed: false,
    show() {
      if (!this.disposed) this.visible = true;
    },
    hide() {
      this.visible = false;
    },
    dispose() {
      this.visible = false;
      this.disposed = true;
    },
  };
  state.statusBarItems.push(item);
  return item;
}

function createOutputChannel(name: string, _opts?: unknown): FakeOutputChannel {
  const ch: FakeOutputChannel = {
    name,
    lines: [],
    append(v) {
      this.lines.push(v);
    },
    appendLine(v) {
      this.lines.push(v);
    },
    info(v) {
      this.lines.push(`[info] ${v}`);
    },
    warn(v) {
      this.lines.push(`[warning] ${v}`);
    },
    error(v) {
      this.lines.push(`[error] ${v instanceof Error ? (v.stack ?? v.message) : v}`);
    },
    debug(v) {
      this.lines.push(`[debug] ${v}`);
    },
    trace(v) {
      this.lines.push(`[trace] ${v}`);
    },
    clear() {
      this.lines = [];
    },
    show() {},
    hide() {},
    replace(v) {
      this.lines = [v];
    },
    dispose() {},
  };
  state.outputChannels.push(ch);
  return ch;
}

interface ProgressOptions {
  location: ProgressLocation | { viewId: string };
  title?: string;
  cancellable?: boolean;
}

async function withProgress<R>(
  options: ProgressOptions,
  task: (progress: { report(v: { message?: string; increment?: number }): void }, token: CancellationToken) => Thenable<R>,
): Promise<R> {
  const record: FakeProgress = {
    ...(options.title !== undefined ? { title: options.title } : {}),
    location: options.location,
    reports: [],
    cancellable: !!options.cancellable,
    startedAt: Date.now(),
  };
  state.progress.push(record);
  const source = new CancellationTokenSource();
  state.onProgress?.(source);
  try {
    return await task({ report: (v) => record.reports.push(v) }, source.token);
  } finally {
    record.endedAt = Date.now();
    source.dispose();
  }
}

async function showTextDocument(docOrUri: FakeTextDocument | Uri, _opts?: unknown): Promise<FakeTextEditor> {
  const doc = docOrUri instanceof Uri ? await workspace.openTextDocument(docOrUri) : docOrUri;
  state.shownDocuments.push(doc);
  state.activeEditor = { document: doc, viewColumn: ViewColumn.One };
  activeEditorEmitter.fire(state.activeEditor);
  return state.activeEditor;
}

function createWebviewPanel(viewType: string, title: string, showOptions: unknown, options: WebviewPanelOptions = {}): FakeWebviewPanel {
  const received = new EventEmitter<unknown>();
  const disposed = new EventEmitter<void>();
  const viewState = new EventEmitter<unknown>();
  const webview: FakeWebview = {
    html: '',
    options,
    cspSource: 'vscode-webview://fake',
    posted: [],
    async postMessage(message) {
      this.posted.push(message);
      return true;
    },
    onDidReceiveMessage: received.event,
    asWebviewUri: (uri) => uri.with({ scheme: 'vscode-webview-resource' }),
    receive: (m) => received.fire(m),
  };
  const panel: FakeWebviewPanel = {
    viewType,
    title,
    webview,
    visible: true,
    active: true,
    viewColumn: typeof showOptions === 'number' ? showOptions : ViewColumn.One,
    disposed: false,
    reveals: 0,
    onDidDispose: disposed.event,
    onDidChangeViewState: viewState.event,
    reveal() {
      this.reveals++;
    },
    dispose() {
      if (this.disposed) return;
      this.disposed = true;
      disposed.fire();
    },
  };
  state.webviewPanels.push(panel);
  return panel;
}

export async function treeRows(view: FakeTreeView, element?: unknown): Promise<FakeTreeRow[]> {
  const elements = ((await view.provider.getChildren(element)) ?? []) as unknown[];
  const rows: FakeTreeRow[] = [];
  for (const e of elements) {
    const item = (await view.provider.getTreeItem(e)) as TreeItem;
    const children = item.collapsibleState ? await treeRows(view, e) : [];
    rows.push({ element: e, item, children });
  }
  return rows;
}

function createTreeView(viewId: string, options: { treeDataProvider: FakeTreeView['provider'] }): FakeTreeView {
  const visibility = new EventEmitter<{ visible: boolean }>();
  const none = new EventEmitter<unknown>();
  const view: FakeTreeView = {
    id: viewId,
    provider: options.treeDataProvider,
    visible: false,
    message: undefined,
    title: undefined,
    description: undefined,
    disposed: false,
    onDidChangeVisibility: visibility.event,
    onDidChangeSelection: none.event,
    onDidExpandElement: none.event,
    onDidCollapseElement: none.event,
    selection: [],
    setVisible(visible: boolean) {
      if (this.visible === visible) return;
      this.visible = visible;
      visibility.fire({ visible });
    },
    async reveal() {},
    dispose() {
      this.disposed = true;
    },
  };
  state.treeViews.push(view);
  return view;
}

function createTerminal(
  nameOrOptions?: string | vscode.TerminalOptions | vscode.ExtensionTerminalOptions,
  _shellPath?: string,
  _shellArgs?: readonly string[] | string,
): FakeTerminal {
  const options: vscode.TerminalOptions =
    typeof nameOrOptions === 'string' ? { name: nameOrOptions } : nameOrOptions && !('pty' in nameOrOptions) ? nameOrOptions : {};
  const terminal: FakeTerminal = {
    name: options.name ?? 'bash',
    creationOptions: options,
    processId: Promise.resolve(undefined),
    exitStatus: undefined,
    sent: [],
    shown: false,
    disposed: false,
    sendText(text: string, shouldExecute = true) {
      this.sent.push(shouldExecute ? `${text}\n` : text);
    },
    show() {
      this.shown = true;
    },
    hide() {
      this.shown = false;
    },
    dispose() {
      this.disposed = true;
    },
  };
  state.terminals.push(terminal);
  return terminal;
}

export const window = {
  get activeTextEditor(): FakeTextEditor | undefined {
    return state.activeEditor;
  },
  get visibleTextEditors(): FakeTextEditor[] {
    return state.activeEditor ? [state.activeEditor] : [];
  },
  onDidChangeActiveTextEditor: activeEditorEmitter.event,
  showInformationMessage: (message: string, ...rest: unknown[]) => showMessage('info', message, ...rest),
  showWarningMessage: (message: string, ...rest: unknown[]) => showMessage('warning', message, ...rest),
  showErrorMessage: (message: string, ...rest: unknown[]) => showMessage('error', message, ...rest),
  async showQuickPick(items: readonly QuickPickItemLike[] | Thenable<readonly QuickPickItemLike[]>, options?: vscode.QuickPickOptions) {
    const list = await items;
    state.quickPicks.push({ items: list, options });
    return answer<QuickPickItemLike | QuickPickItemLike[] | undefined, [readonly QuickPickItemLike[], vscode.QuickPickOptions | undefined]>(
      state.answers.quickPick,
      undefined,
      list,
      options,
    );
  },
  async showInputBox(options?: vscode.InputBoxOptions) {
    state.inputBoxes.push(options);
    return answer(state.answers.inputBox, undefined, options);
  },
  async showSaveDialog(options?: vscode.SaveDialogOptions) {
    return answer(state.answers.saveDialog, undefined, options);
  },
  async showOpenDialog(options?: vscode.OpenDialogOptions) {
    return answer(state.answers.openDialog, undefined, options);
  },
  createStatusBarItem,
  setStatusBarMessage(text: string, hideAfterTimeout?: number | Thenable<unknown>): Disposable {
    const shown = { text, ...(typeof hideAfterTimeout === 'number' ? { hideAfterMs: hideAfterTimeout } : {}), disposed: false };
    state.statusBarMessages.push(shown);
    return new Disposable(() => void (shown.disposed = true));
  },
  createOutputChannel,
  withProgress,
  showTextDocument,
  createWebviewPanel,
  registerWebviewPanelSerializer(viewType: string, serializer: unknown): Disposable {
    state.webviewSerializers.set(viewType, serializer);
    return new Disposable(() => state.webviewSerializers.delete(viewType));
  },
  tabGroups: { all: [] as unknown[] },
  createTreeView,
  createTerminal,
  get terminals(): readonly FakeTerminal[] {
    return state.terminals.filter((t) => !t.disposed);
  },
} satisfies FakeOf<typeof vscode.window>;
