// npm run test:agents — what `ctxc compact --to claude-code|codex` writes is resumed by the real
// agents, offline. The pinned CLIs come from the npm registry (tools.mjs); a fake model server on
// 127.0.0.1 (fakeModel.mjs) answers them and logs every request; HOME and CODEX_HOME point at
// temporary folders. For each agent:
//   1. the real CLI writes a real multi-turn session (each turn: a tool call that reads a file, its
//      result, a long answer), resumed turn by turn;
//   2. `ctxc compact FILE --to <agent>` writes the compacted session (the original's bytes and
//      modification time are checked unchanged);
//   3. the CLI resumes the original (in a copy of the home) and the compacted session, and the
//      requests it sent are compared: the compacted one carries the summary and the recent turns,
//      not the summarized turns' file contents, and is smaller.
// Then the same with the shared real Claude Code sessions (../shared/transcripts/claude-code),
// placed in the fake project folder; their request sizes (bytes, and tokens by our counter) are
// printed. Then the Claude Code hook (hookScenarios.mjs), the MCP server (mcpScenarios.mjs) and
// `ctxc count` against the usage Claude Code recorded (claudeCountScenario.mjs) in the real CLIs. Artifacts (each CLI's output, every request body) go to test-artifacts/agents/.
// AGENTS_ONLY=<regex> runs only the scenarios whose name matches.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { repoRoot } from '../e2e/tools.mjs';
import { ensureDebianCommand } from '../ensure-debian.mjs';
import { findTranscriptsDir } from '../transcripts.mjs';
import { startFakeModel } from './fakeModel.mjs';
import { baseEnv, claudeEnv, earlyToolText, includes, lastAssistantText, placeTranscript, SECTIONS, SUMMARY_OPENING } from './sessionFixtures.mjs';
import { clineScenarios } from './clineScenarios.mjs';
import { copilotScenarios } from './copilotScenarios.mjs';
import { hookScenarios } from './hookScenarios.mjs';
import { claudeCountScenarios } from './claudeCountScenario.mjs';
import { mcpScenarios } from './mcpScenarios.mjs';
import { codexScenarios } from './codexScenarios.mjs';
import { geminiScenarios } from './geminiScenarios.mjs';
import { qwenScenarios } from './qwenScenarios.mjs';
import { opencodeScenarios } from './opencodeScenarios.mjs';
import { ensureAgent, ensureAgents, registryNewest, TESTED_VERSIONS } from './tools.mjs';

const ARTIFACTS_ROOT = join(repoRoot, 'test-artifacts', 'agents');
/** The artifacts folder of the version set being run. */
let ARTIFACTS = ARTIFACTS_ROOT;
const CLI = join(repoRoot, 'dist', 'cli.js');
/** One CLI run; the fake model answers at once, so a minute means something hangs. */
const RUN_TIMEOUT_MS = 90_000;
/** The turns of the sessions the CLIs write: each reads its own notes file and answers at length. */
const TURNS = ['alpha', 'bravo', 'charlie', 'delta'];
/** Text deep inside the first turn's tool output and answer: the summary names the command and the
 *  output's first line, never this. */
const SUMMARIZED = ['ALPHA-NOTE-LINE-77:', 'ALPHA-ANSWER-20 '];

class AgentsTestError extends Error {}

function log(msg) {
  console.log(`[agents] ${msg}`);
}

function check(cond, what, details = '') {
  if (!cond) throw new AgentsTestError(`${what}${details ? `\n    ${details}` : ''}`);
}

let runCount = 0;

/** Runs a command in its own process group; its output goes to an artifact file. */
function run(name, cmd, args, { cwd, env, timeoutMs = RUN_TIMEOUT_MS }) {
  const logFile = join(ARTIFACTS, `${String(++runCount).padStart(2, '0')}-${name}.log`);
  return new Promise((resolvePromise) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Date.now() - t0;
      writeFileSync(
        logFile,
        `$ ${[cmd, ...args].join(' ')}\n(cwd ${cwd}, exit ${code}${timedOut ? ', TIMED OUT' : ''}, ${ms} ms)\n--- stdout\n${stdout}\n--- stderr\n${stderr}\n`,
      );
      resolvePromise({ code, stdout, stderr, ms, timedOut, logFile });
    });
  });
}

async function mustRun(name, cmd, args, opts) {
  const r = await run(name, cmd, args, opts);
  check(
    r.code === 0 && !r.timedOut,
    `${name}: ${basename(cmd)} ${args.join(' ')} ${r.timedOut ? 'timed out' : `exited ${r.code}`}`,
    `${r.stderr.trim().split('\n').slice(-8).join('\n    ')}\n    full output: ${r.logFile}`,
  );
  return r;
}

function ctxc(name, args, env, cwd) {
  return mustRun(name, process.execPath, [CLI, ...args], { cwd, env });
}

function codexEnv(home, codexHome) {
  return { ...baseEnv(home), CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-test' };
}

function writeCodexConfig(codexHome, server) {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "m"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n`,
  );
}

/** The notes file of a turn: 120 lines that only that turn's tool call reads. */
function notesText(turn) {
  const lines = [];
  for (let i = 1; i <= 120; i++)
    lines.push(`${turn.toUpperCase()}-NOTE-LINE-${i}: the ${turn} ledger row ${i} holds figure ${(i * 7919) % 1000} for region ${turn}-${i % 9}`);
  return `${lines.join('\n')}\n`;
}

function narrative(turn) {
  const s = [];
  for (let i = 1; i <= 30; i++) s.push(`${turn.toUpperCase()}-ANSWER-${i} restates row ${i} of the ${turn} notes in plain words.`);
  return s.join(' ');
}

function prepareWorkspace(work) {
  mkdirSync(work, { recursive: true });
  for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), notesText(t));
}

/** Which turn a request belongs to: the latest "TURN-<name>" a user wrote. */
function turnOf(texts) {
  for (let i = texts.length - 1; i >= 0; i--) {
    const m = /TURN-([a-z]+)/.exec(texts[i]);
    if (m) return m[1];
  }
  return undefined;
}

function anthropicTexts(messages) {
  const out = [];
  for (const m of messages ?? []) {
    if (m.role !== 'user') continue;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    for (const b of blocks) if (b.type === 'text' && !/<system-reminder>/.test(b.text)) out.push(b.text);
  }
  return out;
}

/** The fake model of the scripted sessions: a turn's first request asks for its notes file, the
 *  request with the result gets the long answer, and anything else ("continue") a short reply. */
function scriptedReply(body, api) {
  if (api === 'anthropic') {
    const msgs = body.messages ?? [];
    const lastUser = [...msgs].reverse().find((m) => m.role === 'user');
    const hasResult = Array.isArray(lastUser?.content) && lastUser.content.some((b) => b.type === 'tool_result');
    const lastTexts = anthropicTexts(lastUser ? [lastUser] : []);
    const turn = turnOf(lastTexts) ?? (hasResult ? turnOf(anthropicTexts(msgs)) : undefined);
    if (!turn) return { text: 'RESUMED-OK: continuing from where the session stopped.' };
    if (hasResult) return { text: narrative(turn) };
    return { tool: { name: 'Bash', input: { command: `cat notes-${turn}.txt`, description: `read the ${turn} notes` } } };
  }
  const input = body.input ?? [];
  const last = input[input.length - 1];
  const userTexts = input.filter((i) => i.type === 'message' && i.role === 'user').flatMap((i) => (i.content ?? []).map((c) => c.text ?? ''));
  if (last?.type === 'function_call_output') {
    const turn = turnOf(userTexts);
    return { text: turn ? narrative(turn) : 'done' };
  }
  const lastText = last?.type === 'message' ? (last.content ?? []).map((c) => c.text ?? '').join('\n') : '';
  const turn = turnOf([lastText]);
  if (!turn) return { text: 'RESUMED-OK: continuing from where the session stopped.' };
  return { tool: { name: 'exec_command', input: { cmd: `cat notes-${turn}.txt` } } };
}

function turnPrompt(turn, i) {
  return `TURN-${turn}: step ${i + 1} of the ledger review. Read notes-${turn}.txt and restate it.`;
}

function onlyFile(dir, pattern) {
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (pattern.test(e.name)) found.push(join(d, e.name));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

function fileState(path) {
  const s = statSync(path);
  return { bytes: readFileSync(path), mtimeMs: s.mtimeMs };
}

function checkUntouched(path, before, what) {
  const after = fileState(path);
  check(after.bytes.equals(before.bytes), `${what}: the original session file changed (${before.bytes.length} → ${after.bytes.length} bytes)`, path);
  check(after.mtimeMs === before.mtimeMs, `${what}: the original session file's modification time changed`, path);
}

/** The model requests a CLI run made: those logged after `from`. */
function requestsSince(server, api, from) {
  return server.modelRequests(api).slice(from);
}

function saveBody(name, req) {
  const file = join(ARTIFACTS, `${name}.request.json`);
  writeFileSync(file, JSON.stringify(req.body, null, 2));
  return file;
}

/** Tokens of a request body by our counter: `ctxc count --json` on it. */
async function tokensOf(name, file, env, cwd) {
  const r = await ctxc(`count-${name}`, ['count', file, '--json'], env, cwd);
  return JSON.parse(r.stdout).total;
}

/** What every compacted resume must show, checked on the request the CLI sent. */
function checkCompactedRequest(what, raw, summaryText, recent, gone) {
  check(includes(raw, SUMMARY_OPENING), `${what}: the resumed request does not carry the summary's opening`);
  for (const s of SECTIONS) check(includes(raw, `## ${s}`), `${what}: the resumed request lacks the summary section "${s}"`);
  check(includes(raw, summaryText.slice(0, 2000)), `${what}: the summary was not sent as written`);
  for (const r of recent) check(includes(raw, r), `${what}: a recent turn is missing from the resumed request`, JSON.stringify(r.slice(0, 120)));
  for (const g of gone) check(!includes(raw, g), `${what}: text of a summarized turn is still in the resumed request`, JSON.stringify(g.slice(0, 120)));
}

/** `ctxc sessions --json` lists the compacted session under the one it came from. */
async function checkListed(env, work, agent, originalId, compactedId) {
  const list = JSON.parse((await ctxc(`ctxc-sessions-${agent}`, ['sessions', '--cwd', work, '--json', '--agents', agent], env, work)).stdout);
  const original = list.find((s) => s.id === originalId);
  const compacted = list.find((s) => s.id === compactedId);
  check(original && compacted, `ctxc sessions does not list both ${agent} sessions`, JSON.stringify(list.map((s) => s.id)));
  check(
    compacted.parent === originalId && compacted.relation === 'compacted' && original.children.includes(compactedId),
    `ctxc sessions does not show the compacted ${agent} session under its original`,
    JSON.stringify(compacted),
  );
  check(
    compacted.tokens < original.tokens && compacted.error === null,
    `ctxc sessions: the compacted ${agent} session does not count fewer tokens (${compacted.tokens} ≥ ${original.tokens})`,
  );
}

/** A temporary home and work folder and a fake model server for one scenario; all gone after. */
async function inSandbox(prefix, reply, logName, fn) {
  const root = mkdtempSync(join(tmpdir(), `ctxc-agents-${prefix}-`));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const server = await startFakeModel({ reply, logFile: join(ARTIFACTS, `${logName}.requests.jsonl`) });
  try {
    return await fn({ root, home, work, server });
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const resumedReply = () => ({ text: 'RESUMED-OK: continuing from where the session stopped.' });

// ── Scenarios ─────────────────────────────────────────────────────────────────────────────

/** What differs between the agents in the session scenario. */
const AGENT_SPECS = {
  claude: {
    target: 'claude-code',
    api: 'anthropic',
    bin: (agents) => agents.claude,
    setup: () => undefined,
    env: (home, server) => claudeEnv(home, server),
    firstTurn: (prompt) => ['-p', prompt, '--allowedTools', 'Bash'],
    nextTurn: (id, prompt) => ['-p', '--resume', id, prompt, '--allowedTools', 'Bash'],
    resume: (id) => ['-p', '--resume', id, 'continue'],
    resumeCommand: (id) => `claude --resume ${id}`,
    sessionFile: (home) => onlyFile(join(home, '.claude', 'projects'), /^[0-9a-f-]{36}\.jsonl$/),
    idOf: (file) => basename(file, '.jsonl'),
    summaryOf: (file) => JSON.parse(readFileSync(file, 'utf8').split('\n')[1]).message.content,
    messagesOf: (body) => body.messages.length,
    countTokens: true,
  },
  codex: {
    target: 'codex',
    api: 'responses',
    bin: (agents) => agents.codex,
    setup: (home, server) => writeCodexConfig(join(home, '.codex'), server),
    env: (home) => codexEnv(home, join(home, '.codex')),
    firstTurn: (prompt) => ['exec', '--skip-git-repo-check', prompt],
    nextTurn: (id, prompt) => ['exec', '--skip-git-repo-check', 'resume', id, prompt],
    resume: (id) => ['exec', '--skip-git-repo-check', 'resume', id, 'continue'],
    resumeCommand: (id) => `codex resume ${id}`,
    sessionFile: (home) => onlyFile(join(home, '.codex', 'sessions'), /^rollout-.*\.jsonl$/),
    idOf: (file) => /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(file)[1],
    summaryOf: (file) => JSON.parse(readFileSync(file, 'utf8').split('\n')[2]).payload.message,
    messagesOf: (body) => body.input.length,
    countTokens: false,
  },
};

/** A real multi-turn session written by the agent, compacted, and resumed next to the original. */
async function agentSession(name, agents, figures) {
  const spec = AGENT_SPECS[name];
  const bin = spec.bin(agents);
  return inSandbox(name, scriptedReply, `${name}-session`, async ({ root, home, work, server }) => {
    prepareWorkspace(work);
    spec.setup(home, server);
    const env = spec.env(home, server);
    await mustRun(`${name}-turn-1`, bin, spec.firstTurn(turnPrompt(TURNS[0], 0)), { cwd: work, env });
    const files = spec.sessionFile(home);
    check(files.length === 1, `${name} wrote ${files.length} session files, expected one`, files.join(', '));
    const file = files[0];
    const id = spec.idOf(file);
    for (let i = 1; i < TURNS.length; i++) await mustRun(`${name}-turn-${i + 1}`, bin, spec.nextTurn(id, turnPrompt(TURNS[i], i)), { cwd: work, env });
    check(spec.sessionFile(home).length === 1, `resuming ${name} started a new session file instead of appending`);
    const sessionText = readFileSync(file, 'utf8');
    check(
      SUMMARIZED.every((g) => sessionText.includes(g)),
      `the real ${name} session holds no output of the first turn (the tool call did not run)`,
      file,
    );
    log(`  session ${id}: ${TURNS.length} turns, ${sessionText.split('\n').length - 1} lines`);

    const copy = join(root, 'home-original');
    cpSync(home, copy, { recursive: true });
    const before = fileState(file);
    const compacted = JSON.parse((await ctxc(`ctxc-compact-${name}`, ['compact', file, '--to', spec.target, '--format', 'json'], env, work)).stdout);
    checkUntouched(file, before, `ctxc compact --to ${spec.target}`);
    check(
      compacted.agent === spec.target && compacted.id !== id && existsSync(compacted.file),
      `ctxc compact --to ${spec.target} did not write a new session`,
      JSON.stringify(compacted),
    );
    check(compacted.resume === spec.resumeCommand(compacted.id), "the printed resume command is not the agent's", compacted.resume);

    const n0 = server.modelRequests(spec.api).length;
    await mustRun(`${name}-resume-original`, bin, spec.resume(id), { cwd: work, env: spec.env(copy, server) });
    const original = requestsSince(server, spec.api, n0)[0];
    const n1 = server.modelRequests(spec.api).length;
    const resumed = await mustRun(`${name}-resume-compacted`, bin, spec.resume(compacted.id), { cwd: work, env });
    const after = requestsSince(server, spec.api, n1)[0];
    check(original && after, 'a resume sent no request to the model');
    check(resumed.stdout.includes('RESUMED-OK'), `${name} did not print the reply to the resumed session`, resumed.stdout.slice(0, 200));
    checkCompactedRequest(
      `${name} session`,
      after.raw,
      spec.summaryOf(compacted.file),
      [turnPrompt('delta', 3), 'DELTA-NOTE-LINE-120', narrative('delta').slice(0, 300)],
      SUMMARIZED,
    );
    check(
      SUMMARIZED.every((g) => original.raw.includes(g)),
      'the original resume did not send the first turn (the comparison would mean nothing)',
    );
    check(after.bytes < original.bytes, `the compacted resume request is not smaller (${after.bytes} ≥ ${original.bytes} bytes)`);
    await checkListed(env, work, spec.target, id, compacted.id);
    const saved = [saveBody(`${name}-session-original`, original), saveBody(`${name}-session-compacted`, after)];
    const tokens = spec.countTokens
      ? { tokensBefore: await tokensOf(`${name}-original`, saved[0], env, work), tokensAfter: await tokensOf(`${name}-compacted`, saved[1], env, work) }
      : {};
    figures.push({
      what: `${spec.target} session written by the real CLI`,
      before: original.bytes,
      after: after.bytes,
      ...tokens,
      sessionBefore: compacted.tokensBefore,
      sessionAfter: compacted.tokensAfter,
      messagesBefore: spec.messagesOf(original.body),
      messagesAfter: spec.messagesOf(after.body),
    });
  });
}

async function sharedTranscript(agents, rel, figures) {
  const name = basename(rel, '.jsonl').split('__')[0];
  return inSandbox('shared', resumedReply, `shared-${name}`, async ({ root, home, work, server }) => {
    const env = claudeEnv(home, server);
    const id = randomUUID();
    const projectDir = join(home, '.claude', 'projects', work.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(projectDir, { recursive: true });
    const placed = placeTranscript(readFileSync(join(findTranscriptsDir(repoRoot), rel), 'utf8'), id, work);
    const file = join(projectDir, `${id}.jsonl`);
    writeFileSync(file, placed.text);
    log(
      `  placed ${rel} as ${id}.jsonl (sessionId and cwd rewritten, ${placed.dropped} trailing line${placed.dropped === 1 ? '' : 's'} after the last assistant message left out)`,
    );
    const gone = earlyToolText(placed.text);
    const recent = lastAssistantText(placed.text);

    const copy = join(root, 'home-original');
    cpSync(home, copy, { recursive: true });
    const before = fileState(file);
    const compacted = JSON.parse((await ctxc(`ctxc-compact-${name}`, ['compact', file, '--to', 'claude-code', '--format', 'json'], env, work)).stdout);
    checkUntouched(file, before, `ctxc compact --to claude-code (${rel})`);
    const summaryText = JSON.parse(readFileSync(compacted.file, 'utf8').split('\n')[1]).message.content;

    const n0 = server.modelRequests('anthropic').length;
    await mustRun(`claude-resume-${name}-original`, agents.claude, ['-p', '--resume', id, 'continue'], { cwd: work, env: claudeEnv(copy, server) });
    const original = requestsSince(server, 'anthropic', n0)[0];
    const n1 = server.modelRequests('anthropic').length;
    await mustRun(`claude-resume-${name}-compacted`, agents.claude, ['-p', '--resume', compacted.id, 'continue'], { cwd: work, env });
    const after = requestsSince(server, 'anthropic', n1)[0];
    check(original && after, 'a resume sent no request to the model');
    check(
      gone.length > 20 && includes(original.raw, gone),
      `${rel}: the original resume does not carry the early tool output chosen for the check`,
      JSON.stringify(gone),
    );
    checkCompactedRequest(rel, after.raw, summaryText, recent ? [recent] : [], [gone]);
    check(after.bytes < original.bytes, `${rel}: the compacted resume request is not smaller (${after.bytes} ≥ ${original.bytes} bytes)`);
    const tBefore = await tokensOf(`${name}-original`, saveBody(`shared-${name}-original`, original), env, work);
    const tAfter = await tokensOf(`${name}-compacted`, saveBody(`shared-${name}-compacted`, after), env, work);
    figures.push({
      what: `${rel} (real CLI resume)`,
      before: original.bytes,
      after: after.bytes,
      tokensBefore: tBefore,
      tokensAfter: tAfter,
      sessionBefore: compacted.tokensBefore,
      sessionAfter: compacted.tokensAfter,
      messagesBefore: original.body.messages.length,
      messagesAfter: after.body.messages.length,
    });
  });
}

/** A shared Claude Code session compacted into a Codex rollout: the real Codex resumes it and sends
 *  the summary and the recent turns (there is no original Codex session to compare sizes with). */
async function sharedIntoCodex(agents, rel, figures) {
  const name = basename(rel, '.jsonl').split('__')[0];
  return inSandbox('cross', resumedReply, `cross-${name}`, async ({ root, home, work, server }) => {
    writeCodexConfig(join(home, '.codex'), server);
    const env = codexEnv(home, join(home, '.codex'));
    const placed = placeTranscript(readFileSync(join(findTranscriptsDir(repoRoot), rel), 'utf8'), randomUUID(), work);
    const file = join(root, `${name}.jsonl`);
    writeFileSync(file, placed.text);
    const compacted = JSON.parse((await ctxc(`ctxc-compact-${name}-to-codex`, ['compact', file, '--to', 'codex', '--format', 'json'], env, work)).stdout);
    check(compacted.resume === `codex resume ${compacted.id}`, 'the printed resume command is not codex resume <id>', compacted.resume);
    const n0 = server.modelRequests('responses').length;
    const resumed = await mustRun(`codex-resume-${name}`, agents.codex, ['exec', '--skip-git-repo-check', 'resume', compacted.id, 'continue'], {
      cwd: work,
      env,
    });
    const after = requestsSince(server, 'responses', n0)[0];
    check(after, 'codex sent no request for the compacted rollout');
    check(resumed.stdout.includes('RESUMED-OK'), 'codex did not print the reply to the resumed session', resumed.stdout.slice(0, 200));
    const summaryText = JSON.parse(readFileSync(compacted.file, 'utf8').split('\n')[2]).payload.message;
    const recent = lastAssistantText(placed.text);
    checkCompactedRequest(`${rel} as a Codex rollout`, after.raw, summaryText, recent ? [recent] : [], [earlyToolText(placed.text)]);
    check(
      after.body.input.some((i) => i.type === 'function_call') && after.body.input.some((i) => i.type === 'function_call_output'),
      'the recent tool calls and their results were not sent as function_call / function_call_output items',
    );
    saveBody(`cross-${name}-codex`, after);
    figures.push({
      what: `${rel} as a Codex rollout (real Codex resume)`,
      before: Number.NaN,
      after: after.bytes,
      sessionBefore: compacted.tokensBefore,
      sessionAfter: compacted.tokensAfter,
      messagesBefore: Number.NaN,
      messagesAfter: after.body.input.length,
    });
  });
}

/** The scenarios of each agent module (scripts/agents/<agent>Scenarios.mjs): functions of the
 *  runner's helpers `h` (see runSet) giving `[[name, async () => …], …]`. One entry per agent. */
const AGENT_SCENARIOS = [codexScenarios, geminiScenarios, qwenScenarios, opencodeScenarios, copilotScenarios, clineScenarios];

// ── Main ──────────────────────────────────────────────────────────────────────────────────

/** Which versions to run: each set is run through every scenario. Default: the oldest and the
 *  newest of testedVersions.json (CI: no drift). `--latest`: the registry's newest of each agent
 *  (npm view), for the day a new version ships. `--versions oldest|newest|oldest,newest`. */
function versionSets(argv) {
  if (argv.includes('--latest')) {
    const latest = {};
    for (const agent of Object.keys(TESTED_VERSIONS)) latest[agent] = registryNewest(agent);
    return [{ label: 'latest', which: latest }];
  }
  const i = argv.indexOf('--versions');
  const wanted = (i >= 0 ? argv[i + 1] : (process.env.AGENTS_VERSIONS ?? 'oldest,newest')).split(',').map((v) => v.trim());
  for (const w of wanted) check(w === 'oldest' || w === 'newest', `--versions takes oldest, newest or both, got '${w}'`);
  // A set that names the same versions as one before it is run once.
  const seen = new Set();
  return wanted
    .map((w) => ({ label: w, which: w }))
    .filter((set) => {
      const key = JSON.stringify(Object.values(TESTED_VERSIONS).map((v) => v[set.which]));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** How each agent is named in the scenarios' titles ("Claude Code: …", "Codex: …", "opencode …"). */
const TITLE_NAMES = {
  'claude-code': /claude code/i,
  codex: /codex/i,
  'gemini-cli': /gemini/i,
  'qwen-code': /qwen/i,
  opencode: /opencode/i,
  'copilot-cli': /copilot/i,
  cline: /cline/i,
};

/** Whether a scenario (by its title) has something new to show under `set` after the sets already
 *  run: a title that names an agent whose version differs from every earlier set's, or one that
 *  names no agent. A scenario of an agent tested at one version only runs once. */
function newUnder(what, set, earlier) {
  const named = Object.entries(TITLE_NAMES)
    .filter(([, re]) => re.test(what))
    .map(([agent]) => agent);
  if (named.length === 0 || earlier.length === 0) return true;
  const now = versionsOf(set);
  return named.some((agent) => earlier.every((e) => versionsOf(e)[agent] !== now[agent]));
}

function versionsOf(set) {
  return Object.fromEntries(Object.entries(TESTED_VERSIONS).map(([agent, v]) => [agent, typeof set.which === 'string' ? v[set.which] : set.which[agent]]));
}

async function runSet(set, figures, earlier) {
  ARTIFACTS = join(ARTIFACTS_ROOT, set.label);
  mkdirSync(ARTIFACTS, { recursive: true });
  const agents = await ensureAgents(set.which);
  // What every per-agent scenario module gets: the runner's helpers, and its agent's CLI at this
  // set's version (installed on first use).
  const h = {
    repoRoot,
    CLI,
    ARTIFACTS,
    transcriptsDir: findTranscriptsDir(repoRoot),
    figures,
    log,
    check,
    run,
    mustRun,
    inSandbox,
    onlyFile,
    requestsSince,
    saveBody,
    includes,
    fileState,
    checkUntouched,
    ctxc,
    codexEnv,
    writeCodexConfig,
    scriptedReply,
    turnPrompt,
    notesText,
    narrative,
    checkCompactedRequest,
    version: (agent) => (typeof set.which === 'string' ? TESTED_VERSIONS[agent][set.which] : set.which[agent]),
    ensureAgent: (agent) => ensureAgent(agent, typeof set.which === 'string' ? set.which : set.which[agent]),
  };
  const scenarios = [
    ['Claude Code: a real multi-turn session, compacted and resumed', () => agentSession('claude', agents, figures)],
    ['Codex: a real multi-turn session, compacted and resumed', () => agentSession('codex', agents, figures)],
    ...readdirSync(join(findTranscriptsDir(repoRoot), 'claude-code'))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => [`Claude Code: the shared session ${f}, compacted and resumed`, () => sharedTranscript(agents, join('claude-code', f), figures)]),
    [
      'Codex: the shared kiliman Claude Code session compacted into a Codex rollout, resumed',
      () => sharedIntoCodex(agents, 'claude-code/kiliman__claude-transcript__test2.jsonl', figures),
    ],
    ...hookScenarios({
      agents,
      repoRoot,
      CLI,
      transcriptsDir: findTranscriptsDir(repoRoot),
      log,
      check,
      run,
      mustRun,
      inSandbox,
      claudeEnv,
      onlyFile,
      requestsSince,
      saveBody,
      includes,
      placeTranscript,
    }),
    ...mcpScenarios({ agents, repoRoot, CLI, ARTIFACTS, log, check, mustRun, inSandbox, claudeEnv, codexEnv, writeCodexConfig, onlyFile, requestsSince }),
    ...claudeCountScenarios({ agents, CLI, log, check, mustRun, inSandbox, claudeEnv, onlyFile, requestsSince, writeFile: writeFileSync }),
    ...AGENT_SCENARIOS.flatMap((scenarios) => scenarios(h)),
  ].filter(([what]) => !process.env.AGENTS_ONLY || new RegExp(process.env.AGENTS_ONLY, 'i').test(what));
  const results = [];
  const skipped = scenarios.filter(([what]) => !newUnder(what, set, earlier)).map(([what]) => what);
  if (skipped.length > 0) log(`[${set.label}] ${skipped.length} scenarios skipped: their agents' versions were run already`);
  for (const [what, fn] of scenarios) {
    if (skipped.includes(what)) continue;
    // A scenario that fails is run once more, in a fresh sandbox: the real CLIs start daemons and
    // race their own background work, and one odd run on a loaded machine is not a verdict. A
    // pass on the second run is reported with the first failure, in the table as well.
    let first;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const ts = Date.now();
      log(`[${set.label}] ${what}${attempt > 1 ? ' (run again)' : ''}`);
      try {
        await fn();
        results.push({ what, ok: true, ...(first ? { flaky: first } : {}) });
        log(`  ok (${((Date.now() - ts) / 1000).toFixed(1)}s)`);
        break;
      } catch (e) {
        const why = e instanceof AgentsTestError ? e.message.split('\n')[0] : String(e).split('\n')[0];
        log(`  FAILED: ${e instanceof AgentsTestError ? e.message : e.stack}`);
        if (attempt === 2) results.push({ what, ok: false, why, ...(first ? { flaky: first } : {}) });
        first ??= why;
      }
    }
  }
  return results;
}

async function main() {
  const t0 = Date.now();
  rmSync(ARTIFACTS_ROOT, { recursive: true, force: true });
  mkdirSync(ARTIFACTS_ROOT, { recursive: true });
  const sets = versionSets(process.argv.slice(2));
  // ctxc on Node 20 writes Codex's index row through the sqlite3 shell.
  ensureDebianCommand('sqlite3');
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  check(build.status === 0, 'node esbuild.mjs failed', build.stderr);
  const figures = [];
  const outcomes = [];
  for (const set of sets) {
    log(
      `versions (${set.label}): ${Object.entries(versionsOf(set))
        .map(([a, v]) => `${a} ${v}`)
        .join(', ')}`,
    );
    outcomes.push({
      set,
      results: await runSet(
        set,
        figures,
        outcomes.map((o) => o.set),
      ),
    });
  }
  log('');
  log('Request the CLI sent on resume, original → compacted:');
  for (const f of figures) {
    const n = (x) => (Number.isNaN(x) ? '—' : x.toLocaleString('en-US'));
    const tokens = f.tokensBefore !== undefined ? `; ${n(f.tokensBefore)} → ${n(f.tokensAfter)} tokens by our counter (system prompt and tools included)` : '';
    const rest = `; ${n(f.messagesBefore)} → ${n(f.messagesAfter)} messages; the session file itself ${n(f.sessionBefore)} → ${n(f.sessionAfter)} tokens`;
    log(`  ${f.what}: ${n(f.before)} → ${n(f.after)} bytes${tokens}${rest}`);
  }
  log('');
  log('Compatibility (each scenario against each set of versions):');
  log(
    `  versions: ${outcomes
      .map(
        ({ set }) =>
          `${set.label} = ${Object.entries(versionsOf(set))
            .map(([a, v]) => `${a} ${v}`)
            .join(', ')}`,
      )
      .join(' | ')}`,
  );
  const names = [...new Set(outcomes.flatMap((o) => o.results.map((r) => r.what)))];
  for (const what of names) {
    const cells = outcomes.map(({ set, results }) => {
      const r = results.find((x) => x.what === what);
      const again = r?.flaky ? ` on a second run (the first: ${r.flaky.slice(0, 160)})` : '';
      return `${set.label}: ${!r ? '— (same version as before)' : r.ok ? `ok${again}` : `FAILED (${r.why.slice(0, 160)})${again ? ' twice' : ''}`}`;
    });
    log(`  ${what} — ${cells.join(' · ')}`);
  }
  const failures = outcomes.flatMap(({ set, results }) => results.filter((r) => !r.ok).map((r) => `[${set.label}] ${r.what}`));
  log(`artifacts: ${ARTIFACTS_ROOT}`);
  log(`${failures.length === 0 ? 'all passed' : `${failures.length} failed: ${failures.join('; ')}`} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`[agents] ${e instanceof AgentsTestError ? e.message : e.stack}`);
  process.exit(1);
});
