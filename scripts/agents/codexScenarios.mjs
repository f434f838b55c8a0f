// The Codex scenarios of the agents test (run.mjs runs them against each tested Codex version):
// what `ctxc compact --to codex` writes is found where Codex looks, not only by id.
//   1. A real multi-turn Codex session is metered within −5%/+15% of the last request Codex
//      recorded; compacted (ctxc on the runner's Node: the sqlite3 shell writes the index row); the
//      row is the one Codex itself makes when it indexes that rollout; the app server's thread/list
//      (what the resume picker shows) lists it from the index; `codex exec resume --last` resumes it
//      and its request holds the summary and the last user turn verbatim, and none of the summarized
//      turns' file contents; `codex exec resume <id>` too.
//   2. A shared real Claude Code session compacted into Codex with ctxc on Node 24 and no sqlite3 on
//      its PATH (node:sqlite writes the row): `codex exec resume --last` resumes it, not the Codex
//      thread that ran in the folder before.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ensureNode24 } from '../e2e/tools.mjs';
import { lastAssistantText, placeTranscript } from './sessionFixtures.mjs';

const LONG_TURNS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
/** Text deep inside the first turn's tool output and answer: summarized, never sent again. */
const SUMMARIZED = ['ALPHA-NOTE-LINE-77:', 'ALPHA-ANSWER-20 '];
const ROLLOUT = /^rollout-.*\.jsonl$/;
const SESSION_ID = /session id: ([0-9a-f-]{36})/;

export function codexScenarios(h) {
  return [
    ['Codex: a compacted rollout is in Codex’s index: `codex exec resume --last` resumes it and thread/list shows it', () => resumeLast(h)],
    ['Codex: a Claude Code session compacted into Codex (ctxc on Node 24: node:sqlite) is what `codex exec resume --last` resumes', () => crossLast(h)],
  ];
}

function sqliteJson(db, sql) {
  const r = spawnSync('sqlite3', ['-json', db, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3 ${db}: ${r.stderr}`);
  return r.stdout.trim() === '' ? [] : JSON.parse(r.stdout);
}

const ROW_FIELDS = 'id, source, model_provider, cwd, title, first_user_message, preview, cli_version, originator, thread_source, history_mode, archived';

/** The last request Codex recorded in a rollout: the last token_count's last_token_usage. */
function recordedLastRequest(file) {
  let tokens;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"token_count"')) continue;
    const o = JSON.parse(line);
    const n = o.payload?.info?.last_token_usage?.input_tokens;
    if (typeof n === 'number') tokens = n;
  }
  return tokens;
}

/** `codex app-server` over stdio: initialize, then thread/list with `params`; the server ended after. */
async function appServerList(h, bin, env, cwd, params) {
  const child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const waiting = new Map();
  let buf = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const m = JSON.parse(line);
        if (m.id !== undefined && waiting.has(m.id)) waiting.get(m.id)(m);
      } catch {
        // a log line
      }
    }
  });
  let n = 0;
  const call = (method, p) =>
    new Promise((resolve, reject) => {
      const id = ++n;
      const timer = setTimeout(() => reject(new Error(`codex app-server: no answer to ${method} in 30 s`)), 30_000);
      waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: p })}\n`);
    });
  try {
    await call('initialize', { clientInfo: { name: 'ctxc-agents-test', title: 'ctxc agents test', version: '0.0.0' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
    const r = await call('thread/list', params);
    h.check(!r.error, `codex app-server thread/list failed: ${JSON.stringify(r.error)}`);
    return r.result.data;
  } finally {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ended already
    }
  }
}

async function resumeLast(h) {
  const bin = await h.ensureAgent('codex');
  return h.inSandbox('codex-last', h.scriptedReply, 'codex-last', async ({ root, home, work, server }) => {
    const codexHome = join(home, '.codex');
    h.writeCodexConfig(codexHome, server);
    const env = h.codexEnv(home, codexHome);
    for (const t of LONG_TURNS) writeFileSync(join(work, `notes-${t}.txt`), h.notesText(t));
    const first = await h.mustRun('codex-last-turn-1', bin, ['exec', '--skip-git-repo-check', h.turnPrompt(LONG_TURNS[0], 0)], { cwd: work, env });
    const id = SESSION_ID.exec(first.stderr)?.[1];
    h.check(id, 'codex exec printed no session id');
    for (let i = 1; i < LONG_TURNS.length; i++)
      await h.mustRun(`codex-last-turn-${i + 1}`, bin, ['exec', '--skip-git-repo-check', 'resume', id, h.turnPrompt(LONG_TURNS[i], i)], { cwd: work, env });
    const [file] = h.onlyFile(join(codexHome, 'sessions'), ROLLOUT);
    const lastTurn = h.turnPrompt(LONG_TURNS.at(-1), LONG_TURNS.length - 1);

    // The meter on the real rollout: the recorded last request, within −5%/+15%.
    const recorded = recordedLastRequest(file);
    const count = await h.ctxc('codex-last-count', ['count', file, '--json'], env, work);
    const metered = JSON.parse(count.stdout);
    h.check(recorded > 0 && metered.reported?.tokens === recorded, `ctxc count did not read the last token_count (${metered.reported?.tokens} vs ${recorded})`);
    const off = metered.total / recorded - 1;
    h.check(
      off >= -0.05 && off <= 0.15,
      `ctxc count meters ${metered.total} tokens for a rollout whose last request was ${recorded} (${(off * 100).toFixed(1)}%)`,
    );
    h.check(!/does not know/.test(count.stderr), 'ctxc count warned of record types it does not know in a real rollout', count.stderr.trim());
    h.log(
      `  metered ${metered.total} for a last request of ${recorded} (${(off * 100).toFixed(1)}%); counted in the file ${metered.counted} (${((metered.counted / recorded) * 100).toFixed(0)}%, base instructions included), not in it ${metered.overhead}`,
    );

    const compacted = JSON.parse((await h.ctxc('codex-last-compact', ['compact', file, '--to', 'codex', '--format', 'json'], env, work)).stdout);
    h.check(
      compacted.notes.some((n) => n.startsWith("added to Codex's index")),
      'ctxc compact --to codex did not add the rollout to Codex’s index',
      compacted.notes.join(' | '),
    );
    const db = join(codexHome, 'state_5.sqlite');
    const [ours] = sqliteJson(db, `SELECT ${ROW_FIELDS}, rollout_path FROM threads WHERE id = '${compacted.id}'`);
    h.check(
      ours?.rollout_path === compacted.file && ours.source === 'exec',
      'the index row does not point at the compacted rollout as an exec thread',
      JSON.stringify(ours),
    );

    // The row Codex makes itself for the same rollout (in a copy of the home without ours, resumed by id).
    const copy = join(root, 'home-codex-own');
    cpSync(home, copy, { recursive: true });
    const copyDb = join(copy, '.codex', 'state_5.sqlite');
    sqliteJson(copyDb, `DELETE FROM threads WHERE id = '${compacted.id}'`);
    await h.mustRun('codex-last-own-row', bin, ['exec', '--skip-git-repo-check', 'resume', compacted.id, 'continue'], {
      cwd: work,
      env: h.codexEnv(copy, join(copy, '.codex')),
    });
    const [own] = sqliteJson(copyDb, `SELECT ${ROW_FIELDS} FROM threads WHERE id = '${compacted.id}'`);
    const { rollout_path: _path, ...oursFields } = ours;
    h.check(
      JSON.stringify(own) === JSON.stringify(oursFields),
      'our index row differs from the one Codex makes for the same rollout',
      `ours ${JSON.stringify(oursFields)}\n    Codex's ${JSON.stringify(own)}`,
    );

    // What the resume picker shows, headless: the app server's thread/list, from the index alone.
    const listed = await appServerList(h, bin, env, work, { sourceKinds: ['exec'], cwd: work, useStateDbOnly: true });
    h.check(
      listed[0]?.id === compacted.id,
      'thread/list (exec threads of the folder) does not show the compacted rollout first',
      JSON.stringify(listed.map((t) => t.id)),
    );
    h.check(
      listed.some((t) => t.id === id),
      'thread/list does not show the original thread beside it',
    );
    const interactive = await appServerList(h, bin, env, work, { cwd: work });
    h.log(
      `  thread/list: ${listed.length} exec threads, the compacted one first ("${String(listed[0].preview).slice(0, 40)}…", source ${listed[0].source}); ${interactive.length} with the picker's default (interactive) sources`,
    );

    const n0 = h.requestsSince(server, 'responses', 0).length;
    const last = await h.mustRun('codex-last-resume', bin, ['exec', '--skip-git-repo-check', 'resume', '--last', 'continue'], { cwd: work, env });
    h.check(SESSION_ID.exec(last.stderr)?.[1] === compacted.id, '`codex exec resume --last` did not resume the compacted rollout', last.stderr.slice(-400));
    const sent = h.requestsSince(server, 'responses', n0)[0];
    h.check(sent, 'codex exec resume --last sent no request');
    const summaryText = JSON.parse(readFileSync(compacted.file, 'utf8').split('\n')[2]).payload.message;
    h.checkCompactedRequest('`codex exec resume --last`', sent.raw, summaryText, [lastTurn], SUMMARIZED);
    const userTexts = sent.body.input.filter((i) => i.type === 'message' && i.role === 'user').map((i) => i.content.map((c) => c.text ?? '').join(''));
    h.check(
      userTexts.some((t) => t === lastTurn),
      'the last user turn is not one of the user messages sent, verbatim',
    );
    h.saveBody('codex-last-resumed', sent);
    h.log(`  codex exec resume --last → ${compacted.id}; the request (${sent.bytes} bytes, ${sent.body.input.length} items) sends:`);
    h.log(`    the summary: ${JSON.stringify(userTexts.find((t) => t.startsWith('This session is being continued')).slice(0, 150))}…`);
    h.log(`    the last user turn, verbatim: ${JSON.stringify(lastTurn)}`);

    const n1 = h.requestsSince(server, 'responses', 0).length;
    const byId = await h.mustRun('codex-last-by-id', bin, ['exec', '--skip-git-repo-check', 'resume', compacted.id, 'continue again'], { cwd: work, env });
    h.check(SESSION_ID.exec(byId.stderr)?.[1] === compacted.id, '`codex exec resume <id>` did not resume the compacted rollout');
    h.checkCompactedRequest('`codex exec resume <id>`', h.requestsSince(server, 'responses', n1)[0].raw, summaryText, [lastTurn], SUMMARIZED);
  });
}

async function crossLast(h) {
  const bin = await h.ensureAgent('codex');
  const node24 = (await ensureNode24()).bin;
  const rel = 'claude-code/kiliman__claude-transcript__test2.jsonl';
  return h.inSandbox(
    'codex-cross-last',
    () => ({ text: 'RESUMED-OK: continuing from where the session stopped.' }),
    'codex-cross-last',
    async ({ root, home, work, server }) => {
      const codexHome = join(home, '.codex');
      h.writeCodexConfig(codexHome, server);
      const env = h.codexEnv(home, codexHome);
      // A Codex thread ran in this folder before: `--last` would resume it without our index row.
      const before = await h.mustRun('codex-cross-earlier', bin, ['exec', '--skip-git-repo-check', 'an earlier Codex thread in this folder'], {
        cwd: work,
        env,
      });
      const earlier = SESSION_ID.exec(before.stderr)?.[1];
      const placed = placeTranscript(readFileSync(join(h.transcriptsDir, rel), 'utf8'), randomUUID(), work);
      const file = join(root, 'kiliman.jsonl');
      writeFileSync(file, placed.text);
      // No sqlite3 on ctxc's PATH: only Node 24's own SQLite can write the row.
      const r = await h.mustRun('codex-cross-compact-node24', node24, [h.CLI, 'compact', file, '--to', 'codex', '--format', 'json'], {
        cwd: work,
        env: { ...env, PATH: '' },
      });
      const compacted = JSON.parse(r.stdout);
      h.check(
        compacted.notes.some((n) => n.startsWith("added to Codex's index")),
        'ctxc on Node 24 did not add the rollout to Codex’s index',
        compacted.notes.join(' | '),
      );
      const n0 = h.requestsSince(server, 'responses', 0).length;
      const last = await h.mustRun('codex-cross-resume-last', bin, ['exec', '--skip-git-repo-check', 'resume', '--last', 'continue'], { cwd: work, env });
      const resumed = SESSION_ID.exec(last.stderr)?.[1];
      h.check(
        resumed === compacted.id,
        `\`codex exec resume --last\` resumed ${resumed === earlier ? 'the earlier Codex thread' : resumed}, not the compacted rollout`,
      );
      const sent = h.requestsSince(server, 'responses', n0)[0];
      const summaryText = JSON.parse(readFileSync(compacted.file, 'utf8').split('\n')[2]).payload.message;
      const recent = lastAssistantText(placed.text);
      h.checkCompactedRequest(`${rel} as a Codex rollout, resumed with --last`, sent.raw, summaryText, recent ? [recent] : [], []);
      h.log(
        `  ctxc on Node ${spawnSync(node24, ['--version'], { encoding: 'utf8' }).stdout.trim()} (node:sqlite) indexed ${compacted.id}; \`codex exec resume --last\` resumed it (${sent.bytes} bytes sent)`,
      );
    },
  );
}
