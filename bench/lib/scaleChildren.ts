// The scale benchmark's measurements that need a process of their own (bench/lib/child.ts), so
// each has its own clean peak RSS: a file read as the CLI reads it, counted once (the baseline),
// then counted, compacted or planned; and the live case, a Claude Code session the agent appends
// to, metered and planned again. bench/sections/scale.ts runs them and states the goals.

import { appendFileSync, statSync } from 'node:fs';
import { loadTranscript } from '../../src/cli/readTranscript';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { CompactionCache } from '../../src/engine/compaction/cache';
import { compactConversation, planCompaction, type PlanOptions } from '../../src/engine/compactor';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { createPieceCounter } from '../../src/engine/tokens/encoders';
import { estimateCounter } from '../../src/engine/tokens/estimate';
import { TokenLedger } from '../../src/engine/tokens/ledger';
import { CachedTokenCounter } from '../../src/engine/tokens/messageCounter';
import { resolveModel } from '../../src/engine/tokens/modelRegistry';
import type { TextCounter } from '../../src/engine/tokens/tokenCounter';
import { nodeSha256 } from '../../src/files/nodeSha256';
import type { FoundSession } from '../../src/sessions/agentSession';
import { LiveSessionMeter } from '../../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../../src/sessions/sessionCatalog';
import { claudeUserLine, lastChainUuid } from './scaleInputs';

const FIXED_NOW = '2026-01-01T00:00:00.000Z';
/** Messages appended one at a time in the live case (the median is reported). */
const LIVE_APPENDS = 5;

export type Op = 'count' | 'compact' | 'plan';

export interface Measured {
  fileBytes: number;
  messages: number;
  tokens: number;
  importMs: number;
  /** One token count, cold: the baseline. */
  countMs: number;
  /** The operation measured (for `count`, the count itself). */
  opMs: number;
  /** Peak resident set of the whole process, and its RSS before the file was read. */
  peakRss: number;
  rssBefore: number;
}

function ms(t0: number): number {
  return performance.now() - t0;
}

/** A counter factory whose piece memo can be emptied, for the model the conversation names. */
async function counters(conv: Conversation): Promise<{ fresh: () => CachedTokenCounter; clear: () => void }> {
  const model = resolveModel(conv.meta.model);
  const piece = model.encoding === 'estimate' ? undefined : await createPieceCounter(model.encoding);
  const text: TextCounter = piece ?? estimateCounter;
  return { fresh: () => new CachedTokenCounter(text, model), clear: () => piece?.clearMemo() };
}

/** In a fresh process: read FILE as the CLI does, count it once (the baseline), then run OP. */
async function measureChild([file, op]: string[]): Promise<Measured> {
  // Load the default encoding first, so the RSS before reading holds the rank tables.
  await createPieceCounter(resolveModel(undefined).encoding as 'o200k_base');
  const rssBefore = process.memoryUsage().rss;
  let t0 = performance.now();
  const loaded = await loadTranscript(file!, { maxBytes: 256 * 1024 * 1024 });
  const importMs = ms(t0);
  const conv = loaded.conversation;
  const { fresh, clear } = await counters(conv);
  clear();
  t0 = performance.now();
  const tokens = fresh().countMessages(conv.messages);
  const countMs = ms(t0);
  let opMs = countMs;
  if (op === 'compact') {
    clear();
    t0 = performance.now();
    // The archive keys with Node's SHA-256, as every Node host computes them (runCompaction).
    await compactConversation(conv, { counter: fresh(), archive: new MemoryArchive(), hasher: nodeSha256, now: FIXED_NOW });
    opMs = ms(t0);
  } else if (op === 'plan') {
    clear();
    t0 = performance.now();
    planCompaction(conv, { counter: fresh(), now: FIXED_NOW });
    opMs = ms(t0);
  }
  return {
    fileBytes: loaded.bytes,
    messages: conv.messages.length,
    tokens,
    importMs,
    countMs,
    opMs,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
  };
}

export interface LiveFigures {
  tokens: number;
  messages: number;
  fileBytes: number;
  /** The meter's first read of the whole file. */
  meterColdMs: number;
  /** LiveSessionMeter.update() after one appended line, each time. */
  meterAppendMs: number[];
  /** TokenLedger.append of one message. */
  ledgerAppendMs: number[];
  countMs: number;
  coldPlanMs: number;
  /** planCompaction after one appended message, with the cache of the plans before. */
  warmPlanMs: number[];
}

function appended(k: number): Message {
  return {
    id: `bench-append-${k}`,
    role: 'user',
    itemType: 'USER_MESSAGE',
    content: [{ type: 'text', text: `Please also check item ${k} of the list and tell me what changed since the last run.` }],
  };
}

/** In a fresh process: the live case on the session FILE (a Claude Code JSONL it appends to). */
async function liveChild([file]: string[]): Promise<LiveFigures> {
  const st = statSync(file!);
  const found: FoundSession = { agent: 'claude-code', id: 'bench-live', file: file!, size: st.size, mtimeMs: st.mtimeMs, format: 'claude-code' };
  const catalog = new SessionCatalog();
  const meter = new LiveSessionMeter(found, catalog.counterFor);
  let t0 = performance.now();
  const first = await meter.update();
  const meterColdMs = ms(t0);
  let parent = lastChainUuid(file!);
  const meterAppendMs: number[] = [];
  let tokens = first.session.tokens;
  for (let k = 0; k < LIVE_APPENDS; k++) {
    const { line, uuid } = claudeUserLine(parent, `Please also check item ${k} of the list and tell me what changed since the last run.`);
    appendFileSync(file!, `${line}\n`);
    parent = uuid;
    t0 = performance.now();
    const u = await meter.update();
    meterAppendMs.push(ms(t0));
    if (!u.changed || u.session.tokens <= tokens) throw new Error(`live meter: the appended line did not change the count (${tokens} → ${u.session.tokens})`);
    tokens = u.session.tokens;
  }

  const conv = (await loadTranscript(file!, { maxBytes: 256 * 1024 * 1024 })).conversation;
  const { fresh, clear } = await counters(conv);
  clear();
  t0 = performance.now();
  fresh().countMessages(conv.messages);
  const countMs = ms(t0);

  const ledger = new TokenLedger(fresh(), conv.messages);
  const ledgerAppendMs: number[] = [];
  for (let k = 0; k < LIVE_APPENDS; k++) {
    t0 = performance.now();
    ledger.append(appended(k));
    ledgerAppendMs.push(ms(t0));
  }

  clear();
  t0 = performance.now();
  planCompaction(conv, { counter: fresh(), cache: new CompactionCache(), now: FIXED_NOW } as PlanOptions);
  const coldPlanMs = ms(t0);

  const counter = fresh();
  const cache = new CompactionCache();
  const opts = { counter, cache, now: FIXED_NOW } as PlanOptions;
  planCompaction(conv, opts);
  let current = conv;
  const warmPlanMs: number[] = [];
  for (let k = 0; k < LIVE_APPENDS; k++) {
    current = { ...current, messages: [...current.messages, appended(k)] };
    t0 = performance.now();
    planCompaction(current, opts);
    warmPlanMs.push(ms(t0));
  }
  return {
    tokens,
    messages: conv.messages.length,
    fileBytes: statSync(file!).size,
    meterColdMs,
    meterAppendMs,
    ledgerAppendMs,
    countMs,
    coldPlanMs,
    warmPlanMs,
  };
}

export const scaleChildren = { measure: measureChild, live: liveChild };
