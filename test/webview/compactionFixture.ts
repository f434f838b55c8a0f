// Realistic inspector input from real transcripts: the real importer, the real analyzer and the
// real token counter, with a plan built here by simple rules (header and last rounds kept, old
// tool output masked, long outputs offloaded, acknowledgements dropped, the rest summarized) —
// a plan whose every decision kind and missing fact are known in advance, which the interaction
// tests rely on. engineFixtureFor runs the real compactor instead. Shared by the webview tests
// and the webview benchmark.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyzeConversation } from '../../src/engine/analyze/analyzeConversation';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { isHeaderItem, isUserAuthored, messageText } from '../../src/engine/conversation/model';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { computeRounds } from '../../src/engine/conversation/views';
import type { CompactionResult, Decision, Fact, FactKind, MessagePlan } from '../../src/engine/result';
import { SECTION_NAMES, type SectionName } from '../../src/engine/sections';
import { createTokenCounter, type CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { buildInspectorModel } from '../../src/extension/inspector/inspectorModel';
import type { InspectorModel } from '../../src/shared/protocol';
import { compactionFigures } from '../../src/engine/figures';

/** Rounds kept verbatim at the end, as the extension's default. */
const KEEP_RECENT_ROUNDS = 2;
/** Older tool outputs above this many tokens are offloaded rather than masked. */
const OFFLOAD_TOKENS = 1000;
/** Kept assistant messages above this many tokens are truncated to a preview. */
const TRUNCATE_TOKENS = 600;
/** Characters of a truncated message that stay. */
const TRUNCATE_KEEP_CHARS = 800;

/** Imports a transcript file with the real importer. */
export function loadTranscript(path: string): Conversation {
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, wholeFile: true }).conversation;
}

function decide(m: Message, index: number, keepFrom: number, tokens: number, ack: boolean): { decision: Decision; reason: string } {
  if (isHeaderItem(m)) return { decision: 'kept', reason: 'header item' };
  if (m.pinned) return { decision: 'kept', reason: 'pinned' };
  if (index >= keepFrom) {
    if (m.role === 'assistant' && tokens > TRUNCATE_TOKENS) return { decision: 'truncated', reason: `recent round, over ${TRUNCATE_TOKENS} tokens` };
    return { decision: 'kept', reason: 'recent round' };
  }
  if (m.toolResult)
    return tokens > OFFLOAD_TOKENS
      ? { decision: 'offloaded', reason: 'large tool output moved to the archive' }
      : { decision: 'masked', reason: 'old tool output masked' };
  if (ack) return { decision: 'dropped', reason: 'acknowledgement' };
  return { decision: 'summarized', reason: 'folded into the summary' };
}

function shortened(m: Message, text: string, record: Message['truncation']): Message {
  const out: Message = { ...m, content: [{ type: 'text', text }] };
  if (record) out.truncation = record;
  return out;
}

function bullet(lines: string[], max: number): string {
  return lines
    .slice(0, max)
    .map((l) => `- ${l}`)
    .join('\n');
}

/** A CompactionResult for `conv`, computed by the stand-in rules above. */
export function fixtureResult(conv: Conversation, counter: CachedTokenCounter, restore: readonly string[] = []): CompactionResult {
  const analysis = analyzeConversation(conv.messages);
  const rounds = computeRounds(conv.messages);
  const keepFrom = rounds.length > KEEP_RECENT_ROUNDS ? rounds[rounds.length - KEEP_RECENT_ROUNDS]!.start : 0;
  const restored = new Set(restore);
  const plan: MessagePlan[] = [];
  const after: Message[] = [];
  const summarizedIds: string[] = [];
  const facts: Fact[] = [];
  conv.messages.forEach((m, i) => {
    const a = analysis.messages[i]!;
    const tokens = counter.countMessage(m);
    let { decision, reason } = decide(m, i, keepFrom, tokens, a.isAcknowledgement);
    if (restored.has(m.id)) ({ decision, reason } = { decision: 'kept', reason: 'restored in the inspector' });
    let result: Message | undefined;
    if (decision === 'kept') result = m;
    else if (decision === 'truncated')
      result = shortened(m, `${messageText(m).slice(0, TRUNCATE_KEEP_CHARS)}\n[… truncated: ${tokens} tokens originally]`, {
        by: 'truncate',
        originalTokens: tokens,
        keptTokens: 0,
      });
    else if (decision === 'masked')
      result = shortened(m, `[tool output masked: ${m.toolResult?.toolName ?? 'tool'}, ${tokens} tokens]`, {
        by: 'mask',
        originalTokens: tokens,
        keptTokens: 0,
      });
    else if (decision === 'offloaded')
      result = shortened(m, `[tool output offloaded: ${tokens} tokens, archive ref ${m.id}]`, {
        by: 'offload',
        originalTokens: tokens,
        keptTokens: 0,
        archiveRef: m.id,
      });
    else summarizedIds.push(m.id);
    if (result) after.push(result);
    const tokensAfter = result ? counter.countMessage(result) : 0;
    plan.push({
      id: m.id,
      index: i,
      role: m.role,
      itemType: m.itemType,
      tokens,
      decision,
      reason,
      classification: a.classification,
      importance: a.importance,
      tokensAfter,
    });
    if (decision === 'summarized' || decision === 'dropped') {
      for (const f of a.refs.files.slice(0, 3)) facts.push({ kind: 'filePath', value: f, sourceId: m.id });
      for (const e of a.refs.errors.slice(0, 2)) facts.push({ kind: 'errorSignature', value: e, sourceId: m.id });
    }
  });
  const userTexts = conv.messages.filter(isUserAuthored).map((m) => messageText(m).replace(/\s+/g, ' ').slice(0, 200));
  const files = [...new Set(analysis.messages.flatMap((a) => a.refs.files))];
  const errors = [...new Set(analysis.messages.flatMap((a) => a.refs.errors))];
  const keywords = [...new Set(analysis.messages.flatMap((a) => a.classification.keywords))];
  const lastAssistant = [...conv.messages].reverse().find((m) => m.role === 'assistant');
  const texts: Record<SectionName, string> = {
    'Primary Request and Intent': userTexts[0] ?? '',
    'Key Technical Concepts': bullet(keywords, 12),
    'Files and Code Sections': bullet(files, 15),
    'Errors and fixes': bullet(errors, 8),
    'Problem Solving': '',
    'All user messages': bullet(userTexts, 30),
    'Pending Tasks': '',
    'Current Work': lastAssistant ? messageText(lastAssistant).slice(0, 400) : '',
  };
  const sections = SECTION_NAMES.map((name) => ({ name, text: texts[name], tokens: texts[name] ? counter.count(texts[name]) : 0 }));
  const summaryText = sections.map((s) => `## ${s.name}\n${s.text}`).join('\n\n');
  const summaryMessage: Message = { id: `${conv.id}:summary:1`, role: 'user', itemType: 'COMPACTION_SUMMARY', content: [{ type: 'text', text: summaryText }] };
  const headerCount = after.findIndex((m) => !isHeaderItem(m));
  after.splice(headerCount < 0 ? after.length : headerCount, 0, summaryMessage);
  const missing = facts.filter((f) => !summaryText.includes(f.value));
  const kinds: FactKind[] = ['userMessage', 'filePath', 'errorSignature', 'technicalTerm', 'keyword', 'number', 'pendingTask'];
  const retentionByKind = Object.fromEntries(kinds.map((k) => [k, 1])) as Record<FactKind, number>;
  for (const k of kinds) {
    const all = facts.filter((f) => f.kind === k).length;
    if (all) retentionByKind[k] = 1 - missing.filter((f) => f.kind === k).length / all;
  }
  const overallRetention = facts.length ? 1 - missing.length / facts.length : 1;
  const tokensBefore = counter.countMessages(conv.messages);
  const tokensAfter = counter.countMessages(after);
  return {
    conversation: { ...conv, messages: after, format: 'compacted', meta: { ...conv.meta, compactions: 1 } },
    summary: { sections, tokens: counter.countMessage(summaryMessage) },
    plan,
    loss: {
      retentionByKind,
      overallRetention,
      lossLevel: overallRetention > 0.95 ? 'minimal' : overallRetention > 0.85 ? 'acceptable' : overallRetention > 0.7 ? 'moderate' : 'severe',
      acceptable: overallRetention > 0.85,
      missing,
      mergedBack: [],
      readability: { ok: true, issues: [] },
    },
    stats: {
      original_tokens: tokensBefore,
      compressed_tokens: tokensAfter,
      ratio: `${(tokensBefore / Math.max(1, tokensAfter)).toFixed(1)}x`,
      kept_messages: plan.filter((p) => p.decision === 'kept').length,
      summarized_count: summarizedIds.length,
      dropped_count: plan.filter((p) => p.decision === 'dropped').length,
      compression_level: 'normal',
      system_prompt_preserved: true,
      timestamp: '2026-01-01T00:00:00.000Z',
      messages: [],
    },
    archiveId: `fixture:${conv.id}`,
    tokensBefore,
    tokensAfter,
    strategy: 'summary',
    level: 'normal',
    summarizer: { name: 'extractive' },
    compactionCount: 1,
    warnings: [],
    durationMs: 0,
    degradation: [],
  };
}

export interface Fixture {
  conversation: Conversation;
  result: CompactionResult;
  model: InspectorModel;
  counter: CachedTokenCounter;
}

/** The inspector model for a conversation, as the host would send it in `init`; `reported`: the
 *  last usage the agent recorded, whose part not in the file is found as the host finds it (that
 *  usage less our count of the file). */
export async function fixtureFor(conv: Conversation, key = conv.meta.sourcePath ?? conv.id, reported?: number): Promise<Fixture> {
  const modelId = conv.meta.model ?? 'gpt-4o';
  const counter = await createTokenCounter(modelId);
  const result = fixtureResult(conv, counter);
  const overhead = reported !== undefined ? Math.max(0, reported - result.tokensBefore) : 0;
  const model = buildInspectorModel({
    key,
    label: conv.meta.sourcePath ? basename(conv.meta.sourcePath) : conv.id,
    phase: 'preview',
    before: conv,
    compaction: { result, figures: compactionFigures({ overhead, window: counter.model.contextWindow }, result) },
    model: modelId,
    countMethod: counter.method,
    canUndo: false,
  });
  return { conversation: conv, result, model, counter };
}

/** The inspector model of the real engine's compaction (compactConversation with its defaults,
 *  the extractive summarizer, an in-memory archive and a fixed clock), as the host sends it;
 *  `reported` as for fixtureFor. */
export async function engineFixtureFor(conv: Conversation, key = conv.meta.sourcePath ?? conv.id, reported?: number): Promise<Fixture> {
  const modelId = conv.meta.model ?? 'gpt-4o';
  const counter = await createTokenCounter(modelId);
  const result = await compactConversation(conv, { counter, archive: new MemoryArchive(), now: '2026-01-01T00:00:00.000Z' });
  const overhead = reported !== undefined ? Math.max(0, reported - result.tokensBefore) : 0;
  const model = buildInspectorModel({
    key,
    label: conv.meta.sourcePath ? basename(conv.meta.sourcePath) : conv.id,
    phase: 'preview',
    before: conv,
    compaction: { result, figures: compactionFigures({ overhead, window: counter.model.contextWindow }, result) },
    model: modelId,
    countMethod: counter.method,
    canUndo: false,
  });
  return { conversation: conv, result, model, counter };
}

/** A long conversation made of real messages: the shared transcripts' messages repeated (new
 *  ids, tool pairing kept within each copy) until `count` messages. */
export function longConversation(count: number, sources: readonly Conversation[]): Conversation {
  // Ids are unique within a transcript only: prefix the copy and the source.
  const pool = sources.flatMap((c, s) => c.messages.filter((m) => !isHeaderItem(m)).map((m) => ({ m, s })));
  if (pool.length === 0) throw new Error('longConversation: the sources hold no messages');
  const messages: Message[] = [];
  for (let copy = 0; messages.length < count; copy++) {
    for (const { m, s } of pool) {
      if (messages.length >= count) break;
      const prefix = `c${copy}s${s}:`;
      const out: Message = { ...m, id: prefix + m.id };
      if (m.toolCalls) out.toolCalls = m.toolCalls.map((c) => ({ ...c, id: prefix + c.id }));
      if (m.toolResult) out.toolResult = { ...m.toolResult, toolCallId: prefix + m.toolResult.toolCallId };
      messages.push(out);
    }
  }
  return { id: `long-${count}`, format: 'openai', messages, meta: { title: `${count} real messages` } };
}
