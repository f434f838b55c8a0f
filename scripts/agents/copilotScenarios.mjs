// GitHub Copilot CLI (`@github/copilot`, pinned in src/sessions/agents/testedVersions.json) run
// offline in its documented own-key mode (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL/_API_KEY,
// COPILOT_MODEL) against the fake model server (Chat Completions), with a throwaway HOME. Its binary
// unpacks 235 MB on first start: the unpacked package is kept in .cache/agents/copilot-pkg
// (COPILOT_PKG_CACHE_HOME) across runs (6.5 s → 2.0 s for a fresh HOME here).
//
//   1. a real session: turns that read a notes file (`view`), Copilot's own `/compact` between
//      them; `ctxc sessions` lists it with the usage Copilot recorded for its last request and
//      meters it within −5 %/+15 % of that; `ctxc compact --to copilot-cli` writes a new session
//      folder; `copilot --continue` picks it as the newest and `copilot --resume=<id>` resumes it:
//      the request carries the summary and the last turns, not the summarized ones, and is smaller
//      than the original's;
//   2. the hooks (`ctxc hook copilot-cli`, the README's ~/.copilot/hooks/context-compactor.json):
//      after Copilot's own /compact with a lossy summary, the next prompt carries the facts it lost;
//   3. a loop of automatic compactions (a 16,000-token window and long prompts make Copilot compact
//      on every turn): Copilot shows the hook's warning (it lets no hook stop a compaction).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { README_CLI_PLACEHOLDER, readmeBlock } from './readme.mjs';
import { baseEnv, SECTIONS } from './sessionFixtures.mjs';
import { agentsCacheDir } from './tools.mjs';

/** How Copilot introduces a compaction summary in what it sends. */
const COPILOT_SUMMARY_OPENING = 'Some of the conversation history has been summarized to free up context.';
/** Copilot's own compaction request ends with this prompt. */
const COMPACTION_PROMPT = /Please create a detailed summary of the conversation so far/;
const COPILOT_OWN_SUMMARY = 'COPILOT-OWN-SUMMARY: the alpha and bravo notes were read and restated.';
const LOSSY_SUMMARY = 'LOSSY-SUMMARY: the user reviews a ledger.';
/** What the restore starts with (src/engine/validate/restoreFacts.ts RESTORE_LEAD). */
const RESTORE_LEAD = 'Context Compactor: facts from the conversation before the compaction that the summary does not mention';
/** One Copilot run: it answers at once, but a /compact sometimes waits a minute on its event stream. */
const COPILOT_TIMEOUT_MS = 150_000;
const RESUMED = 'RESUMED-OK: continuing from where the session stopped.';

const TURNS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
/** Copilot's own /compact comes after these turns. */
const OWN_COMPACT_AFTER = 2;

function notesText(turn) {
  return `${Array.from({ length: 120 }, (_, i) => `${turn.toUpperCase()}-NOTE-LINE-${i + 1}: the ${turn} ledger row ${i + 1} holds ${(i * 7919) % 1000}`).join('\n')}\n`;
}

function narrative(turn) {
  return Array.from({ length: 30 }, (_, i) => `${turn.toUpperCase()}-ANSWER-${i + 1} restates row ${i + 1} of the ${turn} notes.`).join(' ');
}

const turnPrompt = (turn) => `TURN-${turn}: read notes-${turn}.txt and restate it.`;

function text(content) {
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text ?? '').join('\n') : '';
}

/** The fake model of the scripted session: a turn's prompt asks for its notes file (`view`), the
 *  tool result gets the long answer, Copilot's compaction request a summary. */
function sessionReply(work) {
  return (body, api) => {
    if (api !== 'chat') return undefined;
    const msgs = body.messages ?? [];
    const last = msgs[msgs.length - 1];
    if (last?.role === 'user' && COMPACTION_PROMPT.test(text(last.content))) return { text: COPILOT_OWN_SUMMARY };
    if (last?.role === 'tool') {
      const user = [...msgs].reverse().find((m) => m.role === 'user' && /TURN-[a-z]+/.test(text(m.content)));
      const turn = user ? [...text(user.content).matchAll(/TURN-([a-z]+)/g)].pop()[1] : undefined;
      return { text: turn ? narrative(turn) : 'done' };
    }
    const turn = /TURN-([a-z]+)/.exec(last?.role === 'user' ? text(last.content) : '')?.[1];
    if (!turn) return { text: RESUMED };
    return { tool: { name: 'view', input: { path: join(work, `notes-${turn}.txt`) } } };
  };
}

function copilotEnv(home, server, extra = {}) {
  return {
    ...baseEnv(home),
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'sk-test',
    COPILOT_MODEL: 'fake-model',
    COPILOT_PKG_CACHE_HOME: join(agentsCacheDir, 'copilot-pkg'),
    ...extra,
  };
}

function sessionDirs(home) {
  const dir = join(home, '.copilot', 'session-state');
  // Session folders are named by their UUID (Copilot keeps `.session-operation-locks` there too).
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && /^[0-9a-f-]{36}$/.test(e.name))
        .map((e) => e.name)
    : [];
}

function events(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The README's hooks file for Copilot CLI, with this repository's dist/cli.js and `flags` put in,
 *  installed where Copilot reads personal hooks. */
function hooksFile(h, home, flags = []) {
  const text = readmeBlock(h.repoRoot, 'copilot-cli-hooks', 'json')
    .split(README_CLI_PLACEHOLDER)
    .join(h.CLI.replace(/\\/g, '\\\\'))
    .split('hook copilot-cli')
    .join(['hook copilot-cli', ...flags].join(' '));
  mkdirSync(join(home, '.copilot', 'hooks'), { recursive: true });
  writeFileSync(join(home, '.copilot', 'hooks', 'context-compactor.json'), `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
}

/** Scenario 1: a real session, metered, compacted by ctxc and resumed by the real CLI. */
async function session(h) {
  const bin = await h.ensureAgent('copilot-cli');
  const version = h.version('copilot-cli');
  let work;
  const reply = (body, api) => sessionReply(work)(body, api);
  return h.inSandbox('copilot', reply, 'copilot-session', async ({ root, home, work: w, server }) => {
    work = w;
    for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), notesText(t));
    const env = copilotEnv(home, server);
    const run = (name, args) => h.mustRun(name, bin, args, { cwd: work, env, timeoutMs: COPILOT_TIMEOUT_MS });
    await run('copilot-turn-1', ['-p', turnPrompt(TURNS[0]), '--allow-all-tools']);
    const ids = sessionDirs(home);
    h.check(ids.length === 1, `Copilot CLI wrote ${ids.length} session folders, expected one`, ids.join(', '));
    const id = ids[0];
    const file = join(home, '.copilot', 'session-state', id, 'events.jsonl');
    for (let i = 1; i < TURNS.length; i++) {
      if (i === OWN_COMPACT_AFTER) {
        const compact = await run('copilot-own-compact', [`--resume=${id}`, '-p', '/compact']);
        h.check(
          /Compacted conversation history/.test(compact.stdout + compact.stderr),
          'Copilot CLI did not compact the session',
          compact.stdout.slice(0, 300),
        );
      }
      await run(`copilot-turn-${i + 1}`, [`--resume=${id}`, '-p', turnPrompt(TURNS[i]), '--allow-all-tools']);
    }
    h.check(sessionDirs(home).length === 1, 'resuming Copilot CLI started a new session instead of appending');
    const written = events(file);
    h.check(
      written.some((e) => e.type === 'session.compaction_complete' && e.data.summaryContent === COPILOT_OWN_SUMMARY),
      'the events hold no compaction with the summary the fake model gave',
    );
    const recorded = written.filter((e) => e.type === 'session.usage_record').pop()?.data.usage.inputTokens;
    h.check(recorded > 0, 'Copilot CLI recorded no usage for its requests');

    // Listed with the usage Copilot recorded, metered within −5 %/+15 % of it.
    const listed = JSON.parse((await h.ctxc('ctxc-sessions-copilot', ['sessions', '--cwd', work, '--json', '--agents', 'copilot-cli'], env, work)).stdout);
    const original = listed.find((s) => s.id === id);
    h.check(original && original.error === null, 'ctxc sessions does not list the Copilot CLI session', JSON.stringify(listed).slice(0, 400));
    h.check(original.reportedTokens === recorded, `ctxc sessions: recorded ${recorded} tokens, listed ${original.reportedTokens}`);
    h.check(
      original.tokens >= recorded * 0.95 && original.tokens <= recorded * 1.15,
      `ctxc sessions meters ${original.tokens} tokens, not within −5 %/+15 % of the ${recorded} Copilot recorded for its last request`,
    );
    h.check(original.historyTokens > 0 && original.agentVersion === version, 'the compacted history or the version is not read', JSON.stringify(original));
    h.log(`  listed: ${original.tokens} tokens (Copilot recorded ${recorded} for its last request), ${original.historyTokens} in history`);

    const copy = join(root, 'home-original');
    cpSync(home, copy, { recursive: true });
    const before = h.fileState(file);
    const compacted = JSON.parse((await h.ctxc('ctxc-compact-copilot', ['compact', file, '--to', 'copilot-cli', '--format', 'json'], env, work)).stdout);
    h.checkUntouched(file, before, 'ctxc compact --to copilot-cli');
    h.check(
      compacted.agent === 'copilot-cli' && compacted.id !== id && existsSync(compacted.file),
      'ctxc compact --to copilot-cli wrote no new session',
      JSON.stringify(compacted),
    );
    h.check(compacted.resume === `copilot --resume=${compacted.id}`, 'the printed resume command is not copilot --resume=<id>', compacted.resume);
    const summaryText = events(compacted.file).find((e) => e.type === 'session.compaction_complete').data.summaryContent;

    const n0 = server.modelRequests('chat').length;
    await h.mustRun('copilot-resume-original', bin, [`--resume=${id}`, '-p', 'continue'], {
      cwd: work,
      env: copilotEnv(copy, server),
      timeoutMs: COPILOT_TIMEOUT_MS,
    });
    const originalRequest = h.requestsSince(server, 'chat', n0)[0];
    // `--continue` takes the newest session: the one ctxc wrote.
    const n1 = server.modelRequests('chat').length;
    const cont = await run('copilot-continue-compacted', ['--continue', '-p', 'continue']);
    const continued = h.requestsSince(server, 'chat', n1)[0];
    const n2 = server.modelRequests('chat').length;
    await run('copilot-resume-compacted', [`--resume=${compacted.id}`, '-p', 'continue']);
    const after = h.requestsSince(server, 'chat', n2)[0];
    h.check(originalRequest && continued && after, 'a resume sent no request to the model');
    h.check(cont.stdout.includes('RESUMED-OK'), 'copilot --continue did not answer', cont.stdout.slice(0, 200));
    const gone = ['CHARLIE-NOTE-LINE-77:', 'CHARLIE-ANSWER-20 '];
    const recent = [turnPrompt('foxtrot'), 'FOXTROT-NOTE-LINE-120', narrative('foxtrot').slice(0, 300)];
    for (const [what, req] of [
      ['copilot --continue', continued],
      ['copilot --resume=<id>', after],
    ]) {
      h.check(h.includes(req.raw, COPILOT_SUMMARY_OPENING), `${what}: the request does not carry Copilot's summary message`);
      for (const s of SECTIONS) h.check(h.includes(req.raw, `## ${s}`), `${what}: the request lacks the summary section "${s}"`);
      h.check(h.includes(req.raw, summaryText.slice(0, 2000)), `${what}: the summary was not sent as written`);
      for (const r of recent) h.check(h.includes(req.raw, r), `${what}: a recent turn is missing from the request`, JSON.stringify(r.slice(0, 100)));
      for (const g of gone) h.check(!h.includes(req.raw, g), `${what}: text of a summarized turn is still in the request`, g);
    }
    h.check(
      gone.every((g) => originalRequest.raw.includes(g)),
      'the original resume did not send the charlie turn (the comparison would mean nothing)',
    );
    h.check(after.bytes < originalRequest.bytes, `the compacted resume request is not smaller (${after.bytes} ≥ ${originalRequest.bytes} bytes)`);
    const shown = after.body.messages.map((m) => {
      const t = text(m.content).replace(/<current_datetime>[^<]*<\/current_datetime>\s*/, '');
      return m.role === 'system' ? 'system' : `${m.role}${t ? ` ${JSON.stringify(t.slice(0, 48))}` : ''}${m.tool_calls ? ' (tool call)' : ''}`;
    });
    h.log(`  resumed request (${after.bytes} bytes, the original's ${originalRequest.bytes}): ${shown.join(', ')}`);

    const relisted = JSON.parse(
      (await h.ctxc('ctxc-sessions-copilot-after', ['sessions', '--cwd', work, '--json', '--agents', 'copilot-cli'], env, work)).stdout,
    );
    const o = relisted.find((s) => s.id === id);
    const c = relisted.find((s) => s.id === compacted.id);
    h.check(
      o && c && c.parent === id && c.relation === 'compacted' && o.children.includes(compacted.id),
      'ctxc sessions does not show the compacted Copilot CLI session under its original',
      JSON.stringify(c),
    );
    h.saveBody('copilot-session-original', originalRequest);
    h.saveBody('copilot-session-compacted', after);
    h.figures.push({
      what: 'copilot-cli session written by the real CLI',
      before: originalRequest.bytes,
      after: after.bytes,
      sessionBefore: compacted.tokensBefore,
      sessionAfter: compacted.tokensAfter,
      messagesBefore: originalRequest.body.messages.length,
      messagesAfter: after.body.messages.length,
    });
  });
}

/** Scenario 2: the hooks put back, at the next prompt, what Copilot's own summary lost. */
async function hookRepair(h) {
  const bin = await h.ensureAgent('copilot-cli');
  let work;
  const reply = (body, api) => {
    if (api !== 'chat') return undefined;
    const msgs = body.messages ?? [];
    const last = msgs[msgs.length - 1];
    const t = last ? text(last.content) : '';
    if (COMPACTION_PROMPT.test(t)) return { text: LOSSY_SUMMARY };
    if (last?.role === 'tool') return { text: 'Done with that step.' };
    if (/TURN-alpha/.test(t)) return { tool: { name: 'view', input: { path: join(work, 'notes-alpha.txt') } } };
    if (/TURN-bravo/.test(t)) return { tool: { name: 'view', input: { path: join(work, 'config', 'ledger.local.json') } } };
    return { text: RESUMED };
  };
  return h.inSandbox('copilot-hook', reply, 'copilot-hook-repair', async ({ root, home, work: w, server }) => {
    work = w;
    writeFileSync(join(work, 'notes-alpha.txt'), notesText('alpha'));
    const stateDir = join(root, 'state', 'context-compactor');
    hooksFile(h, home);
    const env = copilotEnv(home, server, { XDG_STATE_HOME: join(root, 'state') });
    const run = (name, args) => h.mustRun(name, bin, args, { cwd: work, env, timeoutMs: COPILOT_TIMEOUT_MS });
    await run('copilot-hook-turn-1', [
      '-p',
      'Always run the ledger check with --strict before you report. TURN-alpha: read the alpha notes.',
      '--allow-all-tools',
    ]);
    const id = sessionDirs(home)[0];
    await run('copilot-hook-turn-2', [`--resume=${id}`, '-p', 'TURN-bravo: check the ledger settings.', '--allow-all-tools']);
    await run('copilot-hook-compact', [`--resume=${id}`, '-p', '/compact']);
    const n0 = server.modelRequests('chat').length;
    await run('copilot-hook-next-prompt', [`--resume=${id}`, '-p', 'TURN-charlie: what is left to do?']);
    const next = h.requestsSince(server, 'chat', n0)[0];
    h.check(next, 'the prompt after the compaction sent no request');
    const messages = next.body.messages.map((m) => text(m.content));
    const summary = messages.find((m) => m.startsWith(COPILOT_SUMMARY_OPENING));
    const prompt = messages.at(-1);
    h.check(summary && summary.includes(LOSSY_SUMMARY), "the request does not carry Copilot's lossy summary", JSON.stringify(messages).slice(0, 400));
    h.check(!summary.includes('ledger.local.json'), 'the lossy summary holds the file the test expects back (the test would mean nothing)');
    h.check(
      prompt.includes('TURN-charlie') && prompt.includes('<system_reminder>') && prompt.includes(RESTORE_LEAD) && prompt.includes('ledger.local.json'),
      'the prompt after the compaction does not carry the facts the hook put back',
      prompt.slice(0, 600),
    );
    const log = readFileSync(join(stateDir, 'hook.log'), 'utf8');
    h.check(
      /preCompact: manual compaction at [\d,]+ tokens \(the input Copilot recorded/.test(log) &&
        /userPromptSubmitted: compaction at byte [\d,]+, [\d,]+ tokens before it \(Copilot's preCompactionTokens\): .* restored/.test(log),
      'the hook log does not show the repair',
      log,
    );
    const repair = JSON.parse(readFileSync(join(stateDir, 'copilot-cli', `${id}.repair.json`), 'utf8'));
    const recordedSize = /manual compaction at ([\d,]+) tokens/.exec(log)?.[1];
    const ownSize = /([\d,]+) tokens before it \(Copilot's preCompactionTokens\)/.exec(log)?.[1];
    h.log(`  the compaction's size in the hook's log: ${recordedSize} (the last request's recorded input), then ${ownSize} (Copilot's preCompactionTokens)`);
    h.log(`  restored after Copilot's /compact: ${repair.lines.map((l) => `${l.category}: ${l.line}`).join(' | ')}`);
    h.saveBody('copilot-hook-next-prompt', next);
  });
}

/** Scenario 3: automatic compactions on every turn; the hook tells the person on the second. */
async function hookLoop(h) {
  const bin = await h.ensureAgent('copilot-cli');
  return h.inSandbox(
    'copilot-loop',
    () => ({ text: 'Noted.' }),
    'copilot-hook-loop',
    async ({ root, home, work, server }) => {
      const stateDir = join(root, 'state', 'context-compactor');
      hooksFile(h, home, ['--loop-limit', '1']);
      const env = copilotEnv(home, server, { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '16000', XDG_STATE_HOME: join(root, 'state') });
      const long = Array.from({ length: 1500 }, (_, i) => `filler${i + 1}`).join(' ');
      const outputs = [];
      let id;
      for (let i = 1; i <= 4; i++) {
        const args = id ? [`--resume=${id}`, '-p', `turn-${i} ${long}`] : ['-p', `turn-${i} ${long}`];
        const r = await h.mustRun(`copilot-loop-turn-${i}`, bin, args, { cwd: work, env, timeoutMs: COPILOT_TIMEOUT_MS });
        outputs.push(r.stdout + r.stderr);
        id ??= sessionDirs(home)[0];
      }
      const log = readFileSync(join(stateDir, 'hook.log'), 'utf8');
      const autos = (log.match(/preCompact: (auto compaction|an automatic compaction loop)/g) ?? []).length;
      h.check(autos >= 2, `Copilot CLI compacted automatically ${autos} times, expected at least 2 (the loop)`, log);
      h.check(/an automatic compaction loop/.test(log), 'the hook did not see the loop', log);
      const shown = outputs.find((o) => o.includes('Context Compactor: this is automatic compaction number'));
      h.check(shown, "Copilot CLI did not show the hook's loop warning", outputs.join('\n---\n').slice(-800));
      h.log(
        `  shown by Copilot CLI: ${shown
          .split('\n')
          .find((l) => l.includes('Context Compactor'))
          .trim()
          .slice(0, 140)}…`,
      );
    },
  );
}

export function copilotScenarios(h) {
  return [
    ['Copilot CLI: a real session (tool calls, its own /compact) metered from its usage records, compacted and resumed', () => session(h)],
    ['Copilot CLI: the hooks put back at the next prompt what its own summary lost', () => hookRepair(h)],
    ['Copilot CLI: a loop of automatic compactions is shown to the person by the hook', () => hookLoop(h)],
  ];
}
