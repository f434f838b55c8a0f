// "Install Agent Hooks" and "Remove Agent Hooks": the hooks of every agent the registry gives
// some (src/sessions/agents/<agent>/: Claude Code's settings.json entry that runs `ctxc hook
// claude-code`, Copilot CLI's own hooks file that runs `ctxc hook copilot-cli`), added to a file the
// agent reads — a workspace's or the person's — after showing the exact JSON and asking. Every
// other key and hook of the file is kept, a file that is not valid JSON is refused with where it
// breaks, the write is atomic, and removing takes out exactly the entries an install added (a file
// that held only ours is removed).
//
// The command runs this extension's dist/cli.js with `node` (the package is not on the npm
// registry, so `npx ctxc` would fetch another package), from a copy in the global storage whose
// path outlives an update (hookBin.ts); the hook settings are written into it as flags, so
// changing a setting means installing again.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { lineColumnAt, locateJsonError } from '../../engine/conversation/importers/jsonText';
import { writeFileAtomic } from '../../files/atomicWrite';
import { readTextIfExists } from '../../files/readTextIfExists';
import { jsonIndent, SettingsShapeError } from '../../sessions/claudeHook/hookSettings';
import type { AgentModule, HookSettingsFile } from '../../sessions/agents/agent';
import { AGENT_MODULES } from '../../sessions/agents/registry';
import { isInside } from '../../sessions/locations';
import { UserFacingError, type Logger } from '../log';
import { stableHookCli } from './hookBin';
import type { SettingsStore } from '../settings';

export interface HookCommandDeps {
  settings: SettingsStore;
  log: Logger;
  /** The extension's folder (its dist/cli.js is what the hooks run, copied to `globalStorage`). */
  extensionPath: string;
  /** The extension's global storage folder, where the copy the hooks run is kept. */
  globalStorage: string;
  /** Called once the hooks are written (the loop guard's notices start watching). */
  onInstalled?: () => void;
}

type HookedAgent = AgentModule & { hooks: NonNullable<AgentModule['hooks']> };

interface SettingsTarget extends vscode.QuickPickItem {
  agent: HookedAgent;
  file: HookSettingsFile;
  path: string;
}

/** The files the hooks can go in, agent by agent: each workspace folder's (when the agent reads
 *  one), then the person's. */
function targets(): SettingsTarget[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const home = homedir();
  const out: SettingsTarget[] = [];
  for (const agent of AGENT_MODULES) {
    if (!agent.hooks) continue;
    for (const file of agent.hooks.settingsFiles({ folders, env: process.env, home })) {
      const workspace = file.scope === 'workspace' && file.folder !== undefined;
      const shown = workspace
        ? `${vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === file.folder)?.name ?? file.folder}/${relative(file.folder!, file.path)}`
        : isInside(file.path, home)
          ? `~/${relative(home, file.path)}`
          : file.path;
      out.push({
        label: `${workspace ? '$(folder)' : '$(account)'} ${shown}`,
        description: `${agent.name} · ${workspace ? vscode.l10n.t('this workspace') : vscode.l10n.t('all your projects')}`,
        ...(workspace ? {} : { detail: file.path }),
        agent: agent as HookedAgent,
        file,
        path: file.path,
      });
    }
  }
  return out;
}

/** The file's settings (an empty object when there is no file), or a refusal naming where it breaks. */
async function readSettings(path: string): Promise<{ text: string | undefined; value: unknown }> {
  const text = await readTextIfExists(path);
  if (text === undefined || text.trim() === '') return { text, value: {} };
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch {
    const p = locateJsonError(text);
    const lc = lineColumnAt(text, p?.offset ?? 0);
    const where = p ? vscode.l10n.t('line {0}, column {1}: expected {2}, found {3}', lc.line, lc.column, p.expected, p.found) : vscode.l10n.t('not valid JSON');
    throw new UserFacingError(
      vscode.l10n.t('{0} is not valid JSON ({1}). Fix it, or add the hooks by hand as the README shows. Nothing was changed.', path, where),
    );
  }
}

function shaped<T>(path: string, change: () => T): T {
  try {
    return change();
  } catch (e) {
    if (e instanceof SettingsShapeError) throw new UserFacingError(vscode.l10n.t('{0} cannot take the hooks: {1}. Nothing was changed.', path, e.message));
    throw e;
  }
}

async function write(path: string, settings: unknown, before: string | undefined): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(settings, null, before ? jsonIndent(before) : 2)}\n`);
}

/** Whether `node` runs from the PATH the agent will run the hook with. */
function nodeOnPath(): Promise<boolean> {
  return new Promise((resolve) => execFile('node', ['--version'], { timeout: 10_000 }, (err) => resolve(!err)));
}

export async function installAgentHooksCommand(deps: HookCommandDeps): Promise<void> {
  const bundled = join(deps.extensionPath, 'dist', 'cli.js');
  if (!existsSync(bundled)) throw new UserFacingError(vscode.l10n.t('The extension has no {0}; reinstall Context Compactor.', bundled));
  const target = await vscode.window.showQuickPick(targets(), { placeHolder: vscode.l10n.t('Where should the agent hooks go?') });
  if (!target) return;
  const hooks = target.agent.hooks;
  const cli = await stableHookCli(deps.extensionPath, deps.globalStorage);
  const s = deps.settings.current;
  const command = hooks.commandLine(cli, { maxTokens: s.claudeHookMaxTokens, loopLimit: s.claudeHookLoopLimit, loopMinutes: s.claudeHookLoopMinutes });
  const { text, value } = await readSettings(target.path);
  const change = shaped(target.path, () => hooks.add(value, command));
  const details = [vscode.l10n.t('This JSON is added (every other setting and hook stays as it is):'), JSON.stringify(hooks.entry(command), null, 2)];
  if (change.removed > 0) details.push(vscode.l10n.t('It replaces the {0} entries an earlier install added.', change.removed));
  if (!(await nodeOnPath())) details.push(vscode.l10n.t('`node` was not found on the PATH: {0} needs it to run the hooks.', target.agent.name));
  const install = vscode.l10n.t('Install');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Add the {0} hooks to {1}?', target.agent.name, target.path),
    { modal: true, detail: details.join('\n\n') },
    install,
  );
  if (answer !== install) return;
  await write(target.path, change.settings, text);
  deps.log.info(`${target.agent.name} hooks installed in ${target.path}: ${command}`);
  deps.onInstalled?.();
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} hooks installed in {1}. {0} reads them when a session starts.', target.agent.name, target.path));
}

export async function removeAgentHooksCommand(deps: HookCommandDeps): Promise<void> {
  const installed: SettingsTarget[] = [];
  for (const t of targets()) {
    const text = await readTextIfExists(t.path).catch(() => undefined);
    if (text === undefined) continue;
    try {
      if (t.agent.hooks.has(JSON.parse(text))) installed.push(t);
    } catch {
      // Not JSON: nothing of ours can be found in it.
    }
  }
  if (installed.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No Context Compactor hooks were found in this workspace's or your agents' hook settings."));
    return;
  }
  const target =
    installed.length === 1
      ? installed[0]!
      : await vscode.window.showQuickPick(installed, { placeHolder: vscode.l10n.t('Remove the agent hooks from which file?') });
  if (!target) return;
  const { text, value } = await readSettings(target.path);
  const change = shaped(target.path, () => target.agent.hooks.remove(value));
  const removeFile = target.file.ownFile === true && change.empty === true;
  const remove = vscode.l10n.t('Remove');
  const what = vscode.l10n.t('The {0} entries that run `{1}` are taken out; every other setting and hook stays.', change.removed, `hook ${target.agent.id}`);
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Remove the {0} hooks from {1}?', target.agent.name, target.path),
    { modal: true, detail: removeFile ? `${what} ${vscode.l10n.t('The file holds nothing else and is removed.')}` : what },
    remove,
  );
  if (answer !== remove) return;
  if (removeFile) await rm(target.path, { force: true });
  else await write(target.path, change.settings, text);
  deps.log.info(`${target.agent.name} hooks removed from ${target.path}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} hooks removed from {1}.', target.agent.name, target.path));
}
