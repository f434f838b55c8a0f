// The context of an agent session over time, from the agent's own records, line by line: the input
// tokens of every request it made (what the API counted: Claude Code's `message.usage` on its
// assistant lines, input + cache writes + cache reads, one figure per streamed response; Codex's
// `token_count` events, `last_token_usage.input_tokens`) and every compaction (Claude Code's
// `compact_boundary` lines with their trigger and pre-compaction tokens, ours marked by our
// provenance field; Codex's `compacted` items). Over the whole file, branches and history
// included: the chart of a session shows how it grew and where it was compacted. Pure: the lines
// come parsed from the caller.

import { PROVENANCE_FIELD } from './exporters/claudeCodeSession';
import { CODEX_PROVENANCE_FIELD } from './exporters/codexRollout';
import { usageRecord } from './importers/codexRecords';
import { isObject, num, obj, str } from './importers/jsonShape';
import { apiUsage } from './importers/reportedUsage';
import type { SourceFormat } from './model';

/** The agents whose files record their requests line by line. */
export type UsageLogFormat = Extract<SourceFormat, 'claude-code' | 'codex'>;

export function isUsageLogFormat(f: SourceFormat | undefined): f is UsageLogFormat {
  return f === 'claude-code' || f === 'codex';
}

/** What one line of a session records, if anything of the kind. */
export type UsageLine =
  | {
      kind: 'request';
      /** What the API counted as the request's input (cache reads and writes included). */
      tokens: number;
      /** Of those, read from the cache and written to it, as recorded. */
      cacheRead?: number;
      cacheWrite?: number;
      line: number;
      at?: string;
      model?: string;
      /** The window the agent states (Codex's model_context_window). */
      window?: number;
      /** The response's id, for the lines of one streamed response (Claude Code). */
      responseId?: string;
    }
  | {
      kind: 'compaction';
      line: number;
      at?: string;
      /** What the agent counted before compacting, as it recorded it. */
      preTokens?: number;
      trigger?: 'manual' | 'auto';
      /** Written by Context Compactor (a session Compact wrote starts with one). */
      ours: boolean;
    };

const SYNTHETIC_MODEL = '<synthetic>';

/** What line `line` (1-based) of a session of `format` records, from its parsed JSON. */
export function usageLine(value: unknown, line: number, format: UsageLogFormat): UsageLine | undefined {
  if (!isObject(value)) return undefined;
  const at = str(value, 'timestamp');
  const when = at ? { at } : {};
  if (format === 'claude-code') {
    const type = value['type'];
    if (type === 'system' && value['subtype'] === 'compact_boundary') {
      const meta = obj(value, 'compactMetadata');
      const pre = meta ? num(meta, 'preTokens') : undefined;
      const trigger = meta ? str(meta, 'trigger') : undefined;
      return {
        kind: 'compaction',
        line,
        ...when,
        ...(pre !== undefined && pre > 0 ? { preTokens: Math.round(pre) } : {}),
        ...(trigger === 'manual' || trigger === 'auto' ? { trigger } : {}),
        ours: obj(value, PROVENANCE_FIELD) !== undefined,
      };
    }
    if (type !== 'assistant' || value['isSidechain'] === true) return undefined;
    const message = obj(value, 'message');
    const model = message ? str(message, 'model') : undefined;
    if (!message || model === SYNTHETIC_MODEL) return undefined;
    const figure = apiUsage(message['usage']);
    if (!figure) return undefined;
    const id = str(message, 'id');
    return {
      kind: 'request',
      tokens: figure.tokens,
      ...(figure.parts.cacheRead !== undefined ? { cacheRead: figure.parts.cacheRead } : {}),
      ...(figure.parts.cacheWrite !== undefined ? { cacheWrite: figure.parts.cacheWrite } : {}),
      line,
      ...when,
      ...(model ? { model } : {}),
      ...(id ? { responseId: id } : {}),
    };
  }
  const payload = obj(value, 'payload');
  if (!payload) return undefined;
  if (value['type'] === 'compacted') return { kind: 'compaction', line, ...when, ours: false };
  if (value['type'] === 'session_meta' && obj(payload, CODEX_PROVENANCE_FIELD)) return { kind: 'compaction', line, ...when, ours: true };
  if (value['type'] !== 'event_msg' || payload['type'] !== 'token_count') return undefined;
  const r = usageRecord(payload, line);
  if (!r) return undefined;
  return {
    kind: 'request',
    tokens: r.usage.tokens,
    ...(r.usage.parts?.cacheRead !== undefined ? { cacheRead: r.usage.parts.cacheRead } : {}),
    ...(r.usage.parts?.cacheWrite !== undefined ? { cacheWrite: r.usage.parts.cacheWrite } : {}),
    line,
    ...when,
    ...(r.usage.contextWindow ? { window: r.usage.contextWindow } : {}),
  };
}

export interface RecordedRequest {
  /** 1-based, in file order. */
  n: number;
  tokens: number;
  cacheRead?: number;
  cacheWrite?: number;
  line: number;
  at?: string;
}

export interface RecordedCompaction {
  /** The number of requests before it (0: before the first). */
  afterRequest: number;
  line: number;
  at?: string;
  preTokens?: number;
  trigger?: 'manual' | 'auto';
  ours: boolean;
}

export interface UsageHistory {
  requests: RecordedRequest[];
  compactions: RecordedCompaction[];
  /** The last model a request names. */
  model?: string;
  /** The window the agent states, when it does. */
  window?: number;
}

/** The requests and compactions of a session's lines, in file order; the lines of one streamed
 *  response count once. */
export function usageHistory(lines: Iterable<{ line: number; value: unknown }>, format: UsageLogFormat): UsageHistory {
  const out: UsageHistory = { requests: [], compactions: [] };
  const seen = new Set<string>();
  for (const { line, value } of lines) {
    const u = usageLine(value, line, format);
    if (!u) continue;
    if (u.kind === 'compaction') {
      out.compactions.push({ afterRequest: out.requests.length, line: u.line, ...(u.at ? { at: u.at } : {}), ...pick(u), ours: u.ours });
      continue;
    }
    if (u.responseId) {
      if (seen.has(u.responseId)) continue;
      seen.add(u.responseId);
    }
    out.requests.push({
      n: out.requests.length + 1,
      tokens: u.tokens,
      ...(u.cacheRead !== undefined ? { cacheRead: u.cacheRead } : {}),
      ...(u.cacheWrite !== undefined ? { cacheWrite: u.cacheWrite } : {}),
      line: u.line,
      ...(u.at ? { at: u.at } : {}),
    });
    if (u.model) out.model = u.model;
    if (u.window) out.window = u.window;
  }
  return out;
}

function pick(u: Extract<UsageLine, { kind: 'compaction' }>): Pick<RecordedCompaction, 'preTokens' | 'trigger'> {
  return { ...(u.preTokens !== undefined ? { preTokens: u.preTokens } : {}), ...(u.trigger ? { trigger: u.trigger } : {}) };
}
