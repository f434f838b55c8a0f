// The pure parts of the LLM policy: error classification, retries and backoff, fact matching,
// merge-back, section merge, serialization, chunking and the prompt.

import { describe, expect, it } from 'vitest';
import { planChunks } from '../../../src/engine/llm/chunkPlan';
import { classifyHttpFailure, isTransient, parseRetryAfter, SummarizerError, type EndpointLabel } from '../../../src/engine/llm/errors';
import { factPresent, missingFacts, normalizeForMatch } from '../../../src/engine/validate/factMatch';
import { mergeBackMissingFacts } from '../../../src/engine/compaction/mergeBack';
import { buildPrompt, renderMustKeep } from '../../../src/engine/llm/prompt';
import { backoffDelay, DEFAULT_RETRY_POLICY, withRetries, type RetryEvent } from '../../../src/engine/llm/retryPolicy';
import { splitItems } from '../../../src/engine/segments/sectionText';
import { fileKeyOf, mergeSectionTexts } from '../../../src/engine/segments/mergeSections';
import { serializeSpan, shortenToTokens } from '../../../src/engine/llm/serializeSpan';
import type { Message } from '../../../src/engine/conversation/model';
import type { Fact } from '../../../src/engine/result';
import { emptySectionTexts, type SectionTexts } from '../../../src/engine/sections';
import { estimateCounter } from '../../../src/engine/tokens/estimate';
import { mustKeepFacts, sweAgentMessages } from '../../helpers/llmFixtures';

const where: EndpointLabel = { endpoint: 'OpenAI-compatible endpoint 127.0.0.1:1/v1', model: 'm', authHint: 'Set it with X.' };

describe('classifyHttpFailure', () => {
  it.each([
    [{ status: 401 }, 'authentication'],
    [{ status: 403 }, 'authentication'],
    [{ status: 429 }, 'rateLimit'],
    [{ status: 429, code: 'insufficient_quota' }, 'quotaExceeded'],
    [{ status: 400, code: 'context_length_exceeded' }, 'contextLength'],
    [{ status: 400, message: "This model's maximum context length is 8192 tokens" }, 'contextLength'],
    [{ status: 400, message: 'unsupported parameter' }, 'badRequest'],
    [{ status: 404 }, 'badRequest'],
    [{ status: 408 }, 'timeout'],
    [{ status: 500 }, 'server'],
    [{ status: 503 }, 'server'],
  ] as const)('%o → %s', (failure, kind) => {
    expect(classifyHttpFailure(failure, where).kind).toBe(kind);
  });

  it('says what to do about a rejected key, in one line', () => {
    const e = classifyHttpFailure({ status: 401, message: 'Incorrect API key provided' }, where);
    expect(e.message).toBe('OpenAI-compatible endpoint 127.0.0.1:1/v1 rejected the API key (401). Set it with X.');
  });

  it('only the transient kinds are retried', () => {
    expect(['rateLimit', 'server', 'network', 'timeout'].every((k) => isTransient(k as never))).toBe(true);
    expect(['authentication', 'contextLength', 'cancelled', 'badRequest', 'quotaExceeded', 'badResponse'].some((k) => isTransient(k as never))).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const h = (m: Record<string, string>) => (n: string) => m[n];
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' }), 0)).toBe(250);
    expect(parseRetryAfter(h({ 'retry-after': '2' }), 0)).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(h({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(h({}), 0)).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }), 0)).toBeUndefined();
  });
});

describe('withRetries', () => {
  function failing(errors: SummarizerError[], value = 'ok') {
    let calls = 0;
    return {
      fn: async () => {
        const e = errors[calls++];
        if (e) throw e;
        return value;
      },
      calls: () => calls,
    };
  }
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);

  it('backs off exponentially up to the cap', () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 5000 };
    expect([0, 1, 2, 3, 4].map((r) => backoffDelay(r, p))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('retries transient failures, waiting what retry-after asks', async () => {
    sleeps.length = 0;
    const events: RetryEvent[] = [];
    const f = failing([new SummarizerError('rateLimit', 'slow', { status: 429, retryAfterMs: 1500 }), new SummarizerError('server', 'boom', { status: 502 })]);
    const r = await withRetries(f.fn, { policy: DEFAULT_RETRY_POLICY, sleep, onRetry: (e) => events.push(e) });
    expect(r).toEqual({ value: 'ok', retries: 2 });
    expect(sleeps).toEqual([1500, 2000]);
    expect(events.map((e) => [e.error.kind, e.fromRetryAfter])).toEqual([
      ['rateLimit', true],
      ['server', false],
    ]);
  });

  it('gives up after maxRetries with the count on the error', async () => {
    const f = failing(Array.from({ length: 5 }, () => new SummarizerError('network', 'down')));
    const err = await withRetries(f.fn, { policy: DEFAULT_RETRY_POLICY, sleep }).catch((e: SummarizerError) => e);
    expect(err).toMatchObject({ kind: 'network', retries: 2 });
    expect(f.calls()).toBe(3);
  });

  it('does not retry what will not change, nor wait longer than the cap asks', async () => {
    const auth = failing([new SummarizerError('authentication', 'no')]);
    await expect(withRetries(auth.fn, { policy: DEFAULT_RETRY_POLICY, sleep })).rejects.toMatchObject({ kind: 'authentication', retries: 0 });
    expect(auth.calls()).toBe(1);
    const long = failing([new SummarizerError('rateLimit', 'later', { retryAfterMs: 3_600_000 })]);
    await expect(withRetries(long.fn, { policy: DEFAULT_RETRY_POLICY, sleep })).rejects.toMatchObject({ kind: 'rateLimit' });
    expect(long.calls()).toBe(1);
  });

  it('stops waiting when cancelled', async () => {
    const ac = new AbortController();
    const f = failing([new SummarizerError('server', 'x')]);
    const pending = withRetries(f.fn, {
      policy: DEFAULT_RETRY_POLICY,
      signal: ac.signal,
      sleep: (_ms, signal) => new Promise((_r, reject) => signal!.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    ac.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });
});

describe('fact matching', () => {
  const fact = (kind: Fact['kind'], value: string): Fact => ({ kind, value, sourceId: 's' });
  it('folds case and whitespace; paths, errors and tasks are whole at both ends', () => {
    const text = normalizeForMatch('Edited  `Src/Login.ts` and data.ts; TypeError: x is undefined.\nOAuth flow');
    expect(factPresent(fact('filePath', 'src/login.ts'), text)).toBe(true);
    expect(factPresent(fact('filePath', 'a.ts'), text)).toBe(false);
    expect(factPresent(fact('errorSignature', 'TypeError: x is undefined'), text)).toBe(true);
    expect(factPresent(fact('pendingTask', 'OAuth'), text)).toBe(true);
    expect(factPresent(fact('pendingTask', 'Auth'), text)).toBe(false);
  });

  it('a user message (an opening cut mid-word) and a keyword (any inflection) need only a whole start', () => {
    const opening = 'Please refactor the billing module so that every invoice is validated tw';
    expect(missingFacts([fact('userMessage', opening)], `- ${opening}ice, then sent.`)).toEqual([]);
    expect(missingFacts([fact('userMessage', opening)], `- X${opening}ice`)).toHaveLength(1);
    expect(missingFacts([fact('userMessage', opening)], '- the user wanted a billing refactor')).toHaveLength(1);
    const long = `Please refactor the billing module so that ${'every invoice is validated twice '.repeat(20)}`;
    expect(missingFacts([fact('userMessage', long)], `- ${long.slice(0, 200)}…`)).toEqual([]);
    expect(factPresent(fact('keyword', 'fail'), 'the build failed')).toBe(true);
    expect(factPresent(fact('keyword', 'fail'), 'a snailfail')).toBe(false);
  });

  it('terms and numbers count anywhere, as the loss figures measure them', () => {
    expect(factPresent(fact('number', '808'), 'port 8080')).toBe(true);
    expect(factPresent(fact('technicalTerm', 'Auth'), normalizeForMatch('OAuth flow'))).toBe(true);
  });

  it('matches Chinese without word boundaries', () => {
    expect(missingFacts([fact('technicalTerm', '登录错误')], '修复了登录错误的问题')).toEqual([]);
  });
});

describe('mergeBackMissingFacts', () => {
  const facts: Fact[] = [
    { kind: 'userMessage', value: 'first: set up the project', sourceId: 'u1' },
    { kind: 'userMessage', value: 'second: add the login page', sourceId: 'u2' },
    { kind: 'userMessage', value: 'third: fix the redirect', sourceId: 'u3' },
    { kind: 'filePath', value: 'src/login/page.tsx', sourceId: 'a2' },
    { kind: 'errorSignature', value: 'TypeError: cannot read properties of undefined', sourceId: 't3' },
    { kind: 'pendingTask', value: 'write e2e tests', sourceId: 'u3' },
  ];
  const extractive: SectionTexts = {
    ...emptySectionTexts(),
    'All user messages': '- first: set up the project\n- second: add the login page\n- third: fix the redirect',
    'Files and Code Sections': '- `src/login/page.tsx`: the login form, edited twice',
    'Errors and fixes': '- TypeError: cannot read properties of undefined — fixed by a null check',
  };

  it('restores dropped facts with their extractive context, user messages in order', () => {
    const llm: SectionTexts = {
      ...emptySectionTexts(),
      'All user messages': '- first: set up the project\n- third: fix the redirect',
      'Files and Code Sections': 'None.',
      'Errors and fixes': '- a TypeError in the form, fixed',
      'Pending Tasks': 'None.',
    };
    const r = mergeBackMissingFacts(llm, extractive, facts);
    expect(r.mergedBack.map((f) => f.sourceId)).toEqual(['u2', 'a2', 't3', 'u3']);
    expect(r.sections['All user messages']).toBe('- first: set up the project\n- second: add the login page\n- third: fix the redirect');
    expect(r.sections['Files and Code Sections']).toBe('- `src/login/page.tsx`: the login form, edited twice');
    expect(r.sections['Errors and fixes']).toBe('- a TypeError in the form, fixed\n- TypeError: cannot read properties of undefined — fixed by a null check');
    // Not in the extractive sections either: added as its own bullet where its kind belongs.
    expect(r.sections['Pending Tasks']).toBe('- write e2e tests');
  });

  it('changes nothing when nothing is missing', () => {
    const complete = { ...extractive, 'Pending Tasks': '- write e2e tests' };
    const r = mergeBackMissingFacts(complete, extractive, facts);
    expect(r.mergedBack).toEqual([]);
    expect(r.sections).toEqual(complete);
  });
});

describe('mergeSectionTexts', () => {
  it('concatenates and de-duplicates lists, keeps user messages in order, files at their latest state, the latest current work', () => {
    const a: SectionTexts = {
      ...emptySectionTexts(),
      'Key Technical Concepts': '- React\n- JWT',
      'Files and Code Sections': '- `src/a.ts`: created\n- `src/b.ts`: read',
      'All user messages': '- one\n- two',
      'Current Work': 'Working on a.ts',
    };
    const b: SectionTexts = {
      ...emptySectionTexts(),
      'Key Technical Concepts': '- **JWT**\n- Redis',
      'Files and Code Sections': '- `src/a.ts`: now exports login()',
      'All user messages': '- three',
      'Current Work': 'Working on the cache',
      'Pending Tasks': 'None.',
    };
    const m = mergeSectionTexts([a, b]);
    expect(m['Key Technical Concepts']).toBe('- React\n- JWT\n- Redis');
    expect(m['Files and Code Sections']).toBe('- `src/b.ts`: read\n- `src/a.ts`: now exports login()');
    expect(m['All user messages']).toBe('- one\n- two\n- three');
    expect(m['Current Work']).toBe('Working on the cache');
    expect(m['Pending Tasks']).toBe('');
  });

  it('finds the file an entry is about', () => {
    expect(fileKeyOf('- **src/Auth.ts** — login')).toBe('src/auth.ts');
    expect(fileKeyOf('### `C:\\proj\\main.py`')).toBe('c:/proj/main.py');
    expect(fileKeyOf('- README.md: updated')).toBe('readme.md');
    expect(fileKeyOf('- the build script')).toBeUndefined();
  });

  it('splits items by bullet with their continuation lines and code', () => {
    expect(splitItems('- a\n  more a\n- b\n```ts\n- not an item\n```\n\npara')).toEqual(['- a\n  more a', '- b\n```ts\n- not an item\n```', 'para']);
  });
});

describe('serializeSpan and chunking on a real SWE-agent trajectory', () => {
  const messages = sweAgentMessages('mini-swe-agent/pytest-dev__pytest-7490.traj.json').filter((m) => m.itemType !== 'SYSTEM_PROMPT');
  const parts = serializeSpan(messages, estimateCounter);

  it('labels roles and tools and cuts long tool output to head and tail', () => {
    const call = parts.find((p) => p.text.includes('→ bash('))!;
    expect(call.text.startsWith('[assistant]')).toBe(true);
    const result = parts[call.index + 1]!;
    expect(result.text.startsWith('[tool result: bash')).toBe(true);
    const longest = parts.reduce((a, b) => (b.originalTokens > a.originalTokens ? b : a));
    expect(longest.tokens).toBeLessThan(longest.originalTokens);
    expect(longest.text).toMatch(/\[… \d+ tokens omitted …\]/);
    // Every result is tied to the call it answers.
    for (const p of parts) if (messages[p.index]!.toolResult) expect(p.toolBlock).toBe(p.index - 1);
  });

  it('shortenToTokens keeps the head and the tail', () => {
    const text = `HEAD ${'x '.repeat(5000)} TAIL`;
    const short = shortenToTokens(text, 100, estimateCounter);
    expect(short.startsWith('HEAD')).toBe(true);
    expect(short.endsWith('TAIL')).toBe(true);
    expect(estimateCounter.count(short)).toBeLessThan(130);
  });

  it('plans chunks within the budget that never split a tool block', () => {
    const budget = 4_000;
    const chunks = planChunks(parts, budget);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(parts.length);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.end);
    for (const c of chunks) {
      if (!c.oversize) expect(c.tokens).toBeLessThanOrEqual(budget);
      // A chunk never starts with a result whose call is in the previous chunk.
      const first = parts[c.start]!;
      if (first.toolBlock !== undefined) expect(first.toolBlock).toBeGreaterThanOrEqual(c.start);
    }
  });

  it('prefers to cut where a user turn starts', () => {
    const turns: Message[] = [];
    for (let r = 0; r < 6; r++) {
      turns.push({ id: `u${r}`, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: `question ${r} ${'word '.repeat(150)}` }] });
      turns.push({ id: `a${r}`, role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text: `answer ${r} ${'word '.repeat(150)}` }] });
    }
    const ps = serializeSpan(turns, estimateCounter);
    const chunks = planChunks(ps, 900);
    for (const c of chunks) expect(turns[c.start]!.role).toBe('user');
  });
});

describe('buildPrompt', () => {
  const messages = sweAgentMessages('mini-swe-agent/django__django-11138.traj.json').slice(1, 12);
  const facts = mustKeepFacts(messages);
  const block = renderMustKeep(facts, estimateCounter, 2_000);

  it('asks for an analysis, then the eight exact headings in <summary>, with the facts, the focus and the limit', () => {
    const p = buildPrompt({ mode: 'summarize', transcript: '[user]\nhello', mustKeep: block, focus: 'the timezone bug', maxTokens: 1200 });
    expect(p.user).toContain('<analysis>');
    expect(p.user).toContain('<summary>…</summary>');
    for (const h of ['## Primary Request and Intent', '## All user messages', '## Current Work']) expect(p.user).toContain(`\n${h}\n`);
    expect(p.user).toContain('under 1200 tokens (about 900 words)');
    expect(p.user).toContain('focus on: "the timezone bug"');
    expect(p.user).toContain('<must_keep>');
    for (const f of facts.filter((f) => f.kind === 'filePath')) expect(p.user).toContain(`- ${f.value}`);
    expect(block.omitted).toBe(0);
  });

  it('hands over the previous summary to merge into on re-compaction', () => {
    const previous = { ...emptySectionTexts(), 'All user messages': '- earlier request' };
    const p = buildPrompt({ mode: 'summarize', transcript: 'x', previous, maxTokens: 500 });
    expect(p.user).toContain('<previous_summary>');
    expect(p.user).toContain('- earlier request');
    expect(p.user).toContain('Do not shorten it into a summary of a summary');
  });

  it('the strict retry says why and drops the analysis', () => {
    const p = buildPrompt({ mode: 'summarize', transcript: 'x', maxTokens: 500, strictReason: 'sections missing: Current Work' });
    expect(p.user).toContain('Your previous reply could not be used: sections missing: Current Work.');
    expect(p.user).toContain('Do not write an analysis');
    expect(p.user).not.toContain('<analysis>');
  });

  it('keeps the must-keep list within its budget', () => {
    const small = renderMustKeep(facts, estimateCounter, 60);
    expect(small.tokens).toBeLessThanOrEqual(60);
    expect(small.included + small.omitted).toBe(facts.length);
    expect(small.omitted).toBeGreaterThan(0);
  });
});
