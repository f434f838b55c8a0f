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
//
// One module per part of the API, in vscode/: api (plain classes and enums), chatApi, types (what
// the fake hands out and records), state, control (`fake`, resetFake), window, workspace,
// watcher, commands (with env and l10n), lm (chat and language models), context, and checks (the
// fake held to @types/vscode).

export * from './vscode/api';
export * from './vscode/chatApi';
export type * from './vscode/types';
export * from './vscode/state';
export * from './vscode/control';
export * from './vscode/window';
export * from './vscode/workspace';
export * from './vscode/watcher';
export * from './vscode/commands';
export * from './vscode/lm';
export * from './vscode/context';
export type * from './vscode/checks';
