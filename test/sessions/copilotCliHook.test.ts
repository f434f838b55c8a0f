// `ctxc hook copilot-cli` (src/sessions/agents/copilot-cli/copilotHook.ts): the must-keep facts of
// what Copilot's compaction replaced put back at the next prompt, a loop of automatic compactions
// told to the person (exit 2: the only way Copilot shows a hook's words), sizes as Copilot recorded
// them, and the state kept through the Claude Code hook's locked state (runs at once lose nothing).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTORE_LEAD } from '../../src/engine/validate/restoreFacts';
import { runCopilotCliHook } from '../../src/sessions/agents/copilot-cli/copilotHook';
import { readSessionState } from '../../src/sessions/claudeHook/hookState';
import { writeFileIn } from '../helpers/agentSessions';
import { repoRoot } from '../helpers/transcripts';

const root = mkdtempSync(join(tmpdir(), 'ctxc-copilot-hook-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const ev = (type: string, data: Record<string, unknown>) =>
  JSON.stringify({ type, data, id: `e${++n}`, timestamp: new Date(1_800_000_000_000 + n).toISOString(), parentId: `e${n - 1}` });

describe('ctxc hook copilot-cli', () => {
  const opts = { maxTokens: 2000, loopLimit: 2, loopMinutes: 10, stateDir: join(root, 'hook-state') };
  const session = '77777777-7777-4777-8777-777777777777';
  const file = join(root, 'hook-session', 'events.jsonl');
  const at = (min: number) => () => new Date(Date.UTC(2026, 10, 27, 10, min));

  /** A session whose second turn read a file the person never named, then Copilot's compaction with
   *  a summary that forgets it. */
  function beforeCompaction(): string {
    n = 100;
    return [
      ev('session.start', { sessionId: session, copilotVersion: '1.0.102', context: { cwd: '/w' } }),
      ev('user.message', { content: 'TURN-alpha: read the alpha notes.', transformedContent: 'TURN-alpha: read the alpha notes.' }),
      ev('assistant.message', { messageId: 'a1', content: '', toolRequests: [{ toolCallId: 'c1', name: 'view', arguments: { path: '/w/notes-alpha.txt' } }] }),
      ev('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'ALPHA-NOTE-LINE-1' } }),
      ev('assistant.message', { messageId: 'a2', content: 'Read.', toolRequests: [] }),
      ev('user.message', { content: 'TURN-bravo: check the ledger settings.', transformedContent: 'TURN-bravo: check the ledger settings.' }),
      ev('assistant.message', {
        messageId: 'a3',
        content: '',
        toolRequests: [{ toolCallId: 'c2', name: 'view', arguments: { path: '/w/config/ledger.local.json' } }],
      }),
      ev('tool.execution_complete', { toolCallId: 'c2', success: false, error: { message: 'Path does not exist' } }),
      ev('assistant.message', { messageId: 'a4', content: 'The settings file is missing.', toolRequests: [] }),
      ev('session.compaction_start', { compactionAttemptId: 'cmp-1', trigger: 'manual' }),
    ].join('\n');
  }
  const completion = (success = true) =>
    ev(
      'session.compaction_complete',
      success
        ? { success: true, outcome: 'applied', compactionAttemptId: 'cmp-1', preCompactionTokens: 5210, summaryContent: 'LOSSY-SUMMARY: a ledger.' }
        : { success: false, outcome: 'cancelled', compactionAttemptId: 'cmp-1' },
    );
  const preCompact = (trigger = 'manual') =>
    JSON.stringify({ sessionId: session, timestamp: 1, cwd: '/w', transcriptPath: file, trigger, customInstructions: '' });
  const prompt = JSON.stringify({ sessionId: session, timestamp: 2, cwd: '/w', prompt: 'TURN-charlie: what is left?' });

  it('puts back at the next prompt the facts of what the compaction replaced that its summary lacks', async () => {
    writeFileIn(file, `${beforeCompaction()}\n`);
    expect(await runCopilotCliHook(preCompact(), { ...opts, now: at(0) })).toEqual({});
    // The compaction has not completed yet: the prompt waits for it.
    expect(await runCopilotCliHook(prompt, { ...opts, now: at(1) })).toEqual({});
    writeFileSync(file, `${beforeCompaction()}\n${completion()}\n`);
    const out = await runCopilotCliHook(prompt, { ...opts, now: at(2) });
    const context = out.output!['additionalContext'] as string;
    expect(context.startsWith(RESTORE_LEAD)).toBe(true);
    expect(context).toContain('ledger.local.json');
    // The requests Copilot quotes in its summary message are not put back again.
    expect(context).not.toContain('TURN-bravo');
    // Once repaired, later prompts add nothing.
    expect(await runCopilotCliHook(prompt, { ...opts, now: at(3) })).toEqual({});
    const details = JSON.parse(readFileSync(join(opts.stateDir, 'copilot-cli', `${session}.repair.json`), 'utf8'));
    expect(details).toMatchObject({ boundary: 'cmp-1', text: context });
  });

  it('does nothing for a compaction that did not apply', async () => {
    const dir = join(root, 'hook-state-cancelled');
    writeFileIn(file, `${beforeCompaction()}\n`);
    await runCopilotCliHook(preCompact(), { ...opts, stateDir: dir, now: at(0) });
    writeFileSync(file, `${beforeCompaction()}\n${completion(false)}\n`);
    expect(await runCopilotCliHook(prompt, { ...opts, stateDir: dir, now: at(1) })).toEqual({});
    expect(readFileSync(join(dir, 'hook.log'), 'utf8')).toContain('did not apply (cancelled or failed); nothing to repair');
  });

  it('tells the person of a loop of automatic compactions (exit 2), and never counts a manual one', async () => {
    const dir = join(root, 'hook-state-loop');
    writeFileIn(file, `${beforeCompaction()}\n`);
    const run = (trigger: string, min: number) => runCopilotCliHook(preCompact(trigger), { ...opts, stateDir: dir, now: at(min) });
    expect(await run('auto', 0)).toEqual({});
    expect(await run('manual', 1)).toEqual({});
    expect(await run('auto', 2)).toEqual({});
    const third = await run('auto', 3);
    expect(third.exitCode).toBe(2);
    expect(third.message).toMatch(
      /^Context Compactor: this is automatic compaction number 3 in 10 minutes .* Copilot CLI does not let a hook stop a compaction/,
    );
    // Outside the window the count starts again.
    expect(await run('auto', 30)).toEqual({});
  });

  it('never throws on input it does not know, and exits 0 for it', async () => {
    expect((await runCopilotCliHook('not json', opts)).message).toMatch(/^ctxc hook: standard input is not JSON/);
    expect((await runCopilotCliHook(JSON.stringify({ sessionId: 's', reason: 'complete' }), opts)).message).toMatch(
      /neither preCompact .* nor userPromptSubmitted/,
    );
    const cli = join(repoRoot, 'dist', 'cli.js');
    const r = spawnSync(process.execPath, [cli, 'hook', 'copilot-cli', '--state-dir', join(root, 'proc-state')], {
      input: '{"sessionId":"s","prompt":"hi"}',
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('as a process, exits 2 with the warning on stderr for the loop (Copilot shows it then)', () => {
    const cli = join(repoRoot, 'dist', 'cli.js');
    const dir = join(root, 'proc-loop');
    const run = () =>
      spawnSync(process.execPath, [cli, 'hook', 'copilot-cli', '--loop-limit', '1', '--state-dir', dir], { input: preCompact('auto'), encoding: 'utf8' });
    expect(run().status).toBe(0);
    const second = run();
    expect(second.status).toBe(2);
    expect(second.stderr).toContain('Context Compactor: this is automatic compaction number 2');
  });

  it("records a compaction's size as Copilot recorded it: its last request's input, then its own preCompactionTokens", async () => {
    const dir = join(root, 'hook-state-size');
    const usage = ev('session.usage_record', { usage: { inputTokens: 4321, outputTokens: 9, maxPromptTokens: 128000 } });
    const sub = ev('session.usage_record', { parentToolCallId: 'c9', usage: { inputTokens: 99999 } });
    const before = `${beforeCompaction().replace(/\n(?=[^\n]*session\.compaction_start)/, `\n${usage}\n${sub}\n`)}\n`;
    writeFileIn(file, before);
    expect(await runCopilotCliHook(preCompact(), { ...opts, stateDir: dir, now: at(0) })).toEqual({});
    expect((await readSessionState(dir, session, 'copilot-cli')).state.compactions).toEqual([
      { at: at(0)().toISOString(), trigger: 'manual', bytes: Buffer.byteLength(before), tokens: 4321, tokensFrom: 'usage' },
    ]);
    writeFileSync(file, `${before}${completion()}\n`);
    await runCopilotCliHook(prompt, { ...opts, stateDir: dir, now: at(1) });
    expect((await readSessionState(dir, session, 'copilot-cli')).state.compactions[0]).toMatchObject({ tokens: 5210, tokensFrom: 'preTokens' });
    const log = readFileSync(join(dir, 'hook.log'), 'utf8');
    expect(log).toContain('manual compaction at 4,321 tokens (the input Copilot recorded for its last request)');
    expect(log).toMatch(/compaction at byte [\d,]+, 5,210 tokens before it \(Copilot's preCompactionTokens\)/);
  });

  it("keeps its state under the Claude Code hook's session lock: runs at once each count the others", async () => {
    const dir = join(root, 'hook-state-race');
    writeFileIn(file, `${beforeCompaction()}\n`);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, k) =>
        runCopilotCliHook(preCompact('auto'), { ...opts, stateDir: dir, now: () => new Date(Date.UTC(2026, 10, 27, 10, 0, k)) }),
      ),
    );
    // loopLimit 2: whatever order the runs took the lock in, two went through and six were told.
    expect(runs.filter((r) => r.exitCode === 2)).toHaveLength(6);
    expect((await readSessionState(dir, session, 'copilot-cli')).state.compactions).toHaveLength(8);
    // Its own folder beside the Claude Code hook's, and no lock left behind.
    expect(readdirSync(dir).sort()).toEqual(['copilot-cli', 'hook.log']);
    expect(readdirSync(join(dir, 'copilot-cli'))).toEqual([`${session}.json`]);
  });

  it('is never held up by a named pipe put in the place of the events file', async () => {
    const dir = join(root, 'hook-state-fifo');
    const fifo = join(root, 'events.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const input = JSON.stringify({ sessionId: session, cwd: '/w', transcriptPath: fifo, trigger: 'auto', customInstructions: '' });
    expect(await runCopilotCliHook(input, { ...opts, stateDir: dir, now: at(0) })).toEqual({});
    expect((await readSessionState(dir, session, 'copilot-cli')).state.compactions).toEqual([{ at: at(0)().toISOString(), trigger: 'auto', bytes: 0 }]);
    expect(await runCopilotCliHook(prompt, { ...opts, stateDir: dir, now: at(1) })).toEqual({});
    const log = readFileSync(join(dir, 'hook.log'), 'utf8');
    expect(log).toContain(`${fifo} is a named pipe (FIFO), not a session file; the compaction is recorded without its size`);
    expect(log).toContain('the pending repair is dropped');
  });
});
