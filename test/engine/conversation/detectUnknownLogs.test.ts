// An agent log the importers do not know must never read as an empty conversation (a Copilot CLI
// events.jsonl used to read as Claude Code: 0 messages, exit 0, "retention 100%"): detection refuses
// it, naming what the file holds and the agents whose logs are read, and `ctxc` exits 2. Claude Code
// files whose first lines are bookkeeping are still Claude Code's.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io';
import { main } from '../../../src/cli/main';
import { detectFormat, importTranscript } from '../../../src/engine/conversation/importers/detect';
import { isTranscriptError } from '../../../src/engine/conversation/importers/transcriptError';
import { claudeLines, jsonl, bigTurn } from '../../helpers/agentSessions';

const root = mkdtempSync(join(tmpdir(), 'ctxc-unknown-logs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const UNKNOWN = [
  { kind: 'session.opened', payload: { at: 1, who: 'someone' } },
  { kind: 'turn', payload: { text: 'hello' } },
  { kind: 'turn', payload: { text: 'world' } },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

function refusal(text: string, name?: string): string {
  try {
    detectFormat(text, name);
  } catch (e) {
    if (isTranscriptError(e)) return e.message;
    throw e;
  }
  throw new Error('detected a format');
}

describe('JSON lines of an unknown kind', () => {
  it('are refused, with or without a .jsonl name, saying what the first line is and which agents are read', () => {
    for (const name of ['run.jsonl', 'run.log', undefined]) {
      const message = refusal(UNKNOWN, name);
      expect(message).toContain('JSON lines of an unknown kind (the first: an object with keys kind, payload)');
      for (const agent of ['Claude Code', 'Codex', 'Copilot CLI']) expect(message).toContain(agent);
      expect(() => importTranscript(UNKNOWN, name ? { sourcePath: name } : {})).toThrow(/expected a session log of a supported agent/);
    }
  });

  it('names the type of the first line when it has one', () => {
    const typed = '{"type":"span.begin","attrs":{}}\n{"type":"span.end","attrs":{}}\n';
    expect(refusal(typed, 'trace.jsonl')).toContain("(the first: an object with keys type, attrs of type 'span.begin')");
  });

  it('`ctxc count` exits 2 with that message instead of counting nothing', async () => {
    const file = join(root, 'events.jsonl');
    writeFileSync(file, `${UNKNOWN}\n`);
    const io: CliIO & { stdout: string; stderr: string } = {
      stdout: '',
      stderr: '',
      env: {},
      cwd: root,
      out: (t) => void (io.stdout += t),
      err: (t) => void (io.stderr += t),
    };
    expect(await main(['count', file], io)).toBe(2);
    expect(io.stderr).toContain('events.jsonl: line 1: expected a session log of a supported agent');
    expect(io.stdout).toBe('');
  });

  it('a Claude Code session whose first lines are bookkeeping (no sessionId) is still Claude Code', () => {
    const snapshot = JSON.stringify({ type: 'file-history-snapshot', messageId: 'm1', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false });
    const text = `${snapshot}\n${jsonl(claudeLines({ sessionId: 's1', cwd: '/w', turns: [bigTurn('alpha', 3)] }))}`;
    expect(detectFormat(text, 's1.jsonl')).toBe('claude-code');
    expect(detectFormat(text)).toBe('claude-code');
    expect(importTranscript(text, { sourcePath: 's1.jsonl' }).conversation.messages.length).toBeGreaterThan(0);
  });

  it('chat messages one per line, and one JSON document saved as .jsonl, are read as before', () => {
    const lines = '{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n';
    expect(detectFormat(lines, 'chat.jsonl')).toBe('openai');
    expect(detectFormat(lines)).toBe('openai');
    expect(detectFormat('{"messages":[{"role":"user","content":"hi"}]}', 'doc.jsonl')).toBe('openai');
  });
});
