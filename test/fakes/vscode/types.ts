// What the fake hands out and records: the shapes tests read (messages shown, progress, status
// bar items, output channels, documents, webviews, trees, terminals).

import {
  type Event,
  type MarkdownString,
  type ProgressLocation,
  type QuickPickItemKind,
  type StatusBarAlignment,
  type ThemeColor,
  type TreeItem,
  type Uri,
  type ViewColumn,
} from './api';
import type * as vscode from 'vscode';

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

export interface QuickPickItemLike {
  label: string;
  description?: string;
  detail?: string;
  kind?: QuickPickItemKind;
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

export type WebviewPanelOptions = vscode.WebviewPanelOptions & vscode.WebviewOptions;

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
