// What the lines of a Codex rollout are, by type, for the importer (codex.ts): which carry what the
// model is sent, which are Codex's own bookkeeping, and which are new. Codex adds record types
// every few releases (0.171 added `world_state` and `token_usage_record` lines and user turns as
// `item_completed` events); a type not listed here is read by what it can be (a response item is
// sent, so it is counted; an event or a line of another type is not) and named once in a warning.
// Also here: the few readers of one record each (a user turn, the title, the base instructions, a
// token_count's usage).

import type { ImportWarning } from '../model';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import { tokenField, type UsageRecord } from './reportedUsage';

/** Line types whose meaning is known (codex.ts reads the first five; the others are bookkeeping). */
const LINE_TYPES = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'world_state',
  'token_usage_record',
  'inter_agent_communication',
]);

/** `event_msg` kinds Codex writes or has written (its protocol's EventMsg, snake_case). Events are
 *  what Codex shows, never what it sends: codex.ts reads user turns, usage and rollbacks from them. */
const EVENT_KINDS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
  'token_count',
  'context_compacted',
  'thread_rolled_back',
  'thread_name_updated',
  'thread_goal_updated',
  'thread_settings_applied',
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'turn_aborted',
  'turn_diff',
  'item_started',
  'item_completed',
  'exec_command_begin',
  'exec_command_end',
  'patch_apply_begin',
  'patch_apply_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'web_search_begin',
  'web_search_end',
  'image_generation_begin',
  'image_generation_end',
  'view_image_tool_call',
  'entered_review_mode',
  'exited_review_mode',
  'sub_agent_activity',
  'plan_update',
  'error',
  'warning',
  'stream_error',
  'session_configured',
  'shutdown_complete',
  'deprecation_notice',
]);

/** Response items codex.ts turns into messages, tool calls and results. */
export const MODELED_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
]);

/** Response items Codex keeps in the rollout but never sends (its `is_api_message`). */
const UNSENT_ITEMS = new Set(['ghost_snapshot', 'compaction_trigger', 'other']);

/** Response items Codex sends that codex.ts does not model: their text is counted. */
const KNOWN_UNMODELED_ITEMS = new Set([
  'tool_search_call',
  'tool_search_output',
  'image_generation_call',
  'compaction',
  'context_compaction',
  'additional_tools',
  'agent_message',
]);

/** How a response item is read. */
export function itemKind(type: string): 'modeled' | 'unsent' | 'counted' {
  if (MODELED_ITEMS.has(type)) return 'modeled';
  return UNSENT_ITEMS.has(type) ? 'unsent' : 'counted';
}

/** The types of a rollout that this version does not know, gathered while it is read. */
export class NewCodexTypes {
  private readonly lines = new Map<string, number>();
  private readonly events = new Map<string, number>();
  private readonly items = new Map<string, number>();

  line(type: string): void {
    if (!LINE_TYPES.has(type)) bump(this.lines, type);
  }

  event(kind: string): void {
    if (!EVENT_KINDS.has(kind)) bump(this.events, kind);
  }

  item(type: string): void {
    if (!MODELED_ITEMS.has(type) && !UNSENT_ITEMS.has(type) && !KNOWN_UNMODELED_ITEMS.has(type)) bump(this.items, type);
  }

  /** One warning naming every new type, or none. */
  warning(): ImportWarning | undefined {
    const parts = [
      this.items.size > 0 ? `response items ${names(this.items)} (sent to the model: their text is counted)` : '',
      this.events.size > 0 ? `events ${names(this.events)} (not sent: skipped)` : '',
      this.lines.size > 0 ? `lines ${names(this.lines)} (not sent: skipped)` : '',
    ].filter(Boolean);
    if (parts.length === 0) return undefined;
    return { position: 'file', message: `record types this version of ctxc does not know, from a newer Codex: ${parts.join('; ')}` };
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function names(map: Map<string, number>): string {
  return [...map].map(([t, n]) => `${t} (${n})`).join(', ');
}

/** The text of an unmodeled response item as it is counted: the item without Codex's ids and
 *  opaque encrypted blobs (those are not what the model reads as text). */
export function countedItemText(item: JsonObject): string {
  const { id: _id, status: _status, encrypted_content: _enc, metadata: _meta, ...rest } = item;
  return `[${str(item, 'type') ?? 'item'}] ${JSON.stringify(rest)}`;
}

/** Codex 0.171's user turn: `event_msg` `item_completed` whose item is a UserMessage; its text. */
export function completedUserText(payload: JsonObject): string | undefined {
  const item = obj(payload, 'item');
  if (!item || str(item, 'type') !== 'UserMessage') return undefined;
  const text = (arr(item, 'content') ?? [])
    .map((c) => (isObject(c) && typeof c['text'] === 'string' ? c['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
  return text === '' ? undefined : text;
}

/** What Codex puts before the person's words when it wraps them (its USER_MESSAGE_BEGIN). */
const USER_MESSAGE_BEGIN = '## My request for Codex:';

/** A thread's title as Codex derives it from the first user turn: the words after its wrapper, trimmed. */
export function codexTitle(message: string): string {
  const at = message.indexOf(USER_MESSAGE_BEGIN);
  return (at >= 0 ? message.slice(at + USER_MESSAGE_BEGIN.length) : message).trim();
}

/** session_meta's base instructions (Codex sends them first on every request of the thread). */
export function baseInstructionsText(meta: JsonObject): string | undefined {
  const b = meta['base_instructions'];
  if (typeof b === 'string') return b || undefined;
  return isObject(b) ? str(b, 'text') || undefined : undefined;
}

/** A token_count event as a record answered by the last assistant message before its line. */
export function usageRecord(p: JsonObject, line: number): UsageRecord | undefined {
  const info = obj(p, 'info');
  const last = info ? obj(info, 'last_token_usage') : undefined;
  if (!info || !last) return undefined;
  const input = tokenField(last, 'input_tokens');
  if (input === undefined || input === 0) return undefined;
  const cached = tokenField(last, 'cached_input_tokens');
  const written = tokenField(last, 'cache_write_input_tokens');
  const output = tokenField(last, 'output_tokens');
  const total = obj(info, 'total_token_usage') ?? {};
  const totalIn = tokenField(total, 'input_tokens');
  const totalOut = tokenField(total, 'output_tokens');
  const window = tokenField(info, 'model_context_window');
  return {
    usage: {
      tokens: input,
      source: 'codex',
      line,
      parts: {
        input,
        ...(written ? { cacheWrite: written } : {}),
        ...(cached !== undefined ? { cacheRead: cached } : {}),
        ...(output !== undefined ? { output } : {}),
      },
      ...(window !== undefined ? { contextWindow: window } : {}),
      ...(totalIn !== undefined ? { totalInputTokens: totalIn } : {}),
      ...(totalOut !== undefined ? { totalOutputTokens: totalOut } : {}),
    },
    answer: { line, match: 'atOrBefore' },
  };
}
