// The hooks file `ctxc hook copilot-cli` is installed in: `<copilot home>/hooks/context-compactor.json`,
// a file of its own among the person's hooks (Copilot CLI reads every `*.json` in that folder;
// verified with 1.0.102). Its shape, as Copilot reads it:
//   {"version": 1, "hooks": {"preCompact": [{"type": "command", "bash": "…", "timeoutSec": 30}],
//                            "userPromptSubmitted": [ … ]}}
// Copilot runs `bash` with bash (a command line with quoted arguments ran as written). Ours are
// recognised by their command, which always runs `… hook copilot-cli …`: removing takes out exactly
// those, and says when nothing else is left (the file is then ours alone and can go).
//
// Repository hooks (`.github/hooks/*.json`) are not offered: Copilot reads them only in a trusted
// folder (and in -p mode only with GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS), and a file there is
// shared through git while the command names this machine's path to the extension.

import { join } from 'node:path';
import { hookCommandLine, SettingsShapeError } from '../../claudeHook/hookSettings';
import type { AgentHookSettings, HookSettingsChange, HookSettingsFile } from '../agent';
import type { Env } from '../../locations';
import { copilotHome } from './sessions';

export const COPILOT_HOOK_FILE = 'context-compactor.json';
/** The events installed, as Copilot names them. */
export const COPILOT_HOOK_EVENTS = ['preCompact', 'userPromptSubmitted'] as const;
/** What every command we install contains, and only ours. */
export const COPILOT_HOOK_MARK = ' hook copilot-cli';
/** Copilot's default is short for a repair that reads a long session. */
export const COPILOT_HOOK_TIMEOUT_SEC = 30;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function copilotHookFiles(p: { env: Env; home: string }): HookSettingsFile[] {
  return [{ path: join(copilotHome(p.env, p.home), 'hooks', COPILOT_HOOK_FILE), scope: 'user', ownFile: true }];
}

/** `node "<cli.js>" hook copilot-cli` and the flags whose values differ from the defaults: the
 *  Claude Code hook's command line with this agent's id. */
export function copilotHookCommandLine(cliPath: string, settings: Partial<AgentHookSettings> = {}, node = 'node'): string {
  return hookCommandLine(cliPath, settings, node, 'copilot-cli');
}

/** The file's content for `command`. */
export function copilotHooksEntry(command: string): Json {
  const handler = { type: 'command', bash: command, timeoutSec: COPILOT_HOOK_TIMEOUT_SEC };
  return { version: 1, hooks: Object.fromEntries(COPILOT_HOOK_EVENTS.map((e) => [e, [handler]])) };
}

function isOurs(handler: unknown): boolean {
  return isObject(handler) && typeof handler['bash'] === 'string' && handler['bash'].includes(COPILOT_HOOK_MARK);
}

function checkShape(settings: unknown): Json {
  if (!isObject(settings)) throw new SettingsShapeError('the file holds JSON, but not an object ({ … }) as Copilot CLI hook files are');
  const version = settings['version'];
  if (version !== undefined && version !== 1) throw new SettingsShapeError(`its 'version' is ${JSON.stringify(version)}, not 1`);
  const hooks = settings['hooks'];
  if (hooks !== undefined && !isObject(hooks)) throw new SettingsShapeError("its 'hooks' is not an object");
  for (const [event, list] of Object.entries(isObject(hooks) ? hooks : {})) {
    if (!Array.isArray(list)) throw new SettingsShapeError(`its 'hooks.${event}' is not a list`);
  }
  return settings;
}

/** `settings` without our handlers; `empty` when nothing else is left in it. */
export function removeCopilotHooks(settings: unknown): HookSettingsChange {
  const s = checkShape(settings);
  const hooks: Json = {};
  let removed = 0;
  for (const [event, list] of Object.entries(isObject(s['hooks']) ? s['hooks'] : {})) {
    const kept = (list as unknown[]).filter((h) => !isOurs(h));
    removed += (list as unknown[]).length - kept.length;
    if (kept.length > 0) hooks[event] = kept;
  }
  const rest = Object.keys(s).filter((k) => k !== 'version' && k !== 'hooks');
  const empty = Object.keys(hooks).length === 0 && rest.length === 0;
  return { settings: { ...s, version: s['version'] ?? 1, hooks }, removed, added: 0, empty };
}

/** `settings` with our hooks for `command` (an earlier install of ours replaced). */
export function addCopilotHooks(settings: unknown, command: string): HookSettingsChange {
  const { settings: s, removed } = removeCopilotHooks(settings);
  const hooks: Json = { ...(s['hooks'] as Json) };
  const ours = copilotHooksEntry(command)['hooks'] as Record<string, unknown[]>;
  let added = 0;
  for (const [event, handlers] of Object.entries(ours)) {
    hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), ...handlers];
    added += handlers.length;
  }
  return { settings: { ...s, version: 1, hooks }, removed, added };
}

/** Whether our hooks are in `settings` (any version of the command). */
export function hasCopilotHooks(settings: unknown): boolean {
  if (!isObject(settings) || !isObject(settings['hooks'])) return false;
  return Object.values(settings['hooks']).some((list) => Array.isArray(list) && list.some(isOurs));
}
