// What the agents recorded about their own requests, tied to the conversation. Every importer that
// finds usage figures (Claude Code `message.usage`, Codex `token_count`, aider `Tokens: … sent`,
// `usage` on exported messages) — and the caller, for figures kept beside the transcript (Cline's
// ui_messages.json, read by the Node layer) — hands them here as UsageRecords in file order. The
// newest record whose answer is a message of the imported conversation becomes
// conversation.meta.reportedUsage; one that answers nothing read (an abandoned branch, a message a
// compaction replaced) is passed over.

import type { ImportResult, Message, ReportedUsage, UsageParts } from '../model';
import { isObject, num, obj, type JsonObject } from './jsonShape';

/** A token figure: a whole number ≥ 0 (anything else in a file is no figure). */
export function tokenField(o: JsonObject, key: string): number | undefined {
  const v = num(o, key);
  return v !== undefined && v >= 0 ? Math.round(v) : undefined;
}

/** Where the answer to a recorded request is in the source, by line or by index of the messages
 *  list: the assistant message there (`exact`), the last one at or before it (`atOrBefore`: a record
 *  written after its answer), or the first one after it (`next`: a record written when the request's
 *  last message was the one there, or the one before it). */
export interface UsageAnswer {
  line?: number;
  index?: number;
  match: 'exact' | 'atOrBefore' | 'next';
}

/** A figure as an importer (or the caller) read it, before it is tied to a message. */
export interface UsageRecord {
  usage: Omit<ReportedUsage, 'atMessageId'>;
  answer: UsageAnswer;
}

/** The figure and its parts from a `usage` object of the APIs: Anthropic (`input_tokens` plus the
 *  cache fields, which it counts apart), OpenAI Chat Completions (`prompt_tokens`, cached share
 *  inside), OpenAI Responses (`input_tokens` with `input_tokens_details`, cached share inside) and
 *  LangChain's `usage_metadata` (`input_tokens` with `input_token_details`, cached share inside);
 *  `vendor` names the shape. Undefined when it holds no input figure (0, negative or missing). */
export function apiUsage(u: unknown): { tokens: number; parts: UsageParts; vendor: 'anthropic' | 'openai' } | undefined {
  if (!isObject(u)) return undefined;
  const output = tokenField(u, 'output_tokens') ?? tokenField(u, 'completion_tokens');
  const withOutput = (parts: UsageParts): UsageParts => (output !== undefined ? { ...parts, output } : parts);
  const prompt = tokenField(u, 'prompt_tokens');
  if (prompt !== undefined) {
    const cached = cachedShare(obj(u, 'prompt_tokens_details'), 'cached_tokens');
    return positive(prompt, withOutput({ input: prompt, ...(cached !== undefined ? { cacheRead: cached } : {}) }), 'openai');
  }
  const input = tokenField(u, 'input_tokens');
  if (input === undefined) return undefined;
  const details = obj(u, 'input_tokens_details') ?? obj(u, 'input_token_details');
  if (details) {
    const cached = cachedShare(details, 'cached_tokens') ?? cachedShare(details, 'cache_read');
    const written = cachedShare(details, 'cache_creation');
    return positive(
      input,
      withOutput({ input, ...(written !== undefined ? { cacheWrite: written } : {}), ...(cached !== undefined ? { cacheRead: cached } : {}) }),
      'openai',
    );
  }
  const cacheWrite = tokenField(u, 'cache_creation_input_tokens');
  const cacheRead = tokenField(u, 'cache_read_input_tokens');
  return positive(
    input + (cacheWrite ?? 0) + (cacheRead ?? 0),
    withOutput({ input, ...(cacheWrite !== undefined ? { cacheWrite } : {}), ...(cacheRead !== undefined ? { cacheRead } : {}) }),
    'anthropic',
  );
}

/** The `usage` (or LangChain `usage_metadata`) of an exported assistant message at `index` of the
 *  messages list, as a record it answers itself; its source is the shape of the usage. */
export function messageUsage(raw: JsonObject, index: number): UsageRecord | undefined {
  const figure = apiUsage(raw['usage']) ?? apiUsage(raw['usage_metadata']);
  if (!figure) return undefined;
  return { usage: { tokens: figure.tokens, source: figure.vendor, index, parts: figure.parts }, answer: { index, match: 'exact' } };
}

function cachedShare(details: JsonObject | undefined, key: string): number | undefined {
  return details ? tokenField(details, key) : undefined;
}

/** A figure of 0 is no figure: an error, a cancelled request, a placeholder. */
function positive<V>(tokens: number, parts: UsageParts, vendor: V): { tokens: number; parts: UsageParts; vendor: V } | undefined {
  return Number.isFinite(tokens) && tokens > 0 ? { tokens, parts, vendor } : undefined;
}

/** The result with meta.reportedUsage set from the newest record whose answer it holds (records in
 *  file order). A result that already carries one keeps it unless a record given here ties too. */
export function withReportedUsage(result: ImportResult, records: readonly UsageRecord[]): ImportResult {
  const messages = result.conversation.messages;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    const answer = answeringMessage(messages, r.answer);
    if (!answer) continue;
    result.conversation.meta.reportedUsage = { ...r.usage, atMessageId: answer.id };
    return result;
  }
  return result;
}

function positionOf(m: Message, answer: UsageAnswer): number | undefined {
  return answer.line !== undefined ? m.source?.line : m.source?.index;
}

function answeringMessage(messages: readonly Message[], answer: UsageAnswer): Message | undefined {
  const at = answer.line ?? answer.index;
  if (at === undefined) return undefined;
  let found: Message | undefined;
  for (const m of messages) {
    const p = positionOf(m, answer);
    if (p === undefined || m.role !== 'assistant') continue;
    if (answer.match === 'next') {
      if (p > at) return m;
    } else if (answer.match === 'exact') {
      if (p === at) return m;
    } else if (p <= at) {
      found = m;
    }
  }
  return found;
}
