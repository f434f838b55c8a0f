// `ctxc count` on a session the real Claude Code wrote agrees with the usage recorded for its last
// request: the file now holds everything that request held — the system prompt and the tool
// definitions (prompt_snapshot attachments), the reminders sent with each user message (rendered
// attachments), the messages — so our count of what the request held (countedAsOf) is compared
// with the recorded figure, and must be within −5% / +15% of it.
//
// Offline there is no Anthropic tokenizer: the fake model reports as usage its own o200k count of
// the request it received (system blocks, tools, every message's text, tool calls and results),
// which `ctxc count` also counts with. What is checked is that the file lets us rebuild the request,
// not how o200k compares with Claude's tokenizer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
/** The agreement asked for: our count of the last request within these bounds of the recorded usage. */
const LOW = -0.05;
const HIGH = 0.15;
/** What a message costs beyond its text (role, separators), as our counter bills it. */
const PER_MESSAGE = 4;

let encoder;
/** The o200k encoder (js-tiktoken), made once; also the Gemini CLI scenarios' fake usage. */
export function o200k() {
  if (!encoder) {
    const { Tiktoken } = require('js-tiktoken/lite');
    encoder = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
  }
  return encoder;
}

/** The o200k tokens of what an Anthropic request holds. */
function requestTokens(body) {
  const enc = o200k();
  const count = (text) => (text ? enc.encode(text, [], []).length : 0);
  let n = 0;
  const system = typeof body.system === 'string' ? [{ text: body.system }] : (body.system ?? []);
  for (const s of system) n += count(s.text ?? '');
  if (body.tools?.length) n += count(JSON.stringify(body.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.input_schema }))));
  for (const m of body.messages ?? []) {
    n += PER_MESSAGE;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    for (const b of blocks) {
      if (b.type === 'text') n += count(b.text);
      else if (b.type === 'tool_use') n += count(b.name) + count(JSON.stringify(b.input));
      else if (b.type === 'tool_result') n += count(typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('\n'));
    }
  }
  return n;
}

function notes(turn) {
  return Array.from({ length: 80 }, (_, i) => `${turn.toUpperCase()}-NOTE-LINE-${i + 1}: the ${turn} ledger row ${i + 1} holds ${(i * 7919) % 1000}`).join(
    '\n',
  );
}

/** A turn's first request reads its notes file; the request with the result gets the answer. */
function reply(body) {
  const msgs = body.messages ?? [];
  const lastUser = [...msgs].reverse().find((m) => m.role === 'user');
  const blocks = Array.isArray(lastUser?.content) ? lastUser.content : [{ type: 'text', text: lastUser?.content ?? '' }];
  const turn = blocks.map((b) => (b.type === 'text' ? /TURN-([a-z]+)/.exec(b.text)?.[1] : undefined)).find(Boolean);
  const inputTokens = requestTokens(body);
  if (turn) return { tool: { name: 'Bash', input: { command: `cat notes-${turn}.txt`, description: `read the ${turn} notes` } }, inputTokens };
  return { text: `The notes hold ${msgs.length} rows I read; all of them balance.`, inputTokens };
}

async function countAgrees(h) {
  return h.inSandbox('count', reply, 'claude-count', async ({ home, work, server }) => {
    const env = h.claudeEnv(home, server);
    const turns = ['alpha', 'bravo', 'charlie'];
    for (const t of turns) h.writeFile(join(work, `notes-${t}.txt`), `${notes(t)}\n`);
    await h.mustRun('count-turn-1', h.agents.claude, ['-p', `TURN-${turns[0]}: read notes-${turns[0]}.txt`, '--allowedTools', 'Bash'], { cwd: work, env });
    const files = h.onlyFile(join(home, '.claude', 'projects'), /^[0-9a-f-]{36}\.jsonl$/);
    h.check(files.length === 1, `expected one session file, found ${files.length}`);
    const file = files[0];
    const id = file
      .split('/')
      .pop()
      .replace(/\.jsonl$/, '');
    for (const t of turns.slice(1))
      await h.mustRun(`count-turn-${t}`, h.agents.claude, ['-p', '--resume', id, `TURN-${t}: read notes-${t}.txt`, '--allowedTools', 'Bash'], {
        cwd: work,
        env,
      });
    const text = readFileSync(file, 'utf8');
    const version = /"version":"([^"]+)"/.exec(text)?.[1];
    const r = JSON.parse((await h.mustRun('count-ctxc', process.execPath, [h.CLI, 'count', file, '--json'], { cwd: work, env })).stdout);
    h.check(r.reported, 'ctxc count found no recorded usage in the session', JSON.stringify(r).slice(0, 300));
    const lastRequest = h.requestsSince(server, 'anthropic', 0).at(-1);
    h.check(lastRequest && requestTokens(lastRequest.body) === r.reported.tokens, 'the usage recorded last is not that of the last request sent');
    const off = r.reported.countedAsOf / r.reported.tokens - 1;
    const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    h.log(
      `  Claude Code ${version}: the last request held ${r.reported.tokens.toLocaleString('en-US')} tokens (recorded usage); ctxc count of it ${r.reported.countedAsOf.toLocaleString('en-US')} (${pct(off)}): ` +
        `system ${r.byCategory.system.toLocaleString('en-US')}, tool definitions ${r.byCategory.toolDefinitions.toLocaleString('en-US')}, not in the file ${r.byCategory.unseen.toLocaleString('en-US')}`,
    );
    h.check(r.byCategory.toolDefinitions > 0, 'no tool definitions were read from the session (prompt_snapshot)');
    h.check(off >= LOW && off <= HIGH, `ctxc count of the last request is ${pct(off)} off the recorded usage (allowed ${pct(LOW)} … ${pct(HIGH)})`);
  });
}

export function claudeCountScenarios(h) {
  return [['Claude Code: ctxc count of a session the CLI wrote agrees with the usage recorded for its last request (−5% … +15%)', () => countAgrees(h)]];
}
