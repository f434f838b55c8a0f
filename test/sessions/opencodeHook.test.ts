// opencode's hooks are a plugin (verified with the real opencode 1.18.33 by `npm run test:agents`):
// its entry in opencode.json is added and taken out without touching anything else; the plugin
// runs the command and applies its answer (facts pushed onto the summary prompt's context, going
// on switched off), and changes nothing when the command fails; `ctxc hook opencode` gives the
// must-keep facts of a session read from opencode's database (the fixture store), and its loop
// guard stops opencode from going on by itself after `loopLimit` automatic compactions within
// `loopMinutes`, recording why; bad input is said, never thrown.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsShapeError } from '../../src/sessions/claudeHook/hookSettings';
import { agentById } from '../../src/sessions/agents/registry';
import { OPENCODE_FACTS_LEAD, opencodeStatePath, runOpencodeHook } from '../../src/sessions/agents/opencode/hook';
import { addOpencodeHooks, hasOpencodeHooks, opencodePluginUrl, removeOpencodeHooks } from '../../src/sessions/agents/opencode/hookSettings';
import { ContextCompactor } from '../../src/sessions/agents/opencode/plugin';
import { README_CLI_PLACEHOLDER, readmeBlock } from '../../scripts/agents/readme.mjs';

const root = mkdtempSync(join(tmpdir(), 'ctxc-opencode-hook-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fixtures = join(__dirname, '..', 'fixtures', 'opencode');
const home = join(root, 'home');
const stateDir = join(root, 'state');
const main = JSON.parse(readFileSync(join(fixtures, 'tools-compaction.export.json'), 'utf8')) as { info: { id: string } };
const settings = { maxTokens: 2000, loopLimit: 2, loopMinutes: 10 };
const COMMAND = 'node "/ext/dist/cli.js" hook opencode --loop-limit 2';

beforeAll(() => {
  const data = join(home, '.local', 'share', 'opencode');
  mkdirSync(data, { recursive: true });
  copyFileSync(join(fixtures, 'store', 'opencode.db'), join(data, 'opencode.db'));
  copyFileSync(join(fixtures, 'store', 'opencode.db-wal'), join(data, 'opencode.db-wal'));
});

describe('the plugin entry in opencode.json', () => {
  const url = 'file:///ext/dist/opencode-plugin.mjs';

  it('is added beside the other plugins, once, and taken out alone', () => {
    const config = { $schema: 'https://opencode.ai/config.json', model: 'a/b', plugin: ['opencode-wakatime', ['other', { x: 1 }]] };
    const added = addOpencodeHooks(config, COMMAND, url);
    expect(added).toMatchObject({ added: 1, removed: 0 });
    expect(added.settings).toEqual({ ...config, plugin: ['opencode-wakatime', ['other', { x: 1 }], [url, { command: COMMAND }]] });
    expect(hasOpencodeHooks(added.settings)).toBe(true);
    // Installing again (another extension folder, other flags) replaces the earlier entry.
    const again = addOpencodeHooks(added.settings, 'node "/new/cli.js" hook opencode', 'file:///new/opencode-plugin.mjs');
    expect(again.removed).toBe(1);
    expect(again.settings['plugin']).toEqual([
      'opencode-wakatime',
      ['other', { x: 1 }],
      ['file:///new/opencode-plugin.mjs', { command: 'node "/new/cli.js" hook opencode' }],
    ]);
    const removed = removeOpencodeHooks(again.settings);
    expect(removed).toMatchObject({ removed: 1, settings: config });
    expect(hasOpencodeHooks(removed.settings)).toBe(false);
    // A list that held only ours goes; an empty one of the person's stays.
    expect(removeOpencodeHooks(addOpencodeHooks({}, COMMAND, url).settings).settings).toEqual({});
    expect(removeOpencodeHooks({ plugin: [] }).settings).toEqual({ plugin: [] });
  });

  it('is the one the README shows', () => {
    const block = JSON.parse(readmeBlock(join(__dirname, '..', '..'), 'opencode-plugin', 'json')) as unknown;
    const command = `node "${README_CLI_PLACEHOLDER}" hook opencode`;
    expect(block).toEqual(addOpencodeHooks({}, command, opencodePluginUrl(dirname(README_CLI_PLACEHOLDER))).settings);
  });

  it('is refused for a config it cannot change safely', () => {
    expect(() => addOpencodeHooks([], COMMAND)).toThrow(SettingsShapeError);
    expect(() => addOpencodeHooks({ plugin: 'x' }, COMMAND)).toThrow("its 'plugin' is not a list");
  });

  it('is what the registry installs: the folder’s opencode.json or the user’s, the plugin beside the bundle', () => {
    const hooks = agentById('opencode')!.hooks!;
    expect(hooks.settingsFiles({ folders: ['/w'], env: { XDG_CONFIG_HOME: '/cfg' }, home: '/h' })).toEqual([
      { path: '/w/opencode.json', scope: 'workspace', folder: '/w' },
      { path: '/cfg/opencode/opencode.json', scope: 'user' },
    ]);
    expect(hooks.events).toEqual(['experimental.session.compacting', 'experimental.compaction.autocontinue']);
    expect(hooks.entry(COMMAND)).toEqual({ plugin: [[opencodePluginUrl(), { command: COMMAND }]] });
    expect(opencodePluginUrl('/ext/dist')).toBe('file:///ext/dist/opencode-plugin.mjs');
  });
});

describe('the plugin', () => {
  const answer = (json: string) => {
    const script = join(root, `answer-${Math.random().toString(36).slice(2)}.mjs`);
    const seen = `${script}.in`;
    writeFileSync(
      script,
      `import { readFileSync, writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(seen)}, readFileSync(0, 'utf8'));\nprocess.stdout.write(${JSON.stringify(json)});\n`,
    );
    return { command: `node "${script}"`, seen };
  };

  it('puts the command’s facts into the summary prompt, and switches going on off when told', async () => {
    const facts = answer('{"context":"FACTS"}');
    const hooks = (await ContextCompactor({ directory: '/w' }, { command: facts.command })) as Record<string, (i: unknown, o: unknown) => Promise<void>>;
    const output = { context: ['theirs'] };
    await hooks['experimental.session.compacting']!({ sessionID: 'ses_1' }, output);
    expect(output.context).toEqual(['theirs', 'FACTS']);
    expect(JSON.parse(readFileSync(facts.seen, 'utf8'))).toEqual({ hook_event_name: 'session.compacting', session_id: 'ses_1', directory: '/w' });
    const stop = answer('{"enabled":false,"reason":"a loop"}');
    const guard = (await ContextCompactor({ directory: '/w' }, { command: stop.command })) as typeof hooks;
    const cont = { enabled: true };
    await guard['experimental.compaction.autocontinue']!({ sessionID: 'ses_1', overflow: false }, cont);
    expect(cont.enabled).toBe(false);
  });

  it('changes nothing when the command fails, answers nonsense, or is not given', async () => {
    for (const command of ['exit 3', 'echo not json', 'node -e "process.exit(1)"']) {
      const hooks = (await ContextCompactor({}, { command })) as Record<string, (i: unknown, o: unknown) => Promise<void>>;
      const output = { context: [] as string[], enabled: true };
      await hooks['experimental.session.compacting']!({ sessionID: 'ses_1' }, output);
      await hooks['experimental.compaction.autocontinue']!({ sessionID: 'ses_1' }, output);
      expect(output).toEqual({ context: [], enabled: true });
    }
    expect(await ContextCompactor({}, {})).toEqual({});
  });
});

describe('ctxc hook opencode', () => {
  const event = (name: string, session = main.info.id) => JSON.stringify({ hook_event_name: name, session_id: session, directory: '/work/ws' });

  it('gives the session’s must-keep facts for the summary prompt, read from opencode’s database', async () => {
    const r = await runOpencodeHook(event('session.compacting'), { ...settings, stateDir, env: {}, home });
    const context = String(r.output?.['context']);
    expect(context.startsWith(OPENCODE_FACTS_LEAD)).toBe(true);
    // What the first turns asked and read, before opencode's own compaction dropped them, too.
    expect(context).toContain('READ-NOTES please read notes.txt');
    expect(context).toContain('/work/ws/notes.txt');
    expect(readFileSync(join(stateDir, 'hook.log'), 'utf8')).toMatch(
      /session\.compacting: \d+ must-keep facts in \d+ messages \(6 before the last compaction\)/,
    );
    const missing = await runOpencodeHook(event('session.compacting', 'ses_notthere'), { ...settings, stateDir, env: {}, home });
    expect(missing).toEqual({ message: 'ctxc hook: no opencode database holds session ses_notthere' });
  });

  it('lets `loopLimit` automatic compactions go on within `loopMinutes`, then stops opencode and says why', async () => {
    const t0 = Date.parse('2026-03-01T10:00:00Z');
    const at = (min: number) => ({ ...settings, stateDir, env: {}, home, now: () => new Date(t0 + min * 60_000) });
    expect(await runOpencodeHook(event('compaction.autocontinue'), at(0))).toEqual({});
    expect(await runOpencodeHook(event('compaction.autocontinue'), at(1))).toEqual({});
    const stopped = await runOpencodeHook(event('compaction.autocontinue'), at(2));
    expect(stopped.output).toMatchObject({ enabled: false });
    expect(String(stopped.output?.['reason'])).toMatch(/stopped opencode from going on by itself .* the 3rd in 10 minutes/);
    const state = JSON.parse(readFileSync(opencodeStatePath(stateDir, main.info.id), 'utf8')) as { compactions: { blocked?: boolean; reason?: string }[] };
    expect(state.compactions.map((c) => c.blocked === true)).toEqual([false, false, true]);
    expect(state.compactions[2]!.reason).toBe(stopped.output?.['reason']);
    // Once the first two are older than the window, it goes on by itself again.
    expect(await runOpencodeHook(event('compaction.autocontinue'), at(10.5))).toEqual({});
  });

  it('says what is wrong with its input, and never throws', async () => {
    const run = (text: string) => runOpencodeHook(text, { ...settings, stateDir, env: {}, home });
    expect((await run('not json')).message).toMatch(/standard input is not JSON/);
    expect((await run('[1]')).message).toMatch(/not a JSON object/);
    expect((await run('{"hook_event_name":"session.idle","session_id":"ses_1"}')).message).toMatch(
      /this hook handles session.compacting, compaction.autocontinue/,
    );
    expect((await run('{"hook_event_name":"session.compacting","session_id":"../x"}')).message).toMatch(/not an opencode session id/);
    expect(existsSync(join(stateDir, 'opencode', '.._x.json'))).toBe(false);
  });
});
