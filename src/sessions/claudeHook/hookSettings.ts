// The hooks entry `ctxc hook claude-code` needs in a Claude Code settings.json, and adding it to or
// removing it from a settings object without touching anything else. Pure: the caller reads and
// writes the file (the extension's "Install Claude Code Hooks" command; the README shows the same
// entry for setting it up by hand).
//
// Claude Code's shape: settings.hooks[Event] is a list of matcher groups
// `{ matcher?, hooks: [{ type: "command", command }] }`. Ours are recognised by their command,
// which always runs `… hook claude-code …`: removing takes out exactly those handlers (and a group
// they leave empty, and an event list left empty), and installing first removes an earlier
// install (an older extension path, other flags) so the entry is never there twice.

import type { HookSettingsChange } from '../agents/agent';
import type { HookSettings } from './claudeHook';
import { HOOK_DEFAULTS } from './claudeHook';

/** The events the hook is installed on, with the matcher each needs. */
export const HOOK_EVENTS: readonly { event: string; matcher?: string }[] = [
  { event: 'PreCompact' },
  { event: 'SessionStart', matcher: 'compact' },
  { event: 'UserPromptSubmit' },
];

/** A path in double quotes for the shell Claude Code runs hooks with (sh, or Git Bash on
 *  Windows): `"`, `\`, `$` and backquote escaped. */
export function shellDoubleQuote(s: string): string {
  return `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The command line: `node "<cli.js>" hook <agent>` (Claude Code's unless another agent's module
 *  asks), plus the flags whose values differ from the defaults. */
export function hookCommandLine(cliPath: string, settings: Partial<HookSettings> = {}, node = 'node', agent = 'claude-code'): string {
  const flags: string[] = [];
  const add = (flag: string, v: number | undefined, d: number) => {
    if (v !== undefined && v !== d) flags.push(`--${flag} ${v}`);
  };
  add('max-tokens', settings.maxTokens, HOOK_DEFAULTS.maxTokens);
  add('loop-limit', settings.loopLimit, HOOK_DEFAULTS.loopLimit);
  add('loop-minutes', settings.loopMinutes, HOOK_DEFAULTS.loopMinutes);
  return [node, shellDoubleQuote(cliPath), 'hook', agent, ...flags].join(' ');
}

type Json = Record<string, unknown>;

/** A settings file that cannot be changed safely: said in words the person can act on. */
export class SettingsShapeError extends Error {
  override name = 'SettingsShapeError';
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Hook settings in Claude Code's shape, which Qwen Code reads too: settings.hooks[Event] is a list
// of matcher groups `{ matcher?, hooks: [{ type: "command", command }] }`. Ours are recognised by
// their command, which always runs `… hook <agent>`: removing takes out exactly those handlers (and
// a group they leave empty, and an event list left empty), and adding first removes an earlier
// install (an older extension path, other flags), so the entry is never there twice. Pure: the
// caller reads and writes the file.

export interface HookEvent {
  event: string;
  matcher?: string;
}

export interface ClaudeShapedHooks {
  /** The `hooks` object an install adds for `command`. */
  entry(command: string): Record<string, Json[]>;
  add(settings: unknown, command: string): HookSettingsChange;
  remove(settings: unknown): HookSettingsChange;
  has(settings: unknown): boolean;
}

export function claudeShapedHooks(events: readonly HookEvent[], agent: string, product: string): ClaudeShapedHooks {
  const mark = ` hook ${agent}`;
  const isOurs = (h: unknown) => isObject(h) && typeof h['command'] === 'string' && (h['command'].endsWith(mark) || h['command'].includes(`${mark} `));

  const entry = (command: string): Record<string, Json[]> => {
    const out: Record<string, Json[]> = {};
    for (const { event, matcher } of events) out[event] = [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command }] }];
    return out;
  };

  const checkShape = (settings: unknown): Json => {
    if (!isObject(settings)) throw new SettingsShapeError(`the file holds JSON, but not an object ({ … }) as ${product} settings are`);
    const hooks = settings['hooks'];
    if (hooks !== undefined && !isObject(hooks)) throw new SettingsShapeError("its 'hooks' is not an object");
    for (const { event } of events) {
      const list = isObject(hooks) ? hooks[event] : undefined;
      if (list !== undefined && !Array.isArray(list)) throw new SettingsShapeError(`its 'hooks.${event}' is not a list`);
    }
    return settings;
  };

  const remove = (settings: unknown): HookSettingsChange => {
    const s = checkShape(settings);
    if (!isObject(s['hooks'])) return { settings: s, removed: 0, added: 0 };
    let removed = 0;
    const hooks: Json = {};
    for (const [event, list] of Object.entries(s['hooks'])) {
      if (!Array.isArray(list)) {
        hooks[event] = list;
        continue;
      }
      const groups: unknown[] = [];
      for (const group of list) {
        if (!isObject(group) || !Array.isArray(group['hooks'])) {
          groups.push(group);
          continue;
        }
        const kept = group['hooks'].filter((h) => !isOurs(h));
        removed += group['hooks'].length - kept.length;
        if (kept.length > 0) groups.push(kept.length === group['hooks'].length ? group : { ...group, hooks: kept });
      }
      if (groups.length > 0 || list.length === 0) hooks[event] = groups;
    }
    const out: Json = { ...s };
    if (Object.keys(hooks).length > 0 || Object.keys(s['hooks']).length === 0) out['hooks'] = hooks;
    else delete out['hooks'];
    return { settings: out, removed, added: 0 };
  };

  const add = (settings: unknown, command: string): HookSettingsChange => {
    const { settings: s, removed } = remove(settings);
    const hooks: Json = isObject(s['hooks']) ? { ...s['hooks'] } : {};
    let added = 0;
    for (const [event, groups] of Object.entries(entry(command))) {
      const list = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
      hooks[event] = [...list, ...groups];
      added += groups.length;
    }
    return { settings: { ...s, hooks }, removed, added };
  };

  const has = (settings: unknown): boolean =>
    isObject(settings) &&
    isObject(settings['hooks']) &&
    Object.values(settings['hooks']).some(
      (list) => Array.isArray(list) && list.some((g) => isObject(g) && Array.isArray(g['hooks']) && g['hooks'].some(isOurs)),
    );

  return { entry, add, remove, has };
}

/** Claude Code's own: its events, its commands. */
const CLAUDE_HOOKS = claudeShapedHooks(HOOK_EVENTS, 'claude-code', 'Claude Code');

/** The `hooks` object the install adds for `command`. */
export const hooksEntry = CLAUDE_HOOKS.entry;
/** `settings` without our handlers; other keys, events, groups and handlers as they were, in order. */
export const removeClaudeHooks = CLAUDE_HOOKS.remove;
/** `settings` with our hooks for `command` (an earlier install of ours replaced). */
export const addClaudeHooks = CLAUDE_HOOKS.add;
/** Whether our hooks are in `settings` (any version of the command). */
export const hasClaudeHooks = CLAUDE_HOOKS.has;

/** The indentation a JSON text uses (its first indented line), to write it back the same way. */
export function jsonIndent(text: string): string | number {
  const m = /\n([ \t]+)["}\]]/.exec(text);
  return m ? m[1]! : 2;
}
