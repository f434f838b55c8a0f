// A compacted session written back into Claude Code's and Codex's own files: the shape each CLI
// resumes (checked with the real CLIs by `npm run test:agents`), fresh ids, an unbroken chain, every
// tool call with its result; the original untouched; nothing half-written on failure.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importClaudeCode } from '../../src/engine/conversation/importers/claudeCode';
import { importCodex } from '../../src/engine/conversation/importers/codex';
import { messageText, type Conversation } from '../../src/engine/conversation/model';
import type { CompactionResult } from '../../src/engine/result';
import { SECTION_NAMES } from '../../src/engine/sections';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { claudeProjectName, isInside } from '../../src/sessions/locations';
import { NothingToWriteError, writeCompactedSession } from '../../src/sessions/writeSession';
import { readBackCodexRollout } from '../../src/sessions/agents/codex/codexReadBack';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn, type Turn } from '../helpers/agentSessions';
import { whileRenameFails } from '../helpers/renameFault';
import { fixturesDir } from '../helpers/transcripts';
import { SECTIONS as SCRIPT_SECTIONS } from '../../scripts/agents/sessionFixtures.mjs';

// rename fails while the switch is set, as on a full disk (helpers/renameFault.ts).
vi.mock('node:fs/promises', async (original) => (await import('../helpers/renameFault')).withRenameFault(await original<typeof import('node:fs/promises')>()));

const root = mkdtempSync(join(tmpdir(), 'ctxc-writers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
// The session's folder exists on this machine: a new session goes where the original ran.
const work = join(root, 'work');
mkdirSync(work, { recursive: true });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TURNS: Turn[] = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((t) => bigTurn(t, 60));

async function compact(conv: Conversation, ratio?: number): Promise<CompactionResult> {
  const counter = await createTokenCounter(conv.meta.model);
  return compactConversation(conv, { counter, archive: new MemoryArchive(), keepRecentRounds: 1, ...(ratio ? { ratio } : {}) });
}

/** Room for the whole last round, its request included (a Codex rollout is only written when Codex
 *  will send the last user turn). */
const KEEP_LAST_ROUND = 0.5;

function readLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('Claude Code: a new session file in the project folder', () => {
  const original = join(home, '.claude', 'projects', claudeProjectName(work), 'orig-session.jsonl');
  let lines: Record<string, unknown>[];
  let originalLines: Record<string, unknown>[];
  let result: CompactionResult;
  let written: Awaited<ReturnType<typeof writeCompactedSession>>;
  let before: { bytes: Buffer; mtimeMs: number };

  beforeAll(async () => {
    originalLines = claudeLines({ sessionId: 'orig-session', cwd: work, turns: TURNS, version: '2.1.300' });
    // The last turn's answer thinks first: once with a signature, once without.
    const last = originalLines[originalLines.length - 1]!;
    (last['message'] as { content: unknown[] }).content.unshift(
      { type: 'thinking', thinking: 'weigh the rows', signature: 'sig-abc' },
      { type: 'thinking', thinking: 'unsigned musing' },
    );
    writeFileIn(original, jsonl(originalLines));
    before = { bytes: readFileSync(original), mtimeMs: statSync(original).mtimeMs };
    const conv = importClaudeCode(readFileSync(original, 'utf8'), { sourcePath: original }).conversation;
    result = await compact(conv);
    written = await writeCompactedSession('claude-code', conv, result, {
      env: {},
      home,
      fallbackCwd: root,
      sourceFile: basename(original),
      now: new Date('2026-02-01T10:00:00.000Z'),
    });
    lines = readLines(written.file);
  });

  it('lands beside the original with a fresh UUID for a name, and says how to resume it', () => {
    expect(written.id).toMatch(UUID_V4);
    expect(written.file).toBe(join(dirname(original), `${written.id}.jsonl`));
    expect(written.cwd).toBe(work);
    expect(written.resume).toBe(`claude --resume ${written.id}`);
    expect(written.command).toBe(`cd ${work} && claude --resume ${written.id}`);
  });

  it('starts with a compact boundary that remembers where it came from, then the summary', () => {
    expect(lines[0]).toMatchObject({
      type: 'system',
      subtype: 'compact_boundary',
      parentUuid: null,
      logicalParentUuid: originalLines[originalLines.length - 1]!['uuid'],
      compactMetadata: { trigger: 'manual', preTokens: result.tokensBefore },
      contextCompactor: { from: 'orig-session', file: 'orig-session.jsonl', tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter },
    });
    expect(lines[1]).toMatchObject({ type: 'user', isCompactSummary: true, parentUuid: lines[0]!['uuid'] });
    const summary = (lines[1]!['message'] as { content: string }).content;
    expect(summary.startsWith('This session is being continued from a previous conversation that ran out of context.')).toBe(true);
    for (const h of SECTION_NAMES) expect(summary).toContain(`## ${h}`);
  });

  it('an unbroken chain of fresh uuids, each line with the session id, cwd, version and a later timestamp', () => {
    const originalIds = new Set(originalLines.map((l) => l['uuid']));
    const seen = new Set<unknown>();
    lines.forEach((l, i) => {
      expect(l['uuid']).toMatch(UUID_V4);
      expect(originalIds.has(l['uuid'])).toBe(false);
      expect(seen.has(l['uuid'])).toBe(false);
      seen.add(l['uuid']);
      if (i > 0) expect(l['parentUuid']).toBe(lines[i - 1]!['uuid']);
      expect(l).toMatchObject({ sessionId: written.id, cwd: work, version: '2.1.300', isSidechain: false });
      if (i > 0) expect(Date.parse(l['timestamp'] as string)).toBeGreaterThan(Date.parse(lines[i - 1]!['timestamp'] as string));
    });
  });

  it('keeps the recent turns verbatim, every tool_use answered by the tool_result after it', () => {
    const blocks = (l: Record<string, unknown>) => {
      const c = (l['message'] as { content: unknown }).content;
      return (Array.isArray(c) ? c : []) as Record<string, unknown>[];
    };
    const open = new Set<unknown>();
    for (const l of lines.slice(2)) {
      for (const b of blocks(l)) {
        if (b['type'] === 'tool_use') open.add(b['id']);
        if (b['type'] === 'tool_result') {
          expect(open.has(b['tool_use_id'])).toBe(true);
          open.delete(b['tool_use_id']);
        }
      }
    }
    expect(open.size).toBe(0);
    const text = JSON.stringify(lines.slice(2));
    expect(text).toContain('ECHO-LINE-60: row 60');
    expect(text).toContain(TURNS[4]!.answer);
    expect(text).not.toContain('ALPHA-LINE-30');
  });

  it('thinking goes back only with its signature', () => {
    const text = JSON.stringify(lines);
    expect(text).toContain('"signature":"sig-abc"');
    expect(text).not.toContain('unsigned musing');
    expect(written.notes).toContain('1 thinking block without a signature left out (the API accepts thinking only with its signature)');
  });

  it('reads back as the summary plus the recent turns', () => {
    const back = importClaudeCode(readFileSync(written.file, 'utf8')).conversation;
    expect(back.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    expect(back.meta.sessionId).toBe(written.id);
    const tail = result.conversation.messages.slice(result.conversation.messages.findIndex((m) => m.itemType === 'COMPACTION_SUMMARY') + 1);
    expect(back.messages.slice(1).map(messageText)).toEqual(tail.map(messageText));
  });

  it('never touched the original', () => {
    expect(readFileSync(original).equals(before.bytes)).toBe(true);
    expect(statSync(original).mtimeMs).toBe(before.mtimeMs);
  });

  it('--cwd puts it in that folder’s project folder', async () => {
    const elsewhere = join(root, 'elsewhere');
    const conv = importClaudeCode(readFileSync(original, 'utf8')).conversation;
    const w = await writeCompactedSession('claude-code', conv, result, {
      env: { CLAUDE_CONFIG_DIR: join(root, 'cfg') },
      home,
      cwd: elsewhere,
      fallbackCwd: root,
    });
    expect(w.file).toBe(join(root, 'cfg', 'projects', claudeProjectName(elsewhere), `${w.id}.jsonl`));
    expect(readLines(w.file)[0]).toMatchObject({ cwd: elsewhere });
  });
});

/** Codex's thread index as Codex 0.171.0 creates it (the schema the real CLI made). */
function codexIndexIn(codexHome: string): string {
  mkdirSync(codexHome, { recursive: true });
  const db = join(codexHome, 'state_5.sqlite');
  const schema = readFileSync(join(fixturesDir, 'codex-state_5-0.171.0.sql'), 'utf8');
  const r = spawnSync('sqlite3', ['-bail', db], { input: `PRAGMA journal_mode=WAL;\n${schema}`, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return db;
}

function indexRows(db: string): Record<string, unknown>[] {
  const out = spawnSync('sqlite3', ['-json', db, 'SELECT id, rollout_path, source, cwd, model_provider, preview FROM threads'], {
    encoding: 'utf8',
  }).stdout.trim();
  return out === '' ? [] : (JSON.parse(out) as Record<string, unknown>[]);
}

const BASE_INSTRUCTIONS = 'You are Codex, the base instructions of this test. Be precise.';

describe('Codex: a new rollout under $CODEX_HOME/sessions', () => {
  const codexHome = join(root, 'codex-home');
  const original = join(codexHome, 'sessions', '2026', '01', '01', 'rollout-2026-01-01T00-00-00-33333333-3333-4333-8333-333333333333.jsonl');
  let lines: Record<string, unknown>[];
  let written: Awaited<ReturnType<typeof writeCompactedSession>>;
  let result: CompactionResult;
  let db: string;

  beforeAll(async () => {
    db = codexIndexIn(codexHome);
    writeFileIn(
      original,
      jsonl(codexLines({ id: '33333333-3333-4333-8333-333333333333', cwd: work, turns: TURNS, modelProvider: 'azure', baseInstructions: BASE_INSTRUCTIONS })),
    );
    const conv = importCodex(readFileSync(original, 'utf8'), { sourcePath: original }).conversation;
    result = await compact(conv, KEEP_LAST_ROUND);
    written = await writeCompactedSession('codex', conv, result, {
      env: { CODEX_HOME: codexHome, PATH: process.env['PATH'] },
      home,
      fallbackCwd: root,
      sourceFile: basename(original),
      now: new Date(2026, 1, 3, 4, 5, 6),
    });
    lines = readLines(written.file);
  });

  it('is named and placed as Codex names its rollouts, and says how to resume it', () => {
    expect(written.id).toMatch(UUID_V4);
    expect(written.file).toBe(join(codexHome, 'sessions', '2026', '02', '03', `rollout-2026-02-03T04-05-06-${written.id}.jsonl`));
    expect(written.command).toBe(`cd ${work} && codex resume ${written.id}`);
  });

  it('session_meta, a user_message event, and a compacted line, each with a timestamp and its ordinal', () => {
    expect(lines.map((l) => l['type'])).toEqual(['session_meta', 'event_msg', 'compacted']);
    lines.forEach((l, i) => {
      expect(typeof l['timestamp']).toBe('string');
      expect(l['ordinal']).toBe(i);
    });
    expect(lines[0]!['payload']).toEqual({
      id: written.id,
      session_id: written.id,
      timestamp: lines[0]!['timestamp'],
      cwd: work,
      originator: 'context_compactor',
      cli_version: '0.169.0',
      source: 'exec',
      thread_source: 'user',
      // The original's: Codex lists a thread only under the provider it runs with.
      model_provider: 'azure',
      // The original's, which Codex sends again on resume.
      base_instructions: { text: BASE_INSTRUCTIONS },
      context_compactor: {
        sessionId: '33333333-3333-4333-8333-333333333333',
        file: basename(original),
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
      },
    });
    expect(lines[1]!['payload']).toMatchObject({ type: 'user_message', message: TURNS[0]!.user });
  });

  it('is private to its owner (Codex itself writes 0644 with the usual umask; sessions hold code and keys)', () => {
    expect(statSync(written.file).mode & 0o777).toBe(0o600);
  });

  it("is in Codex's index, where `codex exec resume --last` and the picker look", () => {
    expect(indexRows(db)).toEqual([
      { id: written.id, rollout_path: written.file, source: 'exec', cwd: work, model_provider: 'azure', preview: TURNS[0]!.user },
    ]);
    expect(written.notes).toContain("added to Codex's index: `codex exec resume --last` in its folder and `codex resume --include-non-interactive` list it");
  });

  it('the replacement history: the summary, then the recent turns with each call followed by its output', () => {
    const payload = lines[2]!['payload'] as { message: string; replacement_history: Record<string, unknown>[] };
    const history = payload.replacement_history;
    expect(history[0]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: payload.message }] });
    expect(payload.message).toContain('## All user messages');
    const calls = history.filter((i) => i['type'] === 'function_call');
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      const at = history.indexOf(c);
      const out = history.findIndex((i) => i['type'] === 'function_call_output' && i['call_id'] === c['call_id']);
      expect(out).toBeGreaterThan(at);
      expect(history.slice(at + 1, out).every((i) => i['type'] === 'function_call' || i['type'] === 'function_call_output')).toBe(true);
    }
    expect(JSON.stringify(history)).not.toContain('<permissions instructions>');
    expect(JSON.stringify(history)).not.toContain('ALPHA-LINE-30');
  });

  it('reads back as the base instructions, the summary and the recent turns', () => {
    const back = importCodex(readFileSync(written.file, 'utf8')).conversation;
    expect(back.messages[0]).toMatchObject({ itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text: BASE_INSTRUCTIONS }] });
    expect(back.messages[1]!.itemType).toBe('COMPACTION_SUMMARY');
    expect(back.meta.sessionId).toBe(written.id);
    expect(messageText(back.messages[back.messages.length - 1]!)).toBe(TURNS[4]!.answer);
  });

  it('a Claude Code session can go to Codex too (its tool ids become call ids; the provider is the configured one)', async () => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 'x', cwd: work, turns: TURNS }))).conversation;
    const r = await compact(conv, KEEP_LAST_ROUND);
    const w = await writeCompactedSession('codex', conv, r, { env: { CODEX_HOME: codexHome, PATH: process.env['PATH'] }, home, fallbackCwd: root });
    const [meta, , compacted] = readLines(w.file);
    // None of Claude Code's header, and no provider: Codex records the one it is configured with.
    expect(meta!['payload']).toMatchObject({ source: 'exec', cli_version: '0.169.0' });
    expect(meta!['payload']).not.toHaveProperty('base_instructions');
    expect(meta!['payload']).not.toHaveProperty('model_provider');
    const history = (compacted!['payload'] as { replacement_history: Record<string, unknown>[] }).replacement_history;
    const call = history.find((i) => i['type'] === 'function_call')!;
    expect(String(call['call_id'])).toMatch(/^toolu_/);
    expect(history.some((i) => i['type'] === 'function_call_output' && i['call_id'] === call['call_id'])).toBe(true);
    expect(indexRows(db).find((row) => row['id'] === w.id)).toMatchObject({ model_provider: 'openai', source: 'exec' });
  });

  it("is read back by Codex's rules: the problem is said when Codex would not find or replay it as written", async () => {
    const good = readLines(written.file);
    const dir = join(root, 'read-back');
    const write = (name: string, lines: Record<string, unknown>[]) => writeFileIn(join(dir, name), jsonl(lines));
    const named = `rollout-2026-02-03T04-05-06-${written.id}.jsonl`;
    expect(await readBackCodexRollout(write(named, good))).toEqual({
      summary: (good[2]!['payload'] as { message: string }).message,
      lastUserTurn: TURNS[4]!.user,
    });
    const noStamp = good.map((l, i) => (i === 2 ? { ...l, timestamp: undefined } : l));
    expect(await readBackCodexRollout(write(named, noStamp))).toEqual({
      problem: 'line 3 lacks its timestamp or its ordinal (Codex skips a line without a timestamp)',
    });
    expect(await readBackCodexRollout(write('rollout-2026-02-03T04-05-06-00000000-0000-4000-8000-000000000001.jsonl', good))).toEqual({
      problem: 'its first line is not the session_meta of thread 00000000-0000-4000-8000-000000000001',
    });
    const noEvent = [good[0]!, { ...good[2]!, ordinal: 1 }];
    expect(await readBackCodexRollout(write(named, noEvent))).toEqual({ problem: 'it has no user_message event (Codex takes the thread’s title from it)' });
    const compacted = good[2]!['payload'] as { replacement_history: unknown[] };
    const reordered = {
      ...good[2]!,
      payload: { ...compacted, replacement_history: [...compacted.replacement_history.slice(1), compacted.replacement_history[0]] },
    };
    expect(await readBackCodexRollout(write(named, [good[0]!, good[1]!, reordered]))).toEqual({
      problem: 'Codex would not send the summary first (its replacement history starts otherwise)',
    });
  });
});

describe('safety', () => {
  it('nothing is written when the compaction changed nothing', async () => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 'tiny', cwd: work, turns: [bigTurn('one', 1)] }))).conversation;
    const r = await compact(conv);
    const dir = join(root, 'tiny-home');
    await expect(writeCompactedSession('claude-code', conv, r, { env: {}, home: dir, fallbackCwd: root })).rejects.toThrow(NothingToWriteError);
    expect(existsSync(dir)).toBe(false);
  });

  it('an existing file is never replaced', async () => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 's', cwd: work, turns: TURNS }))).conversation;
    const r = await compact(conv);
    const taken = join(home, '.claude', 'projects', claudeProjectName(work), 'taken-id.jsonl');
    writeFileIn(taken, 'keep me\n');
    await expect(writeCompactedSession('claude-code', conv, r, { env: {}, home, fallbackCwd: root, newUuid: () => 'taken-id' })).rejects.toThrow(
      /a file is already there/,
    );
    expect(readFileSync(taken, 'utf8')).toBe('keep me\n');
  });

  it('a write that fails leaves nothing behind: no session, no temporary file', async () => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 's', cwd: work, turns: TURNS }))).conversation;
    const r = await compact(conv);
    const dir = join(root, 'full-disk', '.claude', 'projects', claudeProjectName(work));
    await expect(
      whileRenameFails(() => writeCompactedSession('claude-code', conv, r, { env: {}, home: join(root, 'full-disk'), fallbackCwd: root })),
    ).rejects.toThrow(/ENOSPC/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a hostile recorded cwd', () => {
  // The transcript's cwd chooses the project folder; whatever it says, the file stays inside the
  // agent's sessions folder, and a folder that is not an absolute clean path here gives way to this
  // workspace's.
  const hostile = [
    '../../../..',
    '..',
    '/tmp/../../',
    'C:\\..\\..\\Windows',
    `${work}\n../../../etc`,
    'bad\u0000cwd/../..',
    '\u001b[2J/../../evil',
    `/${'a/'.repeat(3000)}`,
  ];
  it.each(hostile)('%j never places the file outside the agent’s sessions folder', async (cwd) => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 'hostile', cwd, turns: TURNS }))).conversation;
    expect(conv.meta.cwd).toBe(cwd);
    const r = await compact(conv);
    const h = mkdtempSync(join(root, 'hostile-'));
    const env = { CODEX_HOME: join(h, 'codex') };
    for (const [agent, folder] of [
      ['claude-code', join(h, '.claude', 'projects')],
      ['codex', join(h, 'codex', 'sessions')],
    ] as const) {
      const w = await writeCompactedSession(agent, conv, r, { env, home: h, fallbackCwd: work });
      expect(isInside(w.file, folder), `${agent}: ${w.file}`).toBe(true);
      expect(isAbsolute(w.cwd)).toBe(true);
      expect(w.cwd).not.toMatch(/[\u0000-\u001f]/);
      // Only a folder that exists here is taken; the rest is this workspace.
      if (!(isAbsolute(cwd) && !/[\u0000-\u001f]/.test(cwd) && existsSync(cwd))) expect(w.cwd).toBe(work);
    }
  });
});

describe('the agents and e2e scripts', () => {
  it('look for the summary headings the engine writes (scripts/agents/sessionFixtures.mjs keeps a copy: plain Node cannot import the TypeScript)', () => {
    expect(SCRIPT_SECTIONS).toEqual([...SECTION_NAMES]);
  });
});
