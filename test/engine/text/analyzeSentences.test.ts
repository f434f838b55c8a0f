// Sentence splitting for English and Chinese as it appears in chat messages.

import { describe, expect, it } from 'vitest';
import { isCodeSegment, splitSentences } from '../../../src/engine/text/sentences';

describe('splitSentences', () => {
  it('splits English at . ! ? followed by a new sentence', () => {
    expect(splitSentences('The build failed. Tests are red! Can you look? Thanks.')).toEqual([
      'The build failed.',
      'Tests are red!',
      'Can you look?',
      'Thanks.',
    ]);
  });

  it('does not split file names, versions, decimals, abbreviations or initials', () => {
    expect(splitSentences('Edit src/app.ts and bump to 1.2.3 (was 0.9). Use e.g. vitest, i.e. not jest. Dr. Smith and J. Doe agree. Pi is 3.14 here.')).toEqual(
      ['Edit src/app.ts and bump to 1.2.3 (was 0.9).', 'Use e.g. vitest, i.e. not jest.', 'Dr. Smith and J. Doe agree.', 'Pi is 3.14 here.'],
    );
  });

  it('does not split before a lower-case word (a dot inside a sentence)', () => {
    expect(splitSentences('Call foo. then bar. Done.')).toEqual(['Call foo. then bar.', 'Done.']);
  });

  it('splits Chinese at 。！？ without spaces, keeping closing quotes', () => {
    expect(splitSentences('我们决定用方案A。它更快！你同意吗？他说：“好的。”然后走了。')).toEqual([
      '我们决定用方案A。',
      '它更快！',
      '你同意吗？',
      '他说：“好的。”',
      '然后走了。',
    ]);
  });

  it('handles mixed Chinese and English', () => {
    expect(splitSentences('修复了 TypeError。Next, run the tests. 然后提交。')).toEqual(['修复了 TypeError。', 'Next, run the tests.', '然后提交。']);
  });

  it('keeps a fenced code block whole, as one segment', () => {
    const text = 'Here is the fix.\n```ts\nconst a = 1. b = 2;\nfoo();\n```\nIt works now.';
    const out = splitSentences(text);
    expect(out).toEqual(['Here is the fix.', '```ts\nconst a = 1. b = 2;\nfoo();\n```', 'It works now.']);
    expect(out.filter(isCodeSegment)).toHaveLength(1);
  });

  it('treats list items and headings as separate units and joins soft-wrapped lines', () => {
    const text = '## Plan\n- add a cache\n- write tests\nThis paragraph is\nwrapped over lines\nand ends here.\n\n中文段落\n继续写';
    expect(splitSentences(text)).toEqual([
      '## Plan',
      '- add a cache',
      '- write tests',
      'This paragraph is wrapped over lines and ends here.',
      '中文段落继续写',
    ]);
  });

  it('returns nothing for blank text and the text itself when there is no terminal punctuation', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n\n ')).toEqual([]);
    expect(splitSentences('just a fragment')).toEqual(['just a fragment']);
  });
});
