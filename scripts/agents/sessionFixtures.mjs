// What the agents test and the end-to-end test share about running the real Claude Code offline:
// its environment against the fake model server, the config that lets it start interactively with
// no onboarding, trust or API-key dialog (checked with the real 2.1.328 in a terminal), and a real
// shared session placed where Claude Code looks for it, with the texts that tell a compacted resume
// from the original one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The summary's eight headings, as the compacted session writes them (the engine's SECTION_NAMES;
 *  test/sessions/sessionsWriters.test.ts holds the two equal, since plain Node cannot import the TypeScript). */
export const SECTIONS = [
  'Primary Request and Intent',
  'Key Technical Concepts',
  'Files and Code Sections',
  'Errors and fixes',
  'Problem Solving',
  'All user messages',
  'Pending Tasks',
  'Current Work',
];
/** The opening of the summary message Claude Code is sent on resume. */
export const SUMMARY_OPENING = 'This session is being continued from a previous conversation';
/** The key the fake model server accepts. */
export const FAKE_API_KEY = 'sk-test';

/** A minimal environment: nothing of the machine's agent configuration leaks in. */
export function baseEnv(home) {
  return { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR || tmpdir(), LANG: 'C.UTF-8', NO_COLOR: '1' };
}

/** What Claude Code needs to talk to the fake model server and nothing else. */
export function claudeServerEnv(serverUrl) {
  return {
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

export function claudeEnv(home, server) {
  return { ...baseEnv(home), ...claudeServerEnv(server.url) };
}

/**
 * `~/.claude.json` for an interactive `claude` in `cwd`: onboarding done, the folder trusted, and
 * the API key from the environment approved (Claude Code remembers a key by its last 20
 * characters). Without these, the real CLI stops at a connectivity check, a trust dialog and
 * "Do you want to use this API key?".
 */
export function seedClaudeConfig(home, cwd, apiKey = FAKE_API_KEY) {
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(home, '.claude.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/** Claude Code's project folder of a working directory (every non-alphanumeric character '-'). */
export function claudeProjectDir(home, cwd) {
  return join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
}

/**
 * A shared real session placed where Claude Code looks for it. What had to change for the CLI to
 * take it: every line's sessionId (the new file's name) and cwd (the fake project folder), and the
 * lines after the last assistant message of the main chain are left out (in kiliman's session,
 * /export commands that Claude Code chained to the session's first line: a resume would send only
 * them).
 */
export function placeTranscript(text, id, work) {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let last = lines.length - 1;
  while (last >= 0) {
    const o = JSON.parse(lines[last]);
    if (o.type === 'assistant' && o.isSidechain !== true) break;
    last--;
  }
  const out = lines.slice(0, last + 1).map((l) => {
    const o = JSON.parse(l);
    if ('sessionId' in o) o.sessionId = id;
    if ('cwd' in o) o.cwd = work;
    return JSON.stringify(o);
  });
  return { text: `${out.join('\n')}\n`, dropped: lines.length - last - 1 };
}

/** Writes a placed shared transcript as session `id` of `work` in `home`; returns its file. */
export function placeSession(home, transcriptFile, id, work) {
  const placed = placeTranscript(readFileSync(transcriptFile, 'utf8'), id, work);
  const dir = claudeProjectDir(home, work);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${id}.jsonl`);
  writeFileSync(file, placed.text);
  return { file, ...placed };
}

/** A long tool result of the session's first half: text the compaction summarizes away. */
export function earlyToolText(fileText) {
  const lines = fileText
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((o) => o.type === 'user' && o.isSidechain !== true);
  const half = lines.slice(0, Math.ceil(lines.length / 2));
  let best = '';
  for (const o of half) {
    for (const b of Array.isArray(o.message?.content) ? o.message.content : []) {
      if (b.type !== 'tool_result') continue;
      const t = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('\n');
      if (t.length > best.length) best = t;
    }
  }
  const mid = Math.floor(best.length / 2);
  return best.slice(mid, mid + 80);
}

/** The start of the last long assistant answer: a recent turn every resume must carry. */
export function lastAssistantText(fileText) {
  const lines = fileText
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  for (let i = lines.length - 1; i >= 0; i--) {
    const o = lines[i];
    if (o.type !== 'assistant' || o.isSidechain === true) continue;
    const t = (o.message?.content ?? [])
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('\n');
    if (t.length > 40) return t.slice(0, 200);
  }
  return '';
}

/** Whether a request body holds `needle`, as it is or JSON-escaped. */
export function includes(haystack, needle) {
  return haystack.includes(needle) || haystack.includes(JSON.stringify(needle).slice(1, -1));
}
