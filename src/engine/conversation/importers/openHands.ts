// OpenHands event streams: a list (or {events: [...]}) of {id, timestamp, source, message,
// action|observation, args|content, cause, tool_call_metadata}.
//
// user `message` actions → USER_MESSAGE; agent `message` actions → ASSISTANT_MESSAGE; a `system`
// action → SYSTEM_PROMPT (its args.tools → TOOL_DEFINITIONS). Every other agent action (run, edit,
// read, browse, think, finish, …) is a tool call: id and name from tool_call_metadata (else
// `oh_<event id>` and the action name), arguments as the model sent them when the recorded model
// response has them (else the action's args without its thought); the thought is the assistant's
// text. Actions from one model response (same model_response.id) are one assistant message.
// Observations with a `cause` are that call's TOOL_RESULT (content, or the event's message when
// the content is empty; an error when success is false, the exit code is not 0, or it is an
// `error` observation). Environment events, agent_state_changed, `null` and `recall` observations
// are bookkeeping and are skipped (counted in one warning). Message ids are the event ids.

import type { ConversationMeta, ImportResult, ImportWarning, ToolCall, ToolDefinition } from '../model';
import { argumentsText, plainDraft, sourceMeta, textParts, toolDefinitionsDraft, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stringifySafely, stripBom } from './jsonText';
import { arr, isObject, num, obj, str, type JsonObject } from './jsonShape';
import { toolDefinition } from './openai';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

const SKIPPED_OBSERVATIONS = new Set(['null', 'agent_state_changed', 'recall', 'user_rejected']);
const SKIPPED_ACTIONS = new Set(['change_agent_state', 'recall', 'null']);

export function importOpenHands(text: string, opts: ImportOptions = {}): ImportResult {
  return fromOpenHandsValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

function eventsOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  return isObject(v) ? arr(v, 'events') : undefined;
}

export function looksLikeOpenHands(v: unknown): boolean {
  const events = eventsOf(v);
  if (!events || events.length === 0) return false;
  return events.slice(0, 20).some((e) => isObject(e) && 'source' in e && ('action' in e || 'observation' in e));
}

export function fromOpenHandsValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const events = eventsOf(value);
  if (!events) throw new TranscriptError({ file, position: 'top level', expected: 'an OpenHands event list', found: describeJsonValue(value) });
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const drafts: MessageDraft[] = [];
  /** Event id of an action → the tool call made for it. */
  const callOfEvent = new Map<number | string, ToolCall>();
  const callById = new Map<string, ToolCall>();
  let merging: { responseId: string; draft: MessageDraft } | undefined;
  let skipped = 0;

  events.forEach((e, index) => {
    const position = `[${index}]`;
    if (!isObject(e)) {
      warnings.push({ position, message: `expected an event object, found ${describeJsonValue(e)}; skipped` });
      return;
    }
    const eventId = num(e, 'id') ?? str(e, 'id');
    const timestamp = str(e, 'timestamp');
    const source = str(e, 'source');
    const src = sourceMeta('openhands', { index, ...(eventId !== undefined ? { sourceId: String(eventId) } : {}) });
    const args = obj(e, 'args') ?? {};
    const action = str(e, 'action');
    const observation = str(e, 'observation');

    if (action !== undefined) {
      if (SKIPPED_ACTIONS.has(action) || source === 'environment') {
        skipped++;
        return;
      }
      if (action === 'system') {
        merging = undefined;
        drafts.push(plainDraft('system', 'SYSTEM_PROMPT', textParts(str(args, 'content') ?? str(e, 'message') ?? ''), src, timestamp));
        const defs = toolDefs(arr(args, 'tools') ?? []);
        if (defs.length > 0) drafts.push(toolDefinitionsDraft(defs, sourceMeta('openhands', { index, extra: { tools: true } })));
        return;
      }
      if (action === 'message') {
        merging = undefined;
        const text = str(args, 'content') ?? str(e, 'message') ?? '';
        if (source === 'user') drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(text), src, timestamp));
        else drafts.push(plainDraft('assistant', 'ASSISTANT_MESSAGE', textParts(text), src, timestamp));
        return;
      }
      if (source !== 'agent') {
        skipped++;
        return;
      }
      const tcm = obj(e, 'tool_call_metadata');
      const response = tcm ? obj(tcm, 'model_response') : undefined;
      const model = response ? str(response, 'model') : undefined;
      if (model) meta.model ??= model;
      const callId = (tcm && str(tcm, 'tool_call_id')) || `oh_${eventId ?? index}`;
      const name = (tcm && str(tcm, 'function_name')) || action;
      const call: ToolCall = { id: callId, name, arguments: recordedArguments(response, callId) ?? actionArguments(args) };
      if (eventId !== undefined) callOfEvent.set(eventId, call);
      callById.set(callId, call);
      const thought = str(args, 'thought') ?? '';
      const responseId = response ? str(response, 'id') : undefined;
      if (merging && responseId && merging.responseId === responseId) {
        merging.draft.toolCalls!.push(call);
        if (thought && !merging.draft.content.some((p) => p.type === 'text' && p.text === thought)) merging.draft.content.push({ type: 'text', text: thought });
        return;
      }
      const d: MessageDraft = {
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: textParts(thought),
        toolCalls: [call],
        ...(timestamp ? { timestamp } : {}),
        source: src,
      };
      drafts.push(d);
      merging = responseId ? { responseId, draft: d } : undefined;
      return;
    }

    if (observation !== undefined) {
      const cause = num(e, 'cause') ?? str(e, 'cause');
      if (SKIPPED_OBSERVATIONS.has(observation) || cause === undefined) {
        skipped++;
        return;
      }
      const tcm = obj(e, 'tool_call_metadata');
      const call = (tcm && str(tcm, 'tool_call_id') ? callById.get(str(tcm, 'tool_call_id')!) : undefined) ?? callOfEvent.get(cause);
      if (!call) {
        // The answer to a message or a bookkeeping action: not a tool result.
        skipped++;
        return;
      }
      const content = str(e, 'content');
      const text = content !== undefined && content !== '' ? content : (str(e, 'message') ?? '');
      const extras = obj(e, 'extras');
      const exit = extras ? (num(obj(extras, 'metadata') ?? {}, 'exit_code') ?? num(extras, 'exit_code')) : undefined;
      const isError = observation === 'error' || e['success'] === false || (exit !== undefined && exit !== 0);
      drafts.push(toolResultDraft(call.id, textParts(text), isError, src, { toolName: call.name, ...(timestamp ? { timestamp } : {}) }));
      return;
    }
    warnings.push({ position, message: "an event with neither 'action' nor 'observation'; skipped" });
  });
  if (skipped > 0)
    warnings.push({ position: 'events', message: `${skipped} bookkeeping event${skipped === 1 ? '' : 's'} (state changes, empty observations) skipped` });
  return finishImport(drafts, { format: 'openhands', meta, warnings });
}

/** The arguments exactly as the model sent them, from the recorded model response. */
function recordedArguments(response: JsonObject | undefined, callId: string): string | undefined {
  const choice = response ? arr(response, 'choices')?.[0] : undefined;
  const message = isObject(choice) ? obj(choice, 'message') : undefined;
  for (const c of (message ? arr(message, 'tool_calls') : undefined) ?? []) {
    if (!isObject(c) || str(c, 'id') !== callId) continue;
    const fn = obj(c, 'function');
    if (fn && fn['arguments'] !== undefined) return argumentsText(fn['arguments']);
  }
  return undefined;
}

function actionArguments(args: JsonObject): string {
  const { thought: _thought, ...rest } = args;
  return stringifySafely(rest) ?? '{}';
}

function toolDefs(tools: unknown[]): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const t of tools) {
    const fn = isObject(t) ? (obj(t, 'function') ?? t) : undefined;
    if (fn && str(fn, 'name')) out.push(toolDefinition(str(fn, 'name')!, str(fn, 'description'), fn['parameters']));
  }
  return out;
}
