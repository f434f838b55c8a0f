// Stage 7 (compactConversation only): an LLM writes the eight sections of the span the plan
// chose. Whatever it returns is held to the extractive pass: "All user messages" is the
// extractive section (built from the conversation's own user messages; an LLM may not add to it),
// every other must-keep fact it dropped is merged back, what it claims that the conversation
// does not hold is flagged, and the inspector's edits apply on top. The result goes through the
// same attempt builder as every extractive attempt. A summarizer that fails leaves the
// extractive attempt, with the reason.

import { messageText } from '../conversation/model';
import type { Fact, SummarizerInfo, UnsupportedClaim } from '../result';
import { EXTRACTIVE_SUMMARIZER_NAME } from '../segments/extractiveSummarizer';
import { parseSummary } from '../segments/parseSummary';
import { parseLedger, renderLedger, withoutLedger } from '../segments/ledger';
import { SECTION_NAMES, type SectionTexts } from '../sections';
import type { SummarizeRequest, Summarizer } from '../summarizer';
import { missingFacts } from '../validate/factMatch';
import { applySectionEdits, buildAttempt, type Attempt } from './attempt';
import { mergeBackMissingFacts } from './mergeBack';
import { CompactionAbortedError, throwIfAborted } from './options';
import type { PlannedCompaction } from './plan';
import { unsupportedClaims, USER_SECTION } from './unsupportedClaims';
import type { EngineWarning } from '../warnings';

/** The facts an LLM summary must not drop (the extractive pass keeps them all). */
const MUST_KEEP_KINDS: ReadonlySet<Fact['kind']> = new Set(['userMessage', 'filePath', 'errorSignature', 'pendingTask']);

export interface LlmSummaryOptions {
  focus?: string;
  signal?: AbortSignal;
  /** 0..1 of the summarizer's own work. */
  onProgress: (fraction: number) => void;
}

export interface LlmSummaryOutcome {
  attempt: Attempt;
  summarizer: SummarizerInfo;
  warnings: EngineWarning[];
}

/** The LLM's sections held to the extractive ones: user messages rebuilt, dropped facts back. */
export function holdToExtractive(llm: SectionTexts, extractive: SectionTexts, mustKeep: readonly Fact[]): { sections: SectionTexts; mergedBack: Fact[] } {
  const droppedUsers = new Set(
    missingFacts(
      mustKeep.filter((f) => f.kind === 'userMessage'),
      llm[USER_SECTION],
    ),
  );
  // The ledger is carried verbatim (segments/ledger.ts): the extractive one, whatever the LLM wrote.
  const ledger = renderLedger(parseLedger(extractive[PRIMARY]) ?? []);
  const primary = [withoutLedger(llm[PRIMARY]), ledger].filter(Boolean).join('\n');
  const rebuilt = { ...llm, [USER_SECTION]: extractive[USER_SECTION], [PRIMARY]: primary };
  const merged = mergeBackMissingFacts(rebuilt, extractive, mustKeep);
  const back = new Set(merged.mergedBack);
  return { sections: merged.sections, mergedBack: mustKeep.filter((f) => droppedUsers.has(f) || back.has(f)) };
}

const PRIMARY = 'Primary Request and Intent' as const;

/** Claims shown as warnings at most, the rest counted. */
const CLAIM_WARNINGS_MAX = 5;

function claimWarnings(name: string, claims: readonly UnsupportedClaim[]): EngineWarning[] {
  const out: EngineWarning[] = claims
    .slice(0, CLAIM_WARNINGS_MAX)
    .map((c) => ({ code: 'unsupportedClaim', summarizer: name, kind: c.kind, section: c.section, text: c.text }));
  if (claims.length > CLAIM_WARNINGS_MAX) out.push({ code: 'moreUnsupportedClaims', summarizer: name, count: claims.length - CLAIM_WARNINGS_MAX });
  return out;
}

export async function summarizeWithLlm(planned: PlannedCompaction, summarizer: Summarizer, opts: LlmSummaryOptions): Promise<LlmSummaryOutcome> {
  const { attempt, ctx } = planned;
  const { content } = attempt;
  const mustKeep = content.facts.filter((f) => MUST_KEEP_KINDS.has(f.kind));
  const previousText = content.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY').map((m) => messageText(m));
  const previous = previousText.length > 0 ? parseSummary(previousText.join('\n\n')) : undefined;
  const req: SummarizeRequest = {
    messages: content.messages,
    extractive: attempt.sections,
    mustKeep,
    maxTokens: attempt.summaryBudget,
    ...(previous ? { previous: { sections: SECTION_NAMES.map((name) => ({ name, text: previous.sections[name], tokens: 0 })), tokens: 0 } } : {}),
    ...(opts.focus !== undefined ? { focus: opts.focus } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    onProgress: (p) => opts.onProgress(p.fraction ?? 0),
  };
  try {
    const res = await summarizer.summarize(req);
    throwIfAborted(opts.signal);
    const held = holdToExtractive(res.sections, attempt.sections, mustKeep);
    const sections = applySectionEdits(held.sections, ctx.options.edits);
    const rebuilt = buildAttempt(ctx, attempt.decided, content, sections, attempt.fit, attempt.summaryBudget);
    const unsupported = res.fallbackReason ? [] : unsupportedClaims(sections, ctx.input.messages);
    const model = res.model ?? summarizer.model;
    return {
      attempt: { ...rebuilt, loss: { ...rebuilt.loss, mergedBack: held.mergedBack, unsupported } },
      summarizer: {
        name: summarizer.name,
        ...(model ? { model } : {}),
        ...(res.usage ? { inputTokens: res.usage.inputTokens, outputTokens: res.usage.outputTokens } : {}),
        durationMs: res.durationMs,
        ...(res.retries !== undefined ? { retries: res.retries } : {}),
        ...(res.fallbackReason ? { fallbackReason: res.fallbackReason } : {}),
      },
      warnings: res.fallbackReason
        ? [{ code: 'llmNotUsed', summarizer: summarizer.name, reason: res.fallbackReason }]
        : claimWarnings(summarizer.name, unsupported),
    };
  } catch (e) {
    if (opts.signal?.aborted || (e instanceof Error && e.name === 'AbortError')) throw new CompactionAbortedError();
    const reason = e instanceof Error ? e.message : String(e);
    return {
      attempt,
      summarizer: { name: EXTRACTIVE_SUMMARIZER_NAME, fallbackReason: `${summarizer.name} failed: ${reason}` },
      warnings: [{ code: 'llmFailed', summarizer: summarizer.name, reason }],
    };
  }
}
