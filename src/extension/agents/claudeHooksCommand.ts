// "Install Claude Code Hooks" and "Remove Claude Code Hooks": the settings.json entry that runs
// `ctxc hook claude-code` (src/sessions/claudeHook/hookSettings.ts), added to a workspace's
// `.claude/settings.json` or the user's, after showing the exact JSON and asking. Every other key
// and hook of the file is kept, a file that is not valid JSON is refused with where it breaks, the
// write is atomic, and removing takes out exactly the entries an install added.
//
// The command runs this extension's dist/cli.js with `node` (the package is not on the npm
// registry, so `npx ctxc` would fetch another package), from a copy in the global storage whose
// path outlives an update (hookBin.ts); the hook settings are written into it as flags, so
// changing a setting means installing again.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { lineColumnAt, locateJsonError } from '../../engine/conversation/importers/jsonText';
import { writeFileAtomic } from '../../node/atomicWrite';
import { readTextIfExists } from '../../node/readTextIfExists';
import {
  addClaudeHooks,
  hasClaudeHooks,
  hookCommandLine,
  hooksEntry,
  jsonIndent,
  removeClaudeHooks,
  SettingsShapeError,
} from '../../sessions/claudeHook/hookSettings';
import { claudeConfigDir } from '../../sessions/locations';
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

interface SettingsTarget extends vscode.QuickPickItem {
  path: string;
}

/** The settings files the hooks can go in: each workspace folder's, then the user's. */
function targets(): SettingsTarget[] {
  const out: SettingsTarget[] = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
    label: `$(folder) ${f.name}/.claude/settings.json`,
    description: vscode.l10n.t('this workspace'),
    path: join(f.uri.fsPath, '.claude', 'settings.json'),
  }));
  const user = join(claudeConfigDir(process.env, homedir()), 'settings.json');
  out.push({ label: '$(account) ~/.claude/settings.json', description: vscode.l10n.t('all your projects'), detail: user, path: user });
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

/** Whether `node` runs from the PATH Claude Code will run the hook with. */
function nodeOnPath(): Promise<boolean> {
  return new Promise((resolve) => execFile('node', ['--version'], { timeout: 10_000 }, (err) => resolve(!err)));
}

export async function installClaudeHooksCommand(deps: HookCommandDeps): Promise<void> {
  const bundled = join(deps.extensionPath, 'dist', 'cli.js');
  if (!existsSync(bundled)) throw new UserFacingError(vscode.l10n.t('The extension has no {0}; reinstall Context Compactor.', bundled));
  const target = await vscode.window.showQuickPick(targets(), { placeHolder: vscode.l10n.t('Where should the Claude Code hooks go?') });
  if (!target) return;
  const cli = await stableHookCli(deps.extensionPath, deps.globalStorage);
  const s = deps.settings.current;
  const command = hookCommandLine(cli, { maxTokens: s.claudeHookMaxTokens, loopLimit: s.claudeHookLoopLimit, loopMinutes: s.claudeHookLoopMinutes });
  const { text, value } = await readSettings(target.path);
  const change = shaped(target.path, () => addClaudeHooks(value, command));
  const details = [vscode.l10n.t('This JSON is added (every other setting and hook stays as it is):'), JSON.stringify({ hooks: hooksEntry(command) }, null, 2)];
  if (change.removed > 0) details.push(vscode.l10n.t('It replaces the {0} entries an earlier install added.', change.removed));
  if (!(await nodeOnPath())) details.push(vscode.l10n.t('`node` was not found on the PATH: Claude Code needs it to run the hooks.'));
  const install = vscode.l10n.t('Install');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Add the Claude Code hooks to {0}?', target.path),
    { modal: true, detail: details.join('\n\n') },
    install,
  );
  if (answer !== install) return;
  await write(target.path, change.settings, text);
  deps.log.info(`Claude Code hooks installed in ${target.path}: ${command}`);
  deps.onInstalled?.();
  void vscode.window.showInformationMessage(vscode.l10n.t('Claude Code hooks installed in {0}. Claude Code reads them when a session starts.', target.path));
}

export async function removeClaudeHooksCommand(deps: HookCommandDeps): Promise<void> {
  const installed: SettingsTarget[] = [];
  for (const t of targets()) {
    const text = await readTextIfExists(t.path).catch(() => undefined);
    if (text === undefined) continue;
    try {
      if (hasClaudeHooks(JSON.parse(text))) installed.push(t);
    } catch {
      // Not JSON: nothing of ours can be found in it.
    }
  }
  if (installed.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No Context Compactor hooks were found in this workspace's or your Claude Code settings."));
    return;
  }
  const target =
    installed.length === 1
      ? installed[0]!
      : await vscode.window.showQuickPick(installed, { placeHolder: vscode.l10n.t('Remove the Claude Code hooks from which file?') });
  if (!target) return;
  const { text, value } = await readSettings(target.path);
  const change = shaped(target.path, () => removeClaudeHooks(value));
  const remove = vscode.l10n.t('Remove');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Remove the Claude Code hooks from {0}?', target.path),
    { modal: true, detail: vscode.l10n.t('The {0} entries that run `hook claude-code` are taken out; every other setting and hook stays.', change.removed) },
    remove,
  );
  if (answer !== remove) return;
  await write(target.path, change.settings, text);
  deps.log.info(`Claude Code hooks removed from ${target.path}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Claude Code hooks removed from {0}.', target.path));
}
