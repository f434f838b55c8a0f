// A Gemini CLI or Qwen Code session compacted into a new one of the same agent is metered, before
// the agent has answered in it, with what it inherited from its original: the model it ran with
// and what the agent sends that the file does not hold (measured from the original's recorded
// usage; for Gemini CLI also the <session_context> the CLI renders anew, which the new file leaves
// out) — so `ctxc count` of the new session shows what `ctxc compact` promised (±3%). Once the
// agent records usage in it, that usage is the meter's basis again.

import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { qwenProjectName } from '../../src/sessions/agents/qwen-code/sessions';
import { bigTurn, jsonl, writeFileIn, type Turn } from '../helpers/agentSessions';

const root = mkdtempSync(join(tmpdir(), 'ctxc-meter-gq-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const work = join(root, 'work');
mkdirSync(work, { recursive: true });
const TURNS: Turn[] = ['alpha', 'bravo', 'charlie', 'delta'].map((t) => bigTurn(t, 30));
/** What each CLI sends beside the messages (system prompt, tools), as its first request records. */
const OVERHEAD = 9_000;
/** A generous token figure for what was sent (above our count: a recorded usage below it is not used). */
const sent = (chars: number) => OVERHEAD + Math.ceil(chars / 2);
const CONTEXT = `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n${Array.from(
  { length: 40 },
  (_, i) => `  - ${work}/src/module-${i}.ts`,
).join('\n')}\n</session_context>`;

interface Count {
  model: string;
  window: number;
  total: number;
  overhead: number;
  reported: { tokens: number } | null;
  inherited: { model?: string; overhead?: number; window?: number } | null;
  implausible: unknown;
}

async function ctxc(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = { code: 0, out: '', err: '' };
  const io: CliIO = { out: (t) => void (r.out += t), err: (t) => void (r.err += t), env: { HOME: home }, cwd: work };
  r.code = await main(args, io);
  return r;
}

async function count(file: string): Promise<Count> {
  const r = await ctxc(['count', file, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as Count;
}

/** `ctxc compact FILE --to agent`, then the counts of the original and of the new session. */
async function compactInto(file: string, agent: string) {
  const before = await count(file);
  const r = await ctxc(['compact', file, '--to', agent, '--format', 'json']);
  expect(r.code, r.err).toBe(0);
  const j = JSON.parse(r.out) as { file: string; tokensAfter: number; notInFile: { before: number; after: number; afterSource: string } };
  return { before, written: j, after: await count(j.file) };
}

const within3 = (value: number, expected: number) => expect(Math.abs(value - expected) / expected, `${value} against ${expected}`).toBeLessThanOrEqual(0.03);

/** A Gemini CLI 0.61 session: header, the session context, then per turn the request, a tool turn
 *  (written with its toolCalls, then its results as a user message, which a resume sends again)
 *  and the answer, each answer recording the input tokens of its request — with `resent` more after
 *  the first turn: what the CLI's resumes sent again beyond what the file shows. */
function geminiSession(id: string, model: string, resent = 0): string {
  let t = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 1, 0, 0, t++)).toISOString();
  let chars = CONTEXT.length;
  let extra = 0;
  const tokens = () => ({ input: sent(chars) + extra, output: 10, cached: 0, thoughts: 0, tool: 0, total: sent(chars) + extra + 10 });
  const hash = createHash('sha256').update(work).digest('hex');
  const records: unknown[] = [
    { sessionId: id, projectHash: hash, startTime: ts(), lastUpdated: ts(), kind: 'main' },
    { $set: { messages: [{ id: 'ctx', timestamp: ts(), type: 'user', content: [{ text: CONTEXT }] }] } },
  ];
  TURNS.forEach((turn, i) => {
    chars += turn.user.length;
    records.push({ id: `u${i}`, timestamp: ts(), type: 'user', content: [{ text: turn.user }] });
    const call = { id: `call_${i}`, name: 'run_shell_command', args: { command: turn.tool.input['command'] } };
    const response = [{ functionResponse: { id: call.id, name: call.name, response: { output: turn.tool.output } } }];
    records.push({
      id: `g${i}`,
      timestamp: ts(),
      type: 'gemini',
      content: '',
      thoughts: [],
      tokens: tokens(),
      model,
      toolCalls: [{ ...call, result: response, status: 'success' }],
    });
    records.push({ id: `r${i}`, timestamp: ts(), type: 'user', content: response });
    chars += turn.tool.output.length + 60;
    records.push({ id: `a${i}`, timestamp: ts(), type: 'gemini', content: turn.answer, thoughts: [], tokens: tokens(), model });
    chars += turn.answer.length;
    extra = resent;
  });
  return jsonl(records);
}

/** A Qwen Code 0.24 session: one parentUuid chain of user, assistant (with usageMetadata) and
 *  tool_result records. */
function qwenSession(id: string, model: string): string {
  let n = 0;
  let parent: string | null = null;
  let chars = 0;
  const records: Record<string, unknown>[] = [];
  const add = (r: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    records.push({
      uuid,
      parentUuid: parent,
      sessionId: id,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      cwd: work,
      version: '0.24.4',
      ...r,
    });
    parent = uuid;
  };
  const usage = () => ({ promptTokenCount: sent(chars), candidatesTokenCount: 10, totalTokenCount: sent(chars) + 10, cachedContentTokenCount: 0 });
  TURNS.forEach((turn, i) => {
    chars += turn.user.length;
    add({ type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text: turn.user }] } });
    const call = { id: `call_${i}`, name: 'run_shell_command', args: { command: turn.tool.input['command'] } };
    add({ type: 'assistant', model, message: { role: 'model', parts: [{ functionCall: call }] }, usageMetadata: usage() });
    add({
      type: 'tool_result',
      provenance: 'tool_result',
      message: { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: turn.tool.output } } }] },
    });
    chars += turn.tool.output.length + 60;
    add({ type: 'assistant', model, message: { role: 'model', parts: [{ text: turn.answer }] }, usageMetadata: usage() });
    chars += turn.answer.length;
  });
  return jsonl(records);
}

describe('a Gemini CLI session compacted into Gemini CLI', () => {
  const id = '5310d824-6aab-4476-91b2-000000000001';
  const file = writeFileIn(join(home, '.gemini', 'tmp', 'work', 'chats', 'session-2026-01-01T00-00-5310d824.jsonl'), geminiSession(id, 'gemini-2.5-pro'));
  writeFileIn(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [work]: 'work' } }));

  it('is metered with its original’s model and overhead plus the session context it leaves out, until Gemini CLI records usage in it', async () => {
    const { before, written, after } = await compactInto(file, 'gemini-cli');
    expect(before).toMatchObject({ model: 'gemini-2.5-pro', window: 1_048_576, implausible: null });
    expect(before.reported).not.toBeNull();
    expect(written.notInFile).toMatchObject({ before: before.overhead, afterSource: 'reported' });
    const text = readFileSync(written.file, 'utf8');
    expect(text).not.toContain('<session_context>');
    // Each tool turn's result once: the copies the CLI resends (its results are recorded twice) are
    // counted in the original, not written back.
    expect(text.split('"functionResponse":{"id":"call_3"').length - 1).toBe(1);
    // The model and window it ran with, not a default; the overhead measured on the original's
    // first request (the system prompt and tools: OVERHEAD, and what our count and the figure's
    // tokenizer make differently of the first messages) plus the session context the new file
    // leaves out (Gemini CLI renders it anew).
    expect(after).toMatchObject({ model: 'gemini-2.5-pro', window: 1_048_576, reported: null, inherited: { model: 'gemini-2.5-pro' } });
    expect(after.inherited!.overhead).toBeGreaterThan(OVERHEAD + 300);
    expect(after.overhead).toBe(after.inherited!.overhead);
    // What `ctxc compact` promised holds it too.
    expect(written.notInFile.after).toBe(after.inherited!.overhead);
    within3(after.total, written.tokensAfter);

    // Gemini CLI answers in the new session: its recorded usage is the basis from then on.
    const answer = {
      id: 'new-answer',
      timestamp: '2026-02-01T00:00:00Z',
      type: 'gemini',
      content: 'Done.',
      tokens: { input: after.total + 250, output: 3 },
      model: 'gemini-2.5-pro',
    };
    appendFileSync(written.file, JSON.stringify({ id: 'new-user', timestamp: '2026-02-01T00:00:00Z', type: 'user', content: [{ text: 'go on' }] }) + '\n');
    appendFileSync(written.file, JSON.stringify(answer) + '\n');
    const answered = await count(written.file);
    expect(answered.reported?.tokens).toBe(after.total + 250);
    expect(answered.total).toBeGreaterThanOrEqual(after.total + 250);
  });

  it('inherits what the first recorded request held besides its messages, not what later resumes sent again beyond the file', async () => {
    // The same session, except that every request after the first turn held 5,000 tokens more than
    // the file shows (a resume resends earlier tool results, more often than it records them).
    const resentId = '5310d824-6aab-4476-91b2-000000000002';
    const resentFile = writeFileIn(
      join(home, '.gemini', 'tmp', 'work', 'chats', 'session-2026-01-01T00-01-5310d824.jsonl'),
      geminiSession(resentId, 'gemini-2.5-pro', 5_000),
    );
    const plain = await compactInto(file, 'gemini-cli');
    const resent = await compactInto(resentFile, 'gemini-cli');
    // The original is metered from its last request, resends and all: its next one sends them again.
    expect(resent.before.overhead).toBeGreaterThanOrEqual(plain.before.overhead + 5_000);
    // The new session is not resumed from the history the resends came from: it inherits the system
    // prompt and tools the first request measured (and the session context it leaves out).
    expect(resent.after.inherited!.overhead).toBe(plain.after.inherited!.overhead);
    expect(resent.written.notInFile.after).toBe(resent.after.inherited!.overhead);
    within3(resent.after.total, resent.written.tokensAfter);
  });
});

describe('a Qwen Code session compacted into Qwen Code', () => {
  const id = 'dd32b60b-6ca2-41b4-bcf0-000000000001';
  const file = writeFileIn(join(home, '.qwen', 'projects', qwenProjectName(work), 'chats', `${id}.jsonl`), qwenSession(id, 'qwen3-coder-plus'));

  it('is metered with its original’s model and overhead until Qwen Code records usage in it', async () => {
    const { before, written, after } = await compactInto(file, 'qwen-code');
    expect(before).toMatchObject({ model: 'qwen3-coder-plus', implausible: null });
    expect(before.reported).not.toBeNull();
    expect(written.notInFile).toMatchObject({ before: before.overhead, after: before.overhead, afterSource: 'reported' });
    expect(after).toMatchObject({
      model: 'qwen3-coder-plus',
      window: before.window,
      reported: null,
      inherited: { model: 'qwen3-coder-plus', overhead: before.overhead },
    });
    expect(after.overhead).toBe(before.overhead);
    within3(after.total, written.tokensAfter);

    // Qwen Code answers in the new session: its usage is the basis from then on.
    const last = JSON.parse(readFileSync(written.file, 'utf8').trimEnd().split('\n').at(-1)!) as { uuid: string; sessionId: string };
    const next = { parentUuid: last.uuid, sessionId: last.sessionId, timestamp: '2026-02-01T00:00:00Z', cwd: work, version: '0.24.4' };
    appendFileSync(written.file, JSON.stringify({ ...next, uuid: 'u-next', type: 'user', message: { role: 'user', parts: [{ text: 'go on' }] } }) + '\n');
    const usage = { promptTokenCount: after.total + 250, candidatesTokenCount: 3, totalTokenCount: after.total + 253 };
    appendFileSync(
      written.file,
      JSON.stringify({
        ...next,
        parentUuid: 'u-next',
        uuid: 'a-next',
        type: 'assistant',
        model: 'qwen3-coder-plus',
        message: { role: 'model', parts: [{ text: 'Done.' }] },
        usageMetadata: usage,
      }) + '\n',
    );
    const answered = await count(written.file);
    expect(answered.reported?.tokens).toBe(after.total + 250);
    expect(answered.total).toBeGreaterThanOrEqual(after.total + 250);
  });
});
