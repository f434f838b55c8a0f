// Hook settings in Claude Code's shape, which Qwen Code (and Gemini CLI) read too:
// settings.hooks[Event] is a list of matcher groups `{ matcher?, hooks: [{ type: "command", command }] }`.
// Ours are recognised by their command, which always runs `… hook <agent>`: removing takes out
// exactly those handlers (and a group they leave empty, and an event list left empty), and adding
// first removes an earlier install (an older extension path, other flags), so the entry is never
// there twice. Pure: the caller reads and writes the file. (claudeHook/hookSettings.ts is the same
// for Claude Code's events; it could be `claudeShapedHooks(HOOK_EVENTS, 'claude-code')`.)

import type { HookSettingsChange } from './agent';
import { SettingsShapeError } from '../claudeHook/hookSettings';

type Json = Record<string, unknown>;

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

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
