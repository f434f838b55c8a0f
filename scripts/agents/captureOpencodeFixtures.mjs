// node scripts/agents/captureOpencodeFixtures.mjs — makes test/fixtures/opencode/ again with the
// real opencode (testedVersions.json's oldest, from the npm registry into .cache/agents/), offline
// against the fake model server, HOME in a temporary folder. What it captures:
//   tools-compaction.export.json   `opencode export` of a session: a text turn, a `read` tool call,
//                                  a `glob` call that fails, an automatic compaction that keeps the
//                                  last two turns as its tail (compaction.tail_turns = 2), the
//                                  synthetic "Continue…" turn, and a turn after it
//   subagent.export.json           a session whose `task` tool call ran a sub-agent …
//   subagent-child.export.json     … and the sub-agent's own session (parent_id)
//   store/opencode.db, -wal        opencode's database holding those sessions and one of another
//                                  folder, shrunk by the sqlite3 shell (1 KB pages, the event log
//                                  emptied); the other folder's session is only in the -wal
//   requests.json                  the model requests of the compaction: the summary call and the
//                                  request after it (what opencode sent), trimmed of the tools
// The prompts carry no secrets; paths are the temporary folder's and are rewritten to /work/ws.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../e2e/tools.mjs';
import { startFakeModel } from './fakeModel.mjs';
import { opencodeConfig, opencodeEnv } from './opencodeEnv.mjs';
import { ensureAgent } from './tools.mjs';

const OUT = join(repoRoot, 'test', 'fixtures', 'opencode');
const WS = '/work/ws';

function lastUserText(body) {
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  const content = last?.content;
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => c.text ?? '').join('\n') : '';
}

let fullOnce = false;
function reply(body) {
  const msgs = body.messages ?? [];
  const system = JSON.stringify(msgs[0]?.content ?? '');
  if (/title generator/.test(system)) return { text: 'Ledger review' };
  if (/context summarization agent/.test(system))
    return { text: '## Objective\n- Review the ledger notes.\n\n## Work State\n- SUMMARY-OF-OPENCODE: notes read, glob failed.' };
  const last = msgs[msgs.length - 1];
  if (last?.role === 'tool') return { text: `Read it: ${String(last.content).slice(0, 40)}` };
  const text = lastUserText(body);
  if (/READ-NOTES/.test(text)) return { tool: { name: 'read', input: { filePath: join(process.env.CTXC_FIXTURE_WORK, 'notes.txt') } } };
  if (/FIND-FILES/.test(text)) return { tool: { name: 'glob', input: { pattern: '*.txt' } } };
  if (/RUN-SUBAGENT/.test(text))
    return { tool: { name: 'task', input: { description: 'count the notes', prompt: 'SUBTASK: count the notes lines', subagent_type: 'general' } } };
  if (/SUBTASK/.test(text)) return { text: 'The notes have two lines.' };
  if (fullOnce) {
    fullOnce = false;
    return { text: 'That fills the window.', inputTokens: 199_000 };
  }
  return { text: `Answer to ${text.slice(0, 60)}` };
}

async function main() {
  const bin = await ensureAgent('opencode', 'oldest');
  const root = mkdtempSync(join(tmpdir(), 'ctxc-opencode-fixtures-'));
  const home = join(root, 'home');
  const work = join(root, 'ws');
  const other = join(root, 'other');
  for (const d of [home, work, other]) mkdirSync(d, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'NOTE-1: the ledger balances\nNOTE-2: the port is 8443\n');
  process.env.CTXC_FIXTURE_WORK = work;
  const server = await startFakeModel({ reply, logFile: join(root, 'requests.jsonl') });
  try {
    opencodeConfig(home, server, { compaction: { tail_turns: 2 } });
    const env = opencodeEnv(home);
    // Asynchronous: the fake model server answers from this process.
    const cli = (cwd, args) =>
      new Promise((resolve, reject) => {
        const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`opencode ${args.join(' ')} exited ${code}: ${err.slice(-400)}`));
        });
      });
    const run = (cwd, ...args) => cli(cwd, ['run', ...args]);
    const sessions = async () => JSON.parse(await cli(work, ['session', 'list', '--format', 'json']));
    await run(work, 'hello one');
    await run(work, '-c', 'READ-NOTES please read notes.txt');
    await run(work, '-c', 'FIND-FILES find the text files');
    fullOnce = true;
    const before = server.requests.length;
    await run(work, '-c', 'summarize the ledger');
    // opencode's system prompt and tools are its own (and long): the first line of the prompt stays.
    const compaction = server.requests.slice(before).map((r) => ({
      ...r.body,
      messages: r.body.messages.map((m) => (m.role === 'system' ? { ...m, content: `${String(m.content).split('\n')[0]} […]` } : m)),
      tools: r.body.tools ? `[${r.body.tools.length} tools]` : undefined,
    }));
    await run(work, '-c', 'after the compaction');
    const main = (await sessions()).find((s) => s.directory === work);
    await run(work, 'RUN-SUBAGENT count the notes');
    await run(other, 'a session of another folder');
    const all = await sessions();
    const parent = all.find((s) => s.directory === work && s.id !== main.id && !s.parentId);
    const exported = async (id) => JSON.parse(await cli(work, ['export', id]));
    const parentExport = await exported(parent.id);
    // `session list` shows no sub-agent sessions: the task tool's part names its session.
    const task = parentExport.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.tool === 'task');
    const child = { id: task.state.metadata.sessionId };
    const place = (v) => JSON.parse(JSON.stringify(v).split(work).join(WS).split(other).join('/work/other').split(root).join('/work'));
    mkdirSync(join(OUT, 'store'), { recursive: true });
    writeFileSync(join(OUT, 'tools-compaction.export.json'), `${JSON.stringify(place(await exported(main.id)), null, 2)}\n`);
    writeFileSync(join(OUT, 'subagent.export.json'), `${JSON.stringify(place(parentExport), null, 2)}\n`);
    writeFileSync(join(OUT, 'subagent-child.export.json'), `${JSON.stringify(place(await exported(child.id)), null, 2)}\n`);
    writeFileSync(join(OUT, 'requests.json'), `${JSON.stringify(place(compaction), null, 2)}\n`);
    shrinkStore(join(home, '.local', 'share', 'opencode', 'opencode.db'), join(root, 'shrink'), { work, other });
    console.log(`[capture] ${OUT}: sessions ${main.id}, ${parent.id}, ${child?.id}`);
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** opencode's database, small: 1 KB pages, the event log emptied, the folders rewritten; the other
 *  folder's session taken out and written back in WAL mode, and the files copied while the shell
 *  still holds them open, so that session is in the -wal only. */
function shrinkStore(db, dir, { work, other }) {
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, 'opencode.db');
  cpSync(db, copy);
  cpSync(`${db}-wal`, `${copy}-wal`);
  const sql = (script) => {
    const r = spawnSync('sqlite3', [copy], { input: script, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr}`);
  };
  const set = (col) => `${col} = replace(replace(replace(${col}, '${work}', '${WS}'), '${other}', '/work/other'), '${dirname(work)}', '/work')`;
  sql(`PRAGMA journal_mode=DELETE;
DELETE FROM event; DELETE FROM event_sequence;
UPDATE session SET ${set('directory')}, path = replace(replace(path, '${work.slice(1)}', 'work/ws'), '${other.slice(1)}', 'work/other');
UPDATE message SET ${set('data')}; UPDATE part SET ${set('data')};
CREATE TABLE hold_session AS SELECT * FROM session WHERE directory = '/work/other';
CREATE TABLE hold_message AS SELECT * FROM message WHERE session_id IN (SELECT id FROM hold_session);
CREATE TABLE hold_part AS SELECT * FROM part WHERE session_id IN (SELECT id FROM hold_session);
DELETE FROM part WHERE session_id IN (SELECT id FROM hold_session);
DELETE FROM message WHERE session_id IN (SELECT id FROM hold_session);
DELETE FROM session WHERE id IN (SELECT id FROM hold_session);
PRAGMA page_size=1024;
VACUUM;
`);
  const out = join(OUT, 'store', 'opencode.db');
  sql(`PRAGMA journal_mode=WAL;
PRAGMA wal_autocheckpoint=0;
INSERT INTO session SELECT * FROM hold_session;
INSERT INTO message SELECT * FROM hold_message;
INSERT INTO part SELECT * FROM hold_part;
DROP TABLE hold_session; DROP TABLE hold_message; DROP TABLE hold_part;
.shell cp ${copy} ${out} && cp ${copy}-wal ${out}-wal
`);
  console.log(`[capture] store: ${readFileSync(out).length} + ${readFileSync(`${out}-wal`).length} bytes`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
