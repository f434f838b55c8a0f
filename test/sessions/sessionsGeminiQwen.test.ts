// Gemini CLI's and Qwen Code's sessions of a workspace found where each CLI keeps them (Gemini's
// projects registry and markers, Qwen's folder names), listed as each lists them, and a compacted
// session written back into each (checked with the real CLIs by `npm run test:agents`): from a
// session of the same agent, of Claude Code and of Codex.

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importClaudeCode } from '../../src/engine/conversation/importers/claudeCode';
import { importCodex } from '../../src/engine/conversation/importers/codex';
import { importGeminiCli } from '../../src/engine/conversation/importers/geminiCli';
import { importQwenCode } from '../../src/engine/conversation/importers/qwenCode';
import type { Conversation } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { tokenReport } from '../../src/engine/tokens/report';
import { findGeminiSessions } from '../../src/sessions/agents/gemini-cli/sessions';
import { findQwenSessions, qwenProjectName } from '../../src/sessions/agents/qwen-code/sessions';
import { resumableAgent } from '../../src/sessions/agents/registry';
import type { SourceContext } from '../../src/sessions/agents/sourceContext';
import { listSessions } from '../../src/sessions/sessionCatalog';
import { inheritedFigures, SESSION_FILE_MODE, writeCompactedSession } from '../../src/sessions/writeSession';
import { bigTurn, claudeLines, codexLines, jsonl, writeFileIn, type Turn } from '../helpers/agentSessions';
import { fixturesDir } from '../helpers/transcripts';

const root = mkdtempSync(join(tmpdir(), 'ctxc-gemini-qwen-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const TURNS: Turn[] = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((t) => bigTurn(t, 60));
const GEMINI = readFileSync(join(fixturesDir, 'gemini-cli-0.61.0-session.jsonl'), 'utf8');
const QWEN = readFileSync(join(fixturesDir, 'qwen-code-0.24.4-session.jsonl'), 'utf8');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ctx = (folders: string[], home: string, env: Record<string, string> = {}): SourceContext => ({
  folders,
  env,
  home,
  globalStorage: [],
  workspaceStorage: [],
});
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function compacted(conv: Conversation) {
  const counter = await createTokenCounter(conv.meta.model);
  return { counter, result: await compactConversation(conv, { counter, archive: new MemoryArchive(), keepRecentRounds: 1, ratio: 0.5 }) };
}

describe('Gemini CLI sessions of a workspace', () => {
  const home = join(root, 'g-home');
  const work = join(root, 'g-work');
  const tmp = join(home, '.gemini', 'tmp');
  const header = (sessionId: string, extra: Record<string, unknown> = {}) => ({
    sessionId,
    projectHash: sha256(work),
    startTime: 't',
    lastUpdated: 't',
    kind: 'main',
    ...extra,
  });
  const context = { id: 'c0', timestamp: 't', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] };

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    writeFileIn(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [work]: 'g-work', [join(root, 'other')]: 'other' } }));
    const chats = join(tmp, 'g-work', 'chats');
    writeFileIn(join(chats, 'session-2026-11-27T02-41-5310d824.jsonl'), GEMINI);
    // A resume in a later minute left this: the header and the session context only.
    writeFileIn(
      join(chats, 'session-2026-11-27T02-42-5310d824.jsonl'),
      jsonl([header('5310d824-6aab-4476-91b2-82ddfbaa05f2'), { $set: { messages: [context] } }]),
    );
    // An older version's single JSON document, resumed since (its .jsonl continues it).
    const doc = { ...header('aaaaaaaa-0000-4000-8000-000000000001'), messages: [{ id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'old' }] }] };
    writeFileIn(join(chats, 'session-2025-01-01T00-00-aaaaaaaa.json'), JSON.stringify(doc, null, 2));
    writeFileIn(join(chats, 'session-2025-01-01T00-00-aaaaaaaa.jsonl'), jsonl([header(doc.sessionId), ...doc.messages]));
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(chats, 'session-2025-01-01T00-00-aaaaaaaa.jsonl'), later, later);
    // A sub-agent's session under its parent's id.
    writeFileIn(
      join(chats, '5310d824-6aab-4476-91b2-82ddfbaa05f2', 'sub-1.jsonl'),
      jsonl([header('sub-1', { kind: 'subagent' }), { id: 'u', timestamp: 't', type: 'user', content: [{ text: 'look up X' }] }]),
    );
    // A project the registry does not name, found by its marker; and another folder's.
    writeFileIn(join(tmp, 'g-work-1', '.project_root'), join(work, 'sub'));
    writeFileIn(
      join(tmp, 'g-work-1', 'chats', 'session-2026-01-01T00-00-bbbbbbbb.jsonl'),
      jsonl([header('bbbbbbbb-1'), { id: 'u', timestamp: 't', type: 'user', content: 'in sub' }]),
    );
    writeFileIn(
      join(tmp, 'other', 'chats', 'session-2026-01-01T00-00-cccccccc.jsonl'),
      jsonl([header('cccccccc-1'), { id: 'u', timestamp: 't', type: 'user', content: 'elsewhere' }]),
    );
  });

  it('are found through the projects registry and the markers, each session once, the stray files a resume leaves left out', async () => {
    const found = await findGeminiSessions(ctx([work], home));
    const byId = Object.fromEntries(found.map((f) => [f.id, f]));
    expect(Object.keys(byId).sort()).toEqual(['5310d824-6aab-4476-91b2-82ddfbaa05f2', 'aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-1', 'sub-1']);
    expect(basename(byId['5310d824-6aab-4476-91b2-82ddfbaa05f2']!.file)).toBe('session-2026-11-27T02-41-5310d824.jsonl');
    expect(byId['aaaaaaaa-0000-4000-8000-000000000001']!.file.endsWith('.jsonl')).toBe(true);
    expect(byId['sub-1']).toMatchObject({ parent: '5310d824-6aab-4476-91b2-82ddfbaa05f2', relation: 'subagent' });
    expect(byId['bbbbbbbb-1']!.cwd).toBe(join(work, 'sub'));
    expect(byId['5310d824-6aab-4476-91b2-82ddfbaa05f2']!.cwd).toBe(work);
  });

  it('are listed with the tokens Gemini CLI recorded for the last request', async () => {
    const sessions = await listSessions({ folders: [work], env: {}, home, agents: { 'gemini-cli': true }, globalStorage: [], workspaceStorage: [] });
    const real = sessions.find((s) => s.id === '5310d824-6aab-4476-91b2-82ddfbaa05f2')!;
    expect(real).toMatchObject({ agent: 'gemini-cli', reportedTokens: 9909, model: 'gemini-3.8-flash', resumable: true });
    expect(real.error).toBeUndefined();
    expect(real.tokens / 9909 - 1).toBeLessThanOrEqual(0.15);
  });

  it('GEMINI_CLI_HOME moves the home folder .gemini is in', async () => {
    const moved = join(root, 'g-moved');
    writeFileIn(
      join(moved, '.gemini', 'tmp', sha256(work), 'chats', 'session-2024-01-01T00-00-dddddddd.jsonl'),
      jsonl([header('dddddddd-1'), context, { id: 'u', timestamp: 't', type: 'user', content: 'hashed folder' }]),
    );
    const found = await findGeminiSessions(ctx([work], join(root, 'nobody'), { GEMINI_CLI_HOME: moved }));
    expect(found.map((f) => f.id)).toEqual(['dddddddd-1']);
  });
});

describe('Qwen Code sessions of a workspace', () => {
  const home = join(root, 'q-home');
  const work = join(root, 'q', 'ws');

  it('are found in the folder named after the path (QWEN_RUNTIME_DIR, QWEN_HOME), a sibling’s folder left out', async () => {
    mkdirSync(work, { recursive: true });
    const fixture = QWEN.split('/tmp/ctxc-fixture-qwen/work').join(work);
    writeFileIn(join(home, '.qwen', 'projects', qwenProjectName(work), 'chats', 'dd32b60b-6ca2-41b4-bcf0-8264b866dfda.jsonl'), fixture);
    const sibling = `${work}-two`;
    writeFileIn(join(home, '.qwen', 'projects', qwenProjectName(sibling), 'chats', 'e1.jsonl'), fixture.split(work).join(sibling));
    const found = await findQwenSessions(ctx([work], home));
    expect(found.map((f) => [f.id, f.cwd])).toEqual([['dd32b60b-6ca2-41b4-bcf0-8264b866dfda', work]]);
    expect(await findQwenSessions(ctx([work], join(root, 'nobody'), { QWEN_HOME: join(home, '.qwen') }))).toHaveLength(1);
    expect(await findQwenSessions(ctx([work], join(root, 'nobody'), { QWEN_RUNTIME_DIR: join(home, '.qwen'), QWEN_HOME: '/nowhere' }))).toHaveLength(1);
    const [listed] = await listSessions({ folders: [work], env: {}, home, agents: { 'qwen-code': true }, globalStorage: [], workspaceStorage: [] });
    expect(listed).toMatchObject({ agent: 'qwen-code', reportedTokens: 15199, agentVersion: '0.24.4' });
  });
});

describe('a compacted session written back into Gemini CLI', () => {
  const home = join(root, 'gw-home');
  const work = join(root, 'gw-work');
  mkdirSync(work, { recursive: true });

  it('from a Claude Code session: a new project marked as the folder’s, the summary in <state_snapshot>, the turns as Gemini content, no usage', async () => {
    const conv = importClaudeCode(jsonl(claudeLines({ sessionId: 'claude-orig', cwd: work, turns: TURNS }))).conversation;
    const { result, counter } = await compacted(conv);
    // The first id drawn ends an existing file's name: Gemini CLI's cleanup would delete both.
    const chats = join(home, '.gemini', 'tmp', 'gw-work', 'chats');
    writeFileIn(join(chats, 'session-2026-01-01T00-00-11111111.jsonl'), 'not a session\n');
    const ids = ['11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb'];
    let n = 0;
    const newUuid = () => ids[n++] ?? `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
    const w = await writeCompactedSession('gemini-cli', conv, result, {
      env: {},
      home,
      fallbackCwd: root,
      sourceFile: 'claude-orig.jsonl',
      now: new Date('2026-02-01T10:05:00Z'),
      newUuid,
      inherited: inheritedFigures(conv, tokenReport(conv.messages, counter, conv.meta), 'gemini-cli'),
    });
    expect(w.id).toBe(ids[1]);
    expect(w.file).toBe(join(chats, 'session-2026-02-01T10-05-22222222.jsonl'));
    expect(w.resume).toBe(`gemini -r ${ids[1]}`);
    expect(statSync(w.file).mode & 0o777).toBe(SESSION_FILE_MODE);
    expect(readFileSync(join(dirname(chats), '.project_root'), 'utf8')).toBe(work);
    const [head, summary, ack, ...rest] = lines(w.file);
    expect(head).toMatchObject({
      sessionId: ids[1],
      projectHash: sha256(work),
      kind: 'main',
      contextCompactor: { from: 'claude-orig', file: 'claude-orig.jsonl', inherited: { overhead: resumableAgent('gemini-cli')!.resume.overheadEstimate } },
    });
    expect((summary!['content'] as { text: string }[])[0]!.text).toMatch(/^<state_snapshot>\nThis session is being continued/);
    expect(ack).toMatchObject({ type: 'gemini', content: 'Got it. Thanks for the additional context!' });
    const call = rest.find((r) => Array.isArray(r['content']) && (r['content'] as { functionCall?: unknown }[]).some((p) => p.functionCall))!;
    const [fc] = (call['content'] as { functionCall: { id: string; name: string; args: unknown } }[]).filter((p) => p.functionCall);
    expect(fc!.functionCall).toMatchObject({ name: 'Bash', args: { command: 'cat notes-echo.txt' } });
    const answer = rest[rest.indexOf(call) + 1]!;
    expect((answer['content'] as { functionResponse: { id: string; name: string } }[])[0]!.functionResponse).toMatchObject({
      id: fc!.functionCall.id,
      name: 'Bash',
    });
    expect(readFileSync(w.file, 'utf8')).not.toContain('"tokens"');
    // What Gemini CLI will send, read back with its own rules: the summary and the last user turn.
    const read = importGeminiCli(readFileSync(w.file, 'utf8')).conversation;
    // Metered with Gemini CLI's own overhead estimate until it answers.
    expect(read.meta.inherited).toEqual({ overhead: resumableAgent('gemini-cli')!.resume.overheadEstimate });
    const back = read.messages;
    expect(back.some((m) => m.itemType === 'COMPACTION_SUMMARY')).toBe(true);
    expect(back.filter((m) => m.itemType === 'USER_MESSAGE').at(-1)!.content).toEqual([{ type: 'text', text: TURNS.at(-1)!.user }]);
  });

  it('from a Gemini CLI session: in the project Gemini CLI registered, with its model', async () => {
    writeFileIn(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [work]: 'registered' } }));
    const conv = importGeminiCli(GEMINI).conversation;
    const { result } = await compacted(conv);
    const w = await writeCompactedSession('gemini-cli', conv, result, { env: {}, home, cwd: work, fallbackCwd: root });
    expect(dirname(w.file)).toBe(join(home, '.gemini', 'tmp', 'registered', 'chats'));
    expect(lines(w.file).some((r) => r['model'] === 'gemini-3.8-flash')).toBe(true);
    // Gemini CLI renders the session context anew: it is not written back.
    expect(readFileSync(w.file, 'utf8')).not.toContain('<session_context>');
    expect(lines(w.file)[0]).toMatchObject({ contextCompactor: { from: '5310d824-6aab-4476-91b2-82ddfbaa05f2' } });
    // Listed under the session it came from.
    writeFileIn(join(home, '.gemini', 'tmp', 'registered', 'chats', 'session-2026-11-27T02-41-5310d824.jsonl'), GEMINI);
    const listed = await listSessions({ folders: [work], env: {}, home, agents: { 'gemini-cli': true }, globalStorage: [], workspaceStorage: [] });
    const mine = listed.find((s) => s.id === w.id)!;
    expect(mine).toMatchObject({ parent: '5310d824-6aab-4476-91b2-82ddfbaa05f2', relation: 'compacted' });
  });
});

describe('a compacted session written back into Qwen Code', () => {
  const home = join(root, 'qw-home');
  const work = join(root, 'qw-work');
  mkdirSync(work, { recursive: true });

  it('from a Codex rollout: one chain of records in the folder’s chats, tool results as tool_result records, no usage figure', async () => {
    const conv = importCodex(jsonl(codexLines({ id: 'codex-orig', cwd: work, turns: TURNS }))).conversation;
    const { result, counter } = await compacted(conv);
    const w = await writeCompactedSession('qwen-code', conv, result, {
      env: {},
      home,
      fallbackCwd: root,
      inherited: inheritedFigures(conv, tokenReport(conv.messages, counter, conv.meta), 'qwen-code'),
    });
    expect(w.file).toBe(join(home, '.qwen', 'projects', qwenProjectName(work), 'chats', `${w.id}.jsonl`));
    expect(w.resume).toBe(`qwen -r ${w.id}`);
    const recs = lines(w.file);
    recs.forEach((r, i) => {
      expect(r).toMatchObject({ sessionId: w.id, cwd: work, version: resumableAgent('qwen-code')!.versions!.oldest });
      expect(r['parentUuid']).toBe(i === 0 ? null : recs[i - 1]!['uuid']);
    });
    expect(recs[0]).toMatchObject({
      type: 'user',
      provenance: 'real_user',
      contextCompactor: { from: 'codex-orig', inherited: { overhead: resumableAgent('qwen-code')!.resume.overheadEstimate } },
    });
    expect(recs[1]).toMatchObject({ type: 'assistant', message: { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] } });
    const result0 = recs.find((r) => r['type'] === 'tool_result')!;
    expect(result0).toMatchObject({ provenance: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { name: 'exec_command' } }] } });
    expect(readFileSync(w.file, 'utf8')).not.toContain('usageMetadata');
    const back = importQwenCode(readFileSync(w.file, 'utf8')).conversation;
    expect(back.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    expect(back.meta.reportedUsage).toBeUndefined();
    expect(back.meta.inherited).toEqual({ overhead: resumableAgent('qwen-code')!.resume.overheadEstimate });
  });

  it('from a Qwen Code session: listed under its original', async () => {
    const fixture = QWEN.split('/tmp/ctxc-fixture-qwen/work').join(work);
    const original = join(home, '.qwen', 'projects', qwenProjectName(work), 'chats', 'dd32b60b-6ca2-41b4-bcf0-8264b866dfda.jsonl');
    writeFileIn(original, fixture);
    const conv = importQwenCode(fixture).conversation;
    const { result } = await compacted(conv);
    const w = await writeCompactedSession('qwen-code', conv, result, { env: {}, home, fallbackCwd: root });
    expect(lines(w.file)[1]).toMatchObject({ model: 'fake-model' });
    const listed = await listSessions({ folders: [work], env: {}, home, agents: { 'qwen-code': true }, globalStorage: [], workspaceStorage: [] });
    expect(listed.find((s) => s.id === w.id)).toMatchObject({ parent: 'dd32b60b-6ca2-41b4-bcf0-8264b866dfda', relation: 'compacted' });
    expect(readdirSync(dirname(original))).toHaveLength(3);
  });
});
