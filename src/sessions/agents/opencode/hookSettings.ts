// The plugin entry `ctxc hook opencode` needs in an opencode config (opencode.json: the folder's, or
// the user's `$XDG_CONFIG_HOME/opencode/opencode.json`), and adding it to or removing it from the
// config without touching anything else. Pure, like the Claude Code hook's settings
// (claudeHook/hookSettings.ts): the caller reads and writes the file.
//
// opencode's `plugin` is a list of module specs, each a string or a [spec, options] pair. Ours is the
// pair [file URL of dist/opencode-plugin.mjs, {command}], recognised by its command, which always
// runs `… hook opencode …`: installing first takes out an earlier install (another extension path,
// other flags), removing takes out exactly ours (and a list it leaves empty).

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SettingsShapeError } from '../../claudeHook/hookSettings';
import type { HookSettingsChange } from '../agent';

/** The hooks the plugin registers, as opencode names them. */
export const OPENCODE_HOOK_EVENTS = ['experimental.session.compacting', 'experimental.compaction.autocontinue'] as const;

/** What every command we install contains, and only ours. */
export const OPENCODE_HOOK_MARK = ' hook opencode';

/** The plugin module beside the running bundle (dist/opencode-plugin.mjs, built by esbuild.mjs). */
export function opencodePluginUrl(dir: string = __dirname): string {
  return pathToFileURL(join(dir, 'opencode-plugin.mjs')).href;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isOurs(spec: unknown): boolean {
  if (!Array.isArray(spec) || !isObject(spec[1])) return false;
  const command = spec[1]['command'];
  return typeof command === 'string' && command.includes(OPENCODE_HOOK_MARK);
}

function checkShape(settings: unknown): Json {
  if (!isObject(settings)) throw new SettingsShapeError('the file holds JSON, but not an object ({ … }) as an opencode config is');
  if (settings['plugin'] !== undefined && !Array.isArray(settings['plugin'])) throw new SettingsShapeError("its 'plugin' is not a list");
  return settings;
}

/** The `plugin` entry the install adds for `command`. */
export function opencodePluginEntry(command: string, pluginUrl = opencodePluginUrl()): [string, { command: string }] {
  return [pluginUrl, { command }];
}

/** `settings` without our plugin; every other key and plugin as it was, in order. */
export function removeOpencodeHooks(settings: unknown): HookSettingsChange {
  const s = checkShape(settings);
  const list = s['plugin'];
  if (!Array.isArray(list)) return { settings: s, removed: 0, added: 0 };
  const kept = list.filter((p) => !isOurs(p));
  const out: Json = { ...s };
  if (kept.length > 0 || list.length === 0) out['plugin'] = kept;
  else delete out['plugin'];
  return { settings: out, removed: list.length - kept.length, added: 0 };
}

/** `settings` with our plugin for `command` (an earlier install of ours replaced). */
export function addOpencodeHooks(settings: unknown, command: string, pluginUrl = opencodePluginUrl()): HookSettingsChange {
  const { settings: s, removed } = removeOpencodeHooks(settings);
  const list = Array.isArray(s['plugin']) ? s['plugin'] : [];
  return { settings: { ...s, plugin: [...list, opencodePluginEntry(command, pluginUrl)] }, removed, added: 1 };
}

/** Whether our plugin is in `settings` (any version of the command). */
export function hasOpencodeHooks(settings: unknown): boolean {
  return isObject(settings) && Array.isArray(settings['plugin']) && settings['plugin'].some(isOurs);
}
