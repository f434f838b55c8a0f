// The MCP server (`ctxc mcp`, this extension's dist/cli.js) offered to VS Code, so Copilot's agent
// mode and any MCP client in the editor can use it without configuration.
//
// The API (vscode.lm.registerMcpServerDefinitionProvider, vscode.McpStdioServerDefinition) came
// with VS Code 1.101; this extension requires 1.95, whose @types/vscode does not describe it. So
// it is feature-detected at run time and typed by the small shim below, instead of raising the
// engine requirement: an older VS Code simply does not get the server. The manifest's
// mcpServerDefinitionProviders entry names the provider id.
//
// The server runs with VS Code's own runtime (process.execPath with ELECTRON_RUN_AS_NODE), so it
// needs no Node on the PATH, in the first workspace folder (where session ids are looked up).

import * as vscode from 'vscode';
import { MCP_PROVIDER_ID } from '../ids';
import type { Logger } from '../log';

/** What this extension uses of VS Code 1.101's McpStdioServerDefinition. */
export interface McpStdioServerDefinitionLike {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
  cwd?: vscode.Uri;
}

interface McpServerDefinitionProviderLike {
  provideMcpServerDefinitions(token: vscode.CancellationToken): McpStdioServerDefinitionLike[];
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProviderLike): vscode.Disposable;
  McpStdioServerDefinition: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
    version?: string,
  ) => McpStdioServerDefinitionLike;
}

/** The MCP API of the running VS Code, if it has one. */
export function mcpApi(): McpApi | undefined {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as Partial<McpApi>).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') return undefined;
  return { registerMcpServerDefinitionProvider: lm.registerMcpServerDefinitionProvider.bind(vscode.lm), McpStdioServerDefinition: Definition };
}

/** The definition VS Code starts: `<runtime> <dist/cli.js> mcp`. */
export function mcpServerDefinition(api: McpApi, cliPath: string, version: string): McpStdioServerDefinitionLike {
  const def = new api.McpStdioServerDefinition('Context Compactor', process.execPath, [cliPath, 'mcp'], { ELECTRON_RUN_AS_NODE: '1' }, version);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder) def.cwd = folder.uri;
  return def;
}

export function registerMcpProvider(context: vscode.ExtensionContext, log: Logger, version: string): void {
  const api = mcpApi();
  if (!api) {
    log.info('this VS Code has no MCP server API (1.101 and later): the MCP server is not offered; `ctxc mcp` works with any MCP client');
    return;
  }
  const cli = context.asAbsolutePath('dist/cli.js');
  context.subscriptions.push(
    api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, { provideMcpServerDefinitions: () => [mcpServerDefinition(api, cli, version)] }),
  );
}
