// Every shared real transcript imports, and what it holds — message counts, who wrote what, which
// tool call each result answers — matches expectations computed here straight from the raw file,
// without the importer's code.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import { longMemEvalProbes } from '../../../src/engine/conversation/importers/longMemEval';
import { isUserAuthored, messageText, type ImportResult } from '../../../src/engine/conversation/model';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';
import { transcriptFiles, transcriptPath } from '../../helpers/transcripts';

const raw = (rel: string) => readFileSync(transcriptPath(rel), 'utf8');
// Every line of a Claude Code file (wholeFile): the expectations below are computed from all its main lines.
const load = (rel: string, opts: { includeSidechains?: boolean; instance?: number } = {}): ImportResult =>
  importTranscript(raw(rel), { sourcePath: transcriptPath(rel), wholeFile: true, ...opts });

describe('every real transcript', () => {
  it('finds the shared transcripts', () => {
    expect(transcriptFiles().length).toBeGreaterThanOrEqual(11);
  });

  it.each(transcriptFiles())('%s imports into an API-valid conversation with unique, stable ids', (rel) => {
    const a = load(rel);
    const b = load(rel);
    const msgs = a.conversation.messages;
    expect(msgs.length).toBeGreaterThan(0);
    expect(apiShapeProblems(msgs)).toEqual([]);
    const ids = msgs.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Same file, same ids, same everything.
    expect(b.conversation.messages.map((m) => m.id)).toEqual(ids);
    expect(b.conversation.id).toBe(a.conversation.id);
    expect(JSON.parse(JSON.stringify(a))).toEqual(b);
    // Nobody but a person's words is user-authored, and a tool's output never is.
    for (const m of msgs) {
      if (isUserAuthored(m)) expect(m.role).toBe('user');
      if (m.role === 'tool') expect(isUserAuthored(m)).toBe(false);
    }
  });
});

// ── Claude Code ─────────────────────────────────────────────────────────────────────────────

interface RawLine {
  type?: string;
  uuid?: string;
  summary?: string;
  leafUuid?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  message?: { id?: string; model?: string; content?: unknown };
}

function rawLines(rel: string): RawLine[] {
  return raw(rel)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RawLine);
}

function blocksOf(l: RawLine, type: string): Record<string, unknown>[] {
  const c = l.message?.content;
  return Array.isArray(c) ? (c as Record<string, unknown>[]).filter((b) => b.type === type) : [];
}

const claudeFiles = transcriptFiles().filter((f) => f.startsWith('claude-code/'));

describe.each(claudeFiles)('Claude Code %s', (rel) => {
  const lines = rawLines(rel);
  const main = lines.filter((l) => l.isSidechain !== true);

  it('keeps every main-chain tool_use and tool_result, paired', () => {
    const { conversation } = load(rel);
    const calls = conversation.messages.flatMap((m) => m.toolCalls ?? []);
    const results = conversation.messages.filter((m) => m.toolResult && !m.source?.extra?.['synthetic']);
    expect(calls.length).toBe(main.reduce((n, l) => n + blocksOf(l, 'tool_use').length, 0));
    expect(results.length).toBe(main.reduce((n, l) => n + blocksOf(l, 'tool_result').length, 0));
    expect(conversation.messages.some((m) => m.source?.sidechain)).toBe(false);
  });

  it('merges the lines of one API response into one assistant message', () => {
    let groups = 0;
    let prev: string | undefined;
    for (const l of main) {
      if (l.type === 'assistant') {
        const id = l.message?.id;
        if (!(id && id === prev)) groups++;
        prev = id;
      } else if (l.type === 'user' || l.type === 'summary') prev = undefined;
    }
    const { conversation } = load(rel);
    expect(conversation.messages.filter((m) => m.role === 'assistant').length).toBe(groups);
    expect(conversation.meta.model).toBe(main.find((l) => l.type === 'assistant')?.message?.model);
  });

  it('lists as user-authored only what a person typed', () => {
    // Independently: main-chain user lines with text that is not harness output.
    const harness = /^\s*(?:Caveat: The messages below|<local-command-stdout>|<local-command-stderr>|\[Request interrupted by user)/;
    const expected: string[] = [];
    for (const l of main) {
      if (l.type !== 'user' || l.isMeta) continue;
      const c = l.message?.content;
      const texts = typeof c === 'string' ? [c] : blocksOf(l, 'text').map((b) => String(b.text));
      for (const t of texts) if (!harness.test(t)) expected.push(t);
    }
    const { conversation } = load(rel);
    const authored = conversation.messages.filter(isUserAuthored).map(messageText);
    expect(authored).toEqual(expected);
    expect(authored.some((t) => t.startsWith('Caveat:'))).toBe(false);
    // Summary lines are titles, never messages; only one whose leaf is a line of this file titles
    // it (the others name other sessions).
    expect(conversation.messages.filter((m) => m.itemType === 'COMPACTION_SUMMARY')).toEqual([]);
    const uuids = new Set(lines.map((l) => l.uuid));
    const own = lines.find((l) => l.type === 'summary' && l.leafUuid !== undefined && uuids.has(l.leafUuid));
    expect(conversation.meta.title).toBe(own?.summary);
  });

  it('includes sub-agent lines only when asked, and stays valid', () => {
    const side = lines.filter((l) => l.isSidechain === true);
    const without = load(rel);
    expect(without.warnings.some((w) => w.message.includes(`${side.length} sub-agent`))).toBe(true);
    const withSide = load(rel, { includeSidechains: true });
    const msgs = withSide.conversation.messages;
    expect(apiShapeProblems(msgs)).toEqual([]);
    expect(msgs.filter((m) => m.source?.sidechain).length).toBeGreaterThan(0);
    expect(msgs.flatMap((m) => m.toolCalls ?? []).length).toBe(lines.reduce((n, l) => n + blocksOf(l, 'tool_use').length, 0));
    // A sub-agent's prompt was written by the main agent, not by the user.
    expect(msgs.filter((m) => m.source?.sidechain && isUserAuthored(m))).toEqual([]);
  });
});

describe('Claude Code specifics (kiliman session)', () => {
  const rel = 'claude-code/kiliman__claude-transcript__test2.jsonl';
  it('keeps typed /commands as user messages with the command, and harness lines as metadata', () => {
    const { conversation } = load(rel);
    const msgs = conversation.messages;
    const clear = msgs.find((m) => messageText(m).includes('<command-name>/clear</command-name>'))!;
    expect(clear.itemType).toBe('USER_MESSAGE');
    expect(clear.source?.extra?.['command']).toBe('/clear');
    const stdout = msgs.find((m) => messageText(m).startsWith('<local-command-stdout>'))!;
    expect(stdout.itemType).toBe('SKILL_METADATA');
    const interrupted = msgs.find((m) => messageText(m).startsWith('[Request interrupted by user'))!;
    expect(isUserAuthored(interrupted)).toBe(false);
    // The rejected Bash call still has exactly its own (error) result.
    const rejected = msgs.find((m) => m.toolResult && messageText(m).startsWith("The user doesn't want to proceed"))!;
    expect(rejected.toolResult!.isError).toBe(true);
    expect(rejected.toolResult!.toolName).toBe('Bash');
    expect(msgs.filter((m) => m.source?.extra?.['synthetic'])).toEqual([]);
  });

  it('uses source uuids as ids and keeps timestamps', () => {
    const lines = rawLines(rel) as (RawLine & { uuid: string; timestamp: string })[];
    const { conversation } = load(rel);
    const first = conversation.messages[0]!;
    expect(first.id).toBe(lines[0]!.uuid);
    expect(first.timestamp).toBe(lines[0]!.timestamp);
  });
});

// ── aider ───────────────────────────────────────────────────────────────────────────────────

const aiderFiles = transcriptFiles().filter((f) => f.startsWith('aider/'));

describe.each(aiderFiles)('aider %s', (rel) => {
  const lines = raw(rel).split(/\r?\n/);

  it('reads each run of #### lines as one user message and each > run as aider output', () => {
    let userRuns = 0;
    let outputRuns = 0;
    let prev: 'user' | 'out' | 'blank-after-out' | 'other' = 'other';
    for (const l of lines) {
      if (l.startsWith('#### ') || l === '####') {
        if (prev !== 'user') userRuns++;
        prev = 'user';
      } else if (l.startsWith('> ') || l === '>') {
        if (prev !== 'out' && prev !== 'blank-after-out') outputRuns++;
        prev = 'out';
      } else if (l.trim() === '' && (prev === 'out' || prev === 'blank-after-out')) {
        prev = 'blank-after-out';
      } else prev = 'other';
    }
    const { conversation } = load(rel);
    const msgs = conversation.messages;
    expect(msgs.filter((m) => m.itemType === 'USER_MESSAGE').length).toBe(userRuns);
    expect(msgs.filter((m) => m.itemType === 'TOOL_RESULT').length).toBe(outputRuns);
    for (const m of msgs) {
      if (m.itemType === 'USER_MESSAGE') expect(messageText(m)).not.toMatch(/^#### /m);
      if (m.toolResult) expect(m.toolResult.toolName).toBe('aider');
    }
    // SEARCH/REPLACE markers are the assistant's, not aider output.
    const replace = lines.filter((l) => l.startsWith('>>>>>>> REPLACE')).length;
    const inAssistant = msgs.filter((m) => m.role === 'assistant').reduce((n, m) => n + (messageText(m).match(/^>>>>>>> REPLACE/gm)?.length ?? 0), 0);
    expect(inAssistant).toBe(replace);
  });

  it('stamps messages with their session start and reads the model', () => {
    const starts = [...raw(rel).matchAll(/^# aider chat started at (\S+) (\S+)/gm)].map((m) => `${m[1]}T${m[2]}`);
    const { conversation } = load(rel);
    const stamps = new Set(conversation.messages.map((m) => m.timestamp));
    for (const s of stamps) expect(starts).toContain(s);
    const model = /^> (?:Main )?[Mm]odel: (\S+) with/m.exec(raw(rel))?.[1];
    expect(conversation.meta.model).toBe(model);
  });
});

describe('aider afi-core specifics', () => {
  it('joins consecutive #### lines and strips the Markdown line breaks', () => {
    const { conversation } = load('aider/AFI-Protocol__afi-core.aider.chat.history.md');
    const texts = conversation.messages.filter(isUserAuthored).map(messageText);
    expect(texts).toContain('sync-afi\naider-afi');
    expect(texts).toContain('chmod +x ~/AFI_Modular_Repos/*.sh');
    const banner = conversation.messages.find((m) => m.toolResult && messageText(m).includes('Main model: gpt-4o'))!;
    // The banner comes before any assistant message: it is answered for a synthetic assistant.
    const owner = conversation.messages[conversation.messages.indexOf(banner) - 1]!;
    expect(owner.role).toBe('assistant');
    expect(owner.source?.extra?.['synthetic']).toBe(true);
  });
});

// ── mini-swe-agent ──────────────────────────────────────────────────────────────────────────

const miniFiles = transcriptFiles().filter((f) => f.startsWith('mini-swe-agent/'));

describe.each(miniFiles)('mini-swe-agent %s', (rel) => {
  const traj = JSON.parse(raw(rel)) as { messages: { role: string; content: string }[]; info: { config: { model: { model_name: string } } } };

  it('makes each assistant action a bash call answered by the next observation', () => {
    const { conversation } = load(rel);
    const msgs = conversation.messages;
    const assistants = traj.messages.filter((m) => m.role === 'assistant');
    const users = traj.messages.filter((m) => m.role === 'user');
    expect(msgs.filter((m) => m.role === 'assistant').length).toBe(assistants.length);
    expect(msgs.flatMap((m) => m.toolCalls ?? []).every((c) => c.name === 'bash')).toBe(true);
    expect(msgs.filter(isUserAuthored).map(messageText)).toEqual([users[0]!.content]);
    expect(msgs.filter((m) => m.toolResult).length).toBe(users.length - 1);
    const errors = users.slice(1).filter((u) => {
      const rc = /^<returncode>(-?\d+)<\/returncode>/.exec(u.content);
      return rc ? rc[1] !== '0' : u.content.startsWith('Please always provide EXACTLY ONE action');
    }).length;
    expect(msgs.filter((m) => m.toolResult?.isError).length).toBe(errors);
    expect(conversation.meta.model).toBe(traj.info.config.model.model_name);
  });

  it('takes the command out of the ```bash block, into the call', () => {
    const { conversation } = load(rel);
    const byIndex = new Map(conversation.messages.map((m) => [m.source?.index, m]));
    traj.messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      const blocks = [...m.content.matchAll(/```bash\n([\s\S]*?)\n```/g)].map((b) => b[1]);
      if (blocks.length !== 1) return;
      const imported = byIndex.get(i)!;
      expect(JSON.parse(imported.toolCalls![0]!.arguments)).toEqual({ command: blocks[0] });
      expect(messageText(imported)).not.toContain('```bash');
    });
  });
});

// ── OpenHands ───────────────────────────────────────────────────────────────────────────────

describe('OpenHands basic_gui_mode', () => {
  const rel = 'openhands/basic_gui_mode.json';
  const events = JSON.parse(raw(rel)) as {
    id: number;
    source: string;
    action?: string;
    observation?: string;
    cause?: number;
    tool_call_metadata?: { tool_call_id: string };
  }[];

  it('maps user/agent messages, actions to calls and caused observations to their results', () => {
    const { conversation } = load(rel);
    const msgs = conversation.messages;
    const actions = events.filter((e) => e.source === 'agent' && e.action && e.action !== 'message');
    const answered = events.filter((e) => e.observation && e.cause !== undefined && actions.some((a) => a.id === e.cause));
    expect(msgs.filter(isUserAuthored).length).toBe(events.filter((e) => e.source === 'user' && e.action === 'message').length);
    expect(msgs.flatMap((m) => m.toolCalls ?? []).map((c) => c.id)).toEqual(actions.map((a) => a.tool_call_metadata!.tool_call_id));
    expect(msgs.filter((m) => m.toolResult).map((m) => m.id)).toEqual(answered.map((e) => String(e.id)));
    expect(msgs.find((m) => m.id === '14')!.toolResult!.isError).toBe(true);
    expect(conversation.meta.model).toBe('claude-3-5-sonnet-20241022');
  });
});

// ── LongMemEval ─────────────────────────────────────────────────────────────────────────────

describe('LongMemEval', () => {
  const rel = 'longmemeval/longmemeval_s.json';
  const data = JSON.parse(raw(rel)) as {
    haystack_sessions: { role: string }[][];
    haystack_dates: string[];
    haystack_session_ids: string[];
    questions: string[];
    answers: string[];
  }[];

  it('imports one instance: every session in order, stamped with its date', () => {
    for (const instance of [0, 2]) {
      const { conversation } = load(rel, { instance });
      const inst = data[instance]!;
      const msgs = conversation.messages;
      expect(msgs.length).toBe(inst.haystack_sessions.reduce((n, s) => n + s.length, 0));
      expect(msgs.filter(isUserAuthored).length).toBe(inst.haystack_sessions.flat().filter((m) => m.role === 'user').length);
      expect(msgs[0]!.id).toBe(`${inst.haystack_session_ids[0]}:0`);
      const [y, mo, d] = inst.haystack_dates[0]!.split(/[/ ]/);
      expect(msgs[0]!.timestamp!.startsWith(`${y}-${mo}-${d}T`)).toBe(true);
    }
  });

  it('gives the questions and answers as probes', () => {
    const probes = longMemEvalProbes(raw(rel), 1);
    expect(probes.probes.map((p) => p.question)).toEqual(data[1]!.questions);
    expect(probes.probes.map((p) => p.answer)).toEqual(data[1]!.answers.map(String));
    expect(probes.probes[0]!.answerSessionIds.length).toBeGreaterThan(0);
  });
});
