// Running a compaction, for every front end alike — `ctxc compact` (and `--to`), the demo, the MCP
// server's compact_session, the Copilot tool, and the extension's confirmation, Compact and
// inspector: they build a CompactionRequest (src/engine/compaction/request.ts) and call
// runCompaction, which picks the counting model, counts the conversation as its agent sends it
// (the report every surface shows), runs the engine with the defaults applied in one place, and
// returns the result with its figures (src/engine/figures.ts: before → after as the agent will
// send them) and what a session written from it inherits. Host-neutral: no vscode, no terminal;
// the host gives the archive, the summarizer and the cancellation. The engine's refusals come back
// as one CompactionRequestError with what was wrong, for each front end to word.

import { MemoryArchive } from '../engine/archive/memoryArchive';
import type { ArchiveStore } from '../engine/archive/archiveStore';
import type { ContentHasher } from '../engine/archive/contentHasher';
import type { CompactionCache } from '../engine/compaction/cache';
import { requestOptions, type CompactionRequest } from '../engine/compaction/request';
import { compactConversation, CompactionInputError } from '../engine/compactor';
import type { InheritedFigures } from '../engine/conversation/inherited';
import { notWrittenBack } from '../engine/conversation/exporters/sessionParts';
import type { Conversation } from '../engine/conversation/model';
import { compactionFigures, type CompactionFigures } from '../engine/figures';
import type { CompactionResult } from '../engine/result';
import { listStrategies, UnknownStrategyError } from '../engine/strategies/registry';
import type { Summarizer } from '../engine/summarizer';
import { nodeSha256 } from '../files/nodeSha256';
import { createTokenCounter, type CachedTokenCounter } from '../engine/tokens/messageCounter';
import { conversationReport, type TokenReport } from '../engine/tokens/report';
import { agentOfFormat, resumableAgent } from './agents/registry';
import { inheritedFigures, sameAgent } from './writeSession';

export type { CompactionRequest } from '../engine/compaction/request';

/** What the host gives a run besides the request. */
export interface CompactionHost {
  /** Where the original is archived first; default: in memory (nothing a later undo could read). */
  archive?: ArchiveStore;
  /** The SHA-256 of the archive keys; default: Node's native one (the same keys as the engine's own). */
  hasher?: ContentHasher;
  /** Who writes the summary; default: the extractive summarizer. */
  summarizer?: Summarizer;
  /** A dry run (the confirmation's estimate, the inspector's preview): the extractive summary,
   *  archived in memory standing for `archive` (so the summary reads as the applied one will). */
  dryRun?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; fraction?: number }) => void;
  /** ISO time for the result (none: the transcript's own last timestamp). */
  now?: string;
  clock?: () => number;
  /** What the host already counted the conversation with (the extension keeps a counter, a report
   *  and a plan cache per conversation), so nothing is counted twice. */
  counted?: Counted;
  cache?: CompactionCache;
}

export interface Counted {
  counter: CachedTokenCounter;
  report: TokenReport;
}

export interface CompactionRun {
  result: CompactionResult;
  /** Before → after as the agent will send them: what every surface shows. */
  figures: CompactionFigures;
  /** The conversation's report before (the meter's figure). */
  report: TokenReport;
  counter: CachedTokenCounter;
  /** What a session written from the result takes over (for `request.to`, else the conversation's
   *  own agent). */
  inherited: InheritedFigures;
}

/** What the engine refused, for the front end to say in its own words. */
export type RequestProblem = { kind: 'unknownStrategy'; strategy: string; known: string[] } | { kind: 'invalid'; detail: string };

export class CompactionRequestError extends Error {
  override name = 'CompactionRequestError';
  constructor(readonly problem: RequestProblem) {
    super(problem.kind === 'unknownStrategy' ? `unknown strategy '${problem.strategy}'; expected one of: ${problem.known.join(', ')}` : problem.detail);
  }
}

/** How conversations are counted when none is asked for by name: the model when a conversation
 *  names none (the extension's contextCompactor.model), the window override. */
export type CountingRule = Pick<CompactionRequest, 'fallbackModel' | 'maxContextTokens'>;

/** The counting model of a conversation: the one asked for, else the one it names, else the fallback. */
export function countingModel(conversation: Pick<Conversation, 'meta'>, request: Pick<CompactionRequest, 'model' | 'fallbackModel'> = {}): string | undefined {
  return request.model || conversation.meta.model || request.fallbackModel || undefined;
}

/** A counter for a conversation naming `model` (or none), by the rule; each loaded once. */
export function counterFactory(rule: CountingRule = {}): (model: string | undefined) => Promise<CachedTokenCounter> {
  const made = new Map<string, Promise<CachedTokenCounter>>();
  return (model) => {
    const id = model || rule.fallbackModel || '';
    let c = made.get(id);
    if (!c) {
      c = createTokenCounter(id || undefined, rule.maxContextTokens ? { override: { maxContextTokens: rule.maxContextTokens } } : {});
      made.set(id, c);
    }
    return c;
  };
}

/** The conversation counted as its agent sends it, with the request's model and window. */
export async function countConversation(
  conversation: Conversation,
  request: Pick<CompactionRequest, 'model' | 'fallbackModel' | 'maxContextTokens'> = {},
): Promise<Counted> {
  const counter = await createTokenCounter(countingModel(conversation, request), {
    ...(request.maxContextTokens ? { override: { maxContextTokens: request.maxContextTokens } } : {}),
  });
  return { counter, report: conversationReport(conversation, counter) };
}

/** The agent a result goes into, when it is not the conversation's own. */
function otherTarget(conversation: Conversation, to: string | undefined): string | undefined {
  return to !== undefined && !sameAgent(conversation, to) ? to : undefined;
}

export async function runCompaction(conversation: Conversation, request: CompactionRequest = {}, host: CompactionHost = {}): Promise<CompactionRun> {
  const { counter, report } = host.counted ?? (await countConversation(conversation, request));
  const archive = host.dryRun ? new MemoryArchive(host.archive?.durable === true) : (host.archive ?? new MemoryArchive());
  const options = requestOptions(request, report, {
    counter,
    archive,
    hasher: host.hasher ?? nodeSha256,
    ...(host.summarizer && !host.dryRun ? { summarizer: host.summarizer } : {}),
    ...(host.cache ? { cache: host.cache } : {}),
    ...(host.signal ? { signal: host.signal } : {}),
    ...(host.onProgress ? { onProgress: host.onProgress } : {}),
    ...(host.now !== undefined ? { now: host.now } : {}),
    ...(host.clock ? { clock: host.clock } : {}),
  });
  let result: CompactionResult;
  try {
    result = await compactConversation(conversation, options);
  } catch (e) {
    if (e instanceof UnknownStrategyError)
      throw new CompactionRequestError({ kind: 'unknownStrategy', strategy: request.strategy ?? '', known: listStrategies().map((s) => s.name) });
    if (e instanceof CompactionInputError) throw new CompactionRequestError({ kind: 'invalid', detail: e.message });
    throw e;
  }
  const other = otherTarget(conversation, request.to);
  const target = request.to ?? agentOfFormat(conversation.format)?.id;
  const inherited = target ? inheritedFigures(conversation, report, target) : {};
  // The after of a session written for an agent: the file's part is what it holds (not the header
  // items, reminders and resent copies the compacted conversation keeps); into the conversation's
  // own agent, the part not in the file is what the new session inherits, which holds what the
  // agent renders anew (Gemini CLI's <session_context>, Claude Code's reminders).
  const notWritten = target && resumableAgent(target) ? result.conversation.messages.filter(notWrittenBack) : [];
  const written = { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter - notWritten.reduce((n, m) => n + counter.countMessage(m), 0) };
  const figures = compactionFigures(
    report,
    written,
    other !== undefined
      ? { overhead: inherited.overhead ?? 0 }
      : inherited.overhead !== undefined
        ? { overhead: inherited.overhead, sameAgent: true }
        : undefined,
  );
  return { result, figures, report, counter, inherited };
}
