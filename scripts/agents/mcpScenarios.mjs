// `ctxc mcp` used by the real agents, set up exactly as the README says (this repository's
// dist/cli.js put in for the placeholder path), offline against the fake model:
//
//   Claude Code: `claude mcp add context-compactor -- node <cli.js> mcp` (the README's line); the
//     model loads the tool through ToolSearch (2.1.328 defers MCP tools), calls list_sessions, then
//     count_context with the id it got; the tool results the CLI sends back must carry this very
//     session and its token breakdown. Then, as a hostile prompt would make it, session_facts on a
//     file outside the workspace (a transcript-shaped file with a secret in it): the result is a
//     tool error that quotes nothing of the file.
//   Codex: the README's `[mcp_servers.context-compactor]` table in config.toml; Codex 0.169.0 lists
//     an MCP server's tools in a namespace (mcp__context_compactor), and the model calls
//     list_sessions there; the function_call_output must carry this very rollout.
import { writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { README_CLI_PLACEHOLDER as PLACEHOLDER, readmeBlock } from './readme.mjs';

/** A file outside the workspace, shaped like a transcript, with a secret in it (set per run). */
let OUTSIDE_FILE = '';
const OUTSIDE_SECRET = 'OUTSIDE-SECRET-7c1d';

function toolResults(body) {
  const out = [];
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      out.push(typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? c.tool_name ?? '').join('\n'));
    }
  }
  return out;
}

/** Claude Code's model: a plain turn, then ToolSearch → list_sessions → count_context(id) → done. */
function claudeReply(body) {
  const msgs = body.messages ?? [];
  if (!JSON.stringify(msgs).includes('MCP-TURN')) return { text: 'hello' };
  const results = toolResults(body);
  if (results.length === 0)
    return { tool: { name: 'ToolSearch', input: { query: 'select:mcp__context-compactor__list_sessions,mcp__context-compactor__count_context' } } };
  if (results.length === 1) return { tool: { name: 'mcp__context-compactor__list_sessions', input: {} } };
  if (results.length === 2) {
    const id = /"id": "([0-9a-f-]{36})"/.exec(results[1])?.[1] ?? 'no-id-found';
    return { tool: { name: 'mcp__context-compactor__count_context', input: { session_id: id } } };
  }
  if (results.length === 3) return { tool: { name: 'mcp__context-compactor__session_facts', input: { file: OUTSIDE_FILE } } };
  return { text: 'MCP-DONE' };
}

async function claudeMcp(h) {
  return h.inSandbox('mcp-claude', claudeReply, 'mcp-claude', async ({ home, work, server }) => {
    const env = h.claudeEnv(home, server);
    OUTSIDE_FILE = join(home, 'notes', 'notes.json');
    mkdirSync(join(home, 'notes'), { recursive: true });
    writeFileSync(OUTSIDE_FILE, JSON.stringify([{ role: 'user', content: `remember ${OUTSIDE_SECRET}` }]));
    const line = readmeBlock(h.repoRoot, 'mcp-claude-code', 'sh').split(' ');
    h.check(line[0] === 'claude', "the README's Claude Code line does not start with claude", line.join(' '));
    await h.mustRun(
      'mcp-claude-add',
      h.agents.claude,
      line.slice(1).map((a) => (a === PLACEHOLDER ? h.CLI : a)),
      { cwd: work, env },
    );
    await h.mustRun('mcp-claude-turn-1', h.agents.claude, ['-p', 'hello'], { cwd: work, env });
    const [file] = h.onlyFile(join(home, '.claude', 'projects'), /^[0-9a-f-]{36}\.jsonl$/);
    const id = file
      .split('/')
      .pop()
      .replace(/\.jsonl$/, '');
    const n0 = server.modelRequests('anthropic').length;
    const r = await h.mustRun(
      'mcp-claude-turn-2',
      h.agents.claude,
      ['-p', '--resume', id, 'MCP-TURN: how full is this session?', '--allowedTools', 'mcp__context-compactor'],
      { cwd: work, env },
    );
    h.check(r.stdout.includes('MCP-DONE'), 'Claude Code did not finish the turn that calls the MCP tools', r.stdout.slice(0, 300));
    const last = h.requestsSince(server, 'anthropic', n0).at(-1);
    const results = toolResults(last.body);
    h.check(
      results.length === 4,
      `expected 4 tool results (ToolSearch, list_sessions, count_context, session_facts), the last request carries ${results.length}`,
      results.map((x) => x.slice(0, 80)).join(' | '),
    );
    h.check(
      results[1].includes(`"id": "${id}"`) && results[1].includes('"agent": "claude-code"'),
      'list_sessions did not return this session',
      results[1].slice(0, 300),
    );
    const count = JSON.parse(results[2]);
    h.check(
      count.format === 'claude-code' && count.total > 0 && count.byCategory && Object.values(count.byCategory).reduce((a, b) => a + b, 0) === count.total,
      'count_context did not return the breakdown of this session',
      results[2].slice(0, 300),
    );
    h.check(
      results[3].includes('not a session this server reads') && !results[3].includes(OUTSIDE_SECRET),
      'session_facts on a file outside the workspace was not refused without quoting it',
      results[3].slice(0, 300),
    );
    h.log(`  list_sessions found this session (${id}); count_context: ${count.total} tokens of ${count.window} (${count.percent}%)`);
    h.log(`  session_facts on ${OUTSIDE_FILE} (outside the workspace): refused, nothing of it quoted`);
  });
}

/** Codex's model: list_sessions in the MCP namespace, then done. */
function codexReply(body) {
  const input = body.input ?? [];
  const outputs = input.filter((i) => i.type === 'function_call_output');
  if (outputs.length > 0) return { text: `MCP-DONE ${JSON.stringify(outputs.map((o) => o.output)).slice(0, 60)}` };
  const ns = (body.tools ?? []).find((t) => t.type === 'namespace' && (t.tools ?? []).some((x) => x.name === 'list_sessions'));
  if (!ns) return { text: 'NO-MCP-NAMESPACE' };
  return { tool: { namespace: ns.name, name: 'list_sessions', input: {} } };
}

async function codexMcp(h) {
  return h.inSandbox('mcp-codex', codexReply, 'mcp-codex', async ({ home, work, server }) => {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    h.writeCodexConfig(codexHome, server);
    appendFileSync(join(codexHome, 'config.toml'), `\n${readmeBlock(h.repoRoot, 'mcp-codex', 'toml').split(PLACEHOLDER).join(h.CLI)}\n`);
    const env = h.codexEnv(home, codexHome);
    const n0 = server.modelRequests('responses').length;
    const r = await h.mustRun('mcp-codex-exec', h.agents.codex, ['exec', '--skip-git-repo-check', 'MCP-TURN: list the sessions'], { cwd: work, env });
    h.check(r.stdout.includes('MCP-DONE'), 'Codex did not finish the turn that calls the MCP tool', `${r.stdout.slice(0, 300)}\n${r.stderr.slice(-600)}`);
    const [rollout] = h.onlyFile(join(codexHome, 'sessions'), /^rollout-.*\.jsonl$/);
    const id = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(rollout)[1];
    const last = h.requestsSince(server, 'responses', n0).at(-1);
    const output = JSON.stringify(last.body.input.filter((i) => i.type === 'function_call_output').map((o) => o.output));
    h.check(output.includes(id) && output.includes('\\"agent\\": \\"codex\\"'), 'list_sessions did not return this Codex session', output.slice(0, 400));
    writeFileSync(join(h.ARTIFACTS, 'mcp-codex-output.json'), output);
    h.log(`  Codex called list_sessions in the namespace mcp__context_compactor; it returned this rollout (${id})`);
  });
}

export function mcpScenarios(h) {
  return [
    [
      "MCP: the README's `claude mcp add` line in the real Claude Code; it calls list_sessions and count_context, and is refused a file outside the workspace",
      () => claudeMcp(h),
    ],
    ["MCP: the README's config.toml table in the real Codex; it calls list_sessions", () => codexMcp(h)],
  ];
}
