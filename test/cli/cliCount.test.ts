// `ctxc count` and `ctxc demo` through main(), with a captured io; the shared argument parser.
// Token totals are checked against a count made here with js-tiktoken itself plus the documented
// per-message overhead (messageCounter.ts), not with the counter under test.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, type FlagSpec } from '../../src/cli/args';
import { UsageError, type CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { readFileSync } from 'node:fs';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import type { Message } from '../../src/engine/conversation/model';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, NAME_OVERHEAD, REPLY_PRIMING, TOOL_CALL_OVERHEAD } from '../../src/engine/tokens/messageCounter';
import { fixturesDir, repoRoot, transcriptFiles, transcriptPath } from '../helpers/transcripts';

type CapturedIO = CliIO & { stdout: string; stderr: string };
function capture(cwd = repoRoot): CapturedIO {
  const o: CapturedIO = { stdout: '', stderr: '', env: {}, cwd, out: (t) => void (o.stdout += t), err: (t) => void (o.stderr += t) };
  return o;
}

async function run(args: string[], cwd?: string): Promise<{ code: number; out: string; err: string }> {
  const io = capture(cwd);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

const encoders = new Map<string, Tiktoken>();
function encoder(name: string): Tiktoken {
  let e = encoders.get(name);
  if (!e) encoders.set(name, (e = new Tiktoken(name === 'cl100k_base' ? cl100k : o200k)));
  return e;
}

/** Tokens as the chat APIs bill them, computed directly from the messages. */
function independentTotal(messages: readonly Message[], encoding: string): number {
  const enc = encoder(encoding);
  const n = (s: string) => enc.encode(s, [], []).length;
  let total = 0;
  for (const m of messages) {
    total += MESSAGE_OVERHEAD;
    if (m.name) total += NAME_OVERHEAD + n(m.name);
    for (const p of m.content) total += p.type === 'image' ? IMAGE_TOKENS : n(p.text);
    for (const c of m.toolCalls ?? []) total += TOOL_CALL_OVERHEAD + n(c.name) + n(c.arguments);
    if (m.toolDefinitions && m.content.length === 0) total += n(JSON.stringify(m.toolDefinitions));
  }
  return messages.length > 0 ? total + REPLY_PRIMING : 0;
}

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-count-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('ctxc count --json', () => {
  it.each(transcriptFiles())('%s: one JSON object whose total matches an independent js-tiktoken count', async (rel) => {
    const path = transcriptPath(rel);
    const { code, out } = await run(['count', path, '--json']);
    expect(code).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(1);
    const j = JSON.parse(out) as Record<string, unknown> & { byCategory: Record<string, number>; total: number; encoding: string };
    for (const k of ['total', 'window', 'percent', 'exact', 'model', 'encoding', 'byCategory', 'method', 'messageCount', 'warnings', 'file'])
      expect(j).toHaveProperty(k);
    const { conversation } = importTranscript(readFileSync(path, 'utf8'), { sourcePath: path });
    expect(j.messageCount).toBe(conversation.messages.length);
    // Our count is exact; the total adds what the reported usage shows the file does not hold.
    expect(j['counted']).toBe(independentTotal(conversation.messages, j.encoding));
    expect(j.total).toBe((j['counted'] as number) + (j['overhead'] as number));
    const reported = j['reported'] as { tokens: number; messageId: string; countedAsOf: number } | null;
    if (reported) {
      const k = conversation.messages.findIndex((m) => m.id === reported.messageId);
      expect(k).toBeGreaterThan(0);
      expect(reported.countedAsOf).toBe(independentTotal(conversation.messages.slice(0, k), j.encoding));
      expect(j['countedSince']).toBe(independentTotal(conversation.messages.slice(k), j.encoding) - REPLY_PRIMING);
      // A figure a little below our count (its rounding, a proxy tokenizer's difference) adds nothing.
      expect(j.total).toBe(Math.max(reported.tokens, reported.countedAsOf) + (j['countedSince'] as number));
    } else {
      expect(j['overhead']).toBe(0);
      expect(j['countedSince']).toBeNull();
    }
    expect(Object.values(j.byCategory).reduce((a, b) => a + b, 0)).toBe(j.total);
    expect(j.byCategory['unseen']).toBe(j['overhead']);
    expect(j.percent).toBeCloseTo((j.total / (j.window as number)) * 100, 1);
  });

  it('--model changes the tokenizer and the window', async () => {
    const path = transcriptPath('openhands/basic_gui_mode.json');
    const j = JSON.parse((await run(['count', path, '--json', '--model', 'gpt-4'])).out);
    expect(j).toMatchObject({ model: 'gpt-4', encoding: 'cl100k_base', method: 'exact', exact: true, window: 8192 });
    const { conversation } = importTranscript(readFileSync(path, 'utf8'), { sourcePath: path });
    expect(j.total).toBe(independentTotal(conversation.messages, 'cl100k_base'));
  });

  it('--include-sidechains brings the sub-agent messages in', async () => {
    const path = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
    const without = JSON.parse((await run(['count', path, '--json'])).out);
    const withSide = JSON.parse((await run(['count', path, '--json', '--include-sidechains'])).out);
    expect(withSide.messageCount).toBeGreaterThan(without.messageCount);
    expect(withSide.total).toBeGreaterThan(without.total);
  });
});

describe('ctxc count, for a person', () => {
  it('prints total, window, percent, model and encoding, and a table by category', async () => {
    const path = join(fixturesDir, 'afi-core.aider.chat.history.md');
    const j = JSON.parse((await run(['count', path, '--json'])).out);
    const { code, out, err } = await run(['count', path]);
    expect(code).toBe(0);
    // The live chat session is the last of nine: the warning says so.
    expect(err).toMatch(/: lines 1-1233: 8 earlier chat sessions are not sent \(aider starts each session afresh\)/);
    expect(out).toContain(`Total:  ${j.total.toLocaleString('en-US')} tokens of 1,047,576 (${j.percent.toFixed(1)}%)\n`);
    // Where the number comes from: aider's last "Tokens: 18k sent" plus what came after it.
    expect(out).toContain(
      `Source: 18,000 as reported by the API (aider, line 2041) (printed rounded, ±500) + ${j.countedSince.toLocaleString('en-US')} counted since\n`,
    );
    expect(out).toContain('Model:  gpt-4.1 · o200k_base (exact)');
    expect(out).toMatch(/^Category\s+Tokens\s+Share$/m);
    expect(out).toMatch(new RegExp(`^User\\s+${j.byCategory.user.toLocaleString('en-US')}\\s+\\d+\\.\\d%$`, 'm'));
    expect(out).toMatch(/^Tool results\s+[\d,]+\s+\d+\.\d%$/m);
    expect(out).toMatch(new RegExp(`^Not in the file \\(system prompt, tools\\)\\s+${j.overhead.toLocaleString('en-US')}\\s+\\d+\\.\\d%$`, 'm'));
    expect(out).not.toMatch(/^Thinking/m);
  });

  it('says when the number is our own count, and an estimate where another tokenizer stands in', async () => {
    const proxied = await run(['count', transcriptPath('openhands/basic_gui_mode.json')]);
    expect(proxied.out).toContain(
      "Source: an estimate: counted with o200k_base as a proxy for claude-3-5-sonnet-20241022's tokenizer; the file records no usage\n",
    );
    const exact = await run(['count', transcriptPath('openhands/basic_gui_mode.json'), '--model', 'gpt-4o']);
    expect(exact.out).toContain("Source: counted with gpt-4o's own tokenizer (o200k_base); the file records no usage\n");
  });

  it('labels proxies and estimates', async () => {
    const claude = await run(['count', transcriptPath('claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')]);
    expect(claude.out).toContain('Model:  claude-sonnet-4-20250514 · o200k_base (approximate: o200k_base proxy)');
    const unknown = await run(['count', transcriptPath('openhands/basic_gui_mode.json'), '--model', 'my-local-model']);
    expect(unknown.out).toMatch(/\(estimate\)/);
    expect(unknown.out).toContain('Model:  my-local-model · estimate (estimate)');
  });

  it('prints at most 10 warnings, one line each, then how many more', async () => {
    const good = JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'hi' } });
    const p = join(tmp, 'noisy.jsonl');
    writeFileSync(p, [good, ...Array.from({ length: 15 }, (_, i) => `{"broken": ${i}`)].join('\n'));
    const { code, err, out } = await run(['count', p, '--json']);
    expect(code).toBe(0);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(`warning: ${p}: line 2: not valid JSON (column 13: expected ',' or '}' after a property value, found end of input); line skipped`);
    expect(lines[10]).toBe('warning: … 5 more');
    expect(JSON.parse(out).warnings).toBe(15);
  });
});

describe('usage errors exit 64 with a usage line', () => {
  it.each([
    [['count'], 'ctxc count: missing FILE'],
    [['count', 'a.json', '--bogus'], "ctxc count: unknown option '--bogus'"],
    [['count', 'a.json', '--model'], "ctxc count: option '--model' needs a value (MODEL)"],
    [['count', 'a.json', 'b.json'], 'ctxc count: one FILE expected, got 2'],
    [['count', 'a.json', '--json=yes'], "ctxc count: option '--json' takes no value"],
    [['count', 'a.json', '--max-size', 'big'], "ctxc count: option '--max-size' needs a number, got 'big'"],
  ])('%j', async (args, message) => {
    const { code, err, out } = await run(args);
    expect(code).toBe(64);
    expect(out).toBe('');
    expect(err).toBe(`${message}\nUsage: ctxc count FILE|- [--model MODEL] [--json] [--include-sidechains]\n`);
  });

  it('count --help and ctxc --help list the command and its options', async () => {
    const help = await run(['count', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--include-sidechains');
    const top = await run(['--help']);
    expect(top.out).toMatch(/^\s+count\s+count the tokens of a transcript/m);
    expect(top.out).toMatch(/^\s+demo\s+/m);
  });
});

describe('ctxc demo', () => {
  it('prints the token report of the shipped aider session', async () => {
    const { code, out, err } = await run(['demo']);
    expect(code).toBe(0);
    expect(err).toMatch(/^warning: .*afi-core\.aider\.chat\.history\.md: lines 1-1233: 8 earlier chat sessions are not sent/);
    expect(out).toMatch(/^── Token report ──\ntest\/fixtures\/afi-core\.aider\.chat\.history\.md — aider, \d+ messages\nTotal: /);
    expect(out).toContain('Model:  gpt-4.1 · o200k_base (exact)');
  });

  it('runs on another transcript when given one', async () => {
    const { code, out } = await run(['demo', transcriptPath('openhands/basic_gui_mode.json')]);
    expect(code).toBe(0);
    expect(out).toContain('openhands, 10 messages');
  });
});

describe('the shared argument parser', () => {
  const specs: FlagSpec[] = [
    { name: 'model', short: 'm', kind: 'string', description: '' },
    { name: 'json', kind: 'boolean', description: '' },
    { name: 'ratio', kind: 'number', description: '' },
  ];

  it('reads long, short, = and positional forms, and -- ends the flags', () => {
    expect(parseArgs(['f.json', '--model', 'gpt-4o', '--json', '--ratio=0.5'], specs)).toEqual({
      flags: { model: 'gpt-4o', json: true, ratio: 0.5 },
      positionals: ['f.json'],
    });
    expect(parseArgs(['-m', 'x', '--', '--json', '-'], specs)).toEqual({ flags: { model: 'x' }, positionals: ['--json', '-'] });
    expect(parseArgs(['--ratio', '-1'], specs).flags.ratio).toBe(-1);
  });

  it('refuses what it does not know', () => {
    expect(() => parseArgs(['--nope'], specs)).toThrow(UsageError);
    expect(() => parseArgs(['-x'], specs)).toThrow("unknown option '-x'");
    expect(() => parseArgs(['--model', '--json'], specs)).toThrow("option '--model' needs a value");
    expect(() => parseArgs(['--model='], specs)).toThrow("option '--model' needs a value");
  });
});
