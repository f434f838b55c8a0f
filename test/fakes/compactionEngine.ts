// A stand-in for the CompactionEngine port, for host tests that need to steer the engine
// (make it fail, make it slow, count calls) or that run before the real modules are wired.
// It is honest where the host relies on it: the original is archived (content-addressed)
// before anything is returned, undo reads it back byte for byte, counts come from the real
// token counter. Its "summary" is simply the user messages under the 8 section headings.

import type { CompactionEngine, ExportFormat } from '../../src/extension/compactionEngine';
import type { CompactionRequest } from '../../src/engine/compaction/request';
import { compactionFigures } from '../../src/engine/figures';
import { conversationReport } from '../../src/engine/tokens/report';
import type { CompactionHost, CompactionRun } from '../../src/sessions/compactionService';
import { archiveTextOf, type ArchiveStore } from '../../src/engine/archive/archiveStore';
import { isHeaderItem, messageText, type Conversation, type ImportResult, type Message, type Role } from '../../src/engine/conversation/model';
import { computeRounds } from '../../src/engine/conversation/views';
import type { CompactionResult, LossReport } from '../../src/engine/result';
import { SECTION_NAMES } from '../../src/engine/sections';
import { hash64, shortHash } from '../../src/engine/text/hash';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';

export class StandInTranscriptError extends Error {
  override readonly name = 'TranscriptError';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : '')).join('\n');
  return '';
}

/** Reads `{messages:[{role, content}]}` or a bare array of them (OpenAI-style, mini-swe-agent). */
export function standInImport(text: string, sourcePath: string): ImportResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StandInTranscriptError(`${sourcePath}: byte 0: expected JSON, found invalid text (${(err as Error).message})`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { messages?: unknown })?.messages;
  if (!Array.isArray(list)) throw new StandInTranscriptError(`${sourcePath}: top level: expected an array of messages or {messages: [...]}`);
  const messages: Message[] = list.map((raw, i) => {
    const r = raw as { role?: string; content?: unknown };
    const role = (['system', 'user', 'assistant', 'tool'].includes(r.role ?? '') ? r.role : 'user') as Role;
    const t = textOf(r.content);
    return {
      id: `${i}-${shortHash(role + t)}`,
      role,
      itemType: role === 'system' ? 'SYSTEM_PROMPT' : role === 'assistant' ? 'ASSISTANT_MESSAGE' : 'USER_MESSAGE',
      content: [{ type: 'text', text: t }],
      source: { format: 'openai', index: i },
    };
  });
  const model = (parsed as { model?: unknown })?.model;
  return {
    conversation: { id: shortHash(sourcePath), format: 'openai', messages, meta: { sourcePath, ...(typeof model === 'string' ? { model } : {}) } },
    warnings: [],
  };
}

function loss(): LossReport {
  return {
    retentionByKind: { userMessage: 1, filePath: 1, errorSignature: 1, technicalTerm: 1, keyword: 1, number: 1, pendingTask: 1 },
    overallRetention: 0.93,
    lossLevel: 'minimal',
    acceptable: true,
    missing: [],
    mergedBack: [],
    readability: { ok: true, issues: [] },
  };
}

/** What a run was asked, as beforeReturn sees it. */
export interface StandInRun {
  request: CompactionRequest;
  focus?: string;
  signal?: AbortSignal;
  summarizer?: { name: string };
  /** A preview (nothing is applied). */
  dryRun?: boolean;
}

export interface StandInEngine extends CompactionEngine {
  calls: { preview: number; compact: number; undo: number };
  /** Runs inside compact before the result is returned (throw to simulate a failure). */
  beforeReturn?: (run: StandInRun) => Promise<void> | void;
}

export function standInEngine(): StandInEngine {
  async function runOn(conversation: Conversation, request: CompactionRequest, host: CompactionHost, archive: ArchiveStore): Promise<CompactionRun> {
    const counter = host.counted?.counter ?? (await createTokenCounter(request.model ?? conversation.meta.model ?? request.fallbackModel));
    const report = host.counted?.report ?? conversationReport(conversation, counter);
    const opts = {
      counter,
      keepRecentRounds: request.keepRecentRounds ?? 2,
      level: request.level ?? 'normal',
      strategy: request.strategy,
      now: host.now ?? '',
      signal: host.signal,
      summarizer: host.dryRun ? undefined : host.summarizer,
    };
    const result = await run(conversation, opts, archive, {
      request,
      ...(host.dryRun ? { dryRun: true } : {}),
      ...(request.focus ? { focus: request.focus } : {}),
      ...(host.signal ? { signal: host.signal } : {}),
      ...(opts.summarizer ? { summarizer: opts.summarizer } : {}),
    });
    return { result, figures: compactionFigures(report, result), report, counter, inherited: {} };
  }

  async function run(
    conversation: Conversation,
    opts: {
      counter: Awaited<ReturnType<typeof createTokenCounter>>;
      keepRecentRounds: number;
      level: string;
      strategy?: string;
      now: string;
      signal?: AbortSignal;
      summarizer?: { name: string };
    },
    archive: ArchiveStore,
    seen: StandInRun,
  ): Promise<CompactionResult> {
    const original = JSON.stringify(conversation);
    const archiveId = `conv-${hash64(original)}`;
    await archive.put(archiveId, original);
    if (opts.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    const msgs = conversation.messages;
    const rounds = computeRounds(msgs);
    const keepFrom = rounds.length > opts.keepRecentRounds ? rounds[rounds.length - opts.keepRecentRounds]!.start : 0;
    const header = msgs.filter((m, i) => i < keepFrom && isHeaderItem(m));
    const older = msgs.filter((m, i) => i < keepFrom && !isHeaderItem(m));
    const users = older.filter((m) => m.role === 'user').map((m) => `- ${messageText(m).slice(0, 200)}`);
    const sections = SECTION_NAMES.map((name) => ({ name, text: name === 'All user messages' ? users.join('\n') : '', tokens: 0 }));
    const summaryText = sections.map((s) => `## ${s.name}\n${s.text}`).join('\n\n');
    const summary: Message = {
      id: `summary-${shortHash(summaryText)}`,
      role: 'user',
      itemType: 'COMPACTION_SUMMARY',
      content: [{ type: 'text', text: summaryText }],
    };
    const kept = msgs.slice(keepFrom);
    const result = older.length > 0 ? [...header, summary, ...kept] : msgs;
    const compacted: Conversation = {
      ...conversation,
      messages: result,
      meta: { ...conversation.meta, compactions: (conversation.meta.compactions ?? 0) + 1 },
    };
    const tokensBefore = opts.counter.countMessages(msgs);
    const tokensAfter = opts.counter.countMessages(result);
    await engine.beforeReturn?.(seen);
    if (opts.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    return {
      conversation: compacted,
      summary: { sections, tokens: opts.counter.count(summaryText) },
      plan: [],
      loss: loss(),
      stats: {
        original_tokens: tokensBefore,
        compressed_tokens: tokensAfter,
        ratio: `${(tokensBefore / Math.max(1, tokensAfter)).toFixed(1)}x`,
        kept_messages: kept.length,
        summarized_count: older.length,
        dropped_count: 0,
        compression_level: opts.level,
        system_prompt_preserved: true,
        timestamp: opts.now,
        messages: [],
      },
      archiveId,
      tokensBefore,
      tokensAfter,
      strategy: opts.strategy ?? 'summary',
      level: opts.level,
      summarizer: { name: opts.summarizer?.name ?? 'extractive' },
      compactionCount: compacted.meta.compactions ?? 1,
      warnings: [],
      durationMs: 0,
      degradation: [],
    };
  }

  const memory = new Map<string, string>();
  const memoryArchive: ArchiveStore = {
    put: async (k, d) => void memory.set(k, archiveTextOf(d)),
    get: async (k) => memory.get(k),
    has: async (k) => memory.has(k),
  };

  const engine: StandInEngine = {
    calls: { preview: 0, compact: 0, undo: 0 },
    importTranscript: standInImport,
    createCounter: (model, override) => createTokenCounter(model, { override }),
    async run(conversation, request, host) {
      if (host.dryRun) engine.calls.preview++;
      else engine.calls.compact++;
      return runOn(conversation, request, host, host.dryRun ? memoryArchive : (host.archive ?? memoryArchive));
    },
    async undo(archiveId, archive) {
      engine.calls.undo++;
      const text = await archive.get(archiveId);
      if (text === undefined) throw new Error(`no archive entry ${archiveId}`);
      return JSON.parse(text) as Conversation;
    },
    exportConversation(conversation, format: ExportFormat) {
      if (format === 'markdown') return conversation.messages.map((m) => `## ${m.role}\n\n${messageText(m)}`).join('\n\n');
      return JSON.stringify({ messages: conversation.messages.map((m) => ({ role: m.role, content: messageText(m) })) }, null, 2);
    },
    summaryText(conversation) {
      const m = conversation.messages.find((x) => x.itemType === 'COMPACTION_SUMMARY');
      return m ? messageText(m) : undefined;
    },
    listStrategies: () => [{ name: 'summary', description: 'stand-in' }],
    defaults: { strategy: 'summary', keepRecentRounds: 2, level: 'normal' },
  };
  return engine;
}
