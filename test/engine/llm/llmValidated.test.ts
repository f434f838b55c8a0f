// The validated summarizer's orchestration against a scripted in-process LlmClient: the
// paths the HTTP matrix does not reach cheaply (condensing merged chunk summaries, a window too
// small to work in, usage the provider did not report, cancelling between chunks).

import { describe, expect, it } from 'vitest';
import { holdToExtractive } from '../../../src/engine/compaction/llmSummary';
import { SummarizerError } from '../../../src/engine/llm/errors';
import type { LlmClient, LlmCompletion, LlmCompletionRequest } from '../../../src/engine/llm/llmClient';
import { createValidatedSummarizer, type AttemptRecord } from '../../../src/engine/llm/validatedSummarizer';
import type { SummarizeRequest } from '../../../src/engine/summarizer';
import { estimateCounter } from '../../../src/engine/tokens/estimate';
import { extractiveFor, goodSections, llmReply, mustKeepFacts, sweAgentMessages } from '../../helpers/llmFixtures';

const span = sweAgentMessages('mini-swe-agent/sympy__sympy-13091.traj.json').filter((m) => m.itemType !== 'SYSTEM_PROMPT');
const facts = mustKeepFacts(span);
const extractive = extractiveFor(facts);

function scripted(answer: (req: LlmCompletionRequest, n: number) => LlmCompletion | Promise<LlmCompletion>) {
  const seen: LlmCompletionRequest[] = [];
  const client: LlmClient = {
    name: 'scripted',
    model: 'scripted-1',
    async complete(req) {
      seen.push(req);
      return answer(req, seen.length);
    },
  };
  return { client, seen };
}

const request = (over: Partial<SummarizeRequest> = {}): SummarizeRequest => ({ messages: span, extractive, mustKeep: facts, maxTokens: 1_200, ...over });
let tick = 0;
const clock = () => (tick += 5);

describe('createValidatedSummarizer', () => {
  it('condenses merged chunk summaries that exceed the limit, keeping the must-keep facts', async () => {
    // Each part is within its own limit, but together they are over the summary's.
    const partReply = (n: number) =>
      llmReply(
        goodSections([], {
          'Problem Solving': Array.from({ length: 6 }, (_, i) => `- Part ${n}, step ${i}: compared Basic.__eq__ against NotImplemented returns.`).join('\n'),
        }),
      );
    const { client, seen } = scripted((req, n) => {
      if (req.user.includes('<summary_to_condense>')) return { text: llmReply(goodSections([])), model: 'scripted-1' };
      return { text: partReply(n), model: 'scripted-1' };
    });
    const attempts: AttemptRecord[] = [];
    const s = createValidatedSummarizer(client, { clock, contextWindow: 16_000, onAttempt: (a) => attempts.push(a) });
    const res = await s.summarize(request({ maxTokens: 600 }));
    expect(res.fallbackReason).toBeUndefined();
    const passes = attempts.map((a) => a.pass);
    expect(passes.filter((p) => p.startsWith('part ')).length).toBeGreaterThan(1);
    expect(passes.at(-1)).toBe('condense');
    expect(seen.at(-1)!.user).toContain('is too long');
    // The condensed reply named no files: the compaction's merge-back restores every one.
    const held = holdToExtractive(res.sections, extractive, facts);
    for (const f of facts.filter((x) => x.kind === 'filePath')) expect(held.sections['Files and Code Sections']).toContain(f.value);
    expect(held.mergedBack.length).toBeGreaterThan(0);
    // Each chunk's prompt fits the window it was planned for.
    const firstPart = seen[0]!.user;
    expect(firstPart).toMatch(/This is part 1 of \d+/);
    expect(estimateCounter.count(firstPart)).toBeLessThan(16_000);
  });

  it('estimates usage when the provider reports none', async () => {
    const { client } = scripted(() => ({ text: llmReply(goodSections(facts)) }));
    const res = await createValidatedSummarizer(client, { clock, contextWindow: 200_000 }).summarize(request());
    expect(res.usage!.inputTokens).toBeGreaterThan(1_000);
    expect(res.usage!.outputTokens).toBeGreaterThan(50);
    expect(res.model).toBe('scripted-1');
    expect(res.durationMs).toBeGreaterThan(0);
  });

  it('a window too small to work in: extractive, with a reason that says so, and no request', async () => {
    const { client, seen } = scripted(() => ({ text: '' }));
    const res = await createValidatedSummarizer(client, { clock, contextWindow: 4_096 }).summarize(request({ maxTokens: 1_500 }));
    expect(res.fallbackKind).toBe('contextLength');
    expect(res.fallbackReason).toMatch(/context window \(4096 tokens\) leaves too little room/);
    expect(res.sections).toEqual(extractive);
    expect(seen).toHaveLength(0);
  });

  it('cancelling between chunks stops before the next request', async () => {
    const ac = new AbortController();
    const { client, seen } = scripted(() => {
      ac.abort();
      return { text: llmReply(goodSections(facts)) };
    });
    const s = createValidatedSummarizer(client, { clock, contextWindow: 16_000 });
    await expect(s.summarize(request({ signal: ac.signal }))).rejects.toSatisfy((e) => e instanceof SummarizerError && e.kind === 'cancelled');
    expect(seen).toHaveLength(1);
  });

  it('an unexpected client failure falls back with its message', async () => {
    const { client } = scripted(() => {
      throw new Error('socket hang up in a custom client');
    });
    const res = await createValidatedSummarizer(client, { clock, contextWindow: 200_000 }).summarize(request());
    expect(res.fallbackKind).toBe('unknown');
    expect(res.fallbackReason).toBe('The summarizer failed: socket hang up in a custom client');
  });
});
