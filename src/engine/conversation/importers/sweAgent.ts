// SWE-agent trajectories (*.traj): {history[{role, content, message_type, tool_calls?,
// tool_call_ids?, is_demo?, action?}], trajectory[], info}. Only `history` is read: it is what the
// model saw.
//
// system → SYSTEM_PROMPT. Demonstrations (is_demo / message_type 'demonstration') are example
// trajectories the harness shows the model: SKILL_PROMPT, not the user's words. The first other
// user message is the task (USER_MESSAGE); every later user or tool message is an observation:
// the TOOL_RESULT of the action before it. With function calling the given tool_calls and
// tool_call_ids pair them; without, the assistant message gets a call named after the action's
// first word (e.g. 'open', 'edit', 'submit') with arguments {"command": action}, id `swe_<index>`.

import type { ConversationMeta, ImportResult, ImportWarning, ToolCall } from '../model';
import { argumentsText, assistantItemType, plainDraft, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stringifySafely, stripBom } from './jsonText';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

export function importSweAgent(text: string, opts: ImportOptions = {}): ImportResult {
  return fromSweAgentValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

export function looksLikeSweAgent(v: unknown): boolean {
  return isObject(v) && Array.isArray(v['history']) && ('trajectory' in v || 'info' in v);
}

export function fromSweAgentValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const history = isObject(value) ? arr(value, 'history') : undefined;
  if (!isObject(value) || !history) {
    throw new TranscriptError({
      file,
      position: 'top level',
      expected: "a SWE-agent trajectory: an object with a 'history' array",
      found: describeJsonValue(value),
    });
  }
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const model = replayModel(value);
  if (model) meta.model = model;

  const drafts: MessageDraft[] = [];
  let sawTask = false;
  /** Calls of the last assistant message not yet answered, in order. */
  let open: ToolCall[] = [];
  let lastAssistant: { draft: MessageDraft; raw: JsonObject; index: number } | undefined;

  history.forEach((raw, index) => {
    const position = `history[${index}]`;
    if (!isObject(raw)) {
      warnings.push({ position, message: `expected {role, content}, found ${describeJsonValue(raw)}; skipped` });
      return;
    }
    const role = str(raw, 'role');
    const text = contentText(raw['content']);
    const src = sourceMeta('swe-agent', { index, ...(str(raw, 'message_type') ? { extra: { messageType: str(raw, 'message_type')! } } : {}) });
    const demo = raw['is_demo'] === true || str(raw, 'message_type') === 'demonstration';
    if (role === 'system') {
      drafts.push(plainDraft('system', demo ? 'SKILL_PROMPT' : 'SYSTEM_PROMPT', textParts(text), src));
    } else if (demo) {
      drafts.push(plainDraft(role === 'assistant' ? 'assistant' : 'user', 'SKILL_PROMPT', textParts(text), { ...src, ...(role ? { role } : {}) }));
    } else if (role === 'assistant') {
      const calls: ToolCall[] = [];
      (arr(raw, 'tool_calls') ?? []).forEach((c, k) => {
        const fn = isObject(c) ? obj(c, 'function') : undefined;
        if (!fn || !str(fn, 'name')) return;
        calls.push({ id: (isObject(c) && str(c, 'id')) || `swe_${index}_${k}`, name: str(fn, 'name')!, arguments: argumentsText(fn['arguments']) });
      });
      const content = textParts(text);
      const d: MessageDraft = { role: 'assistant', itemType: assistantItemType(content, calls.length > 0), content, source: src };
      if (calls.length > 0) d.toolCalls = calls;
      drafts.push(d);
      open = [...calls];
      lastAssistant = { draft: d, raw, index };
    } else if (role === 'user' || role === 'tool') {
      if (!sawTask && !lastAssistant) {
        sawTask = true;
        drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(text), src));
        return;
      }
      const ids = (arr(raw, 'tool_call_ids') ?? []).filter((x): x is string => typeof x === 'string');
      let call = ids.length > 0 ? open.find((c) => c.id === ids[0]) : open[0];
      if (!call && lastAssistant && !lastAssistant.draft.toolCalls) {
        // Without function calling the action is text: make it the call this observation answers.
        const action = (str(lastAssistant.raw, 'action') ?? '').trim();
        const name = /^[A-Za-z_][\w-]*/.exec(action)?.[0] ?? 'action';
        call = { id: `swe_${lastAssistant.index}`, name, arguments: stringifySafely({ command: action }) ?? '{}' };
        lastAssistant.draft.toolCalls = [call];
        lastAssistant.draft.itemType = 'ASSISTANT_MESSAGE';
      }
      const id = call?.id ?? ids[0] ?? '';
      open = open.filter((c) => c !== call);
      drafts.push(toolResultDraft(id, textParts(text), false, { ...src, role }, call ? { toolName: call.name } : {}));
    } else {
      warnings.push({ position: `${position}.role`, message: `unknown role ${role ? `'${role}'` : '(missing)'}; kept as a note` });
      drafts.push(plainDraft('user', 'SKILL_METADATA', textParts(text), { ...src, ...(role ? { role } : {}) }));
    }
  });
  return finishImport(drafts, { format: 'swe-agent', meta, warnings });
}

function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObject(p) && typeof p['text'] === 'string' ? p['text'] : typeof p === 'string' ? p : '')).join('\n');
  return '';
}

/** The model name from the trajectory's replay_config (a JSON string or object), when present. */
function replayModel(value: JsonObject): string | undefined {
  let cfg: unknown = value['replay_config'];
  if (typeof cfg === 'string') {
    try {
      cfg = JSON.parse(cfg);
    } catch {
      return undefined;
    }
  }
  if (!isObject(cfg)) return undefined;
  const model = obj(obj(cfg, 'agent') ?? {}, 'model');
  return model ? (str(model, 'name') ?? str(model, 'model_name')) : undefined;
}
