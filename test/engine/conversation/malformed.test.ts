// Bad input: every case ends either in a TranscriptError whose one-line message names the file,
// the position and what was expected — or in warnings plus a usable, API-valid conversation.
// Never a raw exception, a stack trace or a hang.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { locateJsonError } from '../../../src/engine/conversation/importers/jsonText';
import { TranscriptError } from '../../../src/engine/conversation/importers/transcriptError';
import { isUserAuthored, messageText, type ImportResult } from '../../../src/engine/conversation/model';
import { decodeTranscript, firstInvalidUtf8, loadTranscript, readTranscriptFile } from '../../../src/cli/readTranscript';
import { main } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';

const FILE = 'chat.json';

function failure(text: string, file = FILE, opts: { instance?: number } = {}): TranscriptError {
  try {
    importTranscript(text, { sourcePath: file, ...opts });
  } catch (e) {
    expect(e).toBeInstanceOf(TranscriptError);
    const err = e as TranscriptError;
    expect(err.message).not.toContain('\n');
    expect(err.message.startsWith(`${file}: ${err.position}: expected `)).toBe(true);
    return err;
  }
  throw new Error('expected a TranscriptError');
}

function usable(text: string, file = FILE): ImportResult {
  const r = importTranscript(text, { sourcePath: file });
  expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
  return r;
}

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-malformed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('files that cannot be read as a transcript', () => {
  it('empty file', () => {
    const e = failure('');
    expect(e.position).toBe('byte 0');
    expect(e.message).toMatch(/found an empty file$/);
  });

  it('whitespace only', () => {
    expect(failure(' \n\t\n').message).toMatch(/^chat\.json: byte 0: expected a transcript: .*found an empty file$/);
  });

  it('truncated JSON: line and column of the end', () => {
    const text = '[{"role":"user","content":"hi"},\n{"role":"assistant","content":"hel';
    const e = failure(text);
    expect(e.position).toBe('line 2, column 35');
    expect(e.expected).toBe(`a closing '"' (unterminated string)`);
    expect(e.found).toBe('end of input');
  });

  it('JSON cut between values', () => {
    const e = failure('{"messages":[{"role":"user","content":"hi"}');
    expect(e.position).toBe('line 1, column 44');
    expect(e.expected).toBe("',' or ']' after an array element");
  });

  it('missing comma: the exact line and column', () => {
    const e = failure('[\n  {"role":"user","content":"a"}\n  {"role":"assistant","content":"b"}\n]');
    expect(e.message).toBe(`${FILE}: line 3, column 3: expected ',' or ']' after an array element, found '{'`);
  });

  it('wrong top-level type', () => {
    const e = failure('42');
    expect(e.position).toBe('top level');
    expect(e.found).toBe('a number (42)');
  });

  it('a JSON object that is no known transcript', () => {
    const e = failure('{"name":"pkg","version":"1.0.0"}', 'package.json');
    expect(e.message).toMatch(/^package\.json: top level: expected a transcript: .*found an object with keys name, version$/);
  });

  it('plain text that is neither JSON nor aider Markdown', () => {
    const e = failure('hello world\n', 'notes.md');
    expect(e.position).toBe('line 1, column 1');
    expect(e.found).toBe('text starting "hello world\\n"');
  });

  it('JSONL in which no line is JSON', () => {
    const e = failure('{"type":"user","uuid":"a"\nnot json\n', 'session.jsonl');
    expect(e.position).toBe('line 1');
    expect(e.expected).toBe('JSON lines (one Claude Code entry per line)');
  });

  it('LongMemEval instance out of range', () => {
    const e = failure(JSON.stringify([{ haystack_sessions: [] }]), 'lme.json', { instance: 7 });
    expect(e.message).toBe('lme.json: instance 7: expected an instance index from 0 to 0');
  });
});

describe('recoverable problems: warnings and a usable result', () => {
  const cc = (o: object) => JSON.stringify(o);
  const user = (uuid: string, content: unknown) => cc({ type: 'user', uuid, sessionId: 's', message: { role: 'user', content } });
  const asst = (uuid: string, id: string, content: unknown) =>
    cc({ type: 'assistant', uuid, sessionId: 's', message: { id, role: 'assistant', model: 'claude-sonnet-4', content } });

  it('JSONL with one bad line: a warning names it, the rest is imported', () => {
    const text = [user('u1', 'hi'), '{"type":"assistant", "uuid": oops}', asst('a1', 'm1', [{ type: 'text', text: 'hello' }])].join('\n');
    const r = usable(text, 'session.jsonl');
    expect(r.conversation.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    expect(r.warnings).toContainEqual({ position: 'line 2', message: "not valid JSON (column 30: expected a JSON value, found 'o'); line skipped" });
  });

  it('JSONL whose last line was cut off while being written', () => {
    const text = `${user('u1', 'hi')}\n${asst('a1', 'm1', [{ type: 'text', text: 'hello' }])}\n{"type":"user","uuid":"u2","mess`;
    const r = usable(text, 'session.jsonl');
    expect(r.conversation.messages.length).toBe(2);
    expect(r.warnings.map((w) => w.position)).toEqual(['line 3']);
  });

  it('JSONL line that is JSON but not an entry', () => {
    const r = usable(`${user('u1', 'hi')}\n[1,2]\n`, 'session.jsonl');
    expect(r.warnings).toContainEqual({ position: 'line 2', message: "expected a JSON object with a 'type' field, found an array of 2; line skipped" });
  });

  it('Claude Code line without a message object', () => {
    const r = usable(`${user('u1', 'hi')}\n${cc({ type: 'assistant', uuid: 'a1', sessionId: 's' })}\n`, 'session.jsonl');
    expect(r.warnings).toContainEqual({ position: 'line 2', message: "expected a 'message' object on a 'assistant' line; line skipped" });
  });

  it('unknown role: kept as a note that is not user-authored', () => {
    const r = usable(
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'critic', content: 'meh' },
      ]),
    );
    expect(r.warnings).toEqual([{ position: 'messages[1].role', message: "unknown role 'critic'; kept as a note" }]);
    const note = r.conversation.messages[1]!;
    expect(note.itemType).toBe('SKILL_METADATA');
    expect(isUserAuthored(note)).toBe(false);
    expect(note.source?.role).toBe('critic');
  });

  it('a message that is not an object is skipped with a warning', () => {
    const r = usable(JSON.stringify([{ role: 'user', content: 'hi' }, 17]));
    expect(r.conversation.messages.length).toBe(1);
    expect(r.warnings).toEqual([{ position: 'messages[1]', message: "expected an object with a 'role', found a number (17); skipped" }]);
  });

  it('orphan tool result: becomes a readable note, the conversation stays valid', () => {
    const r = usable(
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'ghost', content: 'output of nothing' },
      ]),
    );
    expect(r.warnings).toEqual([{ position: 'messages[1]', message: "tool result for 'ghost' answers no earlier tool call; kept as a note" }]);
    const note = r.conversation.messages[1]!;
    expect(note.toolResult).toBeUndefined();
    expect(note.role).toBe('user');
    expect(isUserAuthored(note)).toBe(false);
    expect(messageText(note)).toContain('output of nothing');
  });

  it('tool call without a result: a synthetic error result, marked and warned about', () => {
    const r = usable(
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'user', content: 'why did you stop?' },
      ]),
    );
    const synthetic = r.conversation.messages[2]!;
    expect(messageText(synthetic)).toBe('[no result recorded]');
    expect(synthetic.toolResult).toEqual({ toolCallId: 'c1', isError: true, toolName: 'ls' });
    expect(synthetic.source?.extra?.['synthetic']).toBe(true);
    expect(r.warnings).toEqual([{ position: 'messages[1]', message: '1 tool call has no result; added "[no result recorded]" as an error result' }]);
  });

  it('a result that arrives late is moved up to follow its call', () => {
    const r = usable(
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'user', content: 'still there?' },
        { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
      ]),
    );
    expect(r.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(r.warnings).toEqual([{ position: 'messages[3]', message: '1 tool result was moved up to follow its call' }]);
  });

  it('unknown Anthropic block type: a placeholder, never the binary payload', () => {
    const r = usable(
      JSON.stringify({
        system: 's',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
              { type: 'text', text: 'summarize' },
            ],
          },
        ],
      }),
    );
    expect(r.warnings).toEqual([{ position: 'messages[0].content[0]', message: "content block of type 'document' is not modelled; kept as text" }]);
    const text = messageText(r.conversation.messages[1]!);
    expect(text).toBe('[document block]\nsummarize');
    expect(text).not.toContain('JVBERi0');
  });

  it('deeply nested tool input does not overflow the stack', () => {
    const depth = 200_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const text = `{"system":"s","messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":${nested}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`;
    const r = usable(text);
    expect(r.conversation.messages[2]!.toolCalls![0]!.arguments).toBe('"[arguments too deeply nested to keep]"');
  });

  it('deeply nested top-level arrays: one clear error, no crash', () => {
    const depth = 100_000;
    const e = failure(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(e.position).toBe('top level');
    expect(e.found).toBe('an array of 1 holding no objects (the first is an array of 1)');
  });

  it('the syntax locator is iterative: a million open brackets are reported, not overflowed', () => {
    const p = locateJsonError('['.repeat(1_000_000));
    expect(p).toEqual({ offset: 1_000_000, expected: "a JSON value or ']'", found: 'end of input' });
  });

  it('random input never escapes as anything but a TranscriptError', () => {
    const inputs = fc.oneof(
      fc.string(),
      fc.json(),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 3))),
      fc.array(fc.json(), { maxLength: 5 }).map((ls) => ls.join('\n')),
      fc
        .array(fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'x'), content: fc.oneof(fc.string(), fc.jsonValue()) }), {
          maxLength: 6,
        })
        .map((a) => JSON.stringify(a)),
    );
    fc.assert(
      fc.property(inputs, fc.constantFrom('a.json', 'b.jsonl', 'c.md', 'd.traj', undefined), (text, name) => {
        try {
          const r = importTranscript(text, name ? { sourcePath: name } : {});
          expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
        } catch (e) {
          if (!(e instanceof TranscriptError)) throw e;
        }
      }),
      { numRuns: 400, seed: 20251123 },
    );
  });
});

describe('the CLI reader: bytes that are not UTF-8 text', () => {
  it('NUL bytes: a binary file, with the byte offset', () => {
    const buf = Buffer.concat([Buffer.from('[{"role":"user"'), Buffer.from([0, 1, 2])]);
    expect(() => decodeTranscript(buf, 'x.json')).toThrow('x.json: byte 15: expected text (UTF-8), found a NUL byte: this looks like a binary file');
  });

  it('invalid UTF-8: the offset of the first bad byte', () => {
    const buf = Buffer.concat([Buffer.from('[{"role":"user","content":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]')]);
    expect(firstInvalidUtf8(buf)).toBe(30);
    expect(() => decodeTranscript(buf, 'x.json')).toThrow('x.json: byte 30: expected UTF-8 text, found an invalid UTF-8 sequence (0xc3)');
  });

  it('a multi-byte character cut at the end of the file', () => {
    const buf = Buffer.concat([Buffer.from('ok '), Buffer.from('€').subarray(0, 2)]);
    expect(firstInvalidUtf8(buf)).toBe(3);
    expect(() => decodeTranscript(buf)).toThrow(/^byte 3: expected UTF-8 text/);
  });

  it('overlong encodings and surrogates are invalid too; valid text passes', () => {
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xe0, 0x80, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    const good = Buffer.from('héllo — 你好 🎉');
    expect(firstInvalidUtf8(good)).toBe(good.length);
    expect(decodeTranscript(good)).toBe('héllo — 你好 🎉');
  });

  it('UTF-16 files are named as such', () => {
    const buf = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[]', 'utf16le')]);
    expect(() => decodeTranscript(buf, 'w.json')).toThrow('w.json: byte 0: expected UTF-8 text, found a UTF-16 byte-order mark (save the file as UTF-8)');
  });

  it('a file over the size limit is refused before it is read', async () => {
    const p = join(tmp, 'big.json');
    writeFileSync(p, Buffer.alloc(2 * 1024 * 1024, 0x20));
    await expect(readTranscriptFile(p, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      `${p}: byte 1048576: expected a file of at most 1 MB (raise the limit with --max-size MB), found 2 MB`,
    );
  });

  it('a missing file and a directory', async () => {
    await expect(readTranscriptFile(join(tmp, 'nope.json'))).rejects.toThrow(`${join(tmp, 'nope.json')}: path: expected a readable file, found no such file`);
    const dir = join(tmp, 'dir.json');
    mkdirSync(dir);
    await expect(readTranscriptFile(dir)).rejects.toThrow(`${dir}: path: expected a transcript file, found a folder (EISDIR)`);
  });

  it('a 50 MB valid transcript imports (time printed, not asserted)', async () => {
    const p = join(tmp, 'session.jsonl');
    const lines: string[] = [];
    let bytes = 0;
    const body = 'x'.repeat(900);
    for (let i = 0; bytes < 50 * 1024 * 1024; i++) {
      const l =
        i % 2 === 0
          ? JSON.stringify({
              type: 'user',
              uuid: `u${i}`,
              sessionId: 's',
              timestamp: '2025-01-01T00:00:00Z',
              message: { role: 'user', content: `question ${i} ${body}` },
            })
          : JSON.stringify({
              type: 'assistant',
              uuid: `a${i}`,
              sessionId: 's',
              message: { id: `m${i}`, role: 'assistant', model: 'claude-sonnet-4', content: [{ type: 'text', text: `answer ${i} ${body}` }] },
            });
      lines.push(l);
      bytes += l.length + 1;
    }
    writeFileSync(p, `${lines.join('\n')}\n`);
    const t0 = performance.now();
    const r = await loadTranscript(p);
    const ms = performance.now() - t0;
    console.log(`50 MB Claude Code JSONL (${lines.length} lines): read + import in ${ms.toFixed(0)} ms`);
    expect(r.bytes).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    expect(r.conversation.messages.length).toBe(lines.length);
    expect(r.warnings).toEqual([]);
  });
});

describe('the CLI on bad input: one line, exit 2', () => {
  function io(): CliIO & { stdout: string; stderr: string } {
    const o = { stdout: '', stderr: '', env: {}, cwd: tmp, out: (t: string) => void (o.stdout += t), err: (t: string) => void (o.stderr += t) };
    return o;
  }

  it.each([
    [
      'truncated.json',
      '[{"role":"user","content":"hi"',
      /^ctxc count: .*truncated\.json: line 1, column 31: expected ',' or '}' after a property value, found end of input\n$/,
    ],
    [
      'binary.json',
      Buffer.from([0x5b, 0x00, 0x5d]),
      /^ctxc count: .*binary\.json: byte 1: expected text \(UTF-8\), found a NUL byte: this looks like a binary file\n$/,
    ],
    ['empty.jsonl', '', /^ctxc count: .*empty\.jsonl: byte 0: expected a transcript: .*found an empty file\n$/],
  ])('%s', async (name, content, pattern) => {
    const p = join(tmp, name);
    writeFileSync(p, content);
    const o = io();
    expect(await main(['count', p], o)).toBe(2);
    expect(o.stderr).toMatch(pattern);
    expect(o.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    expect(o.stdout).toBe('');
  });

  it('--max-size refuses a large file with exit 2', async () => {
    const p = join(tmp, 'large.json');
    writeFileSync(p, `[${' '.repeat(2 * 1024 * 1024)}]`);
    const o = io();
    expect(await main(['count', p, '--max-size', '1'], o)).toBe(2);
    expect(o.stderr).toContain('expected a file of at most 1 MB (raise the limit with --max-size MB)');
  });
});
