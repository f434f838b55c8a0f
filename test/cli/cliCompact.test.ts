// `ctxc compact`, `ctxc undo` and `ctxc inspect` through main() with a captured io, on the shared
// real transcripts: every output format is valid (re-imported and checked against the chat-API
// rules), --format json agrees with a compaction run the way the extension runs it, --out is
// atomic, --archive + undo give back the original file byte for byte, and errors are one line
// with the right exit code.

import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { COMPACTION_DEFAULTS, compactConversation } from '../../src/engine/compactor';
import { exportConversation } from '../../src/engine/conversation/exporters/exportConversation';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { SECTION_NAMES } from '../../src/engine/sections';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { goodSections, llmReply } from '../helpers/llmFixtures';
import { reply, startOpenAiServer } from '../helpers/openaiServer';
import { apiShapeProblems } from '../helpers/toolPairingCheck';
import { whileRenameFails } from '../helpers/renameFault';
import { repoRoot, transcriptPath } from '../helpers/transcripts';
import { tokenReport } from '../../src/engine/tokens/report';

// rename fails while the switch is set, as on a full disk (helpers/renameFault.ts).
vi.mock('node:fs/promises', async (original) => (await import('../helpers/renameFault')).withRenameFault(await original<typeof import('node:fs/promises')>()));

type Run = { code: number; out: string; err: string };

async function run(args: string[], env: Record<string, string | undefined> = {}, cwd = repoRoot): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(args, io);
  return { code, out, err };
}

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-compact-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** One transcript of each shipped format, small to mid-sized. */
const SAMPLES = [
  'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  'mini-swe-agent/pytest-dev__pytest-7490.traj.json',
  'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  'openhands/basic_gui_mode.json',
];

function noStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe.each(SAMPLES)('ctxc compact %s', (rel) => {
  const file = transcriptPath(rel);
  const original = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;

  it('md (the default): the eight summary headings in order, then the kept messages', async () => {
    const r = await run(['compact', file]);
    expect(r.code, r.err).toBe(0);
    let at = -1;
    for (const name of SECTION_NAMES) {
      const i = r.out.indexOf(`## ${name}`);
      expect(i, name).toBeGreaterThan(at);
      at = i;
    }
    // The last original message is always kept verbatim; its text is in the output.
    const lastText = original.messages.at(-1)!.content.find((p) => p.type === 'text');
    if (lastText && lastText.type === 'text' && lastText.text.trim()) expect(r.out).toContain(lastText.text.trim().split('\n')[0]);
    // The one-line summary on stderr: before → after, ratio, retention, loss level; when the
    // transcript reports usage, as the agent will send them, with what the file does not hold.
    expect(r.err).toMatch(
      /: [\d,]+ → [\d,]+ tokens (as the agent will send them )?\([\d.]+x, \d+% of the original(; [\d,]+ of each not in the file: system prompt, tools)?\), retention \d+% \((minimal|acceptable|moderate|severe) loss\)\n$/,
    );
    const reported = original.meta.reportedUsage !== undefined;
    expect(r.err.includes('as the agent will send them'), 'the figures include the overhead exactly when usage is reported').toBe(reported);
  });

  it('json: tokensBefore/tokensAfter at top level, equal to a compaction run as the extension runs it', async () => {
    const r = await run(['compact', file, '--format', 'json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    const counter = await createTokenCounter(original.meta.model);
    // The extension passes the defaults explicitly and a clock; neither changes the sizes.
    const ext = await compactConversation(original, {
      counter,
      archive: new MemoryArchive(),
      keepRecentRounds: COMPACTION_DEFAULTS.keepRecentRounds,
      level: COMPACTION_DEFAULTS.level,
      now: '2026-01-01T00:00:00.000Z',
    });
    // tokensBefore → tokensAfter are what the agent will send: the file's part (the engine's counts)
    // and, beside it, what it sends that the file does not hold (the report's overhead).
    const overhead = tokenReport(original.messages, counter, original.meta).overhead;
    expect(j.inFile).toEqual({ before: ext.tokensBefore, after: ext.tokensAfter });
    expect(j.notInFile).toMatchObject({ before: overhead, after: overhead });
    expect(j.tokensBefore).toBe(ext.tokensBefore + overhead);
    expect(j.tokensAfter).toBe(ext.tokensAfter + overhead);
    expect(j.tokensAfter).toBeLessThan(j.tokensBefore);
    // The stderr line says the same figures.
    expect(r.err).toContain(`${j.tokensBefore.toLocaleString('en-US')} → ${j.tokensAfter.toLocaleString('en-US')} tokens`);
    expect(j.model).toBe(counter.model.id);
    expect(j.conversation.messages.length).toBe(ext.conversation.messages.length);
    expect(j.summaryMarkdown).toContain('## Primary Request and Intent');
    expect(j.loss.lossLevel).toBe(j.lossLevel);
    expect(j.plan).toHaveLength(original.messages.length);
    // Same bytes on a second run: no clock in the output.
    expect((await run(['compact', file, '--format', 'json'])).out).toBe(r.out);
  });

  it.each(['openai', 'anthropic'] as const)('%s: a request the API accepts, which imports back to the compacted conversation', async (format) => {
    const r = await run(['compact', file, '--format', format]);
    expect(r.code, r.err).toBe(0);
    const body = JSON.parse(r.out);
    expect(Array.isArray(body.messages)).toBe(true);
    const back = importTranscript(r.out, { sourcePath: `out.${format}.json` });
    expect(back.conversation.format).toBe(format);
    expect(apiShapeProblems(back.conversation.messages)).toEqual([]);
    const text = back.conversation.messages.map((m) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')).join('\n');
    expect(text).toContain('## All user messages');
    if (format === 'anthropic') {
      // Strict alternation, starting with the user.
      expect(body.messages[0].role).toBe('user');
      for (let i = 1; i < body.messages.length; i++) expect(body.messages[i].role).not.toBe(body.messages[i - 1].role);
    }
  });
});

describe('ctxc compact options', () => {
  const file = transcriptPath('mini-swe-agent/pytest-dev__pytest-7490.traj.json');

  it('--budget and --ratio move the result size; --keep-recent changes what is kept', async () => {
    const loose = JSON.parse((await run(['compact', file, '--format', 'json', '--ratio', '0.5'])).out);
    const tight = JSON.parse((await run(['compact', file, '--format', 'json', '--budget', '8000'])).out);
    expect(tight.tokensAfter).toBeLessThan(loose.tokensAfter);
    expect(tight.tokensAfter).toBeLessThanOrEqual(Math.max(8000 * 1.1, tight.minimumTokens));
    const none = JSON.parse((await run(['compact', file, '--format', 'json', '--keep-recent', '0', '--ratio', '0.5'])).out);
    const kept = (j: { plan: { decision: string }[] }) => j.plan.filter((p) => p.decision === 'kept').length;
    expect(kept(none)).toBeLessThanOrEqual(kept(loose));
  });

  it('reports each step taken to meet the target, on stderr and in the JSON (degradation)', async () => {
    const small = transcriptPath('openhands/basic_gui_mode.json');
    const r = await run(['compact', small, '--ratio', '0.1']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^to fit the target \(heavier-level\): the normal level gave [\d,]+ tokens, over the target of 347: compacted again at the heavy level$/m,
    );
    expect(r.err).toMatch(/^to fit the target \(shorten-recent\): \d+ recent messages? kept verbatim shortened to previews/m);
    const j = JSON.parse((await run(['compact', small, '--ratio', '0.1', '--format', 'json'])).out) as {
      tokensAfter: number;
      target: number;
      level: string;
      degradation: { step: string; detail: string }[];
    };
    expect(j.level).toBe('emergency');
    expect(j.tokensAfter).toBeLessThanOrEqual(j.target * 1.05);
    expect(j.degradation.map((d) => d.step)).toContain('heavier-level');
    // Nothing had to give at the default target.
    expect(JSON.parse((await run(['compact', file, '--format', 'json'])).out).degradation).toEqual([]);
  });

  it('--model counts with that model', async () => {
    const j = JSON.parse((await run(['compact', file, '--format', 'json', '--model', 'gpt-4'])).out);
    expect(j.model).toBe('gpt-4');
  });

  it('--out writes the file, prints the summary line to stderr and nothing to stdout', async () => {
    const out = join(tmp, 'out', 'compacted.md');
    const r = await run(['compact', file, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('## Pending Tasks');
    expect(r.err.trim().split('\n').at(-1)).toMatch(/→ .* tokens .*retention/);
  });

  it('--out is atomic: a failed write leaves the previous file whole and no temporary file behind', async () => {
    const dir = join(tmp, 'atomic');
    const out = join(dir, 'result.md');
    expect((await run(['compact', file, '--out', out])).code).toBe(0);
    writeFileSync(out, 'the previous result\n');
    const r = await whileRenameFails(() => run(['compact', file, '--out', out]));
    expect(r.code).toBe(4);
    expect(r.err).toContain(`cannot write ${out}: the disk is full (ENOSPC)`);
    expect(r.err).toContain('nothing was written');
    noStack(r.err);
    expect(readFileSync(out, 'utf8')).toBe('the previous result\n');
    expect(readdirSync(dir)).toEqual(['result.md']);
  });

  it('an --out path that cannot be made is one line, exit 4, and no hang', async () => {
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, 'x');
    const r = await run(['compact', file, '--out', join(blocker, 'out.md')]);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/cannot write .*a-file\/out\.md: a part of the path is a file, not a folder \(ENOTDIR\); nothing was written/);
    noStack(r.err);
    // Node's recursive mkdir spins forever where mkdir answers ENOENT under an existing parent.
    if (existsSync('/proc/self')) {
      const proc = await run(['compact', file, '--out', '/proc/no-such-dir/out.md']);
      expect(proc.code).toBe(4);
      expect(proc.err).toMatch(/cannot write \/proc\/no-such-dir\/out\.md: its folder does not exist and cannot be created/);
    }
  });
});

describe('ctxc compact --archive and ctxc undo', () => {
  it.each(SAMPLES)('gives back the original file byte for byte (%s)', async (rel) => {
    const archive = join(tmp, 'archive');
    const file = transcriptPath(rel);
    const r = await run(['compact', file, '--archive', archive]);
    expect(r.code, r.err).toBe(0);
    const id = /archive: (conv-[0-9a-f.]+) /.exec(r.err)?.[1];
    expect(id, r.err).toBeDefined();
    const back = await run(['undo', id!, '--archive', archive]);
    expect(back.code, back.err).toBe(0);
    expect(Buffer.from(back.out, 'utf8').equals(readFileSync(file))).toBe(true);
    // --format json: the archived conversation, equal to the imported original.
    const original = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
    expect(JSON.parse((await run(['undo', id!, '--archive', archive, '--format', 'json'])).out)).toEqual(original);
    expect((await run(['undo', id!, '--archive', archive, '--format', 'openai'])).out.trimEnd()).toBe(exportConversation(original, 'openai').trimEnd());
  });

  it('keeps a byte-order mark and CRLF line ends exactly', async () => {
    const src = readFileSync(transcriptPath('openhands/basic_gui_mode.json'), 'utf8');
    const file = join(tmp, 'bom.json');
    writeFileSync(file, `\uFEFF${src.replace(/\n/g, '\r\n')}`);
    const archive = join(tmp, 'archive-bom');
    const r = await run(['compact', file, '--archive', archive]);
    expect(r.code, r.err).toBe(0);
    const id = /archive: (conv-[0-9a-f.]+) /.exec(r.err)![1]!;
    const out = join(tmp, 'restored.json');
    expect((await run(['undo', id, '--archive', archive, '--out', out])).code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
  });

  it('a changed archive entry, an unknown id or a missing --archive is one clear line', async () => {
    const archive = join(tmp, 'archive-tamper');
    const file = join(tmp, 'aider.md');
    copyFileSync(transcriptPath('aider/AFI-Protocol__afi-core.aider.chat.history.md'), file);
    const id = /archive: (conv-[0-9a-f.]+) /.exec((await run(['compact', file, '--archive', archive])).err)![1]!;
    const entry = join(archive, `${id}.json`);
    expect(existsSync(entry)).toBe(true);
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('aider', 'aidex'));
    const tampered = await run(['undo', id, '--archive', archive]);
    expect(tampered.code).toBe(2);
    expect(tampered.err).toMatch(/does not match its content hash/);
    expect(tampered.err.trim().split('\n')).toHaveLength(1);
    const unknown = await run(['undo', 'conv-0123', '--archive', archive]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/conv-0123 not found/);
    const notAnId = await run(['undo', '../etc/passwd', '--archive', archive]);
    expect(notAnId.code).toBe(2);
    expect(notAnId.err).toMatch(/expected an id starting with "conv-"/);
    expect((await run(['undo', id])).code).toBe(64);
    expect((await run(['undo', '--archive', archive])).code).toBe(64);
  });
});

describe('ctxc compact errors', () => {
  const good = transcriptPath('openhands/basic_gui_mode.json');

  it.each([
    [['compact'], /missing FILE/],
    [['compact', good, good], /one FILE expected, got 2/],
    [['compact', good, '--budget', '100', '--ratio', '0.2'], /give one of them, not both/],
    [['compact', good, '--ratio', '2'], /--ratio expects a number in \(0, 1\], got '2'/],
    [['compact', good, '--budget', '-5'], /--budget expects a positive whole number/],
    [['compact', good, '--keep-recent', '1.5'], /--keep-recent expects a whole number/],
    [['compact', good, '--format', 'xml'], /--format expects one of md, json, openai, anthropic, got 'xml'/],
    [['compact', good, '--colour'], /unknown option '--colour'/],
    [['compact', good, '--summarizer', 'claude'], /--summarizer expects 'extractive' or 'openai'/],
    [['compact', good, '--summarizer', 'openai', '--base-url', 'https://api.example.com/v1'], /no API key for api.example.com: set OPENAI_API_KEY/],
  ])('usage error %j exits 64 with one message and the usage line', async (args, message) => {
    const r = await run(args as string[]);
    expect(r.code).toBe(64);
    expect(r.out).toBe('');
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/\nUsage: ctxc compact FILE/);
    noStack(r.err);
  });

  it('a missing file, a directory and broken JSON exit 2 naming the file, the position and what was expected', async () => {
    const missing = await run(['compact', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.json');
    expect(missing.err).toMatch(/no such file/);
    const dir = await run(['compact', tmp]);
    expect(dir.code).toBe(2);
    expect(dir.err).toMatch(/expected a transcript file/);
    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, '{"messages": [{"role": "user", "content": "hi"}');
    const b = await run(['compact', broken]);
    expect(b.code).toBe(2);
    expect(b.err).toContain('broken.json');
    expect(b.err).toMatch(/expected/);
    for (const r of [missing, dir, b]) {
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      noStack(r.err);
    }
  });

  it('--help lists the options and the summarizer options', async () => {
    const r = await run(['compact', '--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--budget',
      '--ratio',
      '--keep-recent',
      '--format',
      '--out',
      '--model',
      '--focus',
      '--archive',
      '--summarizer',
      '--base-url',
      '--api-key-env',
    ])
      expect(r.out).toContain(flag);
  });

  it('never prints the API key, even when the option values around it are wrong', async () => {
    const key = 'sk-never-print-7f3a9c1d2e';
    const r = await run(['compact', good, '--summarizer', 'openai', '--base-url', 'ftp://x'], { OPENAI_API_KEY: key });
    expect(r.code).toBe(64);
    expect(r.out + r.err).not.toContain(key);
  });
});

describe('ctxc inspect', () => {
  const file = transcriptPath('openhands/basic_gui_mode.json');

  it('one aligned row per message with importance, its components, temporal, decision and reason', async () => {
    const r = await run(['inspect', file]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    const headerAt = lines.findIndex((l) => l.startsWith('#'));
    const header = lines[headerAt]!;
    for (const col of ['role', 'itemType', 'tokens', 'overall', 'crit', 'dep', 'uniq', 'act', 'temporal', 'decision', 'reason']) expect(header).toContain(col);
    const rows = lines.slice(headerAt + 1);
    const j = JSON.parse((await run(['inspect', file, '--json'])).out);
    expect(rows).toHaveLength(j.messages.length);
    // Aligned: every row's decision column starts where the header's does.
    const decisionCol = header.indexOf('decision');
    for (const [i, row] of rows.entries()) expect(row.slice(decisionCol).startsWith(j.messages[i].decision), row).toBe(true);
  });

  it('--json: the same rows as data, consistent with the compaction plan', async () => {
    const j = JSON.parse((await run(['inspect', file, '--json'])).out);
    const c = JSON.parse((await run(['compact', file, '--format', 'json'])).out);
    expect(j.tokensAfter).toBe(c.tokensAfter);
    expect(j.messages.map((m: { decision: string }) => m.decision)).toEqual(c.plan.map((p: { decision: string }) => p.decision));
    for (const m of j.messages) {
      for (const k of ['overall', 'criticality', 'dependency', 'uniqueness', 'actionability', 'temporal']) {
        expect(m[k]).toBeGreaterThanOrEqual(0);
        expect(m[k]).toBeLessThanOrEqual(1);
      }
      expect(typeof m.reason).toBe('string');
      expect(m.reason.length).toBeGreaterThan(0);
    }
  });

  it('bad input: exit 2, one line', async () => {
    const r = await run(['inspect', join(tmp, 'missing.md')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect((await run(['inspect'])).code).toBe(64);
  });
});

describe('ctxc demo', () => {
  it('shows the compacted 8-section summary of the shipped session and the same figures as ctxc compact', async () => {
    const r = await run(['demo']);
    expect(r.code, r.err).toBe(0);
    const at = r.out.indexOf('── Compacted');
    expect(at).toBeGreaterThan(r.out.indexOf('── Token report ──'));
    const part = r.out.slice(at);
    let pos = -1;
    for (const name of SECTION_NAMES) {
      const i = part.indexOf(`## ${name}\n`);
      expect(i, name).toBeGreaterThan(pos);
      pos = i;
    }
    const fixture = join(repoRoot, 'test', 'fixtures', 'afi-core.aider.chat.history.md');
    const j = JSON.parse((await run(['compact', fixture, '--format', 'json'])).out);
    const fmt = (n: number) => n.toLocaleString('en-US');
    // The shipped session's last chat session records aider's usage: the figures add its overhead.
    expect(j.notInFile.before).toBeGreaterThan(0);
    expect(part).toContain(`${fmt(j.tokensBefore)} → ${fmt(j.tokensAfter)} tokens as the agent will send them (`);
    expect(part).toMatch(/retention \d+% \(\w+ loss\)\n$/);
    // As the README says: the compacted conversation as `ctxc compact` prints it, the summary
    // followed by the most recent turns (the session's last message, "/exit", among them).
    const printed = (await run(['compact', fixture])).out;
    expect(part).toContain(printed);
    expect(printed.trimEnd().endsWith('/exit')).toBe(true);
    expect(printed.indexOf('## Current Work')).toBeLessThan(printed.lastIndexOf('USER_MESSAGE'));
  });
});

describe('ctxc compact --summarizer openai (local fake endpoint)', () => {
  const file = transcriptPath('openhands/basic_gui_mode.json');

  it('says who wrote the summary, and falls back to the extractive one with the reason', async () => {
    const server = await startOpenAiServer();
    try {
      const llmArgs = ['compact', file, '--format', 'json', '--summarizer', 'openai', '--base-url', server.baseURL, '--model', 'fake-llm', '--no-stream'];
      server.script(reply.completion(llmReply(goodSections([]))));
      const good = await run(llmArgs);
      expect(good.code, good.err).toBe(0);
      expect(good.err).toContain(`summarizer: openai (fake-llm at ${new URL(server.baseURL).host})`);
      const j = JSON.parse(good.out);
      expect(j.summarizer.name).toBe('openai');
      // --model named the LLM; the count follows the transcript, as without a summarizer.
      const plain = JSON.parse((await run(['compact', file, '--format', 'json'])).out);
      expect(j.model).toBe(plain.model);
      expect(j.tokensBefore).toBe(plain.tokensBefore);
      expect(j.summarizer.fallbackReason).toBeUndefined();
      expect(server.requests.length).toBeGreaterThan(0);

      server.script(reply.error(401, { message: 'bad key' }));
      const bad = await run(llmArgs);
      expect(bad.code, bad.err).toBe(0);
      const k = JSON.parse(bad.out);
      expect(k.summarizer.fallbackReason).toMatch(/401/);
      expect(bad.err).toMatch(/warning: the openai summary was not used .*401.*; the extractive summary was used/);
      expect(k.summaryMarkdown).toContain('## All user messages');
    } finally {
      await server.close();
    }
  });
});
