// An opencode session of any length added to a copy of the store fixture (the database the real
// opencode 1.18.33 wrote, test/fixtures/opencode/store), with the sqlite3 shell, in the shapes
// opencode writes its rows: a user message with a text part, then per turn an assistant message
// with a `read` tool part and one with the answer, each with its usage.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Turn } from './agentSessions';

export const hasSqlite3 = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' }).status === 0;

/** The fixture store copied to `<home>/.local/share/opencode/opencode.db` (and its -wal). */
export function placeOpencodeStore(home: string): string {
  const data = join(home, '.local', 'share', 'opencode');
  mkdirSync(data, { recursive: true });
  const db = join(data, 'opencode.db');
  const fixture = join(__dirname, '..', 'fixtures', 'opencode', 'store', 'opencode.db');
  copyFileSync(fixture, db);
  copyFileSync(`${fixture}-wal`, `${db}-wal`);
  return db;
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function addOpencodeSession(db: string, spec: { id: string; directory: string; title: string; turns: Turn[]; start?: number }): void {
  let t = spec.start ?? 1_790_000_000_000;
  let n = 0;
  const id = (p: string) => `${p}_${(t * 4096 + ++n).toString(16).padStart(12, '0')}Aaaaaaaaaaaaaa`;
  const sql: string[] = [
    `INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (${q(spec.id)}, 'global', 'big-one', ${q(spec.directory)}, ${q(spec.title)}, '1.18.33', ${t}, ${t});`,
  ];
  const message = (data: Record<string, unknown>) => {
    const mid = id('msg');
    sql.push(
      `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (${q(mid)}, ${q(spec.id)}, ${t}, ${t}, ${q(JSON.stringify(data))});`,
    );
    return mid;
  };
  const part = (mid: string, data: Record<string, unknown>) =>
    sql.push(
      `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (${q(id('prt'))}, ${q(mid)}, ${q(spec.id)}, ${t}, ${t}, ${q(JSON.stringify(data))});`,
    );
  const model = { providerID: 'fake', modelID: 'fake-model' };
  const answer = (parent: string, finish: string, input: number) => ({
    parentID: parent,
    role: 'assistant',
    mode: 'build',
    agent: 'build',
    path: { cwd: spec.directory, root: '/' },
    cost: 0,
    tokens: { total: input + 10, input, output: 10, reasoning: 0, cache: { write: 0, read: 0 } },
    ...model,
    time: { created: t, completed: t },
    finish,
  });
  spec.turns.forEach((turn, i) => {
    t += 1000;
    const u = message({ role: 'user', time: { created: t }, agent: 'build', model, summary: { diffs: [] } });
    part(u, { type: 'text', text: turn.user });
    t += 1000;
    const call = message(answer(u, 'tool-calls', 5000 + i * 3000));
    part(call, { type: 'step-start' });
    part(call, {
      type: 'tool',
      tool: 'read',
      callID: `call_${i}`,
      state: { status: 'completed', input: turn.tool.input, output: turn.tool.output, title: 'read', metadata: {}, time: { start: t, end: t } },
    });
    t += 1000;
    const done = message(answer(u, 'stop', 6000 + i * 3000));
    part(done, { type: 'step-start' });
    part(done, { type: 'text', text: turn.answer });
  });
  sql.push(`UPDATE session SET time_updated = ${t} WHERE id = ${q(spec.id)};`);
  const r = spawnSync('sqlite3', [db], { input: sql.join('\n'), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr}`);
}
