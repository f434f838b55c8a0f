// The importers of agent sessions read what the agent sends when the session is resumed: a Claude
// Code file's live parentUuid chain (rewinds and lines before the last compact boundary are
// history), a Codex rollout replayed (compactions, rollbacks), a VS Code chat session log replayed.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../../../src/engine/conversation/importers/claudeCode';
import { importCodex } from '../../../src/engine/conversation/importers/codex';
import { importCopilotChat } from '../../../src/engine/conversation/importers/copilotChat';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { TranscriptError } from '../../../src/engine/conversation/importers/transcriptError';
import { isUserAuthored, messageText, type Conversation } from '../../../src/engine/conversation/model';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { bigTurn, claudeLines, codexLines, fixedUuid, jsonl } from '../../helpers/agentSessions';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';
import { transcriptPath } from '../../helpers/transcripts';

const CWD = '/home/dev/project';
const userTexts = (c: Conversation) => c.messages.filter(isUserAuthored).map(messageText);
const allText = (c: Conversation) => c.messages.map(messageText).join('\n');
/** A compact boundary after the chain that ends at uuid 12, as Claude Code writes it (uuid 50). */
const compactBoundary = (compactMetadata: Record<string, unknown>) => ({
  parentUuid: null,
  logicalParentUuid: fixedUuid(12),
  isSidechain: false,
  type: 'system',
  subtype: 'compact_boundary',
  content: 'Conversation compacted',
  uuid: fixedUuid(50),
  timestamp: '2026-01-02T00:00:00.000Z',
  sessionId: 's1',
  cwd: CWD,
  compactMetadata,
});
/** The summary line after that boundary (uuid 51). */
const compactSummary = (content: string) => ({
  parentUuid: fixedUuid(50),
  isSidechain: false,
  type: 'user',
  isCompactSummary: true,
  message: { role: 'user', content },
  uuid: fixedUuid(51),
  timestamp: '2026-01-02T00:00:01.000Z',
  sessionId: 's1',
  cwd: CWD,
});

describe('Claude Code: the chain the CLI resumes', () => {
  const turns = [bigTurn('alpha', 5), bigTurn('bravo', 5), bigTurn('charlie', 5)];
  const main = claudeLines({ sessionId: 's1', cwd: CWD, turns });

  it('reads the whole chain when the file is one unbroken chain, with the session facts', () => {
    const r = importClaudeCode(jsonl(main));
    expect(userTexts(r.conversation)).toEqual(turns.map((t) => t.user));
    expect(r.history).toBeUndefined();
    expect(r.conversation.meta).toMatchObject({ cwd: CWD, sessionId: 's1', agentVersion: '2.1.328', model: 'claude-sonnet-4-5' });
    expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
  });

  it('after a rewind, reads the branch that ends at the last line; the abandoned branch is history', () => {
    // The user rewound to the end of the first turn and asked something else.
    const fork = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 5)], start: 100, parent: fixedUuid(4) });
    const r = importClaudeCode(jsonl([...main, ...fork]));
    expect(userTexts(r.conversation)).toEqual([turns[0]!.user, 'TURN-delta: read notes-delta.txt and restate it']);
    expect(allText(r.conversation)).not.toContain('BRAVO-LINE-1');
    expect(r.history).toMatchObject({ lines: 8, otherBranches: 8, beforeBoundary: 0 });
    expect(userTexts(r.history!.conversation)).toEqual([turns[1]!.user, turns[2]!.user]);
    expect(r.warnings.some((w) => /8 lines are not on the chain Claude Code sends.*8 on other branches/.test(w.message))).toBe(true);
    // --whole-file: every line, in file order.
    const whole = importClaudeCode(jsonl([...main, ...fork]), { wholeFile: true });
    expect(userTexts(whole.conversation)).toHaveLength(4);
    expect(whole.history).toBeUndefined();
  });

  it('cuts at the last compact boundary: what came before is history', () => {
    const boundary = compactBoundary({ trigger: 'auto', preTokens: 9000 });
    const summary = compactSummary('This session is being continued from a previous conversation. Summary: alpha, bravo and charlie were read.');
    const after = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 5)], start: 60, parent: fixedUuid(51) });
    const r = importClaudeCode(jsonl([...main, boundary, summary, ...after]));
    expect(r.conversation.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    expect(userTexts(r.conversation)).toEqual(['TURN-delta: read notes-delta.txt and restate it']);
    expect(r.history).toMatchObject({ lines: 12, beforeBoundary: 12, otherBranches: 0 });
  });

  it('sends the messages a compaction kept verbatim right after its summary (compactMetadata.preservedSegment)', () => {
    // As Claude Code 2.1.328 writes a /compact: the boundary names the run of the summarized chain
    // it keeps (the last turn here, uuids 9–12) and the summary line it goes after.
    const segment = { headUuid: fixedUuid(9), anchorUuid: fixedUuid(51), tailUuid: fixedUuid(12) };
    const boundary = compactBoundary({
      trigger: 'manual',
      preTokens: 9000,
      preservedSegment: segment,
      preservedMessages: { anchorUuid: fixedUuid(51), uuids: [fixedUuid(12)], allUuids: [fixedUuid(12)] },
    });
    const summary = compactSummary('This session is being continued from a previous conversation. Summary: alpha and bravo were read.');
    const after = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 5)], start: 60, parent: fixedUuid(51) });
    const r = importClaudeCode(jsonl([...main, boundary, summary, ...after]));
    const texts = r.conversation.messages.map(messageText);
    expect(r.conversation.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    // The kept turn (its request, tool call and result, answer) follows the summary, before the new turn.
    expect(userTexts(r.conversation)).toEqual([turns[2]!.user, 'TURN-delta: read notes-delta.txt and restate it']);
    expect(texts[1]).toBe(turns[2]!.user);
    expect(allText(r.conversation)).toContain('CHARLIE-ANSWER-1 ');
    expect(allText(r.conversation)).not.toContain('BRAVO-LINE-1');
    expect(apiShapeProblems(r.conversation.messages)).toEqual([]);
    expect(r.history).toMatchObject({ lines: 8, beforeBoundary: 8, otherBranches: 0 });
    // Without a segment, the listed uuids are kept (the last answer alone).
    const listedOnly = { ...boundary, compactMetadata: { ...boundary.compactMetadata, preservedSegment: undefined } };
    const r2 = importClaudeCode(jsonl([...main, listedOnly, summary, ...after]));
    expect(r2.conversation.messages.map(messageText)[1]).toBe(turns[2]!.answer);
    expect(r2.history).toMatchObject({ lines: 11, beforeBoundary: 11 });
  });

  it('stops at a parent the file does not hold (a break in the chain)', () => {
    const broken = main.map((l) => (l['uuid'] === fixedUuid(9) ? { ...l, parentUuid: 'not-in-this-file' } : l));
    const r = importClaudeCode(jsonl(broken));
    expect(userTexts(r.conversation)).toEqual([turns[2]!.user]);
    expect(r.history?.lines).toBe(8);
  });

  it('reads a repeated uuid once and says how many repeats were left out', () => {
    const r = importClaudeCode(jsonl([...main, ...main.slice(0, 6)]), { wholeFile: true });
    expect(userTexts(r.conversation)).toEqual(turns.map((t) => t.user));
    expect(r.warnings.some((w) => w.position === 'line 13' && /^6 lines repeat an earlier line's uuid/.test(w.message))).toBe(true);
  });

  it('the shared kiliman session counts the same with every line written twice, and is read through its last request', async () => {
    const text = readFileSync(transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl'), 'utf8');
    const counter = await createTokenCounter('claude-opus-4-20250514');
    const once = importClaudeCode(text, { wholeFile: true });
    const twice = importClaudeCode(text + text, { wholeFile: true });
    expect(counter.countMessages(twice.conversation.messages)).toBe(counter.countMessages(once.conversation.messages));
    expect(twice.warnings.find((w) => /repeat an earlier line's uuid/.test(w.message))?.message).toMatch(/^507 lines repeat/);
    // kiliman ends with local commands (# memory input, /export twice) that Claude Code 1.0.57
    // chained to the file's first line: no request followed them, so the conversation is read
    // through its last request (line 501), and those six lines are history.
    const live = importClaudeCode(text);
    expect(live.conversation.messages.length).toBe(268);
    expect(live.conversation.messages.at(-1)!.source!.line).toBe(501);
    expect(live.history).toMatchObject({ lines: 6, otherBranches: 6, beforeBoundary: 0 });
    expect(
      live.warnings.find((w) => /^6 lines are not part of the conversation read \(6 of local commands after the last request/.test(w.message)),
    ).toBeDefined();
    expect(live.conversation.meta.model).toBe('claude-opus-4-20250514');
    expect(live.conversation.meta.reportedUsage).toMatchObject({
      tokens: 69_800,
      source: 'claude-code',
      line: 501,
      parts: { input: 5, cacheWrite: 296, cacheRead: 69_499 },
    });
  });

  describe('local commands chained apart from the conversation', () => {
    const CAVEAT =
      'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.';
    /** A line of the kind Claude Code writes for local commands, chained to `parent`. */
    const local = (n: number, parent: string | null, content: string, extra: Record<string, unknown> = {}) => ({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: CWD,
      sessionId: 's1',
      version: '1.0.57',
      type: 'user',
      message: { role: 'user', content },
      uuid: fixedUuid(n),
      timestamp: '2026-01-03T00:00:00.000Z',
      ...extra,
    });
    // As kiliman's file: a Caveat line first, the work chained to it, then /export and # memory
    // input chained to that first line again.
    const caveat = local(900, null, CAVEAT, { isMeta: true });
    const work = claudeLines({ sessionId: 's1', cwd: CWD, turns, parent: fixedUuid(900) });
    const exports = [
      local(901, fixedUuid(900), '<user-memory-input>always use conventional commits</user-memory-input>'),
      local(902, fixedUuid(901), '(no content)'),
      local(
        903,
        fixedUuid(900),
        '<command-name>/export</command-name>\n            <command-message>export</command-message>\n            <command-args></command-args>',
      ),
      local(904, fixedUuid(903), '<local-command-stdout>Conversation exported to: out.txt</local-command-stdout>'),
    ];

    it('are set aside when no request followed them: the conversation is read through its last request', () => {
      const r = importClaudeCode(jsonl([caveat, ...work, ...exports]));
      expect(userTexts(r.conversation)).toEqual(turns.map((t) => t.user));
      expect(r.conversation.messages.at(-1)!.source!.sourceId).toBe(work.at(-1)!['uuid']);
      expect(r.history).toMatchObject({ lines: 4, otherBranches: 4 });
      expect(r.warnings.some((w) => /^4 lines are not part of the conversation read \(4 of local commands after the last request/.test(w.message))).toBe(true);
    });

    it('a rewind still wins: a new user message on another branch is the conversation', () => {
      const rewind = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 3)], start: 950, parent: fixedUuid(900) });
      const r = importClaudeCode(jsonl([caveat, ...work, ...exports, ...rewind]));
      expect(userTexts(r.conversation)).toEqual(['TURN-delta: read notes-delta.txt and restate it']);
      expect(r.warnings.some((w) => /not on the chain Claude Code sends.*on other branches \(rewinds\)/.test(w.message))).toBe(true);
    });

    it('a prompt command (its expanded prompt reaches the model) is no bookkeeping', () => {
      const init = [
        local(910, fixedUuid(900), '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>'),
        local(911, fixedUuid(910), 'Please analyze this codebase and create a CLAUDE.md file.', { isMeta: true }),
      ];
      const r = importClaudeCode(jsonl([caveat, ...work, ...init]));
      expect(r.conversation.messages.at(-1)!.source!.sourceId).toBe(fixedUuid(911));
      expect(userTexts(r.conversation)).not.toContain(turns[2]!.user);
    });
  });

  describe('the usage Claude Code recorded', () => {
    /** The assistant lines of `lines` given a usage (input, cache write, cache read), in order. */
    const withUsage = (lines: Record<string, unknown>[], usages: [number, number, number][]) => {
      let k = 0;
      return lines.map((l) => {
        if (l['type'] !== 'assistant') return l;
        const [input, write, read] = usages[k++ % usages.length]!;
        return {
          ...l,
          message: {
            ...(l['message'] as object),
            usage: { input_tokens: input, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: 40 },
          },
        };
      });
    };

    it('is the last assistant’s input + cache writes + cache reads, tied to that message', () => {
      const lines = withUsage(main, [
        [3, 14_000, 0],
        [5, 900, 14_003],
        [4, 300, 14_905],
        [6, 800, 15_209],
        [3, 200, 16_015],
        [5, 700, 16_218],
      ]);
      const r = importClaudeCode(jsonl(lines));
      const usage = r.conversation.meta.reportedUsage!;
      expect(usage).toMatchObject({
        tokens: 5 + 700 + 16_218,
        source: 'claude-code',
        line: 12,
        parts: { input: 5, cacheWrite: 700, cacheRead: 16_218, output: 40 },
      });
      expect(usage.atMessageId).toBe(fixedUuid(12));
    });

    it('lines of one streamed response share message.id and its usage: one record, at the response’s first line', () => {
      const first = {
        ...main[3]!,
        message: {
          ...(main[3]!['message'] as object),
          content: [{ type: 'thinking', thinking: 'Restating.', signature: 'sig' }],
          usage: { input_tokens: 2, cache_creation_input_tokens: 10, cache_read_input_tokens: 5_000 },
        },
      };
      const second = {
        ...main[3]!,
        uuid: fixedUuid(80),
        parentUuid: fixedUuid(4),
        message: { ...(main[3]!['message'] as object), usage: { input_tokens: 2, cache_creation_input_tokens: 10, cache_read_input_tokens: 5_000 } },
      };
      const r = importClaudeCode(jsonl([...main.slice(0, 3), first, second]));
      expect(r.conversation.messages.at(-1)!.content.map((p) => p.type)).toEqual(['thinking', 'text']);
      expect(r.conversation.meta.reportedUsage).toMatchObject({ tokens: 5_012, line: 4, atMessageId: fixedUuid(4) });
    });

    it('is not taken from an abandoned branch, a sub-agent, a synthetic message, or with --whole-file', () => {
      const lines = withUsage(main, [[1, 1, 1_000]]);
      const fork = withUsage(claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 2)], start: 100, parent: fixedUuid(4) }), [[1, 1, 9_000]]);
      // The abandoned branch (main after line 4) recorded nothing larger; the live one is the fork.
      const live = importClaudeCode(jsonl([...withUsage(main, [[1, 1, 50_000]]), ...fork]));
      expect(live.conversation.meta.reportedUsage!.tokens).toBe(9_002);
      const sub = {
        ...lines.at(-1)!,
        uuid: fixedUuid(200),
        parentUuid: null,
        isSidechain: true,
        message: { ...(lines.at(-1)!['message'] as object), usage: { input_tokens: 77_777 } },
      };
      const synthetic = {
        ...lines.at(-1)!,
        uuid: fixedUuid(201),
        parentUuid: fixedUuid(12),
        message: {
          id: 'synthetic',
          role: 'assistant',
          model: '<synthetic>',
          content: [{ type: 'text', text: 'No response requested.' }],
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      };
      const r = importClaudeCode(jsonl([...lines, sub, synthetic]));
      expect(r.conversation.meta.reportedUsage).toMatchObject({ tokens: 1_002, line: 12 });
      expect(importClaudeCode(jsonl(lines), { wholeFile: true }).conversation.meta.reportedUsage).toBeUndefined();
    });
  });

  it("a sub-agent's own file (every line a sidechain) is read as the sub-agent's conversation", () => {
    const lines = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('sub', 3)], sidechain: true });
    const r = importClaudeCode(jsonl(lines));
    expect(r.conversation.messages.length).toBe(4);
    expect(r.conversation.messages[0]!.itemType).toBe('SKILL_PROMPT');
  });
});

describe('JSON of an unknown shape', () => {
  it('a list of objects with no role is one TranscriptError naming what it holds', () => {
    const list = Array.from({ length: 10 }, (_, i) => ({ id: i, text: `row ${i}` }));
    expect(() => importTranscript(JSON.stringify(list), { sourcePath: 'rows.json' })).toThrow(TranscriptError);
    expect(() => importTranscript(JSON.stringify(list), { sourcePath: 'rows.json' })).toThrow(
      /^rows\.json: top level: expected .*a message list needs objects with a 'role', found an array of 10 objects, none with a 'role' \(keys: id, text\)$/,
    );
    expect(() => importTranscript(JSON.stringify({ messages: [{ x: 1 }] }), { sourcePath: 'm.json' })).toThrow(/^m\.json: messages: expected/);
  });
});

describe('Codex rollouts', () => {
  const turns = [bigTurn('alpha', 5), bigTurn('bravo', 5)];
  const lines = codexLines({ id: 'c1', cwd: CWD, turns });

  it('are detected by their session_meta line and read as Codex sends them', () => {
    const text = jsonl(lines);
    expect(detectFormat(text, 'rollout-x.jsonl')).toBe('codex');
    const r = importTranscript(text, { sourcePath: 'rollout-x.jsonl' });
    const c = r.conversation;
    expect(c.format).toBe('codex');
    expect(c.meta).toMatchObject({ cwd: CWD, sessionId: 'c1', agentVersion: '0.169.0', model: 'gpt-5.1-codex' });
    // The last token_count: last_token_usage is that request's (total_token_usage is a running sum),
    // answered by the last assistant message.
    expect(c.meta.reportedUsage).toEqual({
      tokens: 5000,
      source: 'codex',
      atMessageId: c.messages.at(-1)!.id,
      line: lines.length,
      parts: { input: 5000, cacheRead: 500, output: 10 },
      contextWindow: 258400,
      totalInputTokens: 10000,
      totalOutputTokens: 20,
    });
    // The developer message is the system side; the environment context is the harness's, not the person's.
    expect(c.messages[0]!.itemType).toBe('SYSTEM_PROMPT');
    expect(c.messages[1]!.itemType).toBe('SKILL_METADATA');
    expect(userTexts(c)).toEqual(turns.map((t) => t.user));
    const call = c.messages.find((m) => m.toolCalls?.length)!;
    expect(call.toolCalls![0]).toMatchObject({ id: 'call_0', name: 'exec_command' });
    expect(c.messages.find((m) => m.toolResult?.toolCallId === 'call_0')).toBeDefined();
    expect(apiShapeProblems(c.messages)).toEqual([]);
  });

  it('a compacted line replaces what came before with its replacement_history; the rest is history', () => {
    const compacted = {
      timestamp: '2026-01-02T00:00:00.000Z',
      type: 'compacted',
      payload: {
        message: 'SUMMARY-TEXT of alpha and bravo',
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'SUMMARY-TEXT of alpha and bravo' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: turns[1]!.user }] },
        ],
      },
    };
    const more = {
      timestamp: '2026-01-02T00:00:01.000Z',
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'after the compaction' }] },
    };
    const r = importCodex(jsonl([...lines, compacted, more]));
    expect(r.conversation.messages.map((m) => m.itemType)).toEqual(['COMPACTION_SUMMARY', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    expect(allText(r.conversation)).not.toContain('ALPHA-LINE-1');
    expect(r.history).toMatchObject({ beforeBoundary: 10, otherBranches: 0 });
    expect(allText(r.history!.conversation)).toContain('ALPHA-LINE-1');
  });

  it('an older compacted line without replacement_history keeps the first context, the user messages and the summary', () => {
    const compacted = { timestamp: '2026-01-02T00:00:00.000Z', type: 'compacted', payload: { message: 'SUMMARY-TEXT' } };
    const r = importCodex(jsonl([...lines, compacted]));
    const c = r.conversation;
    expect(c.messages.map((m) => m.itemType)).toEqual(['SYSTEM_PROMPT', 'SKILL_METADATA', 'USER_MESSAGE', 'USER_MESSAGE', 'COMPACTION_SUMMARY']);
    expect(messageText(c.messages[4]!)).toBe('SUMMARY-TEXT');
  });

  it('a rollback drops the last user turns (history)', () => {
    const rollback = { timestamp: '2026-01-02T00:00:00.000Z', type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: 1 } };
    const r = importCodex(jsonl([...lines, rollback]));
    expect(userTexts(r.conversation)).toEqual([turns[0]!.user]);
    expect(r.history).toMatchObject({ otherBranches: 4, beforeBoundary: 0 });
  });

  it('reads the older bare layout ({id, timestamp, instructions} then bare items)', () => {
    const old = [
      { id: 'old-1', timestamp: '2025-05-01T00:00:00Z', instructions: null, git: {} },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the parser' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
    ];
    expect(detectFormat(jsonl(old), 'rollout.jsonl')).toBe('codex');
    const r = importCodex(jsonl(old));
    expect(r.conversation.meta.sessionId).toBe('old-1');
    expect(userTexts(r.conversation)).toEqual(['fix the parser']);
  });

  it('a line that is not JSON is a warning; the rest is read', () => {
    const text = jsonl(lines).replace('\n', '\n{"timestamp": oops\n');
    const r = importCodex(text);
    expect(r.warnings[0]).toMatchObject({ position: 'line 2' });
    expect(userTexts(r.conversation)).toHaveLength(2);
  });
});

describe('VS Code chat session logs (Copilot Chat)', () => {
  const request = (id: string, text: string, reply: string) => ({
    requestId: id,
    message: { text, parts: [] },
    response: [{ kind: 'markdownContent', value: { value: reply } }],
    timestamp: 1767225600000,
  });
  const initial = {
    kind: 0,
    v: {
      version: 3,
      sessionId: 'chat-1',
      creationDate: 1767225600000,
      customTitle: 'Parser work',
      requests: [request('r1', 'why does the parser fail', 'because of the BOM')],
    },
  };

  it('replays set, push and delete entries into the session and reads it as a chat', () => {
    const entries = [
      initial,
      { kind: 2, k: ['requests'], v: [request('r2', 'fix it', 'working on it')] },
      { kind: 1, k: ['requests', 1, 'response'], v: [{ kind: 'markdownContent', value: { value: 'fixed: the BOM is stripped' } }] },
      { kind: 1, k: ['requests', 0, 'message', 'text'], v: 'why does the parser fail on a BOM' },
      { kind: 3, k: ['customTitle'] },
    ];
    const text = jsonl(entries);
    expect(detectFormat(text, 'chat-1.jsonl')).toBe('copilot-chat');
    const r = importTranscript(text, { sourcePath: 'chat-1.jsonl' });
    expect(r.conversation.format).toBe('copilot-chat');
    expect(userTexts(r.conversation)).toEqual(['why does the parser fail on a BOM', 'fix it']);
    expect(messageText(r.conversation.messages[3]!)).toBe('fixed: the BOM is stripped');
    expect(r.conversation.meta.title).toBeUndefined();
  });

  it('a push with an index cuts the array first (a request removed, another added)', () => {
    const entries = [initial, { kind: 2, k: ['requests'], v: [request('r3', 'start over', 'ok')], i: 0 }];
    expect(userTexts(importCopilotChat(jsonl(entries)).conversation)).toEqual(['start over']);
  });

  it('a partial last line, a path that leads nowhere and a prototype key are skipped with warnings', () => {
    const entries = [initial, { kind: 1, k: ['nothing', 'here'], v: 1 }, { kind: 1, k: ['__proto__', 'polluted'], v: true }];
    const r = importCopilotChat(`${jsonl(entries)}{"kind":2,"k":["requ`);
    expect(r.warnings.map((w) => w.position)).toEqual(['line 4', 'line 2', 'line 3']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(userTexts(r.conversation)).toEqual(['why does the parser fail']);
    expect(r.conversation.meta.title).toBe('Parser work');
  });

  it('a log without its initial entry is a TranscriptError', () => {
    expect(() => importCopilotChat(jsonl([{ kind: 1, k: ['x'], v: 1 }]), { sourcePath: 'c.jsonl' })).toThrow(
      /^c\.jsonl: line 1: expected a chat session log that starts with its whole state/,
    );
  });

  it('the older chatSessions/<id>.json is the serialized session itself', () => {
    const r = importCopilotChat(JSON.stringify(initial.v), { sourcePath: 'chat-1.json' });
    expect(r.conversation.format).toBe('copilot-chat');
    expect(userTexts(r.conversation)).toEqual(['why does the parser fail']);
  });
});
