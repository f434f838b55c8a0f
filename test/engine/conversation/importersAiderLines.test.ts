// The aider importer reads a history line by line without splitting it into an array, and keeps
// copies of its own of what it takes from it: the same messages, line numbers and sessions as
// the text split at each line break, whatever the line endings.

import { describe, expect, it } from 'vitest';
import { importAider } from '../../../src/engine/conversation/importers/aider';
import { messageText } from '../../../src/engine/conversation/model';
import { compactString } from '../../../src/engine/text/compactString';

const HISTORY = [
  '# aider chat started at 2025-01-01 10:00:00',
  '',
  '> Main model: gpt-4o with diff edit format',
  '',
  '#### fix the parser in src/parse.py',
  '',
  'I changed `parse()` to skip blank lines.',
  '',
  '> Applied edit to src/parse.py',
  '',
  '# aider chat started at 2025-01-02 09:30:00',
  '',
  '> Main model: gpt-4.1 with diff edit format',
  '',
  '#### now the tests — ünïcödé and 中文',
  '',
  'The tests pass.',
  '',
];

function summary(text: string, wholeFile?: boolean) {
  const r = importAider(text, wholeFile ? { wholeFile } : {});
  return {
    model: r.conversation.meta.model,
    messages: r.conversation.messages.map((m) => [m.role, messageText(m), m.source?.line]),
    warnings: r.warnings,
  };
}

describe('aider histories read line by line', () => {
  it('reads the live session, numbering its lines from the start of the file, and counts the earlier one', () => {
    const s = summary(HISTORY.join('\n'));
    expect(s.model).toBe('gpt-4.1');
    // aider's output (the banner) is a tool result, answering a call made for it.
    expect(s.messages).toEqual([
      ['assistant', '', 13],
      ['tool', 'Main model: gpt-4.1 with diff edit format', 13],
      ['user', 'now the tests — ünïcödé and 中文', 15],
      ['assistant', 'The tests pass.', 17],
    ]);
    expect(s.warnings.map((w) => w.position)).toEqual(['lines 1-10']);
  });

  it('reads every session with wholeFile', () => {
    const s = summary(HISTORY.join('\n'), true);
    expect(s.model).toBe('gpt-4o');
    expect(s.messages).toEqual([
      ['assistant', '', 3],
      ['tool', 'Main model: gpt-4o with diff edit format', 3],
      ['user', 'fix the parser in src/parse.py', 5],
      ['assistant', 'I changed `parse()` to skip blank lines.', 7],
      ['tool', 'Applied edit to src/parse.py', 9],
      ['assistant', '', 13],
      ['tool', 'Main model: gpt-4.1 with diff edit format', 13],
      ['user', 'now the tests — ünïcödé and 中文', 15],
      ['assistant', 'The tests pass.', 17],
    ]);
    expect(s.warnings).toEqual([]);
  });

  it('gives the same messages for CRLF line endings, with or without a last line break', () => {
    const lf = summary(HISTORY.join('\n'), true);
    expect(summary(HISTORY.join('\r\n'), true)).toEqual(lf);
    expect(summary(HISTORY.join('\r\n').replace(/\r\n$/, ''), true)).toEqual(lf);
    expect(summary(HISTORY.join('\n'))).toEqual(summary(HISTORY.join('\r\n')));
  });

  it('keeps a carriage return that ends no line, as splitting at line breaks does', () => {
    expect(summary('#### one\rtwo\n\nok\n', true).messages).toEqual([
      ['user', 'one\rtwo', 1],
      ['assistant', 'ok', 3],
    ]);
  });
});

describe('compactString', () => {
  it('gives the same text for every kind of string', () => {
    const long = `${'a'.repeat(100)}ü${'中'.repeat(10)}\n${'😀'.repeat(3)}`;
    for (const s of ['', 'a', 'plain text', 'ünïcödé', long, long.slice(5, 90), long.slice(90), '\u0000\ud800 lone surrogate']) {
      expect(compactString(s)).toBe(s);
    }
  });
});
