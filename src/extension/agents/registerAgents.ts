// Context Compactor inside the agents: the Claude Code hooks' install and remove commands (and the
// loop guard's reason shown when it blocks), the tools for Copilot's agent mode, and the MCP server
// offered to VS Code.

import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { guarded, type Logger } from '../log';
import type { SettingsStore } from '../settings';
import { installClaudeHooksCommand, removeClaudeHooksCommand } from './claudeHooksCommand';
import { registerLanguageModelTools } from './languageModelTools';
import { LoopGuardNotice } from './loopGuardNotice';
import { registerMcpProvider } from './mcpProvider';

export function registerAgents(context: vscode.ExtensionContext, deps: { settings: SettingsStore; log: Logger }): void {
  const notice = new LoopGuardNotice(deps.log);
  context.subscriptions.push(notice);
  const hookDeps = { ...deps, extensionPath: context.extensionPath, onInstalled: () => notice.watch() };
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.installClaudeHooks, () =>
      guarded(deps.log, vscode.l10n.t('Install Claude Code Hooks'), () => installClaudeHooksCommand(hookDeps)),
    ),
    vscode.commands.registerCommand(COMMANDS.removeClaudeHooks, () =>
      guarded(deps.log, vscode.l10n.t('Remove Claude Code Hooks'), () => removeClaudeHooksCommand(hookDeps)),
    ),
  );
  registerLanguageModelTools(context, deps.log, deps.settings);
  const version = (context.extension as vscode.Extension<unknown> | undefined)?.packageJSON?.version;
  registerMcpProvider(context, deps.log, typeof version === 'string' ? version : '0.0.0');
}
