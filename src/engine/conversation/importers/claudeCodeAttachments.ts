// Claude Code session JSONL, the lines beside the messages, read by meaning (verified with the real
// 2.1.328 and 2.1.332, ../shared/AGENTS.md):
//
// - `attachment` lines (and any line, of a type known or not) that carry `rendered` — a list of
//   `{content}` — and `renderedRole` are sent with the next user message: system reminders (the
//   date, the environment, skill and agent listings, a hook's additionalContext). They are read as
//   SKILL_METADATA messages (the harness's words, counted under "system"), the role they are sent
//   with kept in source.role and their attachment type in source.extra.attachment: a session
//   written back leaves them out, since Claude Code renders its own on resume.
// - `attachment` lines of type `prompt_snapshot` hold the system prompt (`cliPrefix`, then the
//   `systemPrompt` blocks, joined as the request joins them) and the tool definitions (`tools`,
//   each `{name, description, schema: {input_schema}}`) of the requests around them: the last
//   snapshot on the chain becomes the conversation's SYSTEM_PROMPT and TOOL_DEFINITIONS messages,
//   so what the file used to lack (the meter's "not in the file") is counted from the file.
// - Types this reader does not know are named in one warning; those that carry `rendered` are
//   counted as sent, the others skipped.

import type { MessageDraft } from './toolPairing';
import type { SourceMeta, ToolDefinition } from '../model';
import { plainDraft, sourceMeta, textParts, toolDefinitionsDraft } from './contentParts';
import { toolDefinition } from './openai';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';

/** Line types Claude Code writes that this reader knows: read, or knowingly left out (bookkeeping
 *  that is not sent). Any other type is new: named in a warning. */
export const KNOWN_LINE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'summary',
  'system',
  'attachment',
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'cost-state',
  'mode',
  'custom-title',
  'tools-used',
  'atis-latch',
  'api-request-shape',
  'api-request-blob',
  'api-request',
]);

/** The text a line sends with the next user message (its `rendered` contents), or undefined. */
export function renderedText(v: JsonObject): string | undefined {
  const rendered = arr(v, 'rendered');
  if (!rendered) return undefined;
  const texts = rendered.flatMap((r) => (isObject(r) && typeof r['content'] === 'string' ? [r['content']] : typeof r === 'string' ? [r] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The SKILL_METADATA draft of a rendered line. */
export function renderedDraft(v: JsonObject, text: string, src: SourceMeta, timestamp: string | undefined): MessageDraft {
  const kind = str(obj(v, 'attachment') ?? {}, 'type') ?? str(v, 'type') ?? 'attachment';
  const role = str(v, 'renderedRole');
  return plainDraft(
    'user',
    'SKILL_METADATA',
    textParts(text),
    { ...src, ...(role ? { role } : {}), extra: { ...(src.extra ?? {}), attachment: kind } },
    timestamp,
  );
}

/** The system prompt and tool definitions the last prompt_snapshot on the chain holds. */
export class PromptSnapshot {
  private system: string | undefined;
  private tools: ToolDefinition[] | undefined;
  private drafts: MessageDraft[] | undefined;
  /** Changes whenever what the snapshot gives changes (a growing import reads again then). */
  version = 0;
  private signature = '';

  /** Takes in an attachment of type prompt_snapshot. */
  read(a: JsonObject): void {
    const blocks = arr(a, 'systemPrompt')?.filter((b): b is string => typeof b === 'string');
    const prefix = str(a, 'cliPrefix');
    const rawTools = arr(a, 'tools');
    const system = blocks && blocks.length > 0 ? [...(prefix ? [prefix] : []), blocks.join('\n\n')].join('\n\n') : this.system;
    const tools = rawTools ? rawTools.flatMap((t) => definition(t) ?? []) : this.tools;
    // A cheap fingerprint: snapshots repeat after every answer and change rarely.
    const signature = `${system?.length ?? -1}|${(tools ?? []).map((t) => `${t.name}:${t.description?.length ?? 0}`).join(',')}`;
    if (signature === this.signature) return;
    this.signature = signature;
    this.system = system;
    this.tools = tools;
    this.drafts = undefined;
    this.version++;
  }

  /** The SYSTEM_PROMPT and TOOL_DEFINITIONS drafts that open the conversation (none without a snapshot). */
  prefix(): MessageDraft[] {
    if (this.drafts) return this.drafts;
    const src = sourceMeta('claude-code', { extra: { promptSnapshot: true } });
    const out: MessageDraft[] = [];
    if (this.system) out.push(plainDraft('system', 'SYSTEM_PROMPT', textParts(this.system), src));
    if (this.tools && this.tools.length > 0) out.push(toolDefinitionsDraft(this.tools, src));
    this.drafts = out;
    return out;
  }
}

function definition(t: unknown): ToolDefinition | undefined {
  if (!isObject(t)) return undefined;
  const name = str(t, 'name');
  if (!name) return undefined;
  const schema = obj(t, 'schema');
  return toolDefinition(name, str(t, 'description'), schema?.['input_schema'] ?? schema ?? t['input_schema']);
}
