// A small, reasonably faithful fake of the VS Code API for host-logic tests (aliased as 'vscode'
// in vitest.config.ts). It behaves like the real API where the extension depends on it (events
// fire, disposables dispose, modal answers come back, files are real files under a temp dir)
// and records what the extension showed, so tests can assert on it through `fake`.
//
// Scripting: push answers before the code under test asks —
//   fake.answers.warning.push('Compact')            // next showWarningMessage returns 'Compact'
//   fake.answers.quickPick.push((items) => items[0]) // next showQuickPick picks the first item
//   fake.setConfig('contextCompactor.triggerRatio', 0.5)
// Unanswered prompts resolve to undefined (the user pressed Escape). Call resetFake() in beforeEach.

import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as vscode from 'vscode';

// ───────────────────────────── checked against @types/vscode ─────────────────────────────
// The fake may leave things out and may hand out smaller objects than the real API (to
// callbacks and as results), but what it has must exist in the real API under the same name and
// accept every argument the real one accepts (the last overload, for overloaded functions), and
// plain values must have the real type. Each namespace below `satisfies FakeOf<typeof vscode.X>`;
// classes and enums are checked at the end of the file.

/** The real arguments a fake must accept; callbacks are not compared, since the fake calls them
 *  with its own smaller objects. */
type RealArguments<A extends unknown[]> = { [I in keyof A]: A[I] extends ((...args: never[]) => unknown) | undefined ? never : A[I] };

/** What a fake of `Real` may be: a subset of its members, each function taking the real arguments. */
export type FakeOf<Real> = {
  [K in keyof Real]?: Real[K] extends (...args: infer A) => unknown
    ? (...args: RealArguments<A>) => unknown
    : Real[K] extends string | number | boolean | undefined
      ? Real[K]
      : unknown;
};

// ───────────────────────────── basics ─────────────────────────────

export class Disposable {
  private fn: (() => unknown) | undefined;
  constructor(fn: () => unknown) {
    this.fn = fn;
  }
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    const fn = this.fn;
    this.fn = undefined;
    fn?.();
  }
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: { dispose(): unknown }[]) => { dispose(): unknown };

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  private disposed = false;
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    if (!this.disposed) this.listeners.add(bound);
    const d = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

export class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: Event<void>;
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token: CancellationToken;
  constructor() {
    const emitter = this.emitter;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: ((listener: (e: void) => unknown, thisArgs?: unknown, ds?: { dispose(): unknown }[]) => {
        if (token.isCancellationRequested) {
          listener.call(thisArgs);
          return new Disposable(() => undefined);
        }
        return emitter.event(listener, thisArgs, ds);
      }) as Event<void>,
    };
    this.token = token;
  }
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(fsPath: string): Uri {
    return new Uri('file', '', resolve(fsPath).split(sep).join('/'), '', '');
  }
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`fake Uri.parse: cannot parse ${value}`);
    return new Uri(m[1]!, m[2] ?? '', decodeURIComponent(m[3] ?? ''), m[4] ?? '', m[5] ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    const joined = [base.path, ...segments].join('/').replace(/\/+/g, '/');
    return base.with({ path: joined });
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString(): string {
    const auth = this.scheme === 'file' || this.authority ? `//${this.authority}` : '';
    const q = this.query ? `?${this.query}` : '';
    const f = this.fragment ? `#${this.fragment}` : '';
    return `${this.scheme}:${auth}${encodeURI(this.path)}${q}${f}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path };
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  value: string;
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] };
  supportThemeIcons?: boolean;
  supportHtml?: boolean;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
    return this;
  }
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendCodeblock(value: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${value}\n\`\`\`\n`;
    return this;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class RelativePattern {
  baseUri: Uri;
  pattern: string;
  constructor(base: { uri: Uri } | Uri | string, pattern: string) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base instanceof Uri ? base : base.uri;
    this.pattern = pattern;
  }
  get base(): string {
    return this.baseUri.fsPath;
  }
  set base(value: string) {
    this.baseUri = Uri.file(value);
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  label?: string;
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon | Uri;
  contextValue?: string;
  resourceUri?: Uri;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string; role?: string };
  collapsibleState?: TreeItemCollapsibleState;
  constructor(labelOrUri: string | Uri, collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {
    if (typeof labelOrUri === 'string') this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
    this.collapsibleState = collapsibleState;
  }
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
  Three = 3,
  Four = 4,
  Five = 5,
  Six = 6,
  Seven = 7,
  Eight = 8,
  Nine = 9,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ExtensionMode {
  Production = 1,
  Development = 2,
  Test = 3,
}

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

export enum UIKind {
  Desktop = 1,
  Web = 2,
}

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

// ───────────────────────────── recorded UI ─────────────────────────────

export interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  message: string;
  modal: boolean;
  detail?: string;
  items: string[];
  /** Titles of the progress notifications still on screen when this message was shown. */
  notificationsOnScreen: string[];
}

/** One withProgress call: where it shows, and when it started and ended (Date.now()). */
export interface FakeProgress {
  title?: string;
  location: ProgressLocation | { viewId: string };
  reports: { message?: string; increment?: number }[];
  cancellable: boolean;
  startedAt: number;
  endedAt?: number;
}

/** VS Code keeps a progress notification on screen at least this long, even when its task ends
 *  sooner (workbench progressService: "Show progress for at least 800ms"). */
export const PROGRESS_NOTIFICATION_MIN_MS = 800;

function notificationsOnScreen(): string[] {
  const now = Date.now();
  return state.progress
    .filter(
      (p) => p.location === ProgressLocation.Notification && (p.endedAt === undefined || now < Math.max(p.endedAt, p.startedAt + PROGRESS_NOTIFICATION_MIN_MS)),
    )
    .map((p) => p.title ?? '');
}

export interface FakeStatusBarItem {
  readonly id: string;
  readonly alignment: StatusBarAlignment;
  readonly priority: number | undefined;
  name: string | undefined;
  text: string;
  tooltip: string | MarkdownString | undefined;
  color: string | ThemeColor | undefined;
  backgroundColor: ThemeColor | undefined;
  command: string | { command: string; title: string; arguments?: unknown[] } | undefined;
  accessibilityInformation: { label: string; role?: string } | undefined;
  visible: boolean;
  disposed: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export interface FakeOutputChannel {
  name: string;
  lines: string[];
  append(v: string): void;
  appendLine(v: string): void;
  info(v: string, ...args: unknown[]): void;
  warn(v: string, ...args: unknown[]): void;
  error(v: string | Error, ...args: unknown[]): void;
  debug(v: string, ...args: unknown[]): void;
  trace(v: string, ...args: unknown[]): void;
  clear(): void;
  show(): void;
  hide(): void;
  replace(v: string): void;
  dispose(): void;
}

export interface FakeTextDocument {
  uri: Uri;
  fileName: string;
  languageId: string;
  isUntitled: boolean;
  isDirty: boolean;
  isClosed: boolean;
  version: number;
  lineCount: number;
  getText(): string;
}

export interface FakeTextEditor {
  document: FakeTextDocument;
  viewColumn: ViewColumn | undefined;
}

type Answer<T, A extends unknown[] = []> = T | ((...args: A) => T | Promise<T>);

export interface QuickPickItemLike {
  label: string;
  description?: string;
  detail?: string;
  kind?: QuickPickItemKind;
}

// ───────────────────────────── state ─────────────────────────────

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
  };
}

let state = freshState();

const configEmitter = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
const activeEditorEmitter = new EventEmitter<FakeTextEditor | undefined>();
const changeDocEmitter = new EventEmitter<{ document: FakeTextDocument; contentChanges: unknown[]; reason: undefined }>();
const openDocEmitter = new EventEmitter<FakeTextDocument>();
const closeDocEmitter = new EventEmitter<FakeTextDocument>();
const lmModelsEmitter = new EventEmitter<void>();
const workspaceFoldersEmitter = new EventEmitter<{ added: unknown[]; removed: unknown[] }>();

let activeEditor: FakeTextEditor | undefined;

async function answer<T, A extends unknown[]>(queue: Answer<T, A>[], fallback: T, ...args: A): Promise<T> {
  if (queue.length === 0) return fallback;
  const a = queue.shift()!;
  return typeof a === 'function' ? await (a as (...x: A) => T | Promise<T>)(...args) : a;
}

function languageOf(path: string): string {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.jsonl') return 'jsonl';
  if (ext === '.md') return 'markdown';
  if (ext === '.ts') return 'typescript';
  return 'plaintext';
}

function makeDocument(uri: Uri, text: string, languageId: string, untitled: boolean): FakeTextDocument {
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
    if (value === undefined) state.config.delete(key);
    else state.config.set(key, value);
    configEmitter.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) });
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
    if (activeEditor?.document === doc) {
      activeEditor = undefined;
      activeEditorEmitter.fire(undefined);
    }
    closeDocEmitter.fire(doc);
  },
  setActiveEditor(doc: FakeTextDocument | undefined): void {
    activeEditor = doc ? { document: doc, viewColumn: ViewColumn.One } : undefined;
    activeEditorEmitter.fire(activeEditor);
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
  state = freshState();
  fake.setMcpApi(false);
  activeEditor = undefined;
}

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
  activeEditor = { document: doc, viewColumn: ViewColumn.One };
  activeEditorEmitter.fire(activeEditor);
  return activeEditor;
}

// ── Webview (minimal: enough for registerInspector to register; the inspector's tests may extend it) ──

export interface FakeWebview {
  html: string;
  options: WebviewPanelOptions;
  cspSource: string;
  posted: unknown[];
  postMessage(message: unknown): Promise<boolean>;
  onDidReceiveMessage: Event<unknown>;
  asWebviewUri(uri: Uri): Uri;
  /** Test hook: deliver a message as if the webview had posted it. */
  receive(message: unknown): void;
}

export interface FakeWebviewPanel {
  viewType: string;
  title: string;
  webview: FakeWebview;
  visible: boolean;
  active: boolean;
  viewColumn: ViewColumn | undefined;
  disposed: boolean;
  reveals: number;
  onDidDispose: Event<void>;
  onDidChangeViewState: Event<unknown>;
  reveal(column?: ViewColumn, preserveFocus?: boolean): void;
  dispose(): void;
}

type WebviewPanelOptions = vscode.WebviewPanelOptions & vscode.WebviewOptions;

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

// ── Tree views and terminals ──

export interface FakeTreeView {
  id: string;
  provider: { getChildren(element?: unknown): unknown; getTreeItem(element: unknown): unknown; onDidChangeTreeData?: Event<unknown> };
  visible: boolean;
  message: string | undefined;
  title: string | undefined;
  description: string | undefined;
  disposed: boolean;
  onDidChangeVisibility: Event<{ visible: boolean }>;
  onDidChangeSelection: Event<unknown>;
  onDidExpandElement: Event<unknown>;
  onDidCollapseElement: Event<unknown>;
  selection: readonly unknown[];
  /** Test hook: shows or hides the view, as opening its container does. */
  setVisible(visible: boolean): void;
  reveal(element: unknown, options?: unknown): Promise<void>;
  dispose(): void;
}

/** One row of a tree as a person sees it: its item and its children, resolved. */
export interface FakeTreeRow {
  element: unknown;
  item: TreeItem;
  children: FakeTreeRow[];
}

/** The whole tree of a view, every level resolved. */
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

export interface FakeTerminal {
  name: string;
  creationOptions: Readonly<vscode.TerminalOptions>;
  processId: Promise<number | undefined>;
  exitStatus: undefined;
  /** Test hook: every text sent, in order. */
  sent: string[];
  shown: boolean;
  disposed: boolean;
  sendText(text: string, shouldExecute?: boolean): void;
  show(preserveFocus?: boolean): void;
  hide(): void;
  dispose(): void;
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
    return activeEditor;
  },
  get visibleTextEditors(): FakeTextEditor[] {
    return activeEditor ? [activeEditor] : [];
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

// ───────────────────────────── workspace ─────────────────────────────

/** Glob → RegExp for the patterns extensions use: **, *, ?, {a,b}. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let inBrace = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      inBrace = true;
      re += '(?:';
    } else if (c === '}' && inBrace) {
      inBrace = false;
      re += ')';
    } else if (c === ',' && inBrace) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out, limit);
    else out.push(full);
    if (out.length >= limit) return;
  }
}

class FakeConfiguration {
  constructor(private readonly section: string) {}
  private full(key: string): string {
    return this.section ? `${this.section}.${key}` : key;
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const k = this.full(key);
    return state.config.has(k) ? (state.config.get(k) as T) : defaultValue;
  }
  has(key: string): boolean {
    return state.config.has(this.full(key));
  }
  inspect<T>(key: string): { key: string; globalValue?: T } | undefined {
    const k = this.full(key);
    return { key: k, globalValue: state.config.get(k) as T | undefined };
  }
  async update(key: string, value: unknown, _target?: ConfigurationTarget | boolean | null): Promise<void> {
    fake.setConfig(this.full(key), value);
  }
}

export const workspace = {
  getConfiguration(section = ''): FakeConfiguration {
    return new FakeConfiguration(section);
  },
  onDidChangeConfiguration: configEmitter.event,
  onDidChangeTextDocument: changeDocEmitter.event,
  onDidOpenTextDocument: openDocEmitter.event,
  onDidCloseTextDocument: closeDocEmitter.event,
  get textDocuments(): FakeTextDocument[] {
    return state.documents;
  },
  get workspaceFolders() {
    const root = state.workspaceRoot;
    return root ? [{ uri: Uri.file(root), name: basename(root), index: 0 }] : undefined;
  },
  async openTextDocument(arg?: Uri | { content?: string; language?: string }): Promise<FakeTextDocument> {
    if (arg instanceof Uri) {
      const existing = state.documents.find((d) => d.uri.toString() === arg.toString());
      if (existing) return existing;
      if (!existsSync(arg.fsPath)) throw new Error(`cannot open ${arg.toString()}: file not found`);
      const doc = makeDocument(arg, readFileSync(arg.fsPath, 'utf8'), languageOf(arg.fsPath), false);
      state.documents.push(doc);
      openDocEmitter.fire(doc);
      return doc;
    }
    const n = state.documents.filter((d) => d.isUntitled).length + 1;
    const doc = makeDocument(Uri.from({ scheme: 'untitled', path: `Untitled-${n}` }), arg?.content ?? '', arg?.language ?? 'plaintext', true);
    state.documents.push(doc);
    openDocEmitter.fire(doc);
    return doc;
  },
  async findFiles(include: string | { pattern: string }, exclude?: string | { pattern: string } | null, maxResults?: number): Promise<Uri[]> {
    const root = state.workspaceRoot;
    if (!root) return [];
    const inc = globToRegExp(typeof include === 'string' ? include : include.pattern);
    const exc = exclude ? globToRegExp(typeof exclude === 'string' ? exclude : exclude.pattern) : undefined;
    const files: string[] = [];
    walk(root, files, 100_000);
    const out: Uri[] = [];
    for (const f of files) {
      const rel = relative(root, f).split(sep).join('/');
      if (inc.test(rel) && !(exc && exc.test(rel))) out.push(Uri.file(f));
      if (maxResults !== undefined && out.length >= maxResults) break;
    }
    return out;
  },
  asRelativePath(pathOrUri: string | Uri, includeWorkspaceFolder = false): string {
    const p = typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath;
    const root = state.workspaceRoot;
    if (!root || !resolve(p).startsWith(resolve(root))) return p;
    const rel = relative(root, p).split(sep).join('/');
    return includeWorkspaceFolder ? `${basename(root)}/${rel}` : rel;
  },
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      return new Uint8Array(readFileSync(uri.fsPath));
    },
    async writeFile(uri: Uri, content: Uint8Array): Promise<void> {
      mkdirSync(dirname(uri.fsPath), { recursive: true });
      writeFileSync(uri.fsPath, content);
    },
    async stat(uri: Uri): Promise<{ type: number; size: number; mtime: number; ctime: number }> {
      const st = statSync(uri.fsPath);
      return { type: st.isDirectory() ? 2 : 1, size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs };
    },
    async createDirectory(uri: Uri): Promise<void> {
      mkdirSync(uri.fsPath, { recursive: true });
    },
    async delete(uri: Uri, opts?: { recursive?: boolean; useTrash?: boolean }): Promise<void> {
      if (opts?.useTrash) {
        // VS Code refuses useTrash on a file system without a trash (a remote server's).
        if (!state.fileSystemTrash) throw new Error(`Unable to delete file '${uri.fsPath}' via trash because provider does not support it.`);
        state.trashed.push(uri.fsPath);
      }
      rmSync(uri.fsPath, { recursive: !!opts?.recursive, force: true });
    },
    async rename(from: Uri, to: Uri): Promise<void> {
      renameSync(from.fsPath, to.fsPath);
    },
  },
  /** A watcher that hears fake.fileEvent for the paths its pattern covers: a RelativePattern
   *  anywhere on disk (recursive when the pattern has a '/' or '**'), a string glob in the
   *  workspace folder only, as in VS Code. */
  createFileSystemWatcher(
    glob: string | RelativePattern,
    ignoreCreateEvents?: boolean,
    ignoreChangeEvents?: boolean,
    ignoreDeleteEvents?: boolean,
  ): FakeFileSystemWatcher {
    const watcher = new FakeFileSystemWatcher(glob, { create: !!ignoreCreateEvents, change: !!ignoreChangeEvents, delete: !!ignoreDeleteEvents });
    state.watchers.push(watcher);
    return watcher;
  },
  onDidChangeWorkspaceFolders: workspaceFoldersEmitter.event,
} satisfies FakeOf<typeof vscode.workspace>;

export class FakeFileSystemWatcher {
  private readonly emitters = { create: new EventEmitter<Uri>(), change: new EventEmitter<Uri>(), delete: new EventEmitter<Uri>() };
  readonly onDidCreate = this.emitters.create.event;
  readonly onDidChange = this.emitters.change.event;
  readonly onDidDelete = this.emitters.delete.event;
  readonly ignoreCreateEvents: boolean;
  readonly ignoreChangeEvents: boolean;
  readonly ignoreDeleteEvents: boolean;
  disposed = false;
  constructor(
    readonly glob: string | RelativePattern,
    ignore: { create: boolean; change: boolean; delete: boolean },
  ) {
    this.ignoreCreateEvents = ignore.create;
    this.ignoreChangeEvents = ignore.change;
    this.ignoreDeleteEvents = ignore.delete;
  }
  /** Whether an event for `path` reaches this watcher. */
  covers(path: string): boolean {
    const base = typeof this.glob === 'string' ? state.workspaceRoot : this.glob.baseUri.fsPath;
    if (!base) return false;
    const rel = relative(resolve(base), resolve(path)).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) return false;
    return globToRegExp(typeof this.glob === 'string' ? this.glob : this.glob.pattern).test(rel);
  }
  fire(kind: 'create' | 'change' | 'delete', uri: Uri): void {
    if ((kind === 'create' && this.ignoreCreateEvents) || (kind === 'change' && this.ignoreChangeEvents) || (kind === 'delete' && this.ignoreDeleteEvents))
      return;
    this.emitters[kind].fire(uri);
  }
  dispose(): void {
    this.disposed = true;
  }
}

// ───────────────────────────── commands, env, l10n ─────────────────────────────

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown, thisArg?: unknown): Disposable {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, thisArg ? handler.bind(thisArg) : handler);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand<T = unknown>(id: string, ...args: unknown[]): Promise<T> {
    const handler = state.commands.get(id);
    if (handler) return (await handler(...args)) as T;
    state.executed.push({ command: id, args });
    if (id === 'setContext') state.contextKeys.set(String(args[0]), args[1]);
    return undefined as T;
  },
  async getCommands(_filterInternal?: boolean): Promise<string[]> {
    return [...state.commands.keys()];
  },
} satisfies FakeOf<typeof vscode.commands>;

export const env = {
  clipboard: {
    async readText(): Promise<string> {
      return state.clipboard;
    },
    async writeText(value: string): Promise<void> {
      state.clipboard = value;
    },
  },
  get language(): string {
    return state.language;
  },
  appName: 'Visual Studio Code (fake)',
  remoteName: undefined as string | undefined,
  uiKind: UIKind.Desktop,
  machineId: 'fake-machine',
  sessionId: 'fake-session',
  uriScheme: 'vscode',
} satisfies FakeOf<typeof vscode.env>;

function format(message: string, args: unknown[] | Record<string, unknown>): string {
  return message.replace(/\{([^}]+)\}/g, (m, key: string) => {
    const v = Array.isArray(args) ? args[Number(key)] : args[key];
    return v === undefined ? m : String(v);
  });
}

export const l10n = {
  t(messageOrOptions: string | { message: string; args?: unknown[] | Record<string, unknown>; comment?: string | string[] }, ...args: unknown[]): string {
    if (typeof messageOrOptions === 'object') return format(messageOrOptions.message, messageOrOptions.args ?? []);
    if (args.length === 1 && typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0])) {
      return format(messageOrOptions, args[0] as Record<string, unknown>);
    }
    return format(messageOrOptions, args);
  },
  bundle: undefined as { [key: string]: string } | undefined,
  uri: undefined as Uri | undefined,
} satisfies FakeOf<typeof vscode.l10n>;

// ───────────────────────────── chat and language models ─────────────────────────────

export enum LanguageModelChatMessageRole {
  User = 1,
  Assistant = 2,
}

export class LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}

export class LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}

export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

/** VS Code 1.101's stdio MCP server definition (not in @types/vscode 1.95, so not checked below). */
export class McpStdioServerDefinition {
  cwd: Uri | undefined;
  constructor(
    public label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

function registerMcpServerDefinitionProvider(id: string, provider: { provideMcpServerDefinitions(token: CancellationToken): unknown }): Disposable {
  state.mcpProviders.set(id, provider);
  return new Disposable(() => state.mcpProviders.delete(id));
}

export class LanguageModelChatMessage {
  static User(content: string | unknown[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, content, name);
  }
  static Assistant(content: string | unknown[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, content, name);
  }
  content: unknown[];
  constructor(
    public role: LanguageModelChatMessageRole,
    content: string | unknown[],
    public name?: string,
  ) {
    this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
  }
}

export class LanguageModelError extends Error {
  static NoPermissions(message?: string) {
    return new LanguageModelError(message ?? 'no permissions', 'NoPermissions');
  }
  static Blocked(message?: string) {
    return new LanguageModelError(message ?? 'blocked', 'Blocked');
  }
  static NotFound(message?: string) {
    return new LanguageModelError(message ?? 'not found', 'NotFound');
  }
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
}

/** What the extension uses of a LanguageModelChat; tests build these with fakeChatModel(). */
export interface LanguageModelChatLike {
  id: string;
  name: string;
  vendor: string;
  family: string;
  version: string;
  maxInputTokens: number;
  sendRequest(
    messages: LanguageModelChatMessage[],
    options?: unknown,
    token?: CancellationToken,
  ): Promise<{ text: AsyncIterable<string>; stream: AsyncIterable<unknown> }>;
  countTokens(text: string | LanguageModelChatMessage, token?: CancellationToken): Promise<number>;
}

export interface FakeChatModelOptions {
  id?: string;
  family?: string;
  maxInputTokens?: number;
  /** The reply to each request (default: echoes how many messages it received). */
  reply?: (messages: LanguageModelChatMessage[]) => string;
  /** Tokens per text (default: one per 4 characters, rounded up, plus 3 per message). */
  countTokens?: (text: string) => number;
}

/** A language model that records what it was sent. */
export function fakeChatModel(opts: FakeChatModelOptions = {}): LanguageModelChatLike & { requests: LanguageModelChatMessage[][]; counted: number } {
  const count = opts.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const textOf = (m: LanguageModelChatMessage) => m.content.map((p) => (p instanceof LanguageModelTextPart ? p.value : '')).join('');
  const model = {
    id: opts.id ?? 'fake-model',
    name: 'Fake Model',
    vendor: 'fake',
    family: opts.family ?? 'gpt-4o',
    version: '1',
    maxInputTokens: opts.maxInputTokens ?? 128_000,
    requests: [] as LanguageModelChatMessage[][],
    counted: 0,
    async sendRequest(messages: LanguageModelChatMessage[], _options?: unknown, token?: CancellationToken) {
      model.requests.push(messages);
      if (token?.isCancellationRequested) throw new CancellationError();
      const reply = opts.reply ? opts.reply(messages) : `received ${messages.length} messages`;
      const parts = reply.match(/.{1,16}/gs) ?? [''];
      async function* text() {
        for (const p of parts) yield p;
      }
      async function* stream() {
        for (const p of parts) yield new LanguageModelTextPart(p);
      }
      return { text: text(), stream: stream() };
    },
    async countTokens(input: string | LanguageModelChatMessage) {
      model.counted++;
      return typeof input === 'string' ? count(input) : count(textOf(input)) + 3;
    },
  };
  return model;
}

export class ChatRequestTurn {
  constructor(
    readonly prompt: string,
    readonly command: string | undefined,
    readonly references: unknown[],
    readonly participant: string,
    readonly toolReferences: unknown[] = [],
  ) {}
}

export class ChatResponseMarkdownPart {
  value: MarkdownString;
  constructor(value: string | MarkdownString) {
    this.value = typeof value === 'string' ? new MarkdownString(value) : value;
  }
}

export class ChatResponseCommandButtonPart {
  constructor(public value: { command: string; title: string; arguments?: unknown[] }) {}
}

export class ChatResponseTurn {
  constructor(
    readonly response: unknown[],
    readonly result: { metadata?: Record<string, unknown>; errorDetails?: { message: string } },
    readonly participant: string,
    readonly command?: string,
  ) {}
}

export interface FakeChatParticipant {
  id: string;
  requestHandler: (request: unknown, context: unknown, response: unknown, token: CancellationToken) => unknown;
  iconPath?: unknown;
  followupProvider?: unknown;
  onDidReceiveFeedback: Event<unknown>;
  disposed: boolean;
  dispose(): void;
}

/** A response stream that records what a participant wrote. */
export class FakeChatResponseStream {
  readonly parts: (
    | { kind: 'markdown'; value: string }
    | { kind: 'button'; command: string; title: string; arguments?: unknown[] }
    | { kind: 'progress'; value: string }
    | { kind: 'reference'; value: unknown }
    | { kind: 'anchor'; value: unknown }
  )[] = [];
  markdown(value: string | MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  button(command: { command: string; title: string; arguments?: unknown[] }): void {
    this.parts.push({ kind: 'button', command: command.command, title: command.title, ...(command.arguments ? { arguments: command.arguments } : {}) });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: unknown): void {
    this.parts.push({ kind: 'reference', value });
  }
  anchor(value: unknown): void {
    this.parts.push({ kind: 'anchor', value });
  }
  filetree(): void {}
  push(part: unknown): void {
    if (part instanceof ChatResponseMarkdownPart) this.markdown(part.value);
  }
  /** Everything written as Markdown, joined. */
  get text(): string {
    return this.parts
      .filter((p): p is { kind: 'markdown'; value: string } => p.kind === 'markdown')
      .map((p) => p.value)
      .join('');
  }
  get buttons(): { command: string; title: string; arguments?: unknown[] }[] {
    return this.parts.filter((p) => p.kind === 'button') as { command: string; title: string; arguments?: unknown[] }[];
  }
}

export const chat = {
  createChatParticipant(id: string, handler: FakeChatParticipant['requestHandler']): FakeChatParticipant {
    const feedback = new EventEmitter<unknown>();
    const p: FakeChatParticipant = {
      id,
      requestHandler: handler,
      onDidReceiveFeedback: feedback.event,
      disposed: false,
      dispose() {
        this.disposed = true;
      },
    };
    state.chatParticipants.push(p);
    return p;
  },
} satisfies FakeOf<typeof vscode.chat>;

export const lm = {
  async selectChatModels(selector?: { vendor?: string; family?: string; id?: string; version?: string }): Promise<LanguageModelChatLike[]> {
    return state.lmModels.filter(
      (m) =>
        (!selector?.vendor || m.vendor === selector.vendor) &&
        (!selector?.family || m.family === selector.family) &&
        (!selector?.id || m.id === selector.id) &&
        (!selector?.version || m.version === selector.version),
    );
  },
  onDidChangeChatModels: lmModelsEmitter.event,
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): Disposable {
    if (state.lmTools.has(name)) throw new Error(`tool '${name}' already registered`);
    state.lmTools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return new Disposable(() => state.lmTools.delete(name));
  },
} satisfies FakeOf<typeof vscode.lm>;

// ───────────────────────────── extension context ─────────────────────────────

class FakeMemento {
  private readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.data.has(key) ? (structuredClone(this.data.get(key)) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, structuredClone(value));
  }
  setKeysForSync(_keys: readonly string[]): void {}
}

class FakeSecretStorage {
  private readonly emitter = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.emitter.event;
  constructor(private readonly data: Map<string, string>) {}
  async get(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    this.emitter.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    this.emitter.fire({ key });
  }
}

/** Survives "reloads": pass the same one to createExtensionContext to keep state and secrets. */
export interface FakeProfile {
  storageDir: string;
  globalState: FakeMemento;
  workspaceState: FakeMemento;
  secrets: Map<string, string>;
}

export function createProfile(storageDir: string): FakeProfile {
  return { storageDir, globalState: new FakeMemento(), workspaceState: new FakeMemento(), secrets: new Map() };
}

export interface FakeExtensionContext {
  subscriptions: { dispose(): unknown }[];
  globalState: FakeMemento;
  workspaceState: FakeMemento;
  secrets: FakeSecretStorage;
  globalStorageUri: Uri;
  storageUri: Uri;
  logUri: Uri;
  extensionUri: Uri;
  extensionPath: string;
  extensionMode: ExtensionMode;
  asAbsolutePath(rel: string): string;
}

/** An ExtensionContext whose storage lives in `profile.storageDir` (a real directory). */
export function createExtensionContext(
  profile: FakeProfile,
  extensionPath = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'),
): FakeExtensionContext {
  return {
    subscriptions: [],
    globalState: profile.globalState,
    workspaceState: profile.workspaceState,
    secrets: new FakeSecretStorage(profile.secrets),
    globalStorageUri: Uri.file(join(profile.storageDir, 'global')),
    storageUri: Uri.file(join(profile.storageDir, 'workspace')),
    logUri: Uri.file(join(profile.storageDir, 'logs')),
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    extensionMode: ExtensionMode.Test,
    asAbsolutePath: (rel) => join(extensionPath, rel),
  };
}

/** Disposes what an activation registered, in reverse order, as VS Code does on deactivate. */
export function disposeContext(context: FakeExtensionContext): void {
  for (const d of context.subscriptions.reverse()) d.dispose();
  context.subscriptions.length = 0;
}

// ───────────────────────────── the checks against @types/vscode ─────────────────────────────

/** Compiles only when `Fake` has no member the real API lacks and each of its functions takes the
 *  real arguments (see FakeOf). */
type Fits<Fake extends FakeOf<Real> & { [K in Exclude<keyof Fake, keyof Real>]: never }, Real> = Fake;

/** Compiles only when every member of a fake enum is in the real enum with the same value. */
type SameEnum<Fake extends Real, Real> = Fake;

/** Test hooks: what tests read or drive on the fake objects, which the real API does not have. */
type StatusBarItemHooks = 'visible' | 'disposed';
type WebviewHooks = 'posted' | 'receive';
type WebviewPanelHooks = 'disposed' | 'reveals';
type EventEmitterHooks = 'listenerCount';
type TreeViewHooks = 'id' | 'provider' | 'disposed' | 'setVisible';
type TerminalHooks = 'sent' | 'shown' | 'disposed';
type WatcherHooks = 'glob' | 'covers' | 'fire' | 'disposed';

export type FakeMatchesRealApi = [
  // Classes: the constructor side (static members) and the instances.
  Fits<typeof Disposable, typeof vscode.Disposable>,
  Fits<Disposable, vscode.Disposable>,
  Fits<Omit<EventEmitter<unknown>, EventEmitterHooks>, vscode.EventEmitter<unknown>>,
  Fits<CancellationError, vscode.CancellationError>,
  Fits<CancellationTokenSource, vscode.CancellationTokenSource>,
  Fits<CancellationToken, vscode.CancellationToken>,
  Fits<typeof Uri, typeof vscode.Uri>,
  Fits<Uri, vscode.Uri>,
  Fits<ThemeColor, vscode.ThemeColor>,
  Fits<typeof ThemeIcon, typeof vscode.ThemeIcon>,
  Fits<ThemeIcon, vscode.ThemeIcon>,
  Fits<MarkdownString, vscode.MarkdownString>,
  Fits<Position, vscode.Position>,
  Fits<Range, vscode.Range>,
  Fits<LanguageModelTextPart, vscode.LanguageModelTextPart>,
  Fits<LanguageModelToolCallPart, vscode.LanguageModelToolCallPart>,
  Fits<LanguageModelToolResultPart, vscode.LanguageModelToolResultPart>,
  Fits<LanguageModelToolResult, vscode.LanguageModelToolResult>,
  Fits<typeof LanguageModelChatMessage, typeof vscode.LanguageModelChatMessage>,
  Fits<LanguageModelChatMessage, vscode.LanguageModelChatMessage>,
  Fits<typeof LanguageModelError, typeof vscode.LanguageModelError>,
  Fits<LanguageModelError, vscode.LanguageModelError>,
  Fits<ChatRequestTurn, vscode.ChatRequestTurn>,
  Fits<ChatResponseMarkdownPart, vscode.ChatResponseMarkdownPart>,
  Fits<ChatResponseCommandButtonPart, vscode.ChatResponseCommandButtonPart>,
  Fits<ChatResponseTurn, vscode.ChatResponseTurn>,
  Fits<typeof RelativePattern, typeof vscode.RelativePattern>,
  Fits<RelativePattern, vscode.RelativePattern>,
  Fits<typeof TreeItem, typeof vscode.TreeItem>,
  Fits<TreeItem, vscode.TreeItem>,
  // Objects the fake hands out.
  Fits<Omit<FakeStatusBarItem, StatusBarItemHooks>, vscode.StatusBarItem>,
  Fits<Omit<FakeOutputChannel, 'lines'>, vscode.LogOutputChannel>,
  Fits<FakeTextDocument, vscode.TextDocument>,
  Fits<FakeTextEditor, vscode.TextEditor>,
  Fits<QuickPickItemLike, vscode.QuickPickItem>,
  Fits<Omit<FakeWebview, WebviewHooks>, vscode.Webview>,
  Fits<Omit<FakeWebviewPanel, WebviewPanelHooks>, vscode.WebviewPanel>,
  Fits<Omit<FakeTreeView, TreeViewHooks>, vscode.TreeView<unknown>>,
  Fits<Omit<FakeTerminal, TerminalHooks>, vscode.Terminal>,
  Fits<Omit<FakeFileSystemWatcher, WatcherHooks>, vscode.FileSystemWatcher>,
  Fits<LanguageModelChatLike, vscode.LanguageModelChat>,
  Fits<Omit<FakeChatParticipant, 'disposed'>, vscode.ChatParticipant>,
  Fits<Omit<FakeChatResponseStream, 'parts' | 'text' | 'buttons'>, vscode.ChatResponseStream>,
  Fits<FakeConfiguration, vscode.WorkspaceConfiguration>,
  Fits<FakeMemento, vscode.ExtensionContext['globalState']>,
  Fits<FakeSecretStorage, vscode.SecretStorage>,
  Fits<FakeExtensionContext, vscode.ExtensionContext>,
  // Enums.
  SameEnum<StatusBarAlignment, vscode.StatusBarAlignment>,
  SameEnum<ProgressLocation, vscode.ProgressLocation>,
  SameEnum<ViewColumn, vscode.ViewColumn>,
  SameEnum<ConfigurationTarget, vscode.ConfigurationTarget>,
  SameEnum<ExtensionMode, vscode.ExtensionMode>,
  SameEnum<QuickPickItemKind, vscode.QuickPickItemKind>,
  SameEnum<TreeItemCollapsibleState, vscode.TreeItemCollapsibleState>,
  SameEnum<LogLevel, vscode.LogLevel>,
  SameEnum<UIKind, vscode.UIKind>,
  SameEnum<LanguageModelChatMessageRole, vscode.LanguageModelChatMessageRole>,
];
