// The Qwen Code scenarios of the agents test (run.mjs runs them against each tested version),
// offline against the fake model server's Chat Completions:
//   1. The real CLI writes an 8-turn session (each turn reads a notes file with read_file and answers
//      at length) and a last turn answered without a tool, after which Qwen Code sends its memory
//      extractor's request too, resumed with `qwen -c`. `ctxc sessions` lists it with the
//      promptTokenCount its last assistant record holds — not the memory extractor's figure Qwen
//      Code logs after it — and meters within −5%/+15%;
//      `ctxc compact --to qwen-code` writes a new session (the original untouched); `qwen -r <id>`
//      resumes it (the request holds the summary and the last user turn verbatim, none of the
//      summarized file contents), then `qwen -c` picks it as the newest; `ctxc sessions` shows it
//      under the original. Before the resume `ctxc count` meters the new session with what it
//      inherited, within −5%/+15% of what the resumed request then recorded.
//   2. The PreCompact hook (`ctxc hook qwen-code`, the README's entry in ~/.qwen/settings.json):
//      `qwen -c "/compress"` sends a summary request that carries the session's must-keep facts.
//   3. Its automatic compaction (the fake reports 87% of the window, so the next process compacts
//      before its request): PreCompact(auto) gives the summariser the facts; with --loop-limit 1 the
//      next automatic one gets none, and the hook's log says why.
//   4. A Codex session the real Codex writes, compacted into Qwen Code: `qwen -r <id>` resumes it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { README_CLI_PLACEHOLDER, readmeBlock } from './readme.mjs';
import { baseEnv } from './sessionFixtures.mjs';

/** Enough turns that the last one fits the room the default target leaves for recent turns. */
const TURNS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const SUMMARIZED = ['ALPHA-NOTE-LINE-77:', 'ALPHA-ANSWER-20 '];
const RESUMED = 'RESUMED-OK: continuing from where the session stopped.';
const CHATS_FILE = /^[0-9a-f-]{36}\.jsonl$/;
/** How the hook's facts open (src/sessions/agents/qwen-code/hook.ts QWEN_FACTS_LEAD). */
const FACTS_LEAD = 'Context Compactor: keep each of these facts of the conversation in the summary.';
const PLAIN_TURN = 'Sum up the ledger review so far in one line.';
const OWN_SUMMARY = '<state_snapshot>QWEN-OWN-SUMMARY of the ledger review</state_snapshot>';

export function qwenScenarios(h) {
  return [
    ['Qwen Code: a real session is listed with its recorded tokens, compacted, resumed by `qwen -r <id>` and picked by `qwen -c`', () => ownSession(h)],
    ['Qwen Code: the PreCompact hook’s must-keep facts reach the summariser’s request of `qwen -c "/compress"`', () => hookFacts(h)],
    ['Qwen Code: its automatic compaction gets the facts; past the loop limit the next one does not', () => autoLoop(h)],
    ['Qwen Code: a Codex session compacted into Qwen Code is resumed by `qwen -r <id>`', () => fromCodex(h)],
  ];
}

function qwenEnv(home, server) {
  return { ...baseEnv(home), OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: 'fake-model' };
}

const qwenArgs = (...rest) => ['--auth-type', 'openai', ...rest];

function textOf(m) {
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((c) => c.text ?? '').join('\n');
}

function isMemoryExtractor(body) {
  return /memory extraction subagent/.test(textOf((body.messages ?? [])[0]));
}

function isSummaryRequest(body) {
  const msgs = body.messages ?? [];
  return /summarizes a conversation/.test(textOf(msgs[0]) + textOf(msgs[msgs.length - 1]));
}

/** A turn's first request asks for its notes file, the one with the result gets the long answer;
 *  Qwen Code's summariser gets a summary, its memory extractor nothing to remember, anything else
 *  the resumed reply. */
function reply(h, at) {
  return (body, api) => {
    if (api !== 'chat') return h.scriptedReply(body, api);
    if (isSummaryRequest(body)) return { text: OWN_SUMMARY };
    if (isMemoryExtractor(body)) return { text: 'Nothing to remember.' };
    const msgs = body.messages ?? [];
    const last = msgs[msgs.length - 1];
    const turnIn = (list) => {
      for (let i = list.length - 1; i >= 0; i--) {
        const m = /TURN-([a-z]+)/.exec(textOf(list[i]));
        if (m) return m[1];
      }
      return undefined;
    };
    if (last?.role === 'tool') return { text: h.narrative(turnIn(msgs.filter((m) => m.role === 'user')) ?? 'alpha') };
    const turn = turnIn([last]);
    if (!turn) return { text: RESUMED };
    return { tool: { name: 'read_file', input: { file_path: join(at.work, `notes-${turn}.txt`) } } };
  };
}

/** The promptTokenCount of the last assistant record, and the inputs of the API calls Qwen Code
 *  logged (ui_telemetry) that answered no assistant record: its memory extractor's. */
function recorded(file) {
  let prompt;
  const prompts = new Set();
  const calls = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const o = JSON.parse(line);
    if (o.type === 'assistant' && typeof o.usageMetadata?.promptTokenCount === 'number') {
      prompt = o.usageMetadata.promptTokenCount;
      prompts.add(prompt);
    }
    const e = o.systemPayload?.uiEvent;
    if (o.subtype === 'ui_telemetry' && e?.['event.name'] === 'qwen-code.api_response') calls.push(e.input_token_count);
  }
  return { prompt, extractor: calls.filter((n) => !prompts.has(n)) };
}

async function writeSession(h, bin, home, work, env) {
  for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), h.notesText(t));
  await h.mustRun('qwen-turn-1', bin, qwenArgs(h.turnPrompt(TURNS[0], 0)), { cwd: work, env });
  for (let i = 1; i < TURNS.length; i++) await h.mustRun(`qwen-turn-${i + 1}`, bin, qwenArgs('-c', h.turnPrompt(TURNS[i], i)), { cwd: work, env });
  const files = h.onlyFile(join(home, '.qwen', 'projects'), CHATS_FILE);
  h.check(files.length === 1, `qwen wrote ${files.length} session files, expected one`, files.join(', '));
  const file = files[0];
  h.check(
    SUMMARIZED.every((g) => readFileSync(file, 'utf8').includes(g)),
    'the real Qwen Code session holds no output of the first turn (the tool call did not run)',
    file,
  );
  return { file, id: basename(file, '.jsonl') };
}

/** The summary as the compacted file holds it (its first record). */
function summaryOf(file) {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).message.parts[0].text;
}

async function ownSession(h) {
  const bin = await h.ensureAgent('qwen-code');
  const at = {};
  return h.inSandbox('qwen', reply(h, at), 'qwen-session', async ({ home, work, server }) => {
    at.work = work;
    const env = qwenEnv(home, server);
    const { file, id } = await writeSession(h, bin, home, work, env);
    // A turn answered without a tool call: Qwen Code runs its memory extractor after such a turn
    // (not after a tool turn), so the last API call it logs is the extractor's.
    await h.mustRun('qwen-turn-plain', bin, qwenArgs('-c', PLAIN_TURN), { cwd: work, env });

    const { prompt, extractor } = recorded(file);
    const listed = JSON.parse((await h.ctxc('qwen-sessions', ['sessions', '--cwd', work, '--json', '--agents', 'qwen-code'], env, work)).stdout);
    const mine = listed.find((s) => s.id === id);
    h.check(mine, 'ctxc sessions does not list the Qwen Code session', JSON.stringify(listed.map((s) => s.id)));
    h.check(extractor.length > 0, 'Qwen Code logged no memory-extractor call beside the conversation’s (the check would mean nothing)');
    h.check(mine.reportedTokens === prompt, `ctxc sessions did not read the last assistant record's promptTokenCount (${mine.reportedTokens} vs ${prompt})`);
    const off = mine.tokens / prompt - 1;
    h.check(off >= -0.05 && off <= 0.15, `ctxc sessions meters ${mine.tokens} tokens for a session whose last request was ${prompt}`);
    h.log(
      `  ctxc sessions: ${mine.tokens} tokens for a last recorded request of ${prompt} (${(off * 100).toFixed(1)}%; the memory extractor's calls, not taken: ${extractor.join(', ')}), ${mine.messages} messages`,
    );

    const before = h.fileState(file);
    const compacted = JSON.parse((await h.ctxc('qwen-compact', ['compact', file, '--to', 'qwen-code', '--format', 'json'], env, work)).stdout);
    h.checkUntouched(file, before, 'ctxc compact --to qwen-code');
    h.check(compacted.resume === `qwen -r ${compacted.id}`, 'the printed resume command is not qwen -r <id>', compacted.resume);
    h.check(!readFileSync(compacted.file, 'utf8').includes('usageMetadata'), 'the compacted session records a usage figure nobody measured');

    const lastTurn = PLAIN_TURN;
    const summary = summaryOf(compacted.file);
    const sentBy = async (name, args) => {
      const n0 = h.requestsSince(server, 'chat', 0).length;
      const r = await h.mustRun(name, bin, qwenArgs(...args), { cwd: work, env });
      h.check(r.stdout.includes('RESUMED-OK'), `${name}: qwen did not print the reply to the resumed session`, r.stdout.slice(0, 300));
      const sent = h.requestsSince(server, 'chat', n0).find((q) => !isMemoryExtractor(q.body) && !isSummaryRequest(q.body));
      h.check(sent, `${name}: qwen sent no request for the session`);
      return sent;
    };
    // Before Qwen Code answers in it, the new session is metered with what it inherited.
    const predicted = JSON.parse((await h.ctxc('qwen-count-compacted', ['count', compacted.file, '--json'], env, work)).stdout);
    h.check(
      predicted.inherited && predicted.reported === null,
      'the compacted session is not metered with what it inherited',
      JSON.stringify(predicted.inherited),
    );
    const byId = await sentBy('qwen-resume-compacted', ['-r', compacted.id, 'continue']);
    // What the meter said against what the resumed request recorded (it adds the prompt "continue").
    const real = recorded(compacted.file).prompt;
    const meterOff = predicted.total / real - 1;
    h.check(meterOff >= -0.05 && meterOff <= 0.15, `before the resume ctxc count said ${predicted.total} tokens; Qwen Code's request recorded ${real}`);
    h.log(
      `  the compacted session before its resume: ctxc count ${predicted.total} (compact said ${compacted.tokensAfter}), the resumed request recorded ${real} (${(meterOff * 100).toFixed(1)}%)`,
    );
    h.checkCompactedRequest('`qwen -r <id>`', byId.raw, summary, [lastTurn, 'HOTEL-NOTE-LINE-120'], SUMMARIZED);
    const userTexts = byId.body.messages
      .filter((m) => m.role === 'user')
      .flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((c) => c.text ?? '')));
    h.check(
      userTexts.some((t) => t === lastTurn),
      'the last user turn is not one of the user parts sent, verbatim',
    );
    h.saveBody('qwen-resumed', byId);
    h.log(`  qwen -r ${compacted.id} → a request of ${byId.bytes} bytes, ${byId.body.messages.length} messages; it sends:`);
    h.log(`    the summary: ${JSON.stringify(userTexts.find((t) => t.includes('This session is being continued')).slice(0, 140))}…`);
    h.log(`    the last user turn, verbatim: ${JSON.stringify(lastTurn)}`);
    const newest = await sentBy('qwen-continue-newest', ['-c', 'continue again']);
    h.checkCompactedRequest('`qwen -c`', newest.raw, summary, [lastTurn], SUMMARIZED);
    h.check(h.onlyFile(join(home, '.qwen', 'projects'), CHATS_FILE).length === 2, '`qwen -c` started a new session instead of resuming the newest');

    const after = JSON.parse((await h.ctxc('qwen-sessions-after', ['sessions', '--cwd', work, '--json', '--agents', 'qwen-code'], env, work)).stdout);
    const original = after.find((s) => s.id === id);
    const child = after.find((s) => s.id === compacted.id);
    h.check(original && child, 'ctxc sessions does not list both Qwen Code sessions', JSON.stringify(after.map((s) => s.id)));
    h.check(
      child.parent === id && child.relation === 'compacted' && original.children.includes(compacted.id),
      'the compacted session is not listed under its original',
    );
  });
}

async function hookFacts(h) {
  const bin = await h.ensureAgent('qwen-code');
  const at = {};
  return h.inSandbox('qwen-hook', reply(h, at), 'qwen-hook', async ({ home, work, server }) => {
    at.work = work;
    const env = qwenEnv(home, server);
    const { file, id } = await writeSession(h, bin, home, work, env);
    // The README's entry (test/sessions/qwenHook.test.ts holds it equal to what Install Agent Hooks adds),
    // with this build's CLI, in the user's settings of the throwaway home.
    const entry = JSON.parse(readmeBlock(h.repoRoot, 'qwen-code-hooks', 'json').split(README_CLI_PLACEHOLDER).join(h.CLI));
    mkdirSync(join(home, '.qwen'), { recursive: true });
    const settingsFile = join(home, '.qwen', 'settings.json');
    let settings;
    try {
      settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
    } catch {
      settings = {};
    }
    writeFileSync(settingsFile, `${JSON.stringify({ ...settings, ...entry }, null, 2)}\n`);

    const n0 = h.requestsSince(server, 'chat', 0).length;
    const r = await h.mustRun('qwen-compress', bin, qwenArgs('-c', '/compress'), { cwd: work, env });
    h.check(/compressed/i.test(r.stdout), 'qwen -c "/compress" did not compress', r.stdout.slice(0, 300));
    const summaryRequests = h.requestsSince(server, 'chat', n0).filter((q) => isSummaryRequest(q.body));
    h.check(summaryRequests.length > 0, 'qwen -c "/compress" sent no summary request');
    const withFacts = summaryRequests.find((q) => h.includes(q.raw, FACTS_LEAD));
    h.check(withFacts, 'the summary request does not carry the hook’s facts', summaryRequests.map((q) => q.raw.slice(-400)).join('\n'));
    // The facts: the person's first request and the files the turns read.
    const facts = withFacts.raw.slice(withFacts.raw.indexOf(FACTS_LEAD));
    for (const f of ['TURN-alpha: step 1 of the ledger review', 'notes-alpha.txt'])
      h.check(h.includes(facts, f), `the hook's facts lack ${JSON.stringify(f)}`, facts.slice(0, 800));
    const stateFile = join(home, '.local', 'state', 'context-compactor', 'claude-code', `${id}.json`);
    const recordedState = JSON.parse(readFileSync(stateFile, 'utf8'));
    h.check(recordedState.compactions.at(-1)?.trigger === 'manual', 'the hook did not record the manual compaction', JSON.stringify(recordedState));
    const compressed = readFileSync(file, 'utf8').includes('"chat_compression"');
    h.check(compressed, 'Qwen Code wrote no chat_compression record');
    h.saveBody('qwen-compress-summary-request', withFacts);
    const shown = facts.slice(0, 600).replace(/\\n/g, '\n      ');
    h.log(`  the summary request (${withFacts.bytes} bytes) carries, after "Additional Instructions:":\n      ${shown}…`);
  });
}

async function autoLoop(h) {
  const bin = await h.ensureAgent('qwen-code');
  // Usage near the window (87% of the 200,000 Qwen Code assumes for an unknown model) once `full`.
  const at = { full: false };
  const answer = (body, api) => {
    if (api !== 'chat') return { text: RESUMED };
    if (isSummaryRequest(body)) return { text: OWN_SUMMARY, inputTokens: 1000 };
    if (isMemoryExtractor(body)) return { text: 'Nothing to remember.', inputTokens: 1000 };
    return { text: RESUMED, ...(at.full ? { inputTokens: 174_000 } : {}) };
  };
  return h.inSandbox('qwen-auto', answer, 'qwen-auto', async ({ home, work, server }) => {
    const entry = readmeBlock(h.repoRoot, 'qwen-code-hooks', 'json')
      .split(README_CLI_PLACEHOLDER)
      .join(h.CLI)
      .replace(' hook qwen-code', ' hook qwen-code --loop-limit 1');
    mkdirSync(join(home, '.qwen'), { recursive: true });
    writeFileSync(join(home, '.qwen', 'settings.json'), entry);
    const env = qwenEnv(home, server);
    const prompts = [
      'Always keep the changelog in CHANGELOG.md. First: plan the release.',
      'Second: bump the version.',
      'Third: run the tests.',
      'Fourth: tag it.',
    ];
    const summaries = [];
    for (const [i, p] of prompts.entries()) {
      const n0 = h.requestsSince(server, 'chat', 0).length;
      await h.mustRun(`qwen-auto-${i + 1}`, bin, qwenArgs(...(i === 0 ? [] : ['-c']), p), { cwd: work, env });
      summaries.push(h.requestsSince(server, 'chat', n0).filter((q) => isSummaryRequest(q.body)));
      at.full = true;
    }
    h.check(summaries[0].length === 0 && summaries[1].length === 0, 'Qwen Code compacted before it had recorded a full window');
    h.check(summaries[2].length > 0 && summaries[3].length > 0, 'Qwen Code did not compact by itself on the turns after a full window');
    h.check(
      summaries[2].some((q) => h.includes(q.raw, FACTS_LEAD) && h.includes(q.raw, 'Always keep the changelog in CHANGELOG.md.')),
      'the first automatic compaction’s summary request lacks the facts',
    );
    h.check(!summaries[3].some((q) => h.includes(q.raw, FACTS_LEAD)), 'past the loop limit, the next automatic compaction still got the facts');
    const log = readFileSync(join(home, '.local', 'state', 'context-compactor', 'hook.log'), 'utf8');
    h.check(/1 automatic compaction already in the last 10 minutes: no facts added/.test(log), 'the hook’s log does not say why it gave no facts', log);
    h.log(`  the hook's log:\n      ${log.trim().split('\n').join('\n      ')}`);
  });
}

async function fromCodex(h) {
  const qwen = await h.ensureAgent('qwen-code');
  const codex = await h.ensureAgent('codex');
  const at = {};
  return h.inSandbox('qwen-from-codex', reply(h, at), 'qwen-from-codex', async ({ home, work, server }) => {
    at.work = work;
    const codexHome = join(home, '.codex');
    h.writeCodexConfig(codexHome, server);
    const codexEnv = h.codexEnv(home, codexHome);
    for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), h.notesText(t));
    const first = await h.mustRun('codex-for-qwen-1', codex, ['exec', '--skip-git-repo-check', h.turnPrompt(TURNS[0], 0)], { cwd: work, env: codexEnv });
    const id = /session id: ([0-9a-f-]{36})/.exec(first.stderr)?.[1];
    h.check(id, 'codex exec printed no session id');
    for (let i = 1; i < TURNS.length; i++)
      await h.mustRun(`codex-for-qwen-${i + 1}`, codex, ['exec', '--skip-git-repo-check', 'resume', id, h.turnPrompt(TURNS[i], i)], {
        cwd: work,
        env: codexEnv,
      });
    const [rollout] = h.onlyFile(join(codexHome, 'sessions'), /^rollout-.*\.jsonl$/);
    const env = qwenEnv(home, server);
    const compacted = JSON.parse((await h.ctxc('qwen-from-codex-compact', ['compact', rollout, '--to', 'qwen-code', '--format', 'json'], env, work)).stdout);
    const n0 = h.requestsSince(server, 'chat', 0).length;
    const r = await h.mustRun('qwen-from-codex-resume', qwen, qwenArgs('-r', compacted.id, 'continue'), { cwd: work, env });
    h.check(r.stdout.includes('RESUMED-OK'), 'qwen did not print the reply to the resumed session', r.stdout.slice(0, 300));
    const sent = h.requestsSince(server, 'chat', n0).find((q) => !isMemoryExtractor(q.body));
    const lastTurn = h.turnPrompt(TURNS.at(-1), TURNS.length - 1);
    h.checkCompactedRequest('a Codex rollout as a Qwen Code session', sent.raw, summaryOf(compacted.file), [lastTurn, 'HOTEL-NOTE-LINE-120'], SUMMARIZED);
    h.check(
      sent.body.messages.some((m) => m.role === 'tool') && sent.body.messages.some((m) => (m.tool_calls ?? []).length > 0),
      'the recent tool call and its result were not sent as a tool_calls message and a tool message',
    );
    h.saveBody('qwen-from-codex-resumed', sent);
    h.log(`  a ${TURNS.length}-turn Codex rollout → Qwen Code session ${compacted.id}; qwen -r sent ${sent.bytes} bytes with the summary and the recent turns`);
  });
}
