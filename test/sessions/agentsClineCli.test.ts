// Cline CLI 3.x in the Cline agent module: its sessions found for a workspace and resumable (the
// VS Code extension's tasks are not: they stay handoffs), and a compacted session written as the
// session folder the real CLI lists and resumes (checked with it by `npm run test:agents`): the
// messages file with the summary and the recent turns as Cline stores them, and the manifest its
// history needs.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { isUserAuthored, messageText, type Conversation } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { clineSessionId } from '../../src/sessions/agents/cline/write';
import { listSessions } from '../../src/sessions/sessionCatalog';
import { writeCompactedSession } from '../../src/sessions/writeSession';
import { bigTurn, writeFileIn, type Turn } from '../helpers/agentSessions';

const root = mkdtempSync(join(tmpdir(), 'ctxc-cline-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const work = join(root, 'work');
const sessions = join(home, '.cline', 'data', 'sessions');
const globalStorage = join(root, 'Code', 'User', 'globalStorage');

/** A Cline CLI session as 3.0.65 stores it: each turn a wrapped request, a `read_files` call, its
 *  `{query, result, success}` result, an answer with the metrics of its request. */
function clineSession(id: string, cwd: string, turns: Turn[]): { manifest: object; messages: object } {
  const messages: object[] = [];
  turns.forEach((t, k) => {
    messages.push({ id: `u${k}`, role: 'user', content: [{ type: 'text', text: `<user_input mode="act">${t.user}</user_input>` }], ts: 1_800_000_000_000 + k });
    messages.push({
      id: `a${k}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id: `call_${k}`, name: 'read_files', input: { files: [{ path: `${cwd}/notes-${k}.txt` }] } }],
      modelInfo: { id: 'fake-model', provider: 'openai-compatible' },
      metrics: { inputTokens: 5000 + 1000 * k, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    messages.push({
      id: `r${k}`,
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `call_${k}`,
          name: 'read_files',
          content: [{ query: `${cwd}/notes-${k}.txt`, result: t.tool.output, success: true }],
        },
      ],
    });
    messages.push({
      id: `b${k}`,
      role: 'assistant',
      content: [{ type: 'text', text: t.answer }],
      modelInfo: { id: 'fake-model', provider: 'openai-compatible' },
    });
  });
  const messagesPath = join(sessions, id, `${id}.messages.json`);
  return {
    manifest: {
      version: 1,
      session_id: id,
      source: 'cli',
      pid: 1,
      status: 'completed',
      provider: 'openai-compatible',
      model: 'fake-model',
      cwd,
      workspace_root: cwd,
      prompt: `<user_input mode="act">${turns[0]!.user}</user_input>`,
      metadata: { title: turns[0]!.user },
      messages_path: messagesPath,
    },
    messages: {
      version: 1,
      agent: 'lead',
      sessionId: id,
      origin: { source: 'cli', version: '3.0.65' },
      messages,
      system_prompt: 'You are Cline, an AI coding agent.',
    },
  };
}

function place(id: string, cwd: string, turns: Turn[]): string {
  const s = clineSession(id, cwd, turns);
  writeFileIn(join(sessions, id, `${id}.json`), JSON.stringify(s.manifest));
  const file = join(sessions, id, `${id}.messages.json`);
  writeFileIn(file, JSON.stringify(s.messages));
  return file;
}

const TURNS = [...['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 120)), bigTurn('echo', 4)];
const query = {
  folders: [work],
  env: {},
  home,
  globalStorage: [globalStorage],
  workspaceStorage: [],
  agents: { 'claude-code': false, codex: false, 'copilot-cli': false },
};

beforeAll(() => {
  mkdirSync(work, { recursive: true });
  place('1800000000000_orig1', work, TURNS);
  // A task of the VS Code extension in the same workspace.
  writeFileIn(
    join(globalStorage, 'saoudrizwan.claude-dev', 'tasks', 'task-1', 'api_conversation_history.json'),
    JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>fix it</task>' }] }]),
  );
  writeFileIn(
    join(globalStorage, 'saoudrizwan.claude-dev', 'state', 'taskHistory.json'),
    JSON.stringify([{ id: 'task-1', task: 'fix it', cwdOnTaskInitialization: work }]),
  );
});

describe('Cline CLI sessions of a workspace', () => {
  it('are listed resumable, titled by the request without its wrapper, metered from the last metrics', async () => {
    const list = await listSessions(query);
    const cli = list.find((s) => s.id === '1800000000000_orig1')!;
    expect(cli).toMatchObject({ agent: 'cline', resumable: true, reportedTokens: 9000, agentVersion: '3.0.65', model: 'fake-model', title: TURNS[0]!.user });
    expect(Math.abs(cli.tokens - 9000)).toBeLessThanOrEqual(9000 * 0.15);
    // The extension's task is Cline's too, and takes a handoff.
    expect(list.find((s) => s.id === 'task-1')).toMatchObject({ agent: 'cline', resumable: false });
  });
});

describe('a compacted session written for Cline CLI', () => {
  let original: Conversation;
  let written: Awaited<ReturnType<typeof writeCompactedSession>>;
  let manifest: Record<string, unknown>;
  let stored: { sessionId: string; messages: { role: string; content: { type: string; text?: string; name?: string; tool_use_id?: string }[] }[] };

  beforeAll(async () => {
    const file = join(sessions, '1800000000000_orig1', '1800000000000_orig1.messages.json');
    original = importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
    const counter = await createTokenCounter(original.meta.model);
    const result = await compactConversation(original, { counter, archive: new MemoryArchive(), keepRecentRounds: 1 });
    written = await writeCompactedSession('cline', original, result, {
      env: {},
      home,
      fallbackCwd: work,
      cwd: work,
      sourceFile: '1800000000000_orig1.messages.json',
      inherited: { model: 'fake-model', overhead: 5_400 },
      now: new Date(1_800_000_100_000),
      newUuid: () => '0a1b2c3d-0000-4000-8000-000000000001',
    });
    manifest = JSON.parse(readFileSync(join(sessions, written.id, `${written.id}.json`), 'utf8')) as Record<string, unknown>;
    stored = JSON.parse(readFileSync(written.file, 'utf8')) as typeof stored;
  });

  it("gets an id of Cline's kind and a folder with the messages and the manifest, both private", () => {
    expect(written.id).toBe(clineSessionId(new Date(1_800_000_100_000), '0a1b2c3d-0000-4000-8000-000000000001'));
    expect(written.id).toMatch(/^1800000100000_[0-9a-z]{5}$/);
    expect(written).toMatchObject({ agent: 'cline', resume: `cline --id ${written.id}`, file: join(sessions, written.id, `${written.id}.messages.json`) });
    for (const f of [`${written.id}.json`, `${written.id}.messages.json`]) expect(statSync(join(sessions, written.id, f)).mode & 0o777).toBe(0o600);
  });

  it('has the manifest fields `cline history` needs, and names the session it came from', () => {
    expect(manifest).toMatchObject({
      session_id: written.id,
      source: 'cli',
      pid: 0,
      status: 'completed',
      provider: 'openai-compatible',
      model: 'fake-model',
      cwd: work,
      workspace_root: work,
      enable_tools: true,
      enable_spawn: true,
      enable_teams: true,
      messages_path: written.file,
      metadata: { contextCompactor: { sessionId: '1800000000000_orig1', file: '1800000000000_orig1.messages.json' } },
    });
  });

  it('stores the summary, then the recent turns as Cline does: wrapped requests, named tool results', () => {
    expect(stored.sessionId).toBe(written.id);
    expect(stored.messages[0]!.content[0]!.text).toMatch(/^This session is being continued from a previous conversation/);
    // After the summary (which names the latest request too).
    const request = stored.messages.slice(1).find((m) => m.content.some((b) => b.text?.includes('TURN-echo')));
    expect(request?.content[0]!.text).toBe(`<user_input mode="act">${TURNS[4]!.user}</user_input>`);
    const result = stored.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result')!;
    expect(result).toMatchObject({ name: 'read_files', tool_use_id: 'call_4' });
    // Read back as the CLI sends it: the summary, then the last request unwrapped.
    const read = importTranscript(readFileSync(written.file, 'utf8')).conversation;
    expect(read.messages[0]!.itemType).toBe('COMPACTION_SUMMARY');
    // Metered with what the original measured until Cline records usage of its own.
    expect(read.meta.inherited).toEqual({ model: 'fake-model', overhead: 5_400 });
    expect(read.messages.filter(isUserAuthored).map(messageText).at(-1)).toBe(TURNS[4]!.user);
  });

  it('is listed under the session it came from', async () => {
    const list = await listSessions(query);
    expect(list.find((s) => s.id === written.id)).toMatchObject({ parent: '1800000000000_orig1', relation: 'compacted', resumable: true });
    expect(list.find((s) => s.id === '1800000000000_orig1')!.children).toContain(written.id);
  });
});
