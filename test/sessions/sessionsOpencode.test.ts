// opencode's store (test/fixtures/opencode/store: the database the real opencode 1.18.33 wrote,
// shrunk; one session of another folder only in its write-ahead log) is found and read: the
// workspace's sessions with their sub-agent under the session that ran it, the other folder's only
// for that folder (so the log is read), each read exactly as `opencode export` prints it, and the
// files never changed by reading (no byte, no time, no shared-memory file). Then the session written
// for opencode: the import file's shape (fresh ascending ids, the compaction and its summary, each
// tool call with its result, where it came from), read back as opencode sends it; and what happens
// when opencode is not there to import it, or says it imported something its database does not hold.

import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../src/engine/archive/memoryArchive';
import { compactConversation } from '../../src/engine/compactor';
import { importTranscript } from '../../src/engine/conversation/importers/detect';
import { OPENCODE_PROVENANCE_FIELD } from '../../src/engine/conversation/exporters/opencodeSession';
import { isUserAuthored, messageText, type Conversation } from '../../src/engine/conversation/model';
import { createTokenCounter } from '../../src/engine/tokens/messageCounter';
import { readBackProblem, sentParts } from '../../src/sessions/readBack';
import { listSessions } from '../../src/sessions/sessionCatalog';
import { compactSession } from '../../src/sessions/sessionTools';
import { opencodeModel, parseJsonc } from '../../src/sessions/agents/opencode/model';
import { opencodeDatabases, parseStoredSessionPath, readStoredSession, storedSessionPath } from '../../src/sessions/agents/opencode/store';
import { opencodeId, opencodeSessionFile } from '../../src/sessions/agents/opencode/write';
import { AgentUnavailableError, ReadBackError, writeCompactedSession } from '../../src/sessions/writeSession';
import { loadTranscript } from '../../src/cli/readTranscript';

const fixtures = join(__dirname, '..', 'fixtures', 'opencode');
const root = mkdtempSync(join(tmpdir(), 'ctxc-opencode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const data = join(home, '.local', 'share', 'opencode');
const db = join(data, 'opencode.db');
type Export = { info: Record<string, unknown>; messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] };
const exported = (name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as Export;
const main = exported('tools-compaction.export.json');
const parent = exported('subagent.export.json');
const child = exported('subagent-child.export.json');

function state(path: string) {
  return existsSync(path) ? { bytes: readFileSync(path), mtimeMs: statSync(path).mtimeMs } : undefined;
}

beforeAll(() => {
  mkdirSync(data, { recursive: true });
  copyFileSync(join(fixtures, 'store', 'opencode.db'), db);
  copyFileSync(join(fixtures, 'store', 'opencode.db-wal'), `${db}-wal`);
});

describe("opencode's store", () => {
  it('lists the workspace’s sessions, the sub-agent’s under the one that ran it, and the other folder’s only there', async () => {
    const before = [db, `${db}-wal`].map(state);
    const sessions = await listSessions({ folders: ['/work/ws'], env: {}, home, agents: { opencode: true }, globalStorage: [], workspaceStorage: [] });
    const mine = sessions.filter((s) => s.agent === 'opencode');
    expect(mine.map((s) => s.id).sort()).toEqual([main.info['id'], parent.info['id'], child.info['id']].sort());
    const top = mine.find((s) => s.id === main.info['id'])!;
    expect(top).toMatchObject({
      file: storedSessionPath(db, String(main.info['id'])),
      cwd: '/work/ws',
      title: 'hello one',
      resumable: true,
      agentVersion: '1.18.33',
    });
    expect(top.error).toBeUndefined();
    expect(top.historyTokens).toBeGreaterThan(0);
    // The meter starts from the usage opencode recorded for the last request.
    const last = main.messages[main.messages.length - 1]!.info['tokens'] as { input: number };
    expect(top.reportedTokens).toBe(last.input);
    expect(mine.find((s) => s.id === child.info['id'])).toMatchObject({ parent: parent.info['id'], relation: 'subagent' });
    expect(mine.find((s) => s.id === parent.info['id'])!.children).toEqual([child.info['id']]);

    const other = await listSessions({ folders: ['/work/other'], env: {}, home, agents: { opencode: true }, globalStorage: [], workspaceStorage: [] });
    expect(other.map((s) => [s.agent, s.title])).toEqual([['opencode', 'a session of another folder']]);
    // Read without writing anything, not even SQLite's shared-memory file.
    expect([db, `${db}-wal`].map(state)).toEqual(before);
    expect(existsSync(`${db}-shm`)).toBe(false);
  });

  it('reads a session exactly as `opencode export` prints it', async () => {
    for (const e of [main, parent, child]) {
      const ours = JSON.parse(await readStoredSession(storedSessionPath(db, String(e.info['id'])), 1 << 24)) as Export;
      expect(ours.messages).toEqual(e.messages);
      expect(ours.info).toMatchObject({ id: e.info['id'], directory: e.info['directory'], title: e.info['title'], version: e.info['version'] });
    }
    await expect(readStoredSession(storedSessionPath(db, 'ses_missing'), 1 << 24)).rejects.toThrow(/no session ses_missing/);
    await expect(readStoredSession(storedSessionPath(db, String(main.info['id'])), 100)).rejects.toThrow(/more than the 0 MB read/);
  });

  it('names a session `<database>#<id>`, which ctxc reads like a file', async () => {
    const file = storedSessionPath(db, String(main.info['id']));
    expect(parseStoredSessionPath(file)).toEqual({ db, id: main.info['id'] });
    expect(parseStoredSessionPath('/tmp/notes.db#ses_1')).toBeUndefined();
    expect(parseStoredSessionPath(`${db}#not-an-id`)).toBeUndefined();
    const loaded = await loadTranscript(file);
    expect(loaded.conversation.format).toBe('opencode');
    expect(loaded.conversation.messages.filter(isUserAuthored).map(messageText)).toContain('after the compaction');
    await expect(loadTranscript(storedSessionPath(db, 'ses_missing'))).rejects.toThrow(/expected a session of opencode's store, found no session ses_missing/);
  });

  it('finds the database where opencode keeps it: OPENCODE_DB, XDG_DATA_HOME, the channels’ databases', async () => {
    expect(await opencodeDatabases({}, home)).toEqual([db]);
    writeFileSync(join(data, 'opencode-beta.db'), '');
    writeFileSync(join(data, 'opencode.db.bak'), '');
    expect(await opencodeDatabases({}, home)).toEqual([db, join(data, 'opencode-beta.db')]);
    expect(await opencodeDatabases({ OPENCODE_DB: 'x.db' }, home)).toEqual([join(data, 'x.db')]);
    expect(await opencodeDatabases({ OPENCODE_DB: '/abs/x.db', XDG_DATA_HOME: '/elsewhere' }, home)).toEqual(['/abs/x.db']);
    expect(await opencodeDatabases({ XDG_DATA_HOME: join(root, 'none') }, home)).toEqual([]);
    rmSync(join(data, 'opencode-beta.db'));
    // A database that is not one lists nothing and breaks nothing.
    writeFileSync(join(data, 'opencode-broken.db'), 'not sqlite');
    const sessions = await listSessions({ folders: ['/work/ws'], env: {}, home, agents: { opencode: true }, globalStorage: [], workspaceStorage: [] });
    expect(sessions.filter((s) => s.agent === 'opencode')).toHaveLength(3);
    rmSync(join(data, 'opencode-broken.db'));
  });
});

describe('a compacted session written for opencode', () => {
  let conv: Conversation;
  let result: Awaited<ReturnType<typeof compactConversation>>;
  const ctx = () => ({ env: {}, home, cwd: '/work/ws', now: new Date('2026-02-01T10:00:00Z'), newUuid: () => 'x', inherited: {}, sourceFile: 'opencode.db#x' });

  beforeAll(async () => {
    conv = importTranscript(JSON.stringify(main), { format: 'opencode' }).conversation;
    result = await compactConversation(conv, {
      counter: await createTokenCounter(conv.meta.model),
      archive: new MemoryArchive(),
      keepRecentRounds: 1,
      ratio: 0.85,
    });
  });

  it('is a compaction, its summary and the recent turns, every id fresh and later than the one before', () => {
    const file = opencodeSessionFile(conv, result, ctx(), '1.18.33')!;
    const value = JSON.parse(file.text) as Export;
    expect(file.id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(value.info).toMatchObject({ id: file.id, directory: '/work/ws', version: '1.18.33', title: 'Ledger review (compacted)' });
    expect(value.info['metadata']).toMatchObject({ [OPENCODE_PROVENANCE_FIELD]: { from: main.info['id'], file: 'opencode.db#x' } });
    const [question, summary, ...rest] = value.messages;
    expect(question!.parts.map((p) => p['type'])).toEqual(['compaction']);
    expect(summary!.info).toMatchObject({ role: 'assistant', summary: true, mode: 'compaction', parentID: question!.info['id'], finish: 'stop' });
    expect(String(summary!.parts[1]!['text'])).toContain('## All user messages');
    // The model the original went on with, on every message; no usage we did not measure.
    for (const m of value.messages) {
      if (m.info['role'] === 'user') expect(m.info['model']).toEqual({ providerID: 'fake', modelID: 'fake-model' });
      else expect(m.info).toMatchObject({ providerID: 'fake', modelID: 'fake-model', tokens: { input: 0, cache: { read: 0, write: 0 } } });
    }
    const ids = value.messages.flatMap((m) => [m.info['id'] as string, ...m.parts.map((p) => p['id'] as string)]);
    expect(new Set(ids).size).toBe(ids.length);
    const originalIds = new Set(main.messages.flatMap((m) => [m.info['id'], ...m.parts.map((p) => p['id'])]));
    expect(ids.some((id) => originalIds.has(id))).toBe(false);
    const messageIds = value.messages.map((m) => m.info['id'] as string);
    expect([...messageIds].sort()).toEqual(messageIds);
    for (const m of value.messages) expect(m.parts.map((p) => p['id'] as string)).toEqual(m.parts.map((p) => p['id'] as string).sort());
    expect(rest.some((m) => m.parts.some((p) => p['type'] === 'text' && String(p['text']).includes('after the compaction')))).toBe(true);
  });

  it('reads back as opencode goes on with it: the summary, then the last user turn, metered as the original was', () => {
    const file = opencodeSessionFile(conv, result, { ...ctx(), inherited: { model: 'fake-model', overhead: 7400, window: 200000 } }, '1.18.33')!;
    const back = importTranscript(file.text, { format: 'opencode' }).conversation;
    expect(back.meta.inherited).toEqual({ model: 'fake-model', overhead: 7400, window: 200000 });
    expect(readBackProblem(sentParts(back.messages), result.conversation)).toBeUndefined();
    expect(back.messages[0]!.itemType).toBe('SKILL_METADATA');
    expect(back.messages[1]!.itemType).toBe('COMPACTION_SUMMARY');
  });

  it('ids sort as opencode creates them: later ones after, a session’s newest first', () => {
    const a = opencodeId('msg', false, 1_000);
    const b = opencodeId('msg', false, 1_000);
    const c = opencodeId('msg', false, 999);
    expect([a, b, c].sort()).toEqual([a, b, c]);
    const s1 = opencodeId('ses', true, 2_000_000);
    const s2 = opencodeId('ses', true, 3_000_000);
    expect([s1, s2].sort()).toEqual([s2, s1]);
  });

  it('is not written when opencode is not on the PATH, and the handoff is offered', async () => {
    const err = await writeCompactedSession('opencode', conv, result, { env: { PATH: join(root, 'empty') }, home, cwd: '/work/ws', fallbackCwd: root }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AgentUnavailableError);
    expect(String(err)).toMatch(/opencode is not on the PATH.*compact into a handoff instead/);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('ctxc-opencode-import-'))).toEqual([]);
    // Asked for no target, the MCP tool hands off instead.
    const handed = await compactSession({ file: storedSessionPath(db, String(main.info['id'])) }, { env: { PATH: join(root, 'empty') }, home, cwd: root });
    expect(handed.kind).toBe('handoff');
  });

  it('is not reported as written when opencode says it imported a session its database does not hold', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    const calls = join(root, 'calls.txt');
    // A stand-in for opencode that claims every import and deletes nothing.
    writeFileSync(
      join(bin, 'opencode'),
      `#!/bin/sh\necho "$@" >> '${calls}'\nif [ "$1" = import ]; then id=$(grep -o '"id": "ses_[^"]*"' "$2" | head -1 | cut -d'"' -f4); echo "Imported session: $id"; fi\n`,
    );
    chmodSync(join(bin, 'opencode'), 0o755);
    const err = await writeCompactedSession('opencode', conv, result, { env: { PATH: `${bin}:/usr/bin:/bin` }, home, cwd: root, fallbackCwd: root }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ReadBackError);
    expect(String(err)).toMatch(/opencode did not take the new session: opencode import said it imported ses_\w+, but no opencode database holds it/);
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^import .*ctxc-opencode-import-ses_\w+\.json --pure$/);
    expect(lines[1]).toMatch(/^session delete ses_\w+ --pure$/);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('ctxc-opencode-import-'))).toEqual([]);
  });
});

describe('the model a session from another agent goes on with', () => {
  it('is opencode’s configured one, else the newest session’s', async () => {
    const h = join(root, 'model-home');
    const cwd = join(root, 'proj');
    mkdirSync(join(h, '.config', 'opencode'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(cwd, '.git'));
    // No config, no store: nothing to go on with.
    expect(await opencodeModel({}, h, cwd)).toBeUndefined();
    // The store's newest session (the fixture's).
    mkdirSync(join(h, '.local', 'share', 'opencode'), { recursive: true });
    copyFileSync(db, join(h, '.local', 'share', 'opencode', 'opencode.db'));
    copyFileSync(`${db}-wal`, join(h, '.local', 'share', 'opencode', 'opencode.db-wal'));
    expect(await opencodeModel({}, h, cwd)).toEqual({ providerID: 'fake', modelID: 'fake-model' });
    writeFileSync(join(h, '.config', 'opencode', 'opencode.jsonc'), '{\n  // mine\n  "model": "anthropic/claude-sonnet-4-5", /* x */\n}\n');
    expect(await opencodeModel({}, h, cwd)).toEqual({ providerID: 'anthropic', modelID: 'claude-sonnet-4-5' });
    writeFileSync(join(cwd, 'opencode.json'), JSON.stringify({ model: 'openrouter/meta/llama-4' }));
    expect(await opencodeModel({}, h, cwd)).toEqual({ providerID: 'openrouter', modelID: 'meta/llama-4' });
    expect(await opencodeModel({ OPENCODE_CONFIG_CONTENT: '{"model":"x/y"}' }, h, cwd)).toEqual({ providerID: 'x', modelID: 'y' });
    expect(parseJsonc('{"a": "// not a comment", "b": [1,],}')).toEqual({ a: '// not a comment', b: [1] });
  });
});
