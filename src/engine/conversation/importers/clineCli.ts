// Cline CLI 3.x sessions (npm `cline`): `~/.cline/data/sessions/<id>/<id>.messages.json`, beside
// the session's manifest `<id>.json` (verified with the real Cline CLI 3.0.65, offline):
//   {version, updated_at, agent: "lead", sessionId, origin: {version, …}, messages: [...], system_prompt}
// Messages are Anthropic-shaped (`role`, `content` blocks, `ts` in ms); what the CLI sent for them
// (the request bodies it sent were compared with this reading):
// - `system_prompt` is the system prompt, sent first;
// - a person's text is stored as `<user_input mode="act">…</user_input>` (or `<user_command
//   slash="…">`) and sent without that wrapper, as the CLI unwraps it;
// - a `tool_result` whose content is a list of `{query, result, success, error?}` (no `type`) is
//   sent as the JSON text of that list;
// - every assistant message carries `metrics` {inputTokens, outputTokens, cacheReadTokens,
//   cacheWriteTokens}: what the API counted for the request it answered. `inputTokens` is the whole
//   input, the cache included (verified: OpenAI-compatible prompt_tokens 5,000 with 3,000 cached →
//   5,000; Anthropic 1,000 + 3,000 cache reads + 400 cache writes → 4,400). The last is
//   meta.reportedUsage; `modelInfo.id` is the model (its `provider` is kept in source.extra).

import { CLINE_PROVENANCE_FIELD } from '../exporters/clineCliSession';
import { readInherited } from '../inherited';
import type { ConversationMeta, ImportResult, ImportWarning } from '../model';
import { anthropicUserDrafts } from './anthropic';
import { assistantBlocks, contentBlocks } from './anthropicBlocks';
import { assistantItemType, plainDraft, setSessionFacts, sourceMeta, textParts } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import { stringifySafely } from './jsonText';
import { arr, isObject, obj, str, type JsonObject } from './jsonShape';
import { tokenField, withReportedUsage, type UsageRecord } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue } from './transcriptError';

/** A Cline CLI messages file: an object with a `messages` list and the CLI's own keys. */
export function looksLikeClineCliSession(v: unknown): boolean {
  if (!isObject(v) || !Array.isArray(v['messages'])) return false;
  return typeof v['system_prompt'] === 'string' || (typeof v['agent'] === 'string' && typeof v['sessionId'] === 'string');
}

/** The tags the CLI wraps a person's text in; sent without them. */
const WRAPPERS = ['user_input', 'user_command'];

/** A person's text as the CLI sends it: each wrapper's content kept, the tags taken out. */
export function unwrapClineUserText(text: string): string {
  let out = text.trim();
  for (const tag of WRAPPERS) {
    const inner = out.replace(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'), '$1');
    out = (inner !== out ? inner : out.replace(new RegExp(`<${tag}[^>]*>`, 'g'), '')).trim();
  }
  return out;
}

export function fromClineCliValue(value: unknown, opts: ImportOptions = {}): ImportResult {
  const session = value as JsonObject;
  const list = arr(session, 'messages') ?? [];
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
  const origin = obj(session, 'origin');
  setSessionFacts(meta, { sessionId: str(session, 'sessionId'), agentVersion: origin ? str(origin, 'version') : undefined });
  // A session we wrote: what it takes over from its original (inherited.ts).
  const ours = obj(session, CLINE_PROVENANCE_FIELD);
  const inherited = ours ? readInherited(ours['inherited']) : undefined;
  if (inherited) {
    meta.inherited = inherited;
    if (inherited.model) meta.model = inherited.model;
  }

  const drafts: MessageDraft[] = [];
  const system = str(session, 'system_prompt');
  if (system) drafts.push(plainDraft('system', 'SYSTEM_PROMPT', textParts(system), sourceMeta('cline', { extra: { system: true } })));
  const usage: UsageRecord[] = [];
  list.forEach((raw, index) => {
    const position = `messages[${index}]`;
    if (!isObject(raw)) {
      warnings.push({ position, message: `expected an object with 'role' and 'content', found ${describeJsonValue(raw)}; skipped` });
      return;
    }
    const ts = raw['ts'];
    const timestamp = typeof ts === 'number' && Number.isFinite(ts) ? new Date(ts).toISOString() : undefined;
    const model = obj(raw, 'modelInfo');
    const provider = model ? str(model, 'provider') : undefined;
    const src = sourceMeta('cline', { index, ...(str(raw, 'id') ? { sourceId: str(raw, 'id') } : {}), ...(provider ? { extra: { provider } } : {}) });
    const blocks = contentBlocks(raw['content'], `${position}.content`, warnings);
    const role = str(raw, 'role');
    if (role === 'assistant') {
      const { content, calls } = assistantBlocks(blocks, `${position}.content`, warnings);
      const d: MessageDraft = {
        role: 'assistant',
        itemType: assistantItemType(content, calls.length > 0),
        content,
        ...(timestamp ? { timestamp } : {}),
        source: src,
      };
      if (calls.length > 0) d.toolCalls = calls;
      drafts.push(d);
      if (model && str(model, 'id')) meta.model = str(model, 'id');
      const record = metricsRecord(obj(raw, 'metrics'), index);
      if (record) usage.push(record);
    } else if (role === 'user') {
      drafts.push(...anthropicUserDrafts(blocks.map(asSent), src, `${position}.content`, warnings, timestamp));
    } else {
      warnings.push({
        position: `${position}.role`,
        message: `expected 'user' or 'assistant', found ${role === undefined ? 'no role' : `'${role}'`}; skipped`,
      });
    }
  });
  if (list.length === 0) warnings.push({ position: 'messages', message: 'the session holds no messages' });
  return withReportedUsage(finishImport(drafts, { format: 'cline', meta, warnings }), usage);
}

/** A user block as the CLI sends it: text unwrapped; a tool result's `{query, result, …}` list as
 *  the JSON text of that list. */
function asSent(b: unknown): unknown {
  if (!isObject(b)) return b;
  if (b['type'] === 'text' && typeof b['text'] === 'string') return { ...b, text: unwrapClineUserText(b['text']) };
  if (b['type'] === 'tool_result' && Array.isArray(b['content']) && b['content'].some((c) => !isObject(c) || typeof c['type'] !== 'string')) {
    return { ...b, content: stringifySafely(b['content']) ?? '' };
  }
  return b;
}

/** An assistant message's metrics as the figure of the request it answered. */
function metricsRecord(m: JsonObject | undefined, index: number): UsageRecord | undefined {
  if (!m) return undefined;
  const tokens = tokenField(m, 'inputTokens');
  if (tokens === undefined || tokens === 0) return undefined;
  const cacheRead = tokenField(m, 'cacheReadTokens') ?? 0;
  const cacheWrite = tokenField(m, 'cacheWriteTokens') ?? 0;
  const output = tokenField(m, 'outputTokens');
  return {
    usage: {
      tokens,
      source: 'cline',
      index,
      // Cline's own convention (UsageParts): `input` is what the cache neither read nor wrote.
      parts: {
        input: Math.max(0, tokens - cacheRead - cacheWrite),
        ...(cacheRead ? { cacheRead } : {}),
        ...(cacheWrite ? { cacheWrite } : {}),
        ...(output !== undefined ? { output } : {}),
      },
    },
    answer: { index, match: 'exact' },
  };
}
