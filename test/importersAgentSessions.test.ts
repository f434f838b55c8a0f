// The importers of agent sessions read what the agent sends when the session is resumed: a Claude
// Code file's live parentUuid chain (rewinds and lines before the last compact boundary are
// history), a Codex rollout replayed (compactions, rollbacks), a VS Code chat session log replayed.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../src/engine/conversation/importers/claudeCode';
import { importCodex } from '../src/engine/conversation/importers/codex';
import { importCopilotChat } from '../src/engine/conversation/importers/copilotChat';
import { detectFormat, importTranscript } from '../src/engine/conversation/importers/detect';
import { TranscriptError } from '../src/engine/conversation/importers/transcriptError';
import { isUserAuthored, messageText, type Conversation } from '../src/engine/conversation/model';
import { createTokenCounter } from '../src/engine/tokens/messageCounter';
import { bigTurn, claudeLines, codexLines, fixedUuid, jsonl } from './helpers/agentSessions';
import { apiShapeProblems } from './helpers/toolPairingCheck';
import { transcriptPath } from './helpers/transcripts';

const CWD = '/home/dev/project';
const userTexts = (c: Conversation) => c.messages.filter(isUserAuthored).map(messageText);
const allText = (c: Conversation) => c.messages.map(messageText).join('\n');

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
    const boundary = { parentUuid: null, logicalParentUuid: fixedUuid(12), isSidechain: false, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', uuid: fixedUuid(50), timestamp: '2026-01-02T00:00:00.000Z', sessionId: 's1', cwd: CWD, compactMetadata: { trigger: 'auto', preTokens: 9000 } };
    const summary = { parentUuid: fixedUuid(50), isSidechain: false, type: 'user', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary: alpha, bravo and charlie were read.' }, uuid: fixedUuid(51), timestamp: '2026-01-02T00:00:01.000Z', sessionId: 's1', cwd: CWD };
    const after = claudeLines({ sessionId: 's1', cwd: CWD, turns: [bigTurn('delta', 5)], start: 60, parent: fixedUuid(51) });
    const r = importClaudeCode(jsonl([...main, boundary, summary, ...after]));
    expect(r.conversation.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    expect(userTexts(r.conversation)).toEqual(['TURN-delta: read notes-delta.txt and restate it']);
    expect(r.history).toMatchObject({ lines: 12, beforeBoundary: 12, otherBranches: 0 });
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

  it('the shared kiliman session counts the same with every line written twice (41,260 before this, 81,838 doubled)', async () => {
    const text = readFileSync(transcriptPath('claude-code/kiliman__claude-transcript__test2.jsonl'), 'utf8');
    const counter = await createTokenCounter('claude-opus-4-20250514');
    const once = importClaudeCode(text, { wholeFile: true });
    const twice = importClaudeCode(text + text, { wholeFile: true });
    expect(counter.countMessages(twice.conversation.messages)).toBe(counter.countMessages(once.conversation.messages));
    expect(twice.warnings.find((w) => /repeat an earlier line's uuid/.test(w.message))?.message).toMatch(/^507 lines repeat/);
    // What the CLI resumes: kiliman ends with /export commands chained to its first line.
    const live = importClaudeCode(text);
    expect(live.conversation.messages.length).toBe(3);
    expect(live.history!.lines).toBeGreaterThan(300);
    expect(live.conversation.meta.model).toBe('claude-opus-4-20250514');
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
    expect(() => importTranscript(JSON.stringify(list), { sourcePath: 'rows.json' })).toThrow(/^rows\.json: top level: expected .*a message list needs objects with a 'role', found an array of 10 objects, none with a 'role' \(keys: id, text\)$/);
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
    expect(c.meta.reportedUsage).toEqual({ lastInputTokens: 5000, lastCachedInputTokens: 500, lastOutputTokens: 10, totalInputTokens: 10000, totalOutputTokens: 20, contextWindow: 258400 });
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
    const compacted = { timestamp: '2026-01-02T00:00:00.000Z', type: 'compacted', payload: { message: 'SUMMARY-TEXT of alpha and bravo', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'SUMMARY-TEXT of alpha and bravo' }] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: turns[1]!.user }] }] } };
    const more = { timestamp: '2026-01-02T00:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'after the compaction' }] } };
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
  const request = (id: string, text: string, reply: string) => ({ requestId: id, message: { text, parts: [] }, response: [{ kind: 'markdownContent', value: { value: reply } }], timestamp: 1767225600000 });
  const initial = { kind: 0, v: { version: 3, sessionId: 'chat-1', creationDate: 1767225600000, customTitle: 'Parser work', requests: [request('r1', 'why does the parser fail', 'because of the BOM')] } };

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
    expect(() => importCopilotChat(jsonl([{ kind: 1, k: ['x'], v: 1 }]), { sourcePath: 'c.jsonl' })).toThrow(/^c\.jsonl: line 1: expected a chat session log that starts with its whole state/);
  });

  it('the older chatSessions/<id>.json is the serialized session itself', () => {
    const r = importCopilotChat(JSON.stringify(initial.v), { sourcePath: 'chat-1.json' });
    expect(r.conversation.format).toBe('copilot-chat');
    expect(userTexts(r.conversation)).toEqual(['why does the parser fail']);
  });
});
