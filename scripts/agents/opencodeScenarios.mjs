// The opencode scenarios of the agents test (run.mjs runs them against each tested opencode
// version), offline against the fake model server's Chat Completions, HOME in a temporary folder:
//   1. The real opencode writes a multi-turn session (each turn a `read` of its notes file and a long
//      answer). `ctxc sessions` lists it from opencode's database with the usage opencode recorded,
//      `ctxc count` meters it within −5%/+15% of that last request and reads it as `opencode export`
//      prints it; `ctxc compact <database>#<id> --to opencode` has opencode import a new session;
//      `opencode run -s <new id>` sends the summary and the last user turn and none of the summarized
//      turns' file contents, smaller than the original's; the original's messages are unchanged and
//      the new session is listed under it.
//   2. A shared real Claude Code session compacted `--to opencode`: opencode goes on with it (the
//      model it is configured with), sending the summary and the recent turns.
//   3. The plugin (dist/opencode-plugin.mjs running `ctxc hook opencode`), in opencode's config: the
//      request opencode's summariser is sent holds the session's must-keep facts; with every answer
//      reporting a full window, `opencode run` compacts, goes on, compacts… until the loop guard stops
//      it going on after `--loop-limit` compactions, and the run ends by itself.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { lastAssistantText, placeTranscript } from './sessionFixtures.mjs';
import { README_CLI_PLACEHOLDER, readmeBlock } from './readme.mjs';
import { opencodeConfig, opencodeEnv } from './opencodeEnv.mjs';

/** Eight turns: enough for the compaction to keep the last round, its request included, verbatim. */
const TURNS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
/** Text deep inside the first turn's tool output and answer: summarized, never sent again. */
const SUMMARIZED = ['ALPHA-NOTE-LINE-77:', 'ALPHA-ANSWER-20 '];
const RESUMED = 'RESUMED-OK: continuing from where the session stopped.';

export function opencodeScenarios(h) {
  return [
    ['opencode: a real session listed with its recorded tokens, compacted into a session opencode imports and resumes', () => session(h)],
    ['opencode: a shared Claude Code session compacted into opencode, resumed by opencode', () => fromClaude(h)],
    ['opencode: the plugin gives its summariser the must-keep facts and stops a compaction loop', () => plugin(h)],
  ];
}

function userText(m) {
  return typeof m?.content === 'string' ? m.content : Array.isArray(m?.content) ? m.content.map((c) => c.text ?? '').join('\n') : '';
}

/** The fake model for opencode: a title, a summary, a `read` of the turn's notes, a long answer once
 *  it has read them, and a short reply to anything else. */
function reply(h, where) {
  return (body, api) => {
    if (api !== 'chat') return undefined;
    const msgs = body.messages ?? [];
    const system = userText(msgs[0]);
    if (/title generator/.test(system)) return { text: 'Ledger review' };
    if (/context summarization agent/.test(system)) return { text: '## Objective\n- The ledger review.' };
    const last = msgs[msgs.length - 1];
    const lastUser = [...msgs].reverse().find((m) => m.role === 'user');
    const turn = /TURN-([a-z]+)/.exec(userText(lastUser))?.[1];
    if (last?.role === 'tool') return { text: turn ? h.narrative(turn) : 'done' };
    if (last?.role === 'user' && turn && userText(last).includes(`TURN-${turn}`))
      return { tool: { name: 'read', input: { filePath: join(where.work, `notes-${turn}.txt`) } } };
    return { text: RESUMED };
  };
}

async function opencodeRun(h, bin, name, args, cwd, env) {
  return h.mustRun(name, bin, ['run', ...args], { cwd, env });
}

/** `opencode export <id>`, into a file: through a pipe, opencode 1.18.33 ended before a large
 *  export was all written (a 220 KB session came out cut at 214 KB). */
async function exportOf(h, bin, name, id, cwd, env) {
  const out = join(cwd, '..', `${name}.json`);
  await h.mustRun(name, '/bin/sh', ['-c', `"$0" export "$1" > "$2"`, bin, id, out], { cwd, env });
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** What opencode recorded for the last request of a session: input + cache read + cache write. */
function recordedLastRequest(exported) {
  const answers = exported.messages.filter((m) => m.info.role === 'assistant' && !m.info.summary && m.info.tokens);
  const t = answers.at(-1)?.info.tokens;
  return t ? t.input + (t.cache?.read ?? 0) + (t.cache?.write ?? 0) : undefined;
}

async function session(h) {
  const bin = await h.ensureAgent('opencode');
  const where = {};
  return h.inSandbox('opencode', reply(h, where), 'opencode-session', async ({ root, home, work, server }) => {
    where.work = work;
    opencodeConfig(home, server);
    // ctxc finds `opencode` on the PATH to have it import the session.
    const env = opencodeEnv(home, { PATH: `${dirname(bin)}:${process.env.PATH}` });
    for (const t of TURNS) writeFileSync(join(work, `notes-${t}.txt`), h.notesText(t));
    await opencodeRun(h, bin, 'opencode-turn-1', [h.turnPrompt(TURNS[0], 0)], work, env);
    const listed = JSON.parse((await h.mustRun('opencode-session-list', bin, ['session', 'list', '--format', 'json'], { cwd: work, env })).stdout);
    h.check(listed.length === 1, `opencode listed ${listed.length} sessions after one run, expected one`);
    const id = listed[0].id;
    for (let i = 1; i < TURNS.length; i++) await opencodeRun(h, bin, `opencode-turn-${i + 1}`, ['-s', id, h.turnPrompt(TURNS[i], i)], work, env);
    const lastTurn = h.turnPrompt(TURNS.at(-1), TURNS.length - 1);
    const db = join(home, '.local', 'share', 'opencode', 'opencode.db');
    const file = `${db}#${id}`;
    const original = await exportOf(h, bin, 'opencode-export-original', id, work, env);
    h.check(
      SUMMARIZED.every((s) => JSON.stringify(original).includes(s)),
      'the real opencode session holds no output of the first turn (the read did not run)',
    );
    writeFileSync(join(root, 'original.export.json'), JSON.stringify(original));

    // Listed from opencode's database, with the usage opencode recorded for its last request.
    const recorded = recordedLastRequest(original);
    const sessions = JSON.parse((await h.ctxc('opencode-ctxc-sessions', ['sessions', '--cwd', work, '--json', '--agents', 'opencode'], env, work)).stdout);
    const row = sessions.find((s) => s.id === id);
    h.check(row && row.file === file && row.error === null, 'ctxc sessions does not list the opencode session from its database', JSON.stringify(sessions));
    h.check(row.reportedTokens === recorded, `ctxc sessions: reported ${row.reportedTokens}, opencode recorded ${recorded}`);
    const count = JSON.parse((await h.ctxc('opencode-ctxc-count', ['count', file, '--json'], env, work)).stdout);
    const off = count.total / recorded - 1;
    h.check(off >= -0.05 && off <= 0.15, `ctxc count meters ${count.total} for a session whose last request was ${recorded} (${(off * 100).toFixed(1)}%)`);
    // Our read of the database is what `opencode export` prints.
    const viaExport = JSON.parse((await h.ctxc('opencode-ctxc-count-export', ['count', join(root, 'original.export.json'), '--json'], env, work)).stdout);
    h.check(
      viaExport.total === count.total && viaExport.messageCount === count.messageCount,
      'the session read from the database differs from `opencode export`',
      `${count.total}/${count.messageCount} vs ${viaExport.total}/${viaExport.messageCount}`,
    );
    h.log(
      `  ${id}: ${TURNS.length} turns; listed at ${row.tokens} tokens; opencode recorded ${recorded} for the last request, ctxc count ${count.total} (${(off * 100).toFixed(1)}%)`,
    );

    const copy = join(root, 'home-original');
    cpSync(home, copy, { recursive: true });
    const compacted = JSON.parse((await h.ctxc('opencode-ctxc-compact', ['compact', file, '--to', 'opencode', '--format', 'json'], env, work)).stdout);
    h.check(
      compacted.agent === 'opencode' && compacted.id !== id && compacted.file === `${db}#${compacted.id}`,
      'ctxc compact --to opencode did not have opencode import a new session',
      JSON.stringify(compacted),
    );
    h.check(compacted.resume === `opencode -s ${compacted.id}`, 'the printed resume command is not opencode -s <id>', compacted.resume);
    const imported = await exportOf(h, bin, 'opencode-export-compacted', compacted.id, work, env);
    const summary = imported.messages.find((m) => m.info.summary === true);
    h.check(summary, 'the imported session holds no summary message');
    const summaryText = summary.parts.find((p) => p.type === 'text').text;

    const n0 = server.modelRequests('chat').length;
    await opencodeRun(h, bin, 'opencode-resume-original', ['-s', id, 'continue'], work, opencodeEnv(copy, { PATH: env.PATH }));
    const before = h.requestsSince(server, 'chat', n0).find((r) => !/title generator/.test(userText(r.body.messages[0])));
    const n1 = server.modelRequests('chat').length;
    const resumed = await opencodeRun(h, bin, 'opencode-resume-compacted', ['-s', compacted.id, 'continue'], work, env);
    const after = h.requestsSince(server, 'chat', n1).find((r) => !/title generator/.test(userText(r.body.messages[0])));
    h.check(before && after, 'a resume sent no request to the model');
    h.check(resumed.stdout.includes('RESUMED-OK'), 'opencode did not print the reply to the resumed session', resumed.stdout.slice(-200));
    h.checkCompactedRequest('opencode session', after.raw, summaryText, [lastTurn, 'HOTEL-NOTE-LINE-120', h.narrative('hotel').slice(0, 300)], SUMMARIZED);
    h.check(
      after.body.messages.some((m) => m.role === 'user' && userText(m) === lastTurn),
      'the last user turn is not one of the user messages sent, verbatim',
    );
    const sent = after.body.messages.map((m) => `${m.role}:${userText(m).slice(0, 60)}`);
    h.check(
      sent[1] === 'user:What did we do so far?' && after.body.messages[2].role === 'assistant',
      'opencode did not send the summary as its compaction answer',
      sent.join(' | '),
    );
    h.check(
      SUMMARIZED.every((s) => before.raw.includes(s)),
      'the original resume did not send the first turn (the comparison would mean nothing)',
    );
    h.check(after.bytes < before.bytes, `the compacted resume request is not smaller (${after.bytes} ≥ ${before.bytes} bytes)`);
    h.saveBody('opencode-session-original', before);
    h.saveBody('opencode-session-compacted', after);

    // The original is untouched, and the new session is listed under it.
    const originalAfter = await exportOf(h, bin, 'opencode-export-original-after', id, work, env);
    h.check(JSON.stringify(originalAfter.messages) === JSON.stringify(original.messages), 'the original session’s messages changed');
    const relisted = JSON.parse(
      (await h.ctxc('opencode-ctxc-sessions-after', ['sessions', '--cwd', work, '--json', '--agents', 'opencode'], env, work)).stdout,
    );
    const child = relisted.find((s) => s.id === compacted.id);
    h.check(
      child?.parent === id && child.relation === 'compacted' && relisted.find((s) => s.id === id).children.includes(compacted.id),
      'ctxc sessions does not show the compacted session under its original',
      JSON.stringify(child),
    );
    h.log(
      `  compacted into ${compacted.id}: ${compacted.tokensBefore} → ${compacted.tokensAfter} tokens; resumed: ${before.bytes} → ${after.bytes} bytes, ${before.body.messages.length} → ${after.body.messages.length} messages`,
    );
    h.log(`    sent: ${sent.join(' | ')}`);
    h.figures.push({
      what: 'opencode session written by the real CLI',
      before: before.bytes,
      after: after.bytes,
      sessionBefore: compacted.tokensBefore,
      sessionAfter: compacted.tokensAfter,
      messagesBefore: before.body.messages.length,
      messagesAfter: after.body.messages.length,
    });
  });
}

async function fromClaude(h) {
  const bin = await h.ensureAgent('opencode');
  const rel = 'claude-code/kiliman__claude-transcript__test2.jsonl';
  return h.inSandbox(
    'opencode-cross',
    () => ({ text: RESUMED }),
    'opencode-cross',
    async ({ root, home, work, server }) => {
      opencodeConfig(home, server);
      const env = opencodeEnv(home, { PATH: `${dirname(bin)}:${process.env.PATH}` });
      const placed = placeTranscript(readFileSync(join(h.transcriptsDir, rel), 'utf8'), randomUUID(), work);
      const file = join(root, 'kiliman.jsonl');
      writeFileSync(file, placed.text);
      const compacted = JSON.parse((await h.ctxc('opencode-cross-compact', ['compact', file, '--to', 'opencode', '--format', 'json'], env, work)).stdout);
      h.check(
        compacted.notes.some((n) => n.includes('fake/fake-model')),
        'the session does not go on with the model opencode is configured with',
        compacted.notes.join(' | '),
      );
      const imported = await exportOf(h, bin, 'opencode-cross-export', compacted.id, work, env);
      const summaryText = imported.messages.find((m) => m.info.summary === true).parts.find((p) => p.type === 'text').text;
      const n0 = server.modelRequests('chat').length;
      const resumed = await opencodeRun(h, bin, 'opencode-cross-resume', ['-s', compacted.id, 'continue'], work, env);
      const after = h.requestsSince(server, 'chat', n0).find((r) => !/title generator/.test(userText(r.body.messages[0])));
      h.check(after && resumed.stdout.includes('RESUMED-OK'), 'opencode did not go on with the session compacted from Claude Code');
      const recent = lastAssistantText(placed.text);
      h.checkCompactedRequest(`${rel} as an opencode session`, after.raw, summaryText, recent ? [recent] : [], []);
      h.saveBody('opencode-cross-resumed', after);
      h.log(
        `  ${rel} → opencode session ${compacted.id} (${compacted.tokensBefore} → ${compacted.tokensAfter} tokens); opencode -s sent ${after.bytes} bytes, ${after.body.messages.length} messages`,
      );
    },
  );
}

/** The real opencode with our plugin: the facts in its summary prompt, and the loop stopped. */
async function plugin(h) {
  const bin = await h.ensureAgent('opencode');
  const mode = { full: 'never', work: '' };
  const base = reply(h, mode);
  const fake = (body, api) => {
    const r = base(body, api);
    const system = userText(body.messages?.[0]);
    if (!r || /title generator|context summarization agent/.test(system) || r.tool) return r;
    if (mode.full === 'never') return r;
    if (mode.full === 'once') mode.full = 'never';
    return { ...r, inputTokens: 199_000 };
  };
  return h.inSandbox('opencode-plugin', fake, 'opencode-plugin', async ({ root, home, work, server }) => {
    mode.work = work;
    const stateDir = join(root, 'state');
    // The README's entry, the placeholder folder of dist/ made this repository's, with a loop limit of 2.
    const entry = JSON.parse(readmeBlock(h.repoRoot, 'opencode-plugin', 'json').split(dirname(README_CLI_PLACEHOLDER)).join(dirname(h.CLI)));
    entry.plugin[0][1].command += ` --loop-limit 2 --state-dir "${stateDir}"`;
    h.check(
      entry.plugin[0][0] === pathToFileURL(join(h.repoRoot, 'dist', 'opencode-plugin.mjs')).href,
      'the README names another plugin file',
      entry.plugin[0][0],
    );
    opencodeConfig(home, server, entry);
    const env = opencodeEnv(home);
    writeFileSync(join(work, 'notes-alpha.txt'), h.notesText('alpha'));
    const instruction = 'Always run npm test before you commit anything.';
    await opencodeRun(h, bin, 'opencode-plugin-turn-1', [`${instruction} ${h.turnPrompt('alpha', 0)}`], work, env);
    const id = JSON.parse((await h.mustRun('opencode-plugin-list', bin, ['session', 'list', '--format', 'json'], { cwd: work, env })).stdout)[0].id;

    // One answer reports a full window: opencode compacts, and its summariser gets the facts.
    mode.full = 'once';
    const n0 = server.modelRequests('chat').length;
    await opencodeRun(h, bin, 'opencode-plugin-full-once', ['-s', id, 'go on with the review'], work, env);
    const summaryCall = h.requestsSince(server, 'chat', n0).find((r) => /context summarization agent/.test(userText(r.body.messages[0])));
    h.check(summaryCall, 'opencode did not compact after an answer that reported a full window');
    const prompt = userText(summaryCall.body.messages.at(-1));
    const facts = prompt.slice(prompt.indexOf('Context Compactor:'));
    h.check(
      prompt.includes('Context Compactor: the summary must keep these facts'),
      'the summary prompt does not hold the facts the plugin gave',
      prompt.slice(-600),
    );
    h.check(facts.includes(instruction) && facts.includes('notes-alpha.txt'), 'the facts lack the standing instruction or the file read', facts);
    h.saveBody('opencode-plugin-summary-call', summaryCall);
    h.log(`  the summary prompt ends with the facts (${facts.length} characters): ${JSON.stringify(facts.slice(0, 300))}…`);

    // Every answer reports a full window: without the guard opencode compacted 1,023 times in 25 s.
    mode.full = 'always';
    const n1 = server.modelRequests('chat').length;
    const looped = await opencodeRun(h, bin, 'opencode-plugin-loop', ['-s', id, 'keep going'], work, env);
    const summaries = h.requestsSince(server, 'chat', n1).filter((r) => /context summarization agent/.test(userText(r.body.messages[0]))).length;
    const state = JSON.parse(readFileSync(join(stateDir, 'opencode', `${id}.json`), 'utf8'));
    const last = state.compactions.at(-1);
    h.check(
      last?.blocked === true && /stopped opencode from going on by itself/.test(last.reason),
      'the loop guard did not stop opencode',
      JSON.stringify(state),
    );
    h.check(summaries <= 2, `opencode compacted ${summaries} times in the looping run, more than the guard lets through`);
    h.check(`${looped.stdout}${looped.stderr}`.includes('Context Compactor stopped opencode'), 'opencode’s output does not say why it stopped');
    h.log(
      `  with every answer full, the run compacted ${summaries} more times and ended by itself in ${(looped.ms / 1000).toFixed(1)} s: ${JSON.stringify(last.reason.slice(0, 160))}…`,
    );
  });
}
