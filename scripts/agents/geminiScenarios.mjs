// The Gemini CLI scenarios of the agents test (run.mjs runs them against each tested version),
// offline against the fake model server's Gemini API:
//   1. The real CLI writes a 8-turn session (each turn reads a notes file with read_file and
//      answers at length), resumed turn by turn with `gemini -r <id>`. `ctxc sessions` lists it
//      once, with the tokens its last gemini record recorded (and the meter within −5%/+15% of
//      them); `ctxc compact --to gemini-cli` writes a new session file in the project's chats
//      folder (the original untouched; no other file there ends in its 8 characters); `gemini
//      --list-sessions` lists it and `gemini -r <id>` resumes it: the request holds the summary and
//      the last user turn verbatim, and none of the summarized turns' file contents; `ctxc
//      sessions` shows it under the original. Before the resume `ctxc count` meters the new session
//      with what it inherited, within −5%/+15% of what the resumed request then recorded. The fake
//      reports its o200k count of each request as usage, as the Claude Code count scenario's does.
//   2. A shared real Claude Code session compacted into Gemini CLI, in a folder Gemini CLI never
//      ran in (the new project is marked and taken up): `gemini -r <id>` resumes it.
// Gemini CLI's own session cleanup is turned off in these homes: a resume in a later minute than a
// session began leaves a stray file with the session's 8 characters, which the next start deletes
// together with the session (more-clis.md) — the CLI's doing, not what is tested here.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { baseEnv, lastAssistantText, placeTranscript } from './sessionFixtures.mjs';
import { o200k } from './claudeCountScenario.mjs';

/** Enough turns that the last one fits the room the default target leaves for recent turns. */
const TURNS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const SUMMARIZED = ['ALPHA-NOTE-LINE-77:', 'ALPHA-ANSWER-20 '];
const RESUMED = 'RESUMED-OK: continuing from where the session stopped.';

export function geminiScenarios(h) {
  return [
    ['Gemini CLI: a real session is listed with its recorded tokens, compacted, and resumed by `gemini -r <id>`', () => ownSession(h)],
    ['Gemini CLI: a Claude Code session compacted into Gemini CLI (a project it never ran in) is resumed by `gemini -r <id>`', () => fromClaude(h)],
  ];
}

function geminiEnv(home, server) {
  return { ...baseEnv(home), GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
}

function writeSettings(home) {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, general: { sessionRetention: { enabled: false } } };
  writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The user texts of a Gemini request's contents. */
function userTexts(body) {
  return (body.contents ?? []).filter((c) => c.role === 'user').flatMap((c) => (c.parts ?? []).map((p) => p.text ?? ''));
}

/** The o200k tokens of what a Gemini request holds (system instruction, tools, every part's text,
 *  call and response, 4 per content): reported as its usage, so that what the meter infers from the
 *  usage (the system prompt and tools, not in the file) is what o200k, our counter, makes of it. */
function geminiRequestTokens(body) {
  const enc = o200k();
  const count = (text) => (text ? enc.encode(text, [], []).length : 0);
  const partTokens = (p) =>
    count(p.text ?? '') +
    (p.functionCall ? count(p.functionCall.name) + count(JSON.stringify(p.functionCall.args ?? {})) : 0) +
    (p.functionResponse ? count(JSON.stringify(p.functionResponse.response ?? {})) : 0);
  let n = (body.systemInstruction?.parts ?? []).reduce((k, p) => k + partTokens(p), 0);
  if (body.tools?.length) n += count(JSON.stringify(body.tools));
  for (const c of body.contents ?? []) n += 4 + (c.parts ?? []).reduce((k, p) => k + partTokens(p), 0);
  return n;
}

/** The side calls want JSON (the router, a title); a turn's first request asks for its notes file,
 *  the request with the result gets the long answer, anything else the resumed reply; each with
 *  its o200k count as usage. */
function reply(h, work) {
  const answer = replyOf(h, work);
  return (body, api) => ({ ...answer(body, api), inputTokens: geminiRequestTokens(body) });
}

function replyOf(h, work) {
  return (body, api) => {
    if (api === 'gemini-json') {
      const s = JSON.stringify(body);
      return { text: s.includes('complexity') ? JSON.stringify({ complexity_reasoning: 'a plain task', complexity_score: 10 }) : 'Ledger review' };
    }
    const contents = body.contents ?? [];
    const last = contents[contents.length - 1];
    const texts = userTexts(body);
    const turnOf = (list) => {
      for (let i = list.length - 1; i >= 0; i--) {
        const m = /TURN-([a-z]+)/.exec(list[i]);
        if (m) return m[1];
      }
      return undefined;
    };
    if ((last?.parts ?? []).some((p) => p.functionResponse)) return { text: h.narrative(turnOf(texts) ?? 'alpha') };
    const turn = turnOf((last?.parts ?? []).map((p) => p.text ?? ''));
    if (!turn) return { text: RESUMED };
    return { tool: { name: 'read_file', input: { file_path: join(work, `notes-${turn}.txt`) } } };
  };
}

const SESSION_FILE = /^session-.*\.jsonl?$/;

/** The tokens.input of the last gemini record of a session file (the last request it recorded). */
function recordedLastRequest(file) {
  let tokens;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"gemini"')) continue;
    const o = JSON.parse(line);
    if (o.type === 'gemini' && typeof o.tokens?.input === 'number') tokens = o.tokens.input;
  }
  return tokens;
}

/** The summary as the compacted file holds it (its first message, inside <state_snapshot>). */
function summaryOf(file) {
  const text = JSON.parse(readFileSync(file, 'utf8').split('\n')[1]).content[0].text;
  return text.replace(/^<state_snapshot>\n/, '').replace(/\n<\/state_snapshot>$/, '');
}

async function ownSession(h) {
  const bin = await h.ensureAgent('gemini-cli');
  const at = {};
  return h.inSandbox(
    'gemini',
    (body, api) => reply(h, at.work)(body, api),
    'gemini-session',
    async ({ home, work, server }) => {
      at.work = work;
      writeSettings(home);
      for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), h.notesText(t));
      const env = geminiEnv(home, server);
      await h.mustRun('gemini-turn-1', bin, ['-p', h.turnPrompt(TURNS[0], 0)], { cwd: work, env });
      const [first] = h.onlyFile(join(home, '.gemini', 'tmp'), SESSION_FILE);
      h.check(first, 'gemini wrote no session file');
      const id = JSON.parse(readFileSync(first, 'utf8').split('\n')[0]).sessionId;
      for (let i = 1; i < TURNS.length; i++) await h.mustRun(`gemini-turn-${i + 1}`, bin, ['-r', id, '-p', h.turnPrompt(TURNS[i], i)], { cwd: work, env });
      const file = first;
      const text = readFileSync(file, 'utf8');
      h.check(
        SUMMARIZED.every((g) => text.includes(g)),
        'the real Gemini CLI session holds no output of the first turn (the tool call did not run)',
        file,
      );
      const strays = h.onlyFile(join(home, '.gemini', 'tmp'), SESSION_FILE).filter((f) => f !== file);
      h.log(
        `  session ${id}: ${TURNS.length} turns, ${text.split('\n').length - 1} records${strays.length > 0 ? `, and ${strays.length} stray file(s) the resumes left` : ''}`,
      );

      // Listed once, with what it recorded.
      const recorded = recordedLastRequest(file);
      const listed = JSON.parse((await h.ctxc('gemini-sessions', ['sessions', '--cwd', work, '--json', '--agents', 'gemini-cli'], env, work)).stdout);
      const mine = listed.filter((s) => s.id === id);
      h.check(mine.length === 1, `ctxc sessions lists the Gemini CLI session ${mine.length} times`, JSON.stringify(listed.map((s) => s.file)));
      h.check(mine[0].reportedTokens === recorded, `ctxc sessions did not read the last recorded request (${mine[0].reportedTokens} vs ${recorded})`);
      const off = mine[0].tokens / recorded - 1;
      h.check(off >= -0.05 && off <= 0.15, `ctxc sessions meters ${mine[0].tokens} tokens for a session whose last request was ${recorded}`);
      h.log(`  ctxc sessions: ${mine[0].tokens} tokens for a last recorded request of ${recorded} (${(off * 100).toFixed(1)}%), ${mine[0].messages} messages`);

      const before = h.fileState(file);
      const compacted = JSON.parse((await h.ctxc('gemini-compact', ['compact', file, '--to', 'gemini-cli', '--format', 'json'], env, work)).stdout);
      h.checkUntouched(file, before, 'ctxc compact --to gemini-cli');
      h.check(dirname(compacted.file) === dirname(file), 'the compacted session is not in the chats folder of the project', compacted.file);
      const id8 = compacted.id.slice(0, 8);
      h.check(
        readdirSync(dirname(file)).filter((n) => n.endsWith(`-${id8}.jsonl`) || n.endsWith(`-${id8}.json`)).length === 1,
        'another file of the chats folder ends in the compacted session’s 8 characters',
      );
      h.check(compacted.resume === `gemini -r ${compacted.id}`, 'the printed resume command is not gemini -r <id>', compacted.resume);

      const listedByGemini = await h.mustRun('gemini-list-sessions', bin, ['--list-sessions'], { cwd: work, env });
      h.check(
        listedByGemini.stdout.includes(compacted.id),
        '`gemini --list-sessions` does not list the compacted session',
        listedByGemini.stdout.slice(0, 600),
      );

      // Before Gemini CLI answers in it, the new session is metered with what it inherited.
      const predicted = JSON.parse((await h.ctxc('gemini-count-compacted', ['count', compacted.file, '--json'], env, work)).stdout);
      h.check(
        predicted.inherited && predicted.reported === null,
        'the compacted session is not metered with what it inherited',
        JSON.stringify(predicted.inherited),
      );

      const n0 = h.requestsSince(server, 'gemini', 0).length;
      const resumed = await h.mustRun('gemini-resume-compacted', bin, ['-r', compacted.id, '-p', 'continue'], { cwd: work, env });
      h.check(resumed.stdout.includes('RESUMED-OK'), 'gemini did not print the reply to the resumed session', resumed.stdout.slice(0, 300));
      const sent = h.requestsSince(server, 'gemini', n0)[0];
      h.check(sent, 'gemini -r <id> sent no request for the compacted session');
      const lastTurn = h.turnPrompt(TURNS.at(-1), TURNS.length - 1);
      const summary = summaryOf(compacted.file);
      h.checkCompactedRequest('`gemini -r <id>`', sent.raw, summary, [lastTurn, 'HOTEL-NOTE-LINE-120'], SUMMARIZED);
      const texts = userTexts(sent.body);
      h.check(
        texts.some((t) => t === lastTurn),
        'the last user turn is not one of the user parts sent, verbatim',
      );
      h.saveBody('gemini-resumed', sent);
      h.log(`  gemini -r ${compacted.id} → a request of ${sent.bytes} bytes, ${sent.body.contents.length} contents; it sends:`);
      h.log(`    the summary: ${JSON.stringify(texts.find((t) => t.includes('This session is being continued')).slice(0, 140))}…`);
      h.log(`    the last user turn, verbatim: ${JSON.stringify(lastTurn)}`);

      const after = JSON.parse((await h.ctxc('gemini-sessions-after', ['sessions', '--cwd', work, '--json', '--agents', 'gemini-cli'], env, work)).stdout);
      const original = after.find((s) => s.id === id);
      const child = after.find((s) => s.id === compacted.id);
      h.check(original && child, 'ctxc sessions does not list both Gemini CLI sessions', JSON.stringify(after.map((s) => s.id)));
      h.check(
        child.parent === id && child.relation === 'compacted' && original.children.includes(compacted.id),
        'the compacted session is not listed under its original',
      );
      // What the meter said before the resume against what the resumed request recorded (it adds
      // the prompt "continue" and the session context Gemini CLI renders anew). The part not in the
      // file is inherited from the original's first request: its later ones held the results of
      // earlier tool turns two or three times, as many as this CLI's resumes made, more than its
      // file shows (taken from the last request, the figure was −29% to +89% off).
      const real = child.reportedTokens;
      const meterOff = predicted.total / real - 1;
      h.check(meterOff >= -0.05 && meterOff <= 0.15, `before the resume ctxc count said ${predicted.total} tokens; Gemini CLI's request recorded ${real}`);
      h.log(
        `  the compacted session before its resume: ctxc count ${predicted.total} (compact said ${compacted.tokensAfter}), the resumed request recorded ${real} (${(meterOff * 100).toFixed(1)}%)`,
      );
    },
  );
}

async function fromClaude(h) {
  const bin = await h.ensureAgent('gemini-cli');
  const rel = 'claude-code/kiliman__claude-transcript__test2.jsonl';
  const answer = (body, api) => (api === 'gemini-json' ? { text: JSON.stringify({ complexity_reasoning: 'plain', complexity_score: 10 }) } : { text: RESUMED });
  return h.inSandbox('gemini-cross', answer, 'gemini-cross', async ({ root, home, work, server }) => {
    writeSettings(home);
    const env = geminiEnv(home, server);
    const placed = placeTranscript(readFileSync(join(h.transcriptsDir, rel), 'utf8'), randomUUID(), work);
    const file = join(root, 'kiliman.jsonl');
    writeFileSync(file, placed.text);
    const compacted = JSON.parse(
      (await h.ctxc('gemini-cross-compact', ['compact', file, '--to', 'gemini-cli', '--cwd', work, '--format', 'json'], env, work)).stdout,
    );
    const project = dirname(dirname(compacted.file));
    h.check(readFileSync(join(project, '.project_root'), 'utf8') === work, 'the new Gemini CLI project is not marked as the folder’s', project);
    const n0 = h.requestsSince(server, 'gemini', 0).length;
    const resumed = await h.mustRun('gemini-cross-resume', bin, ['-r', compacted.id, '-p', 'continue'], { cwd: work, env });
    h.check(resumed.stdout.includes('RESUMED-OK'), 'gemini did not print the reply to the resumed session', resumed.stdout.slice(0, 300));
    const sent = h.requestsSince(server, 'gemini', n0)[0];
    const recent = lastAssistantText(placed.text);
    h.checkCompactedRequest(`${rel} as a Gemini CLI session`, sent.raw, summaryOf(compacted.file), recent ? [recent] : [], []);
    const registry = JSON.parse(readFileSync(join(home, '.gemini', 'projects.json'), 'utf8'));
    h.check(registry.projects[work] === basename(project), 'Gemini CLI did not take up the marked project in its registry', JSON.stringify(registry));
    h.saveBody('gemini-cross-resumed', sent);
    h.log(`  ${rel} → ${basename(compacted.file)} in project ${basename(project)}; gemini -r sent ${sent.bytes} bytes with the summary and the recent turns`);
  });
}
