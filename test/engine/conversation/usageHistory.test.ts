// A session's usage records, as the chart and the meter's first show read them: every request the
// agent recorded (the lines of one streamed response once) and every compaction, over the whole
// file; and the last request, read backwards from the end of the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { readLastUsage, readUsageHistory } from '../../../src/sessions/usageLog';
import { fixturesDir, transcriptPath } from '../../helpers/transcripts';

const KILIMAN = transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl');
const CODEX = join(fixturesDir, 'codex-0.171.0-rollout.jsonl');
const root = mkdtempSync(join(tmpdir(), 'ctxc-usage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('usage history', () => {
  it('kiliman: 131 requests, the last the 69,800 the meter builds on, in file order with their times', async () => {
    const h = await readUsageHistory(KILIMAN, 'claude-code');
    expect(h.requests).toHaveLength(131);
    expect(h.requests.at(-1)!.tokens).toBe(69_800);
    expect(h.requests.map((r) => r.n)).toEqual(h.requests.map((_, i) => i + 1));
    expect(h.requests.every((r, i) => i === 0 || r.line > h.requests[i - 1]!.line)).toBe(true);
    expect(h.requests.every((r) => typeof r.at === 'string')).toBe(true);
    // The importer's own reading of the last request is the same figure.
    const { conversation } = importTranscript(readFileSync(KILIMAN, 'utf8'), { sourcePath: KILIMAN });
    expect(conversation.meta.reportedUsage!.tokens).toBe(h.requests.at(-1)!.tokens);
    expect(h.model).toBe(conversation.meta.model);
  });

  it('marks compactions: Claude Code compact boundaries with their trigger and tokens, ours apart', async () => {
    const file = join(root, 'compacted.jsonl');
    const assistant = (id: string, tokens: number) => ({
      type: 'assistant',
      uuid: id,
      timestamp: '2026-11-26T10:00:00Z',
      message: {
        id: `msg_${id}`,
        model: 'claude-sonnet-4-5',
        role: 'assistant',
        content: [],
        usage: { input_tokens: 10, cache_read_input_tokens: tokens - 10 },
      },
    });
    const lines = [
      assistant('a', 150_000),
      assistant('a', 150_000),
      assistant('b', 170_000),
      { type: 'system', subtype: 'compact_boundary', timestamp: '2026-11-26T10:05:00Z', compactMetadata: { trigger: 'auto', preTokens: 171_234 } },
      assistant('c', 40_000),
      { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'manual', preTokens: 60_000 }, contextCompactor: { sessionId: 'x' } },
      assistant('d', 20_000),
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const h = await readUsageHistory(file, 'claude-code');
    expect(h.requests.map((r) => [r.n, r.tokens])).toEqual([
      [1, 150_000],
      [2, 170_000],
      [3, 40_000],
      [4, 20_000],
    ]);
    expect(h.compactions).toEqual([
      { afterRequest: 2, line: 4, at: '2026-11-26T10:05:00Z', preTokens: 171_234, trigger: 'auto', ours: false },
      { afterRequest: 3, line: 6, preTokens: 60_000, trigger: 'manual', ours: true },
    ]);
    expect(h.requests[0]!.cacheRead).toBe(149_990);
  });

  it('Codex: its token_count events, with the window it states', async () => {
    const h = await readUsageHistory(CODEX, 'codex');
    expect(h.requests.length).toBeGreaterThan(0);
    const { conversation } = importTranscript(readFileSync(CODEX, 'utf8'), { sourcePath: CODEX });
    expect(h.requests.at(-1)!.tokens).toBe(conversation.meta.reportedUsage!.tokens);
    expect(h.window).toBe(conversation.meta.reportedUsage!.contextWindow);
  });

  it('the last request is read from the end of the file, as far back as it takes', async () => {
    expect((await readLastUsage(KILIMAN, 'claude-code'))!.tokens).toBe(69_800);
    // Far from the end: lines without a record after it (70,000 of them, several blocks).
    const file = join(root, 'long-tail.jsonl');
    const filler = Array.from({ length: 70_000 }, (_, i) => JSON.stringify({ type: 'user', uuid: `u${i}`, message: { role: 'user', content: 'x' } }));
    writeFileSync(file, `${readFileSync(KILIMAN, 'utf8')}${filler.join('\n')}\n`);
    expect((await readLastUsage(file, 'claude-code'))!.tokens).toBe(69_800);
    expect(await readLastUsage(file, 'claude-code', 64 * 1024)).toBeUndefined();
    expect((await readLastUsage(CODEX, 'codex'))!.window).toBeGreaterThan(0);
    expect(await readLastUsage(join(root, 'missing.jsonl'), 'claude-code')).toBeUndefined();
    expect(await readLastUsage(KILIMAN, 'aider')).toBeUndefined();
  });
});
