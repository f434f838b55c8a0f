// An agent's JSONL session is read line by line (src/files/jsonlStream.ts) instead of whole: the
// import is the same as reading the whole text — conversation, history and warnings, line numbers
// included — on the shared Claude Code sessions and on generated sessions with a BOM, CRLF line
// ends, blank and broken lines, a first line larger than a read; files it does not take (a JSON
// document, a broken first line, bad bytes) are read whole and give their usual error. The line
// splitter fed in random pieces gives what it gives for the whole text.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../../src/cli/readTranscript';
import { agentLogFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { streamJsonlFile } from '../../../src/files/jsonlStream';
import { JsonlParser, parseJsonl } from '../../../src/engine/conversation/importers/jsonText';
import { bigTurn, claudeLines, codexLines, jsonl } from '../../helpers/agentSessions';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';
import { pushInPieces } from '../../helpers/sharedConversation';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The import as the whole file's text gives it. */
function whole(path: string, opts: { wholeFile?: boolean; includeSidechains?: boolean } = {}) {
  return importTranscript(readFileSync(path, 'utf8'), { sourcePath: path, ...opts });
}

async function loaded(path: string, opts: { wholeFile?: boolean; includeSidechains?: boolean } = {}) {
  const { bytes: _bytes, raw: _raw, ...result } = await loadTranscript(path, opts);
  return result;
}

describe('loadTranscript reads agent sessions line by line', () => {
  const claudeFiles = transcriptFiles().filter((f) => f.startsWith('claude-code/'));
  it.each(claudeFiles)('%s: the same import as the whole text (live chain, whole file, sidechains)', async (rel) => {
    const path = transcriptPath(rel);
    expect(await loaded(path)).toEqual(whole(path));
    expect(await loaded(path, { wholeFile: true })).toEqual(whole(path, { wholeFile: true }));
    expect(await loaded(path, { includeSidechains: true })).toEqual(whole(path, { includeSidechains: true }));
  });

  it('reads a session with a BOM, CRLF line ends, blank and broken lines and no final newline as the whole text does', async () => {
    const lines = claudeLines({ sessionId: 'aaaaaaaa-1111', cwd: '/w', turns: [bigTurn('a'), bigTurn('b', 20000)] }).map((l) => JSON.stringify(l));
    const text = `\uFEFF\r\n${lines[0]}\r\n\r\n${lines.slice(1, 4).join('\r\n')}\n{"type": "user", broken\n${lines.slice(4).join('\n')}`;
    const path = join(dir, 'odd.jsonl');
    writeFileSync(path, text);
    expect((await streamJsonlFile(path, 1e9, agentLogFormat))?.format).toBe('claude-code');
    const got = await loaded(path);
    expect(got).toEqual(whole(path));
    expect(got.warnings.some((w) => w.message.includes('not valid JSON'))).toBe(true);
  });

  it('reads a Codex rollout as the whole text does', async () => {
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, jsonl(codexLines({ id: 'r1', cwd: '/w', turns: [bigTurn('x'), bigTurn('y')] })));
    expect((await streamJsonlFile(path, 1e9, agentLogFormat))?.format).toBe('codex');
    expect(await loaded(path)).toEqual(whole(path));
  });

  it('reads whole what it does not take: a first line over a read, a JSON document, a first line that is not JSON', async () => {
    const huge = claudeLines({
      sessionId: 'bbbbbbbb-2222',
      cwd: '/w',
      turns: [{ ...bigTurn('big'), user: `read this: ${'x'.repeat(1_200_000)}` }, bigTurn('c')],
    });
    const first = join(dir, 'huge-first.jsonl');
    writeFileSync(first, jsonl(huge));
    expect(await loaded(first)).toEqual(whole(first));
    const doc = join(dir, 'messages.json');
    writeFileSync(
      doc,
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    );
    expect(await loaded(doc)).toEqual(whole(doc));
    const broken = join(dir, 'broken-first.jsonl');
    writeFileSync(broken, `{"type": oops\n${jsonl(huge.slice(0, 4))}`);
    expect(await loaded(broken)).toEqual(whole(broken));
    for (const path of [first, doc, broken]) expect(await streamJsonlFile(path, 1e9, agentLogFormat)).toBeUndefined();
  });

  it('gives the usual errors for bytes that are not UTF-8 text', async () => {
    const lines = jsonl(claudeLines({ sessionId: 'cccccccc-3333', cwd: '/w', turns: [bigTurn('d')] }));
    const bad = join(dir, 'bad-utf8.jsonl');
    writeFileSync(bad, Buffer.concat([Buffer.from(lines), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]));
    await expect(loadTranscript(bad)).rejects.toThrow(/byte \d+.*UTF-8/);
    const nul = join(dir, 'nul.jsonl');
    writeFileSync(nul, Buffer.concat([Buffer.from(lines), Buffer.from([0])]));
    await expect(loadTranscript(nul)).rejects.toThrow(/NUL byte/);
  });
});

describe('JsonlParser', () => {
  const piece = fc.constantFrom('{"a":1}', '{"b":[1,2]}', '\n', '\r\n', '  ', '{bad', '"x"', '\n\n', '{"c":"é😀"}');
  it('gives parseJsonl of the whole text however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join('');
        const parser = new JsonlParser();
        pushInPieces(text, cuts, (piece) => parser.push(piece));
        expect(parser.end()).toEqual(parseJsonl(text));
      }),
      { numRuns: 300 },
    );
  });
});
