// Reading LLM replies back into the eight sections, in the heading styles models really use,
// and the checks that decide whether a reply is usable.

import { describe, expect, it } from 'vitest';
import { checkSummary } from '../../../src/engine/llm/checkSummary';
import { matchHeading, parseSummary as parseAny } from '../../../src/engine/segments/parseSummary';
import { SECTION_NAMES, type SectionTexts } from '../../../src/engine/sections';
import { estimateCounter } from '../../../src/engine/tokens/estimate';
import { goodSections, llmReply, type HeadingStyle } from '../../helpers/llmFixtures';

/** An LLM reply, read as one. */
const parseSummary = (reply: string) => parseAny(reply, 'reply');

const sections: SectionTexts = goodSections([
  { kind: 'filePath', value: 'src/_pytest/skipping.py', sourceId: 'm1' },
  { kind: 'userMessage', value: 'Make dynamically added xfail markers work again', sourceId: 'm0' },
]);

describe('parseSummary', () => {
  it.each<HeadingStyle>(['markdown', 'numberedBold', 'chinese', 'plain'])('reads all eight sections written with %s headings', (style) => {
    const parsed = parseSummary(llmReply(sections, { style }));
    expect(parsed.found).toEqual([...SECTION_NAMES]);
    expect(parsed.missing).toEqual([]);
    expect(parsed.sections['Files and Code Sections']).toContain('src/_pytest/skipping.py');
    expect(parsed.sections['All user messages']).toBe('- Make dynamically added xfail markers work again');
    expect(parsed.sections['Current Work']).toBe('Verifying the fix.');
  });

  it('sets the analysis aside and reads only inside <summary>', () => {
    const reply = `<analysis>\n## Current Work\nthis is analysis, not the summary\n</analysis>\n${llmReply(sections, { analysis: false })}\nTrailing chatter.`;
    const parsed = parseSummary(reply);
    expect(parsed.tagged).toBe(true);
    expect(parsed.sections['Current Work']).toBe('Verifying the fix.');
  });

  it("ignores a reasoning model's <think> block", () => {
    const parsed = parseSummary(`<think>\n## Primary Request and Intent\nhmm\n</think>\n${llmReply(sections)}`);
    expect(parsed.sections['Primary Request and Intent']).toBe(sections['Primary Request and Intent']);
  });

  it('tolerates missing tags', () => {
    const parsed = parseSummary(llmReply(sections, { tags: false, analysis: false }));
    expect(parsed.tagged).toBe(false);
    expect(parsed.found).toHaveLength(8);
  });

  it('takes content written on the heading line after the colon', () => {
    const parsed = parseSummary(
      '<summary>\n1. **Primary Request and Intent**: Fix the login bug.\n   More detail.\n2. **Current Work:** editing auth.ts\n</summary>',
    );
    expect(parsed.sections['Primary Request and Intent']).toBe('Fix the login bug.\n   More detail.');
    expect(parsed.sections['Current Work']).toBe('editing auth.ts');
    expect(parsed.missing).toHaveLength(6);
  });

  it('reads bilingual headings and "&"', () => {
    expect(matchHeading('## Files & Code Sections')?.name).toBe('Files and Code Sections');
    expect(matchHeading('### 3. Errors and Fixes (错误和修复)')?.name).toBe('Errors and fixes');
    expect(matchHeading('## 所有用户消息：')?.name).toBe('All user messages');
    expect(matchHeading('**Pending Tasks**')?.name).toBe('Pending Tasks');
    expect(matchHeading('## Primary Request and Intent / 主要请求和意图')?.name).toBe('Primary Request and Intent');
  });

  it('does not take prose or list items for headings', () => {
    expect(matchHeading('Current work is going well')).toBeUndefined();
    expect(matchHeading('- Current Work: the parser')).toBeUndefined();
    expect(matchHeading('Current workers: 4')).toBeUndefined();
    expect(matchHeading('The Pending Tasks are done')).toBeUndefined();
  });

  it('keeps a user message that looks like a heading inside its section', () => {
    const reply = '<summary>\n## All user messages\n1. Fix it\n2. Pending tasks: write docs\n## Pending Tasks\n- docs\n</summary>';
    const parsed = parseSummary(reply);
    expect(parsed.sections['All user messages']).toBe('1. Fix it\n2. Pending tasks: write docs');
    expect(parsed.sections['Pending Tasks']).toBe('- docs');
  });

  it('does not see headings inside fenced code', () => {
    const reply = '<summary>\n## Files and Code Sections\n```md\n## Current Work\n```\n## Current Work\nreal\n</summary>';
    const parsed = parseSummary(reply);
    expect(parsed.sections['Files and Code Sections']).toBe('```md\n## Current Work\n```');
    expect(parsed.sections['Current Work']).toBe('real');
  });

  it('notices a reply cut off inside the summary', () => {
    const full = llmReply(sections);
    const parsed = parseSummary(full.slice(0, full.indexOf('## Pending Tasks')));
    expect(parsed.unclosed).toBe(true);
    expect(parsed.missing).toEqual(['Pending Tasks', 'Current Work']);
  });
});

describe('checkSummary', () => {
  const check = (reply: string, over: Partial<Parameters<typeof checkSummary>[0]> = {}) =>
    checkSummary({ parsed: parseSummary(reply), maxTokens: 2_000, replacedTokens: 10_000, counter: estimateCounter, ...over });

  it('accepts a complete, short summary', () => {
    const c = check(llmReply(sections));
    expect(c).toMatchObject({ ok: true, problems: [] });
    expect(c.tokens).toBeGreaterThan(0);
  });

  it('calls an empty reply empty, and one with only an analysis too', () => {
    expect(check('   ').problems).toEqual(['empty']);
    expect(check('<analysis>thinking…</analysis>').problems).toEqual(['empty']);
  });

  it('calls text without headings garbled', () => {
    expect(check('Sure! Here is a summary of the conversation: the user fixed a bug.').problems).toEqual(['garbled']);
  });

  it('names the missing sections', () => {
    const { 'Pending Tasks': _p, 'Errors and fixes': _e, ...six } = sections;
    const c = check(llmReply(six));
    expect(c.problems).toEqual(['missingSections']);
    expect(c.detail).toContain('Errors and fixes, Pending Tasks');
  });

  it('rejects a summary over the limit or not shorter than what it replaces', () => {
    expect(check(llmReply(sections), { maxTokens: 50 }).problems).toEqual(['tooLong']);
    const wordy = llmReply({ ...sections, 'Problem Solving': 'Narrowed the failure down step by step. '.repeat(60) });
    expect(check(wordy, { replacedTokens: 400 }).problems).toEqual(['notShorter']);
    // Tiny spans are not held to it.
    expect(check(llmReply(sections), { replacedTokens: 100 }).ok).toBe(true);
  });

  it('treats finish_reason "length" as cut off', () => {
    expect(check(llmReply(sections), { finishReason: 'length' }).problems).toContain('cutOff');
  });
});
