// Extension entry: wires feature modules together, one register…(context) call each.

import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Features are registered here as they land.
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
