// The Copilot CLI agent module (src/sessions/agents/copilot-cli/): its sessions found for a
// workspace (by the cwd in workspace.yaml, else in session.start; COPILOT_HOME), a compacted
// session written as the session folder the real CLI resumes (checked with it by `npm run
// test:agents`), its hooks file added and removed exactly (the hook itself: copilotCliHook.test.ts).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importCopilotCli } from '../../src/engine/conversation/importers/copilotCli';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { isUserAuthored, messageText } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { agentById } from '../../src/sessions/agents/registry';
import {
  addCopilotHooks,
  copilotHookCommandLine,
  copilotHookFiles,
  hasCopilotHooks,
  removeCopilotHooks,
} from '../../src/sessions/agents/copilot-cli/hookSettings';
import { parseWorkspaceYaml, yamlScalar } from '../../src/sessions/agents/copilot-cli/sessions';
import { SettingsShapeError } from '../../src/sessions/claudeHook/hookSettings';
import { listSessions } from '../../src/sessions/sessionCatalog';
import { writeCompactedSession } from '../../src/sessions/writeSession';
import { bigTurn, writeFileIn } from '../helpers/agentSessions';
import { repoRoot } from '../helpers/transcripts';
import { README_CLI_PLACEHOLDER, readmeBlock } from '../../scripts/agents/readme.mjs';

const root = mkdtempSync(join(tmpdir(), 'ctxc-copilot-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const work = join(root, 'work space');
const other = join(root, 'other');
const state = join(home, '.copilot', 'session-state');
const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'copilot-cli', 'events.jsonl'), 'utf8');
const FIXTURE_ID = 'c7ef6441-c502-462f-9c6f-03976003c6c8';

/** The captured session moved to `cwd` (its events name the folder it ran in). */
const placed = (cwd: string) => fixture.split('/tmp/fx/cop/work').join(cwd);

let n = 0;
const ev = (type: string, data: Record<string, unknown>) =>
  JSON.stringify({ type, data, id: `e${++n}`, timestamp: new Date(1_800_000_000_000 + n).toISOString(), parentId: `e${n - 1}` });

/** A Copilot session of `turns`: each a request, a `view` of a file, its result, an answer. */
function copilotEvents(id: string, cwd: string, turns = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 40))): string {
  const out = [
    ev('session.start', { sessionId: id, copilotVersion: '1.0.102', selectedModel: 'fake-model', context: { cwd } }),
    ev('system.message', { role: 'system', content: 'You are the GitHub Copilot CLI.' }),
  ];
  turns.forEach((t, k) => {
    out.push(ev('user.message', { content: t.user, transformedContent: `<current_datetime>T</current_datetime>\n\n${t.user}` }));
    out.push(
      ev('assistant.message', {
        messageId: `a${k}`,
        content: '',
        toolRequests: [{ toolCallId: `call_${k}`, name: 'view', arguments: { path: `${cwd}/notes-${k}.txt` } }],
      }),
    );
    out.push(ev('tool.execution_complete', { toolCallId: `call_${k}`, success: true, result: { content: t.tool.output } }));
    out.push(ev('session.usage_record', { usage: { inputTokens: 1000 * (k + 1), maxPromptTokens: 128000 } }));
    out.push(ev('assistant.message', { messageId: `b${k}`, content: t.answer, toolRequests: [] }));
  });
  return `${out.join('\n')}\n`;
}

beforeAll(() => {
  mkdirSync(work, { recursive: true });
  writeFileIn(join(state, FIXTURE_ID, 'events.jsonl'), placed(work));
  writeFileIn(join(state, FIXTURE_ID, 'workspace.yaml'), `id: ${FIXTURE_ID}\ncwd: ${yamlScalar(work)}\nname: 'TURN-alpha: always answer in English'\n`);
  // No workspace.yaml: the cwd is read from session.start.
  writeFileIn(join(state, '11111111-1111-4111-8111-111111111111', 'events.jsonl'), copilotEvents('11111111-1111-4111-8111-111111111111', join(work, 'sub')));
  writeFileIn(join(state, '22222222-2222-4222-8222-222222222222', 'events.jsonl'), copilotEvents('22222222-2222-4222-8222-222222222222', other));
  mkdirSync(join(state, '.session-operation-locks'), { recursive: true });
});

describe('Copilot CLI sessions of a workspace', () => {
  it("are found by the folder they ran in, and metered from Copilot's usage records", async () => {
    const list = await listSessions({
      folders: [work],
      env: {},
      home,
      globalStorage: [],
      workspaceStorage: [],
      agents: { 'claude-code': false, codex: false },
    });
    const copilot = list.filter((s) => s.agent === 'copilot-cli');
    expect(copilot.map((s) => s.id).sort()).toEqual(['11111111-1111-4111-8111-111111111111', FIXTURE_ID]);
    const s = copilot.find((x) => x.id === FIXTURE_ID)!;
    expect(s).toMatchObject({ reportedTokens: 12214, resumable: true, agentVersion: '1.0.102' });
    expect(s.error).toBeUndefined();
    // The title is the person's first request, not the date line Copilot put before it.
    expect(s.title).toMatch(/^TURN-alpha: always answer in English\. Read the alpha notes/);
    expect(s.historyTokens).toBeGreaterThan(0);
    expect(s.tokens).toBeGreaterThanOrEqual(12214);
    expect(s.tokens).toBeLessThanOrEqual(12214 * 1.15);
  });

  it('COPILOT_HOME moves where they are looked for', async () => {
    const moved = join(root, 'copilot-home');
    writeFileIn(
      join(moved, 'session-state', '33333333-3333-4333-8333-333333333333', 'events.jsonl'),
      copilotEvents('33333333-3333-4333-8333-333333333333', work),
    );
    const list = await listSessions({
      folders: [work],
      env: { COPILOT_HOME: moved },
      home,
      globalStorage: [],
      workspaceStorage: [],
      agents: { 'claude-code': false, codex: false },
    });
    expect(list.filter((s) => s.agent === 'copilot-cli').map((s) => s.id)).toEqual(['33333333-3333-4333-8333-333333333333']);
  });

  it('reads the scalars of workspace.yaml, quoted or not', () => {
    expect(parseWorkspaceYaml('id: abc\ncwd: \'/tmp/it\'\'s here\'\nname: "say \\"hi\\""\nsummary_count: 1 # note\nlist:\n  - x\n')).toEqual({
      id: 'abc',
      cwd: "/tmp/it's here",
      name: 'say "hi"',
      summary_count: '1',
    });
  });
});

/** Long early turns and a short last one: the last round fits the compaction's budget whole. */
const LONG_TURNS = [...['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 120)), bigTurn('echo', 4)];

describe('a compacted session written for Copilot CLI', () => {
  const newId = '44444444-4444-4444-8444-444444444444';
  let written: Awaited<ReturnType<typeof writeCompactedSession>>;
  let original: ReturnType<typeof importCopilotCli>['conversation'];
  let text: string;

  beforeAll(async () => {
    original = importCopilotCli(copilotEvents('55555555-5555-4555-8555-555555555555', work, LONG_TURNS), { sourcePath: 'orig/events.jsonl' }).conversation;
    const counter = await createTokenCounter(original.meta.model);
    const result = await compactConversation(original, { counter, archive: new MemoryArchive(), keepRecentRounds: 1 });
    let k = 0;
    written = await writeCompactedSession('copilot-cli', original, result, {
      env: {},
      home,
      fallbackCwd: root,
      sourceFile: 'events.jsonl',
      inherited: { overhead: 10_304, window: 128_000 },
      now: new Date('2026-11-27T10:00:00.000Z'),
      newUuid: () => (k++ === 0 ? newId : `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`),
    });
    text = readFileSync(written.file, 'utf8');
  });

  it('is a new session folder with events.jsonl and workspace.yaml, private, resumed by id', () => {
    expect(written).toMatchObject({
      agent: 'copilot-cli',
      id: newId,
      cwd: work,
      resume: `copilot --resume=${newId}`,
      file: join(state, newId, 'events.jsonl'),
    });
    for (const f of ['events.jsonl', 'workspace.yaml']) expect(statSync(join(state, newId, f)).mode & 0o777).toBe(0o600);
    expect(parseWorkspaceYaml(readFileSync(join(state, newId, 'workspace.yaml'), 'utf8'))).toMatchObject({ id: newId, cwd: work, client_name: 'github/cli' });
  });

  it('starts a chain of events (session.start, the compaction) that Copilot replays to the summary and the last turn', () => {
    const events = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown>; id: string; parentId: string | null });
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['session.start', 'session.compaction_start', 'session.compaction_complete']);
    events.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : events[i - 1]!.id));
    expect(events[0]!.data).toMatchObject({
      sessionId: newId,
      producer: 'copilot-agent',
      copilotVersion: '1.0.102',
      context: { cwd: work },
      contextCompactor: { sessionId: '55555555-5555-4555-8555-555555555555', file: 'events.jsonl' },
    });
    const read = importTranscript(text).conversation;
    expect(read.format).toBe('copilot-cli');
    // Metered with what the original measured until Copilot records usage of its own.
    expect(read.meta.inherited).toEqual({ overhead: 10_304, window: 128_000 });
    expect(messageText(read.messages[0]!)).toMatch(
      /^Some of the conversation history has been summarized to free up context\.\n\nHere is a summary of the prior context:\n<summary>\n/,
    );
    expect(read.messages.filter(isUserAuthored).map(messageText).at(-1)).toBe(original.messages.filter(isUserAuthored).map(messageText).at(-1));
    // The kept turn's tool call goes back with its result, paired.
    const call = read.messages.find((m) => m.toolCalls?.length)!;
    expect(call.toolCalls![0]).toMatchObject({ name: 'view', arguments: JSON.stringify({ path: `${work}/notes-4.txt` }) });
    expect(read.messages.find((m) => m.toolResult)?.toolResult?.toolCallId).toBe(call.toolCalls![0]!.id);
  });

  it('is listed under the session it came from', async () => {
    writeFileIn(join(state, '55555555-5555-4555-8555-555555555555', 'events.jsonl'), copilotEvents('55555555-5555-4555-8555-555555555555', work, LONG_TURNS));
    const list = await listSessions({
      folders: [work],
      env: {},
      home,
      globalStorage: [],
      workspaceStorage: [],
      agents: { 'claude-code': false, codex: false },
    });
    const c = list.find((s) => s.id === newId)!;
    expect(c).toMatchObject({ parent: '55555555-5555-4555-8555-555555555555', relation: 'compacted' });
    expect(list.find((s) => s.id === '55555555-5555-4555-8555-555555555555')!.children).toContain(newId);
  });

  it('leaves nothing behind when its workspace.yaml cannot be written', async () => {
    const taken = '66666666-6666-4666-8666-666666666666';
    writeFileIn(join(state, taken, 'workspace.yaml'), 'someone else\n');
    const counter = await createTokenCounter(original.meta.model);
    const result = await compactConversation(original, { counter, archive: new MemoryArchive(), keepRecentRounds: 1 });
    await expect(writeCompactedSession('copilot-cli', original, result, { env: {}, home, fallbackCwd: root, newUuid: () => taken })).rejects.toThrow(
      /already there/,
    );
    expect(existsSync(join(state, taken, 'events.jsonl'))).toBe(false);
    expect(readFileSync(join(state, taken, 'workspace.yaml'), 'utf8')).toBe('someone else\n');
  });
});

describe("Copilot CLI's hooks file", () => {
  const command = copilotHookCommandLine('/opt/ctxc/dist/cli.js', { maxTokens: 900 });

  it('runs `ctxc hook copilot-cli` with the settings that differ from the defaults', () => {
    expect(command).toBe('node "/opt/ctxc/dist/cli.js" hook copilot-cli --max-tokens 900');
    expect(agentById('copilot-cli')!.hooks!.commandLine('/x/cli.js')).toBe('node "/x/cli.js" hook copilot-cli');
    expect(copilotHookFiles({ env: {}, home: '/h' })).toEqual([{ path: '/h/.copilot/hooks/context-compactor.json', scope: 'user', ownFile: true }]);
    expect(copilotHookFiles({ env: { COPILOT_HOME: '/c' }, home: '/h' })[0]!.path).toBe('/c/hooks/context-compactor.json');
  });

  it('is added as Copilot reads it, replaces an earlier install, and keeps what else is there', () => {
    const handler = { type: 'command', bash: command, timeoutSec: 30 };
    expect(addCopilotHooks({}, command)).toEqual({
      settings: { version: 1, hooks: { preCompact: [handler], userPromptSubmitted: [handler] } },
      removed: 0,
      added: 2,
    });
    const mine = { type: 'command', bash: 'echo mine' };
    const existing = { version: 1, hooks: { preCompact: [mine, { type: 'command', bash: 'node "/old/cli.js" hook copilot-cli' }], sessionEnd: [mine] } };
    const change = addCopilotHooks(existing, command);
    expect(change).toMatchObject({ removed: 1, added: 2 });
    expect(change.settings['hooks']).toEqual({ preCompact: [mine, handler], sessionEnd: [mine], userPromptSubmitted: [handler] });
    expect(hasCopilotHooks(change.settings)).toBe(true);
    const back = removeCopilotHooks(change.settings);
    expect(back).toMatchObject({ removed: 2, empty: false, settings: { version: 1, hooks: { preCompact: [mine], sessionEnd: [mine] } } });
    expect(hasCopilotHooks(back.settings)).toBe(false);
  });

  it("is the README's snippet for setting it up by hand (which npm run test:agents installs in the real Copilot CLI)", () => {
    expect(JSON.parse(readmeBlock(repoRoot, 'copilot-cli-hooks', 'json'))).toEqual(
      addCopilotHooks({}, copilotHookCommandLine(README_CLI_PLACEHOLDER)).settings,
    );
  });

  it('says when nothing but ours was in it (the file is then removed)', () => {
    expect(removeCopilotHooks(addCopilotHooks({}, command).settings)).toMatchObject({ removed: 2, empty: true });
  });

  it.each([
    ['not an object', [1]],
    ['another version', { version: 2, hooks: {} }],
    ['hooks that are not an object', { version: 1, hooks: [] }],
    ['an event that is not a list', { version: 1, hooks: { preCompact: { bash: 'x' } } }],
  ])('refuses a file that is %s', (_what, value) => {
    expect(() => addCopilotHooks(value, command)).toThrow(SettingsShapeError);
  });
});
