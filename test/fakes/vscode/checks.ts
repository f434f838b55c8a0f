// Checked against @types/vscode: compiles only when every fake matches the real API (FakeOf).

import {
  type CancellationError,
  type CancellationToken,
  type CancellationTokenSource,
  type ConfigurationTarget,
  type Disposable,
  type EventEmitter,
  type ExtensionMode,
  type FakeOf,
  type LogLevel,
  type MarkdownString,
  type Position,
  type ProgressLocation,
  type QuickPickItemKind,
  type Range,
  type RelativePattern,
  type StatusBarAlignment,
  type ThemeColor,
  type ThemeIcon,
  type TreeItem,
  type TreeItemCollapsibleState,
  type UIKind,
  type Uri,
  type ViewColumn,
} from './api';
import {
  type ChatRequestTurn,
  type ChatResponseCommandButtonPart,
  type ChatResponseMarkdownPart,
  type ChatResponseTurn,
  type FakeChatParticipant,
  type FakeChatResponseStream,
  type LanguageModelChatLike,
  type LanguageModelChatMessage,
  type LanguageModelChatMessageRole,
  type LanguageModelError,
  type LanguageModelTextPart,
  type LanguageModelToolCallPart,
  type LanguageModelToolResult,
  type LanguageModelToolResultPart,
} from './chatApi';
import { type FakeExtensionContext, type FakeMemento, type FakeSecretStorage } from './context';
import type {
  FakeOutputChannel,
  FakeStatusBarItem,
  FakeTerminal,
  FakeTextDocument,
  FakeTextEditor,
  FakeTreeView,
  FakeWebview,
  FakeWebviewPanel,
  QuickPickItemLike,
} from './types';
import { type FakeFileSystemWatcher } from './watcher';
import { type FakeConfiguration } from './workspace';
import type * as vscode from 'vscode';

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
