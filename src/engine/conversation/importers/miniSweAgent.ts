// mini-swe-agent trajectories (*.traj.json): {info, messages[{role, content}], trajectory_format,
// instance_id}.
//
// system → SYSTEM_PROMPT; the first user message is the task (USER_MESSAGE). Each assistant
// message's ```bash block is its action: a tool call named 'bash' with arguments
// {"command": …}. The assistant's text (its THOUGHT) is kept, without the block, so the command
// is counted once, in the call. Every later user message is the harness answering that action — command output
// (`<returncode>…</returncode><output>…`), a format error ("Please always provide EXACTLY ONE
// action…"), a timeout, or the final submission — so it is the call's TOOL_RESULT, an error when
// the return code is not 0 or the harness rejected the action. When an assistant message holds
// several blocks (the harness rejects it), the call carries them all, one per line.
// conversation.meta.model: info.config.model.model_name, else the first recorded response's model.

import type { ConversationMeta, ImportResult, ImportWarning, ToolCall } from '../model';
import { plainDraft, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonDocument, stringifySafely, stripBom } from './jsonText';
import { arr, isObject, obj, str } from './jsonShape';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

/** mini-swe-agent's own action pattern (```bash\s*\n(.*?)\n```): other fences are just text. */
const BASH_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;
const RETURN_CODE = /^\s*<returncode>\s*(-?\d+)\s*<\/returncode>/;
/** Harness replies that reject the action rather than run it. */
const HARNESS_REJECTION =
  /^(?:Please always provide EXACTLY ONE action|The last command .* timed out|Your last command ran successfully and did not produce any output|Format error)/s;

export function importMiniSweAgent(text: string, opts: ImportOptions = {}): ImportResult {
  return fromMiniSweAgentValue(parseJsonDocument(stripBom(text), opts.sourcePath), opts);
}

export function fromMiniSweAgentValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const file = opts.sourcePath;
  const list = isObject(value) ? arr(value, 'messages') : undefined;
  if (!isObject(value) || !list) {
    throw new TranscriptError({
      file,
      position: 'top level',
      expected: "a mini-swe-agent trajectory: an object with a 'messages' array",
      found: describeJsonValue(value),
    });
  }
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (file) meta.sourcePath = file;
  const info = obj(value, 'info');
  const configModel = info ? obj(obj(info, 'config') ?? {}, 'model') : undefined;
  const modelName = configModel ? str(configModel, 'model_name') : undefined;
  if (modelName) meta.model = modelName;
  const instance = str(value, 'instance_id');
  if (instance) meta.title = instance;

  const drafts: MessageDraft[] = [];
  let sawTask = false;
  let pending: ToolCall | undefined;

  list.forEach((raw, index) => {
    const position = `messages[${index}]`;
    if (!isObject(raw)) {
      warnings.push({ position, message: `expected {role, content}, found ${describeJsonValue(raw)}; skipped` });
      return;
    }
    const role = str(raw, 'role');
    const text = contentText(raw['content']);
    const src = sourceMeta('mini-swe-agent', { index });
    if (role === 'system') {
      drafts.push(plainDraft('system', 'SYSTEM_PROMPT', textParts(text), src));
    } else if (role === 'assistant') {
      if (!meta.model) {
        const response = obj(obj(raw, 'extra') ?? {}, 'response');
        const m = response ? str(response, 'model') : undefined;
        if (m) meta.model = m;
      }
      const commands = [...text.matchAll(BASH_BLOCK)].map((m) => m[1]!);
      pending = { id: `bash_${index}`, name: 'bash', arguments: stringifySafely({ command: commands.join('\n') }) ?? '{}' };
      // The command now lives in the call; leaving it in the text too would count it twice
      // (heredocs that write whole files made that a quarter of a real trajectory's tokens).
      const thought =
        commands.length > 0
          ? text
              .replace(BASH_BLOCK, '')
              .replace(/\n{3,}/g, '\n\n')
              .trim()
          : text;
      drafts.push({ role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: textParts(thought), toolCalls: [pending], source: src });
    } else if (role === 'user' || role === 'tool') {
      if (!sawTask && !pending) {
        sawTask = true;
        drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(text), src));
        return;
      }
      if (!pending) {
        warnings.push({ position, message: 'an observation with no action before it; kept as a note' });
        drafts.push(plainDraft('user', 'SKILL_METADATA', textParts(text), src));
        return;
      }
      const rc = RETURN_CODE.exec(text);
      const isError = rc ? Number(rc[1]) !== 0 : HARNESS_REJECTION.test(text);
      drafts.push(toolResultDraft(pending.id, textParts(text), isError, { ...src, role: role }, { toolName: 'bash' }));
      pending = undefined;
    } else {
      warnings.push({ position: `${position}.role`, message: `unknown role ${role ? `'${role}'` : '(missing)'}; kept as a note` });
      drafts.push(plainDraft('user', 'SKILL_METADATA', textParts(text), { ...src, ...(role ? { role } : {}) }));
    }
  });
  return finishImport(drafts, { format: 'mini-swe-agent', meta, warnings });
}

/** Content as text: mini-swe-agent writes strings; newer versions may write [{type:'text', text}]. */
function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => (isObject(p) && typeof p['text'] === 'string' ? p['text'] : typeof p === 'string' ? p : '')).join('\n');
  return '';
}

export function looksLikeMiniSweAgent(v: unknown): boolean {
  if (!isObject(v) || !Array.isArray(v['messages'])) return false;
  const fmt = str(v, 'trajectory_format');
  if (fmt?.startsWith('mini-swe-agent')) return true;
  const info = obj(v, 'info');
  return !!info && ('mini_version' in info || 'exit_status' in info) && 'instance_id' in v;
}
