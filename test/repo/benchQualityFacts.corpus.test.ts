// The quality benchmark's own fact extraction (bench/quality/rawFacts.ts) and its "retained"
// rules (bench/quality/retention.ts), on the real transcripts: if these drift, bench:quality
// silently measures something else.

import { describe, expect, it } from 'vitest';
import { baselineConversation } from '../../bench/quality/baselines';
import { answerTermsOf, errorSignatures, expectedFacts, pythonList } from '../../bench/quality/rawFacts';
import { indexOutput, needleOf, scoreFacts } from '../../bench/quality/retention';
import type { Conversation, Message } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { transcriptFiles, transcriptPath } from '../helpers/transcripts';

function factsOf(rel: string) {
  return expectedFacts(transcriptPath(rel), rel);
}

describe('raw facts from the shared transcripts', () => {
  it('finds facts of every kind somewhere, and every transcript yields user requests', () => {
    const all = transcriptFiles()
      .filter((f) => !f.endsWith('LICENSE'))
      .flatMap(factsOf);
    for (const f of all) expect(f.userRequests.length, f.name).toBeGreaterThan(0);
    expect(all.reduce((n, f) => n + f.files.length, 0)).toBeGreaterThan(50);
    expect(all.reduce((n, f) => n + f.errors.length, 0)).toBeGreaterThan(20);
    expect(all.reduce((n, f) => n + f.answers.length, 0)).toBeGreaterThan(20);
  });

  it('LongMemEval: one conversation per instance, with its answers and their key terms', () => {
    const lme = factsOf('longmemeval/longmemeval_s.json');
    expect(lme.length).toBeGreaterThanOrEqual(1);
    const first = lme[0]!;
    expect(first.instance).toBe(0);
    expect(first.answers).toContain('$350,000');
    expect(first.answerTerms[first.answers.indexOf('$350,000')]).toEqual(['350,000']);
  });

  it('aider: requests from #### lines (prompt echoes left out), files from applied edits and answered prompts', () => {
    const [f] = factsOf('aider/AFI-Protocol__afi-core.aider.chat.history.md');
    expect(f!.userRequests.some((r) => /Add file to the chat\?/.test(r))).toBe(false);
    expect(f!.files).toContain('init_repo.sh');
    expect(f!.files).toContain('sync-afi.sh');
  });

  it('Claude Code: typed requests only (no meta, no command wrappers), files from Read/Edit/Write, flagged errors', () => {
    const [f] = factsOf('claude-code/kiliman__claude-transcript__test2.jsonl');
    expect(f!.userRequests.some((r) => r.startsWith('Caveat:') || r.includes('<command-name>'))).toBe(false);
    expect(f!.userRequests).toContain('Nice...please commit');
    expect(f!.errors).toContain('Error: listen EADDRINUSE: address already in us');
    expect(f!.errors).toContain('src/ is not a directory');
  });

  it('mini-swe-agent: the task is the one request; paths come from the bash blocks', () => {
    const [f] = factsOf('mini-swe-agent/sympy__sympy-13091.traj.json');
    expect(f!.userRequests).toHaveLength(1);
    expect(f!.files).toContain('sympy/core/basic.py');
  });
});

describe('helpers', () => {
  it('error signatures keep the type and the first 40 characters of the message', () => {
    expect(errorSignatures('Traceback (most recent call last):\n  File "x.py"\nValueError: invalid literal for int() with base 10: \'abc\' and more')).toEqual([
      'ValueError: invalid literal for int() with base 10:',
    ]);
    expect(errorSignatures('npm error Missing script: "capture"\nnpm error To see a list')).toEqual(['npm error Missing script: "capture"']);
  });

  it('reads LongMemEval lists stored as JSON arrays or as a Python repr', () => {
    expect(pythonList(['a', 'b'])).toEqual(['a', 'b']);
    expect(pythonList("['it\\'s', \"x\"]")).toEqual(["it's", 'x']);
  });

  it('answer key terms drop stop words and keep numbers', () => {
    expect(answerTermsOf('The 1929 film `The Divine Lady.`')).toEqual(['1929', 'film', 'divine', 'lady']);
  });
});

describe('retained', () => {
  const facts = {
    name: 't',
    format: 'claude-code' as const,
    file: 't',
    userRequests: [`Please   fix the login test.\nIt fails ${'x'.repeat(100)}`],
    files: ['/Users/me/project/src/auth/login.ts', 'README.md'],
    errors: ['TypeError: session.expiresAt is not a function'],
    answers: ['Capa Barsavi'],
    answerTerms: [['capa', 'barsavi']],
    rules: [],
  };

  it('finds each kind by its rule, case-insensitively, whatever the whitespace', () => {
    const out = indexOutput(
      `please fix the LOGIN test. It fails ${'x'.repeat(60)}\n- \`src/auth/login.ts\` — edited\nreadme.md\n\`TypeError:  session.expiresAt is not a function\`\nCapa Barsavi`,
    );
    const s = scoreFacts(facts, out);
    expect([s.userRequests.retained, s.files.retained, s.errors.retained, s.answers.retained]).toEqual([1, 2, 1, 1]);
  });

  it('counts a fact lost when only part of it is there', () => {
    const out = indexOutput('please fix the login test. login.ts TypeError: session Capa');
    const s = scoreFacts(facts, out);
    expect(s.userRequests.lost).toHaveLength(1);
    expect(s.files.lost).toEqual(facts.files);
    expect(s.errors.retained).toBe(0);
    expect(s.answers.retained).toBe(0);
  });

  it('a file is looked for as parent/basename', () => {
    expect(needleOf('files', '/a/b/c/d.py')).toBe('c/d.py');
    expect(needleOf('files', './x.py')).toBe('x.py');
  });
});

describe('baselines', () => {
  const msg = (i: number, role: Message['role'], text: string): Message => ({
    id: `m${i}`,
    role,
    itemType: role === 'user' ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
    content: [{ type: 'text', text }],
  });
  const conv: Conversation = {
    id: 'c',
    format: 'openai',
    meta: {},
    messages: Array.from({ length: 40 }, (_, i) => msg(i, i % 2 ? 'assistant' : 'user', `message ${i} ${'word '.repeat(50)}`)),
  } as Conversation;

  it('stay within the budget: truncation keeps the tail, first+recent the first request and the tail', async () => {
    const counter = await createTokenCounter();
    const budget = 500;
    const t = baselineConversation(conv, 'truncation', budget, counter);
    const f = baselineConversation(conv, 'first+recent', budget, counter);
    expect(counter.countMessages(t.messages)).toBeLessThanOrEqual(budget);
    expect(counter.countMessages(f.messages)).toBeLessThanOrEqual(budget);
    expect(t.messages.at(-1)!.id).toBe('m39');
    expect(f.messages[0]!.id).toBe('m0');
    expect(f.messages.at(-1)!.id).toBe('m39');
  });
});
