// Context Compactor inside the agents: the agent hooks' install and remove commands (and the
// loop guard's reason shown when it blocks), the tools for Copilot's agent mode, and the MCP server
// offered to VS Code.

import { join } from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import { guarded, type Logger } from '../log';
import type { SettingsStore } from '../settings';
import { installAgentHooksCommand, removeAgentHooksCommand } from './claudeHooksCommand';
import { HOOK_BIN, renewHookCli } from './hookBin';
import { registerLanguageModelTools } from './languageModelTools';
import { LoopGuardNotice } from './loopGuardNotice';
import { registerMcpProvider } from './mcpProvider';

export function registerAgents(context: vscode.ExtensionContext, deps: { settings: SettingsStore; log: Logger }): void {
  const notice = new LoopGuardNotice(deps.log);
  context.subscriptions.push(notice);
  const globalStorage = context.globalStorageUri.fsPath;
  const hookDeps = { ...deps, extensionPath: context.extensionPath, globalStorage, onInstalled: () => notice.watch() };
  // Installed hooks run the copy in the global storage: an update renews it.
  void renewHookCli(context.extensionPath, globalStorage).then(
    (renewed) => renewed && deps.log.info(`the Claude Code hooks run ${join(globalStorage, HOOK_BIN, 'cli.js')}, as of this build`),
    (err: unknown) => deps.log.warn(`the copy of ctxc the Claude Code hooks run could not be renewed: ${(err as Error).message}`),
  );
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.installClaudeHooks, () =>
      guarded(deps.log, vscode.l10n.t('Install Agent Hooks'), () => installAgentHooksCommand(hookDeps)),
    ),
    vscode.commands.registerCommand(COMMANDS.removeClaudeHooks, () =>
      guarded(deps.log, vscode.l10n.t('Remove Agent Hooks'), () => removeAgentHooksCommand(hookDeps)),
    ),
  );
  registerLanguageModelTools(context, deps.log, deps.settings);
  const version = (context.extension as vscode.Extension<unknown> | undefined)?.packageJSON?.version;
  registerMcpProvider(context, deps.log, typeof version === 'string' ? version : '0.0.0');
}
