// Text cutting, code folding and the summary's Markdown contract (render → parse).

import { describe, expect, it } from 'vitest';
import { SECTION_NAMES, emptySectionTexts } from '../../../src/engine/sections';
import { SEGMENT_CONSTANTS as C } from '../../../src/engine/segments/constants';
import { formatCount } from '../../../src/engine/text/formatNumber';
import { bulletText, firstInlineCode, parseSummary, splitBullets } from '../../../src/engine/segments/parseSummary';
import { renderSummaryMarkdown } from '../../../src/engine/segments/renderSummary';
import { balanceFences, cutAfter, cutText, fence, foldCode, inlineCode, listItem } from '../../../src/engine/text/textCut';

const meta = { originalChars: 12345, compressedChars: 1234, ratio: 0.1, qualityScore: 0.87, compactions: 2, summarizedMessages: 40 };

describe('cutting text', () => {
  it('keeps short text whole and cuts long text at a sentence end with a marker naming what was left out', () => {
    expect(cutText('Short one.', 100, C)).toEqual({ text: 'Short one.', cut: false, omitted: 0 });
    const text = `${'First sentence here. '.repeat(10)}Tail words without end`;
    const r = cutText(text, 100, C);
    expect(r.cut).toBe(true);
    expect(r.text).toMatch(/here\. \[… [\d,]+ more characters\]$/);
    expect(text.startsWith(r.text.replace(/ \[….*$/, ''))).toBe(true);
    expect(r.omitted).toBe(text.length - r.text.replace(/ \[….*$/, '').length);
  });

  it('cuts Chinese at 。！？ without needing spaces', () => {
    const text = '我们需要修复登录错误。会话必须在三十分钟后过期！这个问题很重要吗？'.repeat(5);
    const r = cutText(text, 40, C);
    expect(r.cut).toBe(true);
    expect(r.text).toMatch(/[。！？] \[… /);
  });

  it('keeps at least the first N characters (cutAfter) and never leaves a code fence open', () => {
    const text = `Run this:\n\`\`\`bash\n${'echo hello\n'.repeat(40)}\`\`\`\nThen report back.`;
    const r = cutAfter(text, 50, C);
    expect(r.text.startsWith(text.slice(0, 50))).toBe(true);
    expect((r.text.match(/```/g) ?? []).length % 2).toBe(0);
    expect(balanceFences('a\n```js\nx')).toBe('a\n```js\nx\n```');
  });

  it('folds long code as "[code folded: N lines]"', () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const f = foldCode(code, C);
    expect(f.folded).toBe(30 - C.CODE_FOLD_KEEP_LINES);
    expect(f.text).toContain(`[code folded: ${30 - C.CODE_FOLD_KEEP_LINES} lines]`);
    expect(foldCode('a\nb', C)).toEqual({ text: 'a\nb', folded: 0 });
  });

  it('formats counts without the locale', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(-1000)).toBe('-1,000');
  });

  it('writes list items whose continuation lines are indented, and code that cannot close its fence early', () => {
    expect(listItem('a\n\nb')).toBe('- a\n\n  b');
    expect(fence('x ``` y')).toBe('````\nx ``` y\n````');
    expect(inlineCode('a`b')).toBe('`` a`b ``');
  });
});

describe('summary Markdown', () => {
  it('renders all eight headings in order plus the metadata, and parses back to the same sections', () => {
    const sections = emptySectionTexts();
    sections['Primary Request and Intent'] = '- Initial request: fix it';
    sections['All user messages'] = '- first\n  # not a heading, indented\n- second';
    sections['Problem Solving'] = '# a line that looks like a heading\n\\# and an escaped one';
    const md = renderSummaryMarkdown(sections, meta, { archived: true, brief: false });
    const headings = md
      .split('\n')
      .filter((l) => l.startsWith('## '))
      .map((l) => l.slice(3));
    expect(headings).toEqual([...SECTION_NAMES, 'Compression Metadata']);
    expect(md).toContain('- (none)');
    expect(md).toContain('- Compactions: 2');
    const back = parseSummary(md);
    expect(back.sections).toEqual(sections);
    expect(back.found).toEqual([...SECTION_NAMES]);
    expect(back.compactions).toBe(2);
    expect(back.summarizedMessages).toBe(40);
  });

  it('reads summaries written by an LLM or a person: other heading levels, numbering, bold, colons', () => {
    const p = parseSummary('Intro text\n# 1. Primary Request and Intent:\nDo X\n### **Current Work**\nDoing Y\n## Something else\nstill current');
    expect(p.preamble).toBe('Intro text');
    expect(p.sections['Primary Request and Intent']).toBe('Do X');
    expect(p.sections['Current Work']).toBe('Doing Y\n## Something else\nstill current');
    expect(p.compactions).toBeUndefined();
  });

  it('splits bullets without breaking code blocks that hold "- " lines', () => {
    const body = '- `a.ts` — edited\n  ```ts\n- not a bullet\n  ```\n- `b.ts` — read';
    const bullets = splitBullets(body);
    expect(bullets).toHaveLength(2);
    expect(firstInlineCode(bullets[1]!)).toBe('b.ts');
    expect(bulletText(bullets[0]!).split('\n')[1]).toBe('```ts');
  });
});
