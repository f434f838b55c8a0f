// The Claude Code hook (`ctxc hook claude-code`) run by the real Claude Code CLI, offline, installed
// from the README's own settings.json snippet (the path of this repository's dist/cli.js put in):
//
//   1. a real session long enough to compact (a standing instruction, a todo list, an error and its
//      fix, files read), `/compact` sent through the CLI, the fake model answering the compaction
//      request with a deliberately lossy summary; the next request the CLI sends must carry the
//      facts the hook put back, and the summary itself must not;
//   2. a compaction loop: a fake model that reports a nearly full window (usage.input_tokens
//      990,000) makes the CLI compact automatically on every turn; the loop guard lets three through
//      and blocks the fourth. Claude Code 2.1.328 does not print a PreCompact reason for an
//      automatic compaction (it says "Prompt is too long"; its TUI "Context limit reached · /compact
//      or /clear to continue"): the reason is checked where the CLI puts it, its debug log;
//   3. the same session compacted AUTOMATICALLY: the last answer reports a nearly full window
//      (usage.input_tokens 990,000), so the next prompt makes the CLI compact before it sends it.
//      The CLI writes the summary only after its SessionStart hooks, and sends the request right
//      after: that request must carry the facts the lossy summary lost (the hook's unchecked
//      restore), and the prompt after it the repair checked against the summary, which the hook
//      finds through the attachment lines the CLI puts between the boundary and the summary;
//   4. the shared kiliman Claude Code session compacted by a lossy summary through the real CLI:
//      which facts were missing from the summary and which the hook restored (printed).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { README_CLI_PLACEHOLDER, readmeBlock } from './readme.mjs';

/** Claude Code's compaction request ends with its summary prompt. */
const COMPACTION_PROMPT = /CRITICAL: Respond with TEXT ONLY|create a detailed summary of the conversation so far/;
/** What the restore starts with (src/engine/validate/restoreFacts.ts RESTORE_LEAD). */
const RESTORE_LEAD = 'Context Compactor: facts from the conversation before the compaction that the summary does not mention';
/** What the restore made before the summary was written starts with (RESTORE_LEAD_UNCHECKED). */
const RESTORE_LEAD_UNCHECKED = 'Context Compactor: facts from the conversation before the compaction, taken from the session transcript';
/** The usage that makes Claude Code compact by itself before its next request (AGENTS.md). */
const FULL_WINDOW = 990_000;
const LOSSY_SUMMARY = '<analysis>Short.</analysis>\n<summary>LOSSY-SUMMARY: the user reviews a ledger; the work goes on.</summary>';

/** The README's settings.json entry for the hooks, with `cliPath` in place of the placeholder. */
export function readmeHookSettings(repoRoot, cliPath) {
  const text = readmeBlock(repoRoot, 'claude-code-hooks', 'json').split(README_CLI_PLACEHOLDER).join(cliPath.replace(/\\/g, '\\\\'));
  return JSON.parse(text);
}

function lastUserText(body) {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : (last.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function isCompaction(body) {
  return COMPACTION_PROMPT.test(lastUserText(body));
}

/** The turn a request belongs to (its last TURN-<name> prompt) and how many tool results came since. */
function turnStep(body) {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m.role !== 'user') continue;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    const named = blocks.map((b) => (b.type === 'text' ? /TURN-([a-z]+)/.exec(b.text) : null)).find(Boolean);
    if (!named) continue;
    let results = 0;
    for (const later of msgs.slice(i + 1)) if (Array.isArray(later.content)) results += later.content.filter((b) => b.type === 'tool_result').length;
    return { turn: named[1], step: results };
  }
  return undefined;
}

function notes(turn) {
  return Array.from({ length: 120 }, (_, i) => `${turn.toUpperCase()}-NOTE-LINE-${i + 1}: the ${turn} ledger row ${i + 1} holds ${(i * 7919) % 1000}`).join(
    '\n',
  );
}

function narrative(turn) {
  return Array.from({ length: 30 }, (_, i) => `${turn.toUpperCase()}-ANSWER-${i + 1} restates row ${i + 1} of the ${turn} notes.`).join(' ');
}

const bash = (command, description) => ({ tool: { name: 'Bash', input: { command, description } } });

/** The session: each turn a prompt and the model's steps (tool calls, then an answer). */
const REPAIR_TURNS = {
  alpha: {
    prompt: 'From now on, always run the ledger check with --strict before you report. TURN-alpha: plan the ledger review and read notes-alpha.txt.',
    steps: [
      {
        tool: {
          name: 'TodoWrite',
          input: {
            todos: [
              { content: 'LEDGER-TODO-ONE reconcile the alpha ledger', status: 'in_progress', activeForm: 'Reconciling' },
              { content: 'LEDGER-TODO-TWO write the bravo report', status: 'pending', activeForm: 'Writing' },
            ],
          },
        },
      },
      bash('cat notes-alpha.txt', 'read the alpha notes'),
      { text: narrative('alpha') },
    ],
  },
  bravo: {
    prompt: 'TURN-bravo: run the ledger check (node check.js) and fix what fails.',
    steps: [
      bash('node check.js', 'run the ledger check'),
      bash('touch ledger.fixed', 'mark the ledger fixed'),
      bash('node check.js', 'run the ledger check again'),
      { text: 'Fixed: the ledger check passes now that ledger.fixed exists.' },
    ],
  },
  charlie: {
    prompt: 'Never push the ledger branch to main. TURN-charlie: read notes-charlie.txt.',
    steps: [bash('cat notes-charlie.txt', 'read the charlie notes'), { text: narrative('charlie') }],
  },
  delta: { prompt: 'TURN-delta: read notes-delta.txt.', steps: [bash('cat notes-delta.txt', 'read the delta notes'), { text: narrative('delta') }] },
};

/** Facts of the session the lossy summary does not hold, and a text each restore must show. */
const LOST_FACTS = [
  'always run the ledger check with --strict before you report',
  'Never push the ledger branch to main',
  'LEDGER-TODO-TWO write the bravo report',
  'LEDGER-CHECK-FAILED row 42 does not balance',
  'notes-alpha.txt',
];

function repairReply(body) {
  if (isCompaction(body)) return { text: LOSSY_SUMMARY };
  const at = turnStep(body);
  const turn = at && REPAIR_TURNS[at.turn];
  if (!turn) return { text: 'RESUMED-OK: continuing from where the session stopped.' };
  return turn.steps[Math.min(at.step, turn.steps.length - 1)];
}

function prepareRepairWorkspace(work) {
  for (const t of Object.keys(REPAIR_TURNS)) writeFileSync(join(work, `notes-${t}.txt`), `${notes(t)}\n`);
  writeFileSync(
    join(work, 'check.js'),
    "const fs = require('fs');\nif (!fs.existsSync('ledger.fixed')) { console.error('Error: LEDGER-CHECK-FAILED row 42 does not balance'); process.exit(1); }\nconsole.log('ledger ok');\n",
  );
}

function installHooks(h, work) {
  mkdirSync(join(work, '.claude'), { recursive: true });
  writeFileSync(join(work, '.claude', 'settings.json'), `${JSON.stringify(readmeHookSettings(h.repoRoot, h.CLI), null, 2)}\n`);
}

function hookEnv(h, root, home, server) {
  return { ...h.claudeEnv(home, server), XDG_STATE_HOME: join(root, 'state') };
}

function stateOf(root, session) {
  const dir = join(root, 'state', 'context-compactor', 'claude-code');
  const read = (name) => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      return undefined;
    }
  };
  return {
    state: read(`${session}.json`),
    repair: read(`${session}.repair.json`),
    log: (() => {
      try {
        return readFileSync(join(root, 'state', 'context-compactor', 'hook.log'), 'utf8');
      } catch {
        return '';
      }
    })(),
  };
}

function sessionIdIn(h, home) {
  const files = h.onlyFile(join(home, '.claude', 'projects'), /^[0-9a-f-]{36}\.jsonl$/);
  h.check(files.length === 1, `expected one Claude Code session file, found ${files.length}`);
  return {
    file: files[0],
    id: files[0]
      .split('/')
      .pop()
      .replace(/\.jsonl$/, ''),
  };
}

/** The summary line Claude Code wrote after the last boundary. */
function writtenSummary(file) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const b = lines.map((o) => o.type === 'system' && o.subtype === 'compact_boundary').lastIndexOf(true);
  const s = b < 0 ? undefined : lines.slice(b).find((o) => o.isCompactSummary === true);
  return s ? (typeof s.message.content === 'string' ? s.message.content : JSON.stringify(s.message.content)) : undefined;
}

async function hookRepair(h) {
  return h.inSandbox('hook', repairReply, 'hook-repair', async ({ root, home, work, server }) => {
    prepareRepairWorkspace(work);
    installHooks(h, work);
    const env = hookEnv(h, root, home, server);
    const turns = Object.entries(REPAIR_TURNS);
    await h.mustRun('hook-turn-1', h.agents.claude, ['-p', turns[0][1].prompt, '--allowedTools', 'Bash'], { cwd: work, env });
    const { file, id } = sessionIdIn(h, home);
    for (let i = 1; i < turns.length; i++)
      await h.mustRun(`hook-turn-${i + 1}`, h.agents.claude, ['-p', '--resume', id, turns[i][1].prompt, '--allowedTools', 'Bash'], { cwd: work, env });
    const before = readFileSync(file, 'utf8');
    h.check(
      before.includes('LEDGER-CHECK-FAILED') && before.includes('TodoWrite') && before.includes('ledger ok'),
      'the session does not hold the failed check, the todo list and the fixed check',
      file,
    );

    const n0 = server.modelRequests('anthropic').length;
    await h.mustRun('hook-compact', h.agents.claude, ['-p', '--resume', id, '/compact'], { cwd: work, env });
    const compactRequests = h.requestsSince(server, 'anthropic', n0).filter((r) => isCompaction(r.body));
    h.check(compactRequests.length === 1, `/compact sent ${compactRequests.length} compaction requests, expected 1`);
    const summary = writtenSummary(file);
    h.check(summary && summary.includes('LOSSY-SUMMARY'), 'Claude Code did not write the lossy summary after a compact boundary', file);
    for (const f of LOST_FACTS) h.check(!summary.includes(f), `the lossy summary holds "${f}" (the test would mean nothing)`);
    const afterCompact = stateOf(root, id);
    h.check(
      afterCompact.state?.compactions?.length === 1 &&
        afterCompact.state.compactions[0].trigger === 'manual' &&
        afterCompact.state.compactions[0].tokens > 1000,
      'PreCompact did not record the manual compaction with its size',
      JSON.stringify(afterCompact.state),
    );
    h.check(afterCompact.state.pending, 'SessionStart left no repair pending (did Claude Code write the summary before the hook this time?)', afterCompact.log);

    const n1 = server.modelRequests('anthropic').length;
    await h.mustRun('hook-next-prompt', h.agents.claude, ['-p', '--resume', id, 'TURN-echo: what is left to do?'], { cwd: work, env });
    const next = h.requestsSince(server, 'anthropic', n1)[0];
    h.check(next, 'the next prompt sent no request');
    h.check(h.includes(next.raw, RESTORE_LEAD), "the next request does not carry the hook's restore", next.raw.slice(0, 300));
    h.check(h.includes(next.raw, 'LOSSY-SUMMARY'), 'the next request does not carry the native summary');
    for (const f of LOST_FACTS) h.check(h.includes(next.raw, f), `the next request lacks a fact the summary lost: "${f}"`);
    const done = stateOf(root, id);
    h.check(!done.state.pending && done.repair?.lines?.length > 0, 'the hook did not record its repair', JSON.stringify(done.state));
    h.saveBody('hook-repair-next-request', next);
    h.log(
      `  the lossy summary lost ${done.repair.missing} of ${done.repair.facts} must-keep facts; the hook put back ${done.repair.lines.length} lines (${done.repair.tokens} tokens) with the next prompt`,
    );
  });
}

/** The same session, compacted automatically: the last answer of turn delta reports a full window. */
function autoReply(body) {
  if (isCompaction(body)) return { text: LOSSY_SUMMARY };
  const at = turnStep(body);
  const turn = at && REPAIR_TURNS[at.turn];
  if (!turn) return { text: 'RESUMED-OK: continuing from where the session stopped.' };
  const last = at.step >= turn.steps.length - 1;
  const step = turn.steps[Math.min(at.step, turn.steps.length - 1)];
  return at.turn === 'delta' && last ? { ...step, inputTokens: FULL_WINDOW } : step;
}

async function hookAutoRepair(h) {
  return h.inSandbox('hook-auto', autoReply, 'hook-auto', async ({ root, home, work, server }) => {
    prepareRepairWorkspace(work);
    installHooks(h, work);
    const env = hookEnv(h, root, home, server);
    const turns = Object.entries(REPAIR_TURNS);
    await h.mustRun('hook-auto-turn-1', h.agents.claude, ['-p', turns[0][1].prompt, '--allowedTools', 'Bash'], { cwd: work, env });
    const { file, id } = sessionIdIn(h, home);
    for (let i = 1; i < turns.length; i++)
      await h.mustRun(`hook-auto-turn-${i + 1}`, h.agents.claude, ['-p', '--resume', id, turns[i][1].prompt, '--allowedTools', 'Bash'], { cwd: work, env });
    h.check(!stateOf(root, id).state?.compactions?.length, 'Claude Code compacted before the full window was reported', stateOf(root, id).log);

    // The next prompt: Claude Code compacts by itself first, then sends the prompt.
    const n0 = server.modelRequests('anthropic').length;
    await h.mustRun('hook-auto-next-prompt', h.agents.claude, ['-p', '--resume', id, 'TURN-echo: what is left to do?'], { cwd: work, env });
    const sent = h.requestsSince(server, 'anthropic', n0);
    const compactions = sent.filter((r) => isCompaction(r.body));
    h.check(compactions.length === 1, `the prompt after a full window made ${compactions.length} compaction requests, expected 1 automatic one`);
    const pre = stateOf(root, id);
    const entry = pre.state?.compactions?.[0];
    h.check(
      entry?.trigger === 'auto' && entry.tokens === FULL_WINDOW && entry.tokensFrom === 'usage',
      'PreCompact did not record an automatic compaction at the recorded usage',
      JSON.stringify(pre.state),
    );
    const summary = writtenSummary(file);
    h.check(summary && summary.includes('LOSSY-SUMMARY'), 'Claude Code did not write the lossy summary after an automatic compact boundary', file);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const b = lines.findIndex((o) => o.type === 'system' && o.subtype === 'compact_boundary');
    const between = lines
      .slice(
        b + 1,
        lines.findIndex((o) => o.isCompactSummary === true),
      )
      .filter((o) => o.uuid)
      .map((o) => o.attachment?.type ?? o.type);
    const next = sent.find((r) => !isCompaction(r.body));
    h.check(next, 'no request followed the automatic compaction');
    h.check(h.includes(next.raw, 'LOSSY-SUMMARY'), 'the request after the automatic compaction does not carry the native summary');
    h.check(
      h.includes(next.raw, RESTORE_LEAD_UNCHECKED),
      "the request after the automatic compaction does not carry the hook's restore",
      next.raw.slice(0, 300),
    );
    for (const f of LOST_FACTS) h.check(h.includes(next.raw, f), `the request after the automatic compaction lacks a fact the summary lost: "${f}"`);
    h.saveBody('hook-auto-next-request', next);

    // The prompt after: the repair checked against the summary, now on disk.
    await h.mustRun('hook-auto-prompt-after', h.agents.claude, ['-p', '--resume', id, 'TURN-foxtrot: and now?'], { cwd: work, env });
    const done = stateOf(root, id);
    h.check(!done.state.pending && done.repair?.missing > 0, 'the hook did not check its restore against the summary at the next prompt', done.log);
    h.check(/summary found on its chain/.test(done.log), 'the hook did not find the summary through the chain', done.log);
    const sized = done.state.compactions[0];
    h.check(sized.tokensFrom === 'preTokens' && sized.tokens > FULL_WINDOW, "the compaction's size is not Claude Code's preTokens", JSON.stringify(sized));
    h.log(`  between the boundary and the summary Claude Code wrote: ${between.join(', ')}`);
    h.log(
      `  the request after the automatic compaction carried all ${LOST_FACTS.length} lost facts (${done.repair.unchecked.tokens} tokens put back unchecked); ` +
        `checked at the next prompt: the summary lost ${done.repair.missing} of ${done.repair.facts} must-keep facts, ${done.repair.lines.length} more lines put back; ` +
        `size ${FULL_WINDOW.toLocaleString('en-US')} (recorded usage) → ${sized.tokens.toLocaleString('en-US')} (compactMetadata.preTokens)`,
    );
  });
}

async function loopGuard(h) {
  const reply = (body) =>
    isCompaction(body) ? { text: '<summary>LOOP-SUMMARY: a short summary.</summary>', inputTokens: 1000 } : { text: 'LOOP-REPLY', inputTokens: 990_000 };
  return h.inSandbox('loop', reply, 'hook-loop', async ({ root, home, work, server }) => {
    installHooks(h, work);
    const env = hookEnv(h, root, home, server);
    const outputs = [];
    const compactionsAt = [];
    const debugLog = join(root, 'claude-debug.log');
    let id;
    for (let turn = 1; turn <= 5; turn++) {
      const n0 = server.modelRequests('anthropic').length;
      const args = turn === 1 ? ['-p', `LOOP-TURN-${turn}`] : ['-p', '--resume', id, `LOOP-TURN-${turn}`, ...(turn === 5 ? ['--debug-file', debugLog] : [])];
      const r = await h.run(`hook-loop-turn-${turn}`, h.agents.claude, args, { cwd: work, env });
      h.check(!r.timedOut, `loop turn ${turn} timed out`, r.logFile);
      outputs.push(`${r.stdout}\n${r.stderr}`.trim());
      if (turn === 1) id = sessionIdIn(h, home).id;
      compactionsAt.push(h.requestsSince(server, 'anthropic', n0).filter((q) => isCompaction(q.body)).length);
    }
    const { state, log } = stateOf(root, id);
    const auto = (state?.compactions ?? []).filter((c) => c.trigger === 'auto');
    h.check(
      compactionsAt.join(',') === '0,1,1,1,0',
      `compaction requests per turn: ${compactionsAt.join(',')}, expected 0,1,1,1,0 (three let through, the fourth blocked)`,
      log,
    );
    h.check(
      auto.length === 4 && auto.slice(0, 3).every((c) => !c.blocked) && auto[3].blocked === true,
      'the hook state does not show three automatic compactions and a blocked fourth',
      JSON.stringify(state),
    );
    h.check(/blocked an automatic compaction .*3 already in the last 10 minutes/.test(log), 'the hook log does not say it blocked the fourth', log);
    const debug = readFileSync(debugLog, 'utf8');
    const said =
      /Compaction blocked by PreCompact hook: \[[^\]]*hook claude-code\]: (Context Compactor stopped this automatic compaction: it would be the 4th in 10 minutes[^\n"]*)/.exec(
        debug,
      );
    h.check(said, "Claude Code's debug log does not carry the loop guard's reason for the blocked fourth compaction", debugLog);
    h.log(`  compaction requests per turn: ${compactionsAt.join(', ')}; the fifth turn printed ${JSON.stringify(outputs[4].slice(0, 120))}`);
    h.log(`  Claude Code's debug log: "Compaction blocked by PreCompact hook: …: ${said[1].slice(0, 160)}…"`);
  });
}

async function sharedRepair(h, rel) {
  return h.inSandbox(
    'hook-shared',
    (body) => (isCompaction(body) ? { text: LOSSY_SUMMARY } : { text: 'RESUMED-OK' }),
    'hook-shared',
    async ({ root, home, work, server }) => {
      installHooks(h, work);
      const env = hookEnv(h, root, home, server);
      const id = randomUUID();
      const projectDir = join(home, '.claude', 'projects', work.replace(/[^a-zA-Z0-9]/g, '-'));
      mkdirSync(projectDir, { recursive: true });
      const placed = h.placeTranscript(readFileSync(join(h.transcriptsDir, rel), 'utf8'), id, work);
      const file = join(projectDir, `${id}.jsonl`);
      writeFileSync(file, placed.text);
      await h.mustRun('hook-shared-compact', h.agents.claude, ['-p', '--resume', id, '/compact'], { cwd: work, env });
      const summary = writtenSummary(file);
      h.check(summary && summary.includes('LOSSY-SUMMARY'), `${rel}: Claude Code did not write the lossy summary`);
      const n1 = server.modelRequests('anthropic').length;
      await h.mustRun('hook-shared-next', h.agents.claude, ['-p', '--resume', id, 'What is left to do?'], { cwd: work, env });
      const next = h.requestsSince(server, 'anthropic', n1)[0];
      h.check(next && h.includes(next.raw, RESTORE_LEAD), `${rel}: the next request does not carry the hook's restore`);
      const { repair, state } = stateOf(root, id);
      h.check(repair && repair.lines.length > 0, `${rel}: the hook recorded no repair`, JSON.stringify(state));
      for (const l of repair.lines) h.check(h.includes(next.raw, l.line), `${rel}: a restored line is not in the next request`, l.line.slice(0, 160));
      h.saveBody('hook-shared-next-request', next);
      const pre = state.compactions[0];
      h.log(
        `  ${rel}: ${pre.tokens.toLocaleString('en-US')} tokens before /compact (${pre.tokensFrom === 'preTokens' ? "Claude Code's compactMetadata.preTokens" : 'the usage Claude Code recorded'}); ${repair.facts} must-keep facts, ${repair.missing} missing from the lossy summary`,
      );
      h.log(
        `  restored ${repair.lines.length} lines + ${repair.covered.length} facts held by them, ${repair.tokens} tokens (cap 2,000); left out by the cap: ${repair.omitted.length}`,
      );
      for (const l of repair.lines) h.log(`    [${l.category}] ${l.line.slice(0, 200)}`);
    },
  );
}

export function hookScenarios(h) {
  return [
    ['Claude Code hook: /compact with a lossy summary; the facts it lost are in the next request', () => hookRepair(h)],
    ['Claude Code hook: an automatic compaction; the request right after it carries what the summary lost', () => hookAutoRepair(h)],
    ['Claude Code hook: a compaction loop (a nearly full window every turn) stopped by the loop guard after three', () => loopGuard(h)],
    [
      'Claude Code hook: the shared kiliman session compacted by a lossy summary; what the hook restored',
      () => sharedRepair(h, 'claude-code/kiliman__claude-transcript__test2.jsonl'),
    ],
  ];
}
