// The whole LLM summary policy, around any LlmClient, as a Summarizer the compactor can call:
//   1. serialize the span (tool output cut to head and tail) and build the prompt with the
//      must-keep facts, the focus, the limit and, on re-compaction, the previous sections;
//   2. if it does not fit the summarizer model's window, summarize consecutive chunks and merge
//      their sections (condensing once more if the merge is over the limit);
//   3. call the client, retrying transient failures with backoff (rate limit, 5xx, network,
//      timeout), honouring retry-after; a context-length error re-plans with smaller chunks;
//   4. parse and check the reply; an empty, garbled, cut-off or over-long one is asked for once
//      more with a stricter prompt;
//   5. on final failure return the extractive sections with the reason — never throw, except
//      when the caller cancels: then reject with kind 'cancelled' and leave everything as it was.

import type { Fact } from '../result';
import { SECTION_NAMES, type SectionName, type SectionTexts, type Summary } from '../sections';
import type { SummarizeRequest, SummarizeResponse, Summarizer } from '../summarizer';
import { estimateCounter } from '../tokens/estimate';
import { resolveModel } from '../tokens/modelRegistry';
import type { TextCounter } from '../tokens/tokenCounter';
import { planChunks } from './chunkPlan';
import { checkSummary, completeSections, MIN_SECTIONS_FOR_HYBRID, type SummaryCheck, type SummaryProblem } from './checkSummary';
import { cancelledError, SummarizerError, toSummarizerError, type SummarizerErrorKind } from './errors';
import type { LlmClient, LlmCompletion } from './llmClient';
import { parseSummary, type ParsedSummary } from '../segments/parseSummary';
import { buildPrompt, renderMustKeep, type MustKeepBlock, type Prompt, type PromptInput } from './prompt';
import { abortableSleep, DEFAULT_RETRY_POLICY, withRetries, type RetryEvent, type RetryPolicy, type Sleep } from './retryPolicy';
import { renderSections } from '../segments/renderSummary';
import { mergeSectionTexts } from '../segments/mergeSections';
import { DEFAULT_SERIALIZE_LIMITS, joinTranscript, serializeSpan, shortenToTokens, type SerializedMessage, type SerializeLimits } from './serializeSpan';

/** Stricter retries after an unusable reply (empty, garbled, cut off, over-long). */
export const VALIDATION_RETRIES = 1;
/** The reply may use this many times the summary limit: the analysis comes first. */
export const COMPLETION_TOKENS_FACTOR = 2;
/** At most this share of the summarizer's window goes to the reply. */
export const MAX_OUTPUT_SHARE = 0.5;
/** Room left unused in the window: our count of the prompt is not the server's. */
export const SAFETY_MARGIN_SHARE = 0.1;
/** Share of the input budget the must-keep list may take. */
export const MUST_KEEP_SHARE = 0.15;
/** A chunk smaller than this cannot carry a meaningful part of a conversation. */
export const MIN_CHUNK_INPUT_TOKENS = 1_000;
/** Smallest summary limit a chunk gets, however many chunks there are. */
export const MIN_CHUNK_SUMMARY_TOKENS = 300;
/** Each context-length error from the server shrinks the input budget by this factor … */
export const CONTEXT_LENGTH_SHRINK = 0.5;
/** … at most this many times. */
export const MAX_CONTEXT_LENGTH_SHRINKS = 2;
/** Streaming progress is reported every this many characters. */
export const PROGRESS_EVERY_CHARS = 400;

export interface AttemptRecord {
  /** 'single', 'part 2/5', 'condense'. */
  pass: string;
  attempt: number;
  ok: boolean;
  problems: (SummaryProblem | 'badResponse')[];
  detail: string;
  /** The request failed (after its transport retries) with this kind. */
  error?: SummarizerErrorKind;
}

export interface ValidatedSummarizerOptions {
  /** Milliseconds, for durationMs (the engine reads no clock of its own). */
  clock: () => number;
  /** Counts prompt and summary tokens; the CJK-aware estimate when absent. */
  counter?: TextCounter;
  /** The summarizer model's context window (input + output), tokens. Default: the model registry's. */
  contextWindow?: number;
  /** Reply limit per request, tokens. Default: COMPLETION_TOKENS_FACTOR × the summary limit. */
  completionTokens?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  serializeLimits?: Partial<SerializeLimits>;
  onRetry?: (e: RetryEvent) => void;
  onAttempt?: (a: AttemptRecord) => void;
  /** Name in results; the client's when absent. */
  name?: string;
}

/** A reply that stayed unusable after the stricter retry. */
class UnusableSummary extends Error {
  constructor(
    readonly problem: SummaryProblem | 'badResponse',
    detail: string,
  ) {
    super(detail);
  }
}

interface RunState {
  req: SummarizeRequest;
  inputTokens: number;
  outputTokens: number;
  retries: number;
  model?: string;
  filled: SectionName[];
  /** Progress of the pass under way (streamed text is reported at it). */
  fraction: number;
}

interface PassSpec {
  label: string;
  input: Omit<PromptInput, 'strictReason'>;
  replacedTokens: number;
  /** Where missing sections come from when the reply is otherwise usable (undefined: left empty). */
  fill?: Partial<SectionTexts>;
  /** Record which sections were filled (the top-level pass only). */
  recordFilled: boolean;
}

/** What a pass's summary may repeat: everything its prompt gave the model to summarize. */
function sourceOf(input: PassSpec['input']): string {
  return [input.transcript, input.previous ? renderSections(input.previous) : '', input.mustKeep?.text ?? '', input.focus ?? ''].join('\n');
}

export function sectionTextsOf(summary: Summary): SectionTexts {
  const out = {} as SectionTexts;
  for (const n of SECTION_NAMES) out[n] = '';
  for (const s of summary.sections) out[s.name] = s.text;
  return out;
}

export function createValidatedSummarizer(inner: LlmClient, opts: ValidatedSummarizerOptions): Summarizer {
  const counter = opts.counter ?? estimateCounter;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  const sleep = opts.sleep ?? abortableSleep;
  const limits: SerializeLimits = { ...DEFAULT_SERIALIZE_LIMITS, ...opts.serializeLimits };
  const contextWindow = opts.contextWindow ?? resolveModel(inner.model).contextWindow;
  const name = opts.name ?? inner.name;

  function completionTokensFor(maxTokens: number): number {
    const wanted = opts.completionTokens ?? Math.ceil(maxTokens * COMPLETION_TOKENS_FACTOR);
    return Math.max(1, Math.min(wanted, Math.floor(contextWindow * MAX_OUTPUT_SHARE)));
  }

  function promptTokens(p: Prompt): number {
    return counter.count(p.system) + counter.count(p.user);
  }

  async function call(run: RunState, prompt: Prompt, maxTokens: number, label: string): Promise<LlmCompletion> {
    const { signal, onProgress } = run.req;
    let received = 0;
    let reported = 0;
    const onDelta = onProgress
      ? (t: string) => {
          received += t.length;
          if (received - reported >= PROGRESS_EVERY_CHARS) {
            reported = received;
            onProgress({ message: `${label}: receiving summary (${received} characters)`, fraction: run.fraction });
          }
        }
      : undefined;
    try {
      const { value, retries } = await withRetries(
        () => inner.complete({ system: prompt.system, user: prompt.user, maxTokens, ...(signal ? { signal } : {}), ...(onDelta ? { onDelta } : {}) }),
        { policy, sleep, ...(signal ? { signal } : {}), ...(opts.onRetry ? { onRetry: opts.onRetry } : {}) },
      );
      run.retries += retries;
      run.inputTokens += value.usage?.inputTokens ?? promptTokens(prompt);
      run.outputTokens += value.usage?.outputTokens ?? counter.count(value.text);
      if (value.model) run.model = value.model;
      if (signal?.aborted) throw cancelledError();
      return value;
    } catch (e) {
      const err = toSummarizerError(e, signal);
      run.retries += err.retries;
      throw err;
    }
  }

  /** One prompt, asked again once more strictly if the reply is unusable. */
  async function runPass(run: RunState, spec: PassSpec): Promise<SectionTexts> {
    const maxReply = completionTokensFor(spec.input.maxTokens);
    let last: { parsed?: ParsedSummary; check?: SummaryCheck; problem: SummaryProblem | 'badResponse'; detail: string } | undefined;
    for (let attempt = 0; attempt <= VALIDATION_RETRIES; attempt++) {
      if (attempt > 0) run.retries++;
      const prompt = buildPrompt({ ...spec.input, ...(last ? { strictReason: last.detail } : {}) });
      let completion: LlmCompletion;
      try {
        completion = await call(run, prompt, maxReply, spec.label);
      } catch (e) {
        const kind = e instanceof SummarizerError ? e.kind : 'unknown';
        const detail = e instanceof Error ? e.message : String(e);
        if (kind === 'badResponse') {
          last = { problem: 'badResponse', detail };
          opts.onAttempt?.({ pass: spec.label, attempt, ok: false, problems: ['badResponse'], detail, error: kind });
          continue;
        }
        if (kind !== 'cancelled') opts.onAttempt?.({ pass: spec.label, attempt, ok: false, problems: [], detail, error: kind });
        throw e;
      }
      const parsed = parseSummary(completion.text, 'reply');
      const check = checkSummary({
        parsed,
        ...(completion.finishReason ? { finishReason: completion.finishReason } : {}),
        maxTokens: spec.input.maxTokens,
        replacedTokens: spec.replacedTokens,
        counter,
        source: sourceOf(spec.input),
      });
      opts.onAttempt?.({ pass: spec.label, attempt, ok: check.ok, problems: check.problems, detail: check.detail });
      if (check.ok) return completeSections(parsed, {});
      last = { parsed, check, problem: check.problems[0]!, detail: check.detail };
    }
    // Still unusable. A reply that is right except for a few missing sections is worth keeping.
    const onlyMissing = last?.check?.problems.every((p) => p === 'missingSections' || p === 'cutOff');
    if (last?.parsed && onlyMissing && last.parsed.found.length >= MIN_SECTIONS_FOR_HYBRID) {
      if (spec.recordFilled) run.filled.push(...last.parsed.missing);
      return completeSections(last.parsed, spec.fill ?? {});
    }
    throw new UnusableSummary(last!.problem, last!.detail);
  }

  function factsIn(facts: readonly Fact[], ids: ReadonlySet<string>): Fact[] {
    return facts.filter((f) => ids.has(f.sourceId));
  }

  async function produce(run: RunState, parts: SerializedMessage[], previous: SectionTexts | undefined, scale: number): Promise<SectionTexts> {
    const req = run.req;
    const maxTokens = req.maxTokens;
    const completion = completionTokensFor(maxTokens);
    const margin = Math.ceil(contextWindow * SAFETY_MARGIN_SHARE);
    const focus = req.focus ? { focus: req.focus } : {};
    const replacedTokens = parts.reduce((n, p) => n + p.originalTokens, 0) + (previous ? counter.count(renderSections(previous)) : 0);

    // Everything in one request, when it fits.
    const frame = promptTokens(buildPrompt({ mode: 'summarize', transcript: '', maxTokens, ...(previous ? { previous } : {}), ...focus }));
    const inputBudget = Math.floor((contextWindow - completion - frame - margin) * scale);
    const mustKeepBudget = Math.floor(Math.max(0, inputBudget) * MUST_KEEP_SHARE);
    const mustKeep = renderMustKeep(req.mustKeep, counter, mustKeepBudget);
    const transcriptTokens = parts.reduce((n, p) => n + p.tokens + 1, 0);
    if (transcriptTokens <= inputBudget - mustKeep.tokens) {
      run.fraction = 0;
      req.onProgress?.({ message: `Summarizing with ${inner.model}…`, fraction: run.fraction });
      return runPass(run, {
        label: 'single',
        input: { mode: 'summarize', transcript: joinTranscript(parts), maxTokens, mustKeep, ...(previous ? { previous } : {}), ...focus },
        replacedTokens,
        fill: req.extractive,
        recordFilled: true,
      });
    }

    // Chunked: summarize consecutive parts, merge section-wise (the previous summary first).
    const chunkFrame = promptTokens(buildPrompt({ mode: 'summarize', transcript: '', maxTokens, part: { index: 1, count: 2 }, ...focus }));
    const chunkInput = Math.floor((contextWindow - completion - chunkFrame - margin) * scale);
    const chunkMustKeepBudget = Math.floor(Math.max(0, chunkInput) * MUST_KEEP_SHARE);
    const chunkBudget = chunkInput - chunkMustKeepBudget;
    if (chunkBudget < MIN_CHUNK_INPUT_TOKENS) {
      throw new SummarizerError(
        'contextLength',
        `${inner.model}'s context window (${contextWindow} tokens) leaves too little room to summarize with a ${maxTokens}-token summary limit. Use a model with a larger window or a smaller summary limit.`,
      );
    }
    const chunks = planChunks(parts, chunkBudget);
    const perChunk = Math.max(MIN_CHUNK_SUMMARY_TOKENS, Math.ceil(maxTokens / chunks.length));
    const results: Partial<SectionTexts>[] = previous ? [previous] : [];
    for (let i = 0; i < chunks.length; i++) {
      if (req.signal?.aborted) throw cancelledError();
      const c = chunks[i]!;
      const label = `part ${i + 1}/${chunks.length}`;
      run.fraction = i / (chunks.length + 1);
      req.onProgress?.({ message: `Summarizing ${label} with ${inner.model}…`, fraction: run.fraction });
      const slice = parts.slice(c.start, c.end);
      const transcript = c.oversize ? shortenToTokens(joinTranscript(slice), chunkBudget, counter) : joinTranscript(slice);
      const ids = new Set(slice.map((p) => p.id));
      const block: MustKeepBlock = renderMustKeep(factsIn(req.mustKeep, ids), counter, chunkMustKeepBudget);
      results.push(
        await runPass(run, {
          label,
          input: { mode: 'summarize', transcript, maxTokens: perChunk, mustKeep: block, part: { index: i + 1, count: chunks.length }, ...focus },
          replacedTokens: slice.reduce((n, p) => n + p.originalTokens, 0),
          recordFilled: false,
        }),
      );
    }
    const merged = mergeSectionTexts(results);
    if (counter.count(renderSections(merged)) <= maxTokens) return merged;

    run.fraction = chunks.length / (chunks.length + 1);
    req.onProgress?.({ message: `Condensing ${chunks.length} part summaries…`, fraction: run.fraction });
    return runPass(run, {
      label: 'condense',
      input: { mode: 'condense', transcript: '', previous: merged, maxTokens, mustKeep, ...focus },
      replacedTokens: 0,
      fill: merged,
      recordFilled: true,
    });
  }

  return {
    name,
    model: inner.model,
    async summarize(req: SummarizeRequest): Promise<SummarizeResponse> {
      const t0 = opts.clock();
      const run: RunState = { req, inputTokens: 0, outputTokens: 0, retries: 0, filled: [], fraction: 0 };
      const previous = req.previous ? sectionTextsOf(req.previous) : undefined;
      const base = () => ({
        durationMs: Math.max(0, opts.clock() - t0),
        retries: run.retries,
        model: run.model ?? inner.model,
        ...(run.inputTokens || run.outputTokens ? { usage: { inputTokens: run.inputTokens, outputTokens: run.outputTokens } } : {}),
      });
      try {
        if (req.signal?.aborted) throw cancelledError();
        // The previous summary is handed over as sections to merge into, not again as a message.
        const span = previous ? req.messages.filter((m) => m.itemType !== 'COMPACTION_SUMMARY') : req.messages;
        const parts = serializeSpan(span, counter, limits);
        let sections: SectionTexts | undefined;
        let scale = 1;
        for (let shrinks = 0; sections === undefined; shrinks++) {
          try {
            sections = await produce(run, parts, previous, scale);
          } catch (e) {
            if (e instanceof SummarizerError && e.kind === 'contextLength' && e.status !== undefined && shrinks < MAX_CONTEXT_LENGTH_SHRINKS) {
              scale *= CONTEXT_LENGTH_SHRINK;
              continue;
            }
            throw e;
          }
        }
        if (req.signal?.aborted) throw cancelledError();
        // Dropped must-keep facts are merged back by the compaction, for every summarizer.
        const filled = SECTION_NAMES.filter((n) => run.filled.includes(n));
        return { ...base(), sections, ...(filled.length ? { filledSections: filled } : {}) };
      } catch (e) {
        if (e instanceof UnusableSummary) {
          return {
            ...base(),
            sections: { ...req.extractive },
            fallbackKind: e.problem,
            fallbackReason: `${name} (${inner.model}): the summary was unusable after a stricter retry — ${e.message.replace(/\.$/, '')}. The extractive summary was used.`,
          };
        }
        const err = toSummarizerError(e, req.signal);
        if (err.kind === 'cancelled') throw err;
        return { ...base(), sections: { ...req.extractive }, fallbackKind: err.kind, fallbackReason: err.message };
      }
    },
  };
}
