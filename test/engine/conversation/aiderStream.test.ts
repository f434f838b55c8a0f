// An aider history is read a chunk at a time (src/files/aiderStream.ts → AiderReader) instead of
// whole: the import is the same as reading the whole text — live session, history, warnings, usage
// and line numbers — on the shared aider histories, alone and several in one file, whole-file
// or not, and on a history larger than a read with characters cut between reads. Files it does
// not take (a byte-order mark, a NUL byte, bad UTF-8, only white space) are read whole and give
// their usual result or error. The reader fed in random pieces gives what the whole text gives,
// also when a session opens with aider's output right after the model's answer of the one before.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../../src/cli/readTranscript';
import { AiderReader, importAider } from '../../../src/engine/conversation/importers/aider';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { streamAiderFile } from '../../../src/files/aiderStream';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';
import { pushInPieces } from '../../helpers/sharedConversation';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-aider-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The import as the whole file's text gives it. */
function whole(path: string, opts: { wholeFile?: boolean } = {}) {
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, ...opts });
}

async function loaded(path: string, opts: { wholeFile?: boolean } = {}) {
  const { bytes: _bytes, raw: _raw, ...result } = await loadTranscript(path, opts);
  return result;
}

function write(name: string, data: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}

const aiderFiles = transcriptFiles().filter((f) => f.endsWith('.aider.chat.history.md'));

describe('loadTranscript reads aider histories a chunk at a time', () => {
  it('has shared aider histories to read', () => {
    expect(aiderFiles.length).toBeGreaterThan(0);
  });

  it.each(aiderFiles)('%s: the same import as the whole text (live session and whole file)', async (rel) => {
    const path = transcriptPath(rel);
    expect(await streamAiderFile(path, 1e9, { sourcePath: path })).toBeDefined();
    expect(await loaded(path)).toEqual(whole(path));
    expect(await loaded(path, { wholeFile: true })).toEqual(whole(path, { wholeFile: true }));
  });

  it('reads every shared history in one file, larger than a read, with CRLF line ends, as the whole text does', async () => {
    const texts = aiderFiles.map((rel) => readFileSync(transcriptPath(rel), 'utf8'));
    // Repeated past a read of 1 MB, so reads end inside lines and inside multi-byte characters.
    let text = '';
    while (Buffer.byteLength(text) < 2_500_000) text += texts.join('\n');
    for (const [name, data] of [
      ['many.aider.chat.history.md', text],
      ['crlf.aider.chat.history.md', text.replace(/\n/g, '\r\n')],
    ] as const) {
      const path = write(name, data);
      const got = await loaded(path);
      expect(got.history?.earlierSessions).toBeGreaterThan(1);
      expect(got).toEqual(whole(path));
      expect(await loaded(path, { wholeFile: true })).toEqual(whole(path, { wholeFile: true }));
    }
  });

  it('reads whole what it does not take, with the usual result or error', async () => {
    const history = '# aider chat started at 2025-01-01 10:00:00\n\n#### hi\n\nhello\n';
    const bom = write('bom.aider.chat.history.md', `\uFEFF${history}`);
    const blank = write('blank.aider.chat.history.md', ' \n\t\n');
    const nul = write('nul.aider.chat.history.md', `${history}\u0000`);
    const bad = write('bad.aider.chat.history.md', Buffer.concat([Buffer.from(history), Buffer.from([0xc3, 0x28, 0x0a])]));
    for (const path of [bom, blank, nul, bad]) expect(await streamAiderFile(path, 1e9, { sourcePath: path })).toBeUndefined();
    expect(await loaded(bom)).toEqual(whole(bom));
    await expect(loadTranscript(blank)).rejects.toThrow(/empty file/);
    await expect(loadTranscript(nul)).rejects.toThrow(/NUL byte/);
    await expect(loadTranscript(bad)).rejects.toThrow(/byte \d+.*UTF-8/);
  });
});

describe('AiderReader', () => {
  const line = fc.constantFrom(
    '# aider chat started at 2025-01-01 10:00:00',
    '# aider chat started at 2025-01-02 09:30:00',
    '',
    '  ',
    '#### fix the parser  ',
    '####',
    '> Main model: gpt-4o with diff edit format',
    '> Tokens: 4.6k sent, 1.2k cache write, 520 received.',
    '> Applied edit to src/parse.py',
    '>',
    'I changed `parse()` — ünïcödé 中文',
    'tail\r',
  );

  function inPieces(text: string, cuts: number[], wholeFile: boolean) {
    const reader = new AiderReader({ wholeFile });
    pushInPieces(text, cuts, (piece) => reader.push(piece));
    return reader.end();
  }

  it('gives importAider of the whole text however the text is cut', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (lines, eol, wholeFile, cuts) => {
          const text = lines.join(eol);
          expect(inPieces(text, cuts, wholeFile)).toEqual(importAider(text, { wholeFile }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("answers a session's opening output with a call of its own in the live session, and with the answer before it in the history", () => {
    const text = [
      '#### first question',
      'first answer',
      '# aider chat started at 2025-01-02 09:30:00',
      '> Main model: gpt-4o with diff edit format',
      '#### second question',
      'second answer',
      '# aider chat started at 2025-01-03 08:00:00',
      '> Main model: gpt-4.1 with diff edit format',
      '#### third question',
    ].join('\n');
    const r = importAider(text);
    const calls = (m: { role: string; toolCalls?: { id: string }[] }) => [m.role, (m.toolCalls ?? []).map((c) => c.id)];
    expect(r.conversation.messages.map(calls)).toEqual([
      ['assistant', ['aider_8']],
      ['tool', []],
      ['user', []],
    ]);
    expect(r.conversation.messages[0]!.source?.extra).toEqual({ synthetic: true });
    expect(r.history?.conversation.messages.map(calls)).toEqual([
      ['user', []],
      ['assistant', ['aider_4']],
      ['tool', []],
      ['user', []],
      ['assistant', []],
    ]);
    for (let cut = 0; cut <= text.length; cut += 7) expect(inPieces(text, [cut], false)).toEqual(r);
  });
});
