// A Claude Code session imported as it grows must be the session imported whole. Starting from a
// real session cut at a random line, random realistic lines are appended in steps (user text,
// assistant replies streamed over several lines with tool calls, tool results — on time, late, for
// no call —, sidechain lines, bookkeeping, a compact boundary with its summary, a rewind, a repeated
// line, a line that is not JSON, a partial last line finished at the next step), and after each
// step the growing import (and the live meter on a file) is compared with a fresh full import (and
// a fresh meter) of the same lines.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeCodeGrowingImport, importClaudeCodeLines } from '../../src/engine/conversation/importers/claudeCode';
import { JsonlParser } from '../../src/engine/conversation/importers/jsonText';
import type { FoundSession } from '../../src/sessions/agentSession';
import { LiveSessionMeter } from '../../src/sessions/liveSessionMeter';
import { SessionCatalog } from '../../src/sessions/sessionCatalog';
import { prng as random } from '../helpers/fuzzCases';
import { transcriptFiles, transcriptPath } from '../helpers/transcripts';

const dir = mkdtempSync(join(tmpdir(), 'ctxc-grow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sessions = transcriptFiles()
  .filter((f) => f.startsWith('claude-code/') && f.endsWith('.jsonl'))
  .map(transcriptPath);

type Line = Record<string, unknown>;

/** Writes the lines an agent would append to a session, in steps; keeps what it needs to chain them. */
class SessionWriter {
  private n = 0;
  private leaf: string | null = null;
  /** Uuids of the main chain so far (a rewind goes back to one of them). */
  private chain: string[] = [];
  private sidechainLeaf: string | null = null;
  /** Tool calls not answered yet. */
  private pending: string[] = [];
  private lastAssistantId: string | undefined;
  private partial = '';
  /** Lines to write at the start of the next step. */
  private next: Line[] = [];
  readonly written: string[] = [];
  private readonly base: Line;

  constructor(
    private readonly rnd: () => number,
    start: readonly string[],
    private readonly tag: string,
  ) {
    let facts: Line = {};
    for (const text of start) {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        continue;
      }
      if (typeof v !== 'object' || v === null) continue;
      const o = v as Line;
      if (typeof o['uuid'] === 'string' && 'parentUuid' in o && o['isSidechain'] !== true) {
        this.leaf = o['uuid'];
        this.chain.push(o['uuid']);
      }
      if (typeof o['sessionId'] === 'string') facts = { cwd: o['cwd'], sessionId: o['sessionId'], version: o['version'] };
    }
    this.base = { isSidechain: false, userType: 'external', ...facts };
  }

  private uuid(): string {
    return `${this.tag}-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)]!;
  }

  private main(type: string, message: Line, extra: Line = {}, parent: string | null = this.leaf): Line {
    const uuid = this.uuid();
    const line = { parentUuid: parent, ...this.base, type, message, uuid, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.n)).toISOString(), ...extra };
    this.leaf = uuid;
    this.chain.push(uuid);
    return line;
  }

  private assistant(content: unknown[], id = `msg_${this.tag}_${this.n}`): Line {
    this.lastAssistantId = id;
    const usage = { input_tokens: 10 + this.n, cache_creation_input_tokens: 100, cache_read_input_tokens: 20_000 + this.n * 50, output_tokens: 40 };
    return this.main('assistant', { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, usage });
  }

  private toolUse(): Line {
    const id = `toolu_${this.tag}_${this.n}`;
    this.pending.push(id);
    return { type: 'tool_use', id, name: this.pick(['Bash', 'Read', 'Edit']), input: { command: `ls step-${this.n}` } };
  }

  /** The next step: one to a few lines of one kind, as text to append (a partial line may end it). */
  step(): { text: string; kind: string } {
    const lines: Line[] = this.next;
    this.next = [];
    let raw: string[] = [];
    const r = this.rnd();
    let kind: string;
    if (r < 0.16) {
      kind = 'user text';
      this.lastAssistantId = undefined;
      lines.push(this.main('user', { role: 'user', content: `Please look at item ${this.n} and <b>say</b> what changed.` }));
    } else if (r < 0.32) {
      kind = 'assistant reply';
      const calls = Math.floor(this.rnd() * 3);
      const id = `msg_${this.tag}_${this.n}`;
      lines.push(this.assistant([{ type: 'text', text: `Looking at step ${this.n}.` }], id));
      // Claude Code writes each block of a streamed response as its own line, sharing message.id.
      for (let k = 0; k < calls; k++) lines.push(this.assistant([this.toolUse()], id));
    } else if (r < 0.36) {
      kind = 'assistant continues (same message.id)';
      lines.push(this.assistant([this.rnd() < 0.5 ? this.toolUse() : { type: 'text', text: 'and more' }], this.lastAssistantId));
    } else if (r < 0.52) {
      kind = 'tool results';
      const answered = this.pending.splice(0, Math.max(1, Math.floor(this.rnd() * (this.pending.length + 1))));
      const ids = answered.length > 0 ? answered : [`toolu_nobody_${this.n}`];
      for (const id of ids)
        lines.push(this.main('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `output of ${id}`, is_error: false }] }));
      this.lastAssistantId = undefined;
    } else if (r < 0.6) {
      kind = 'sidechain';
      const uuid = this.uuid();
      lines.push({
        parentUuid: this.sidechainLeaf,
        ...this.base,
        isSidechain: true,
        type: this.rnd() < 0.5 ? 'user' : 'assistant',
        message: { role: 'user', content: 'sub-agent work' },
        uuid,
        timestamp: '2026-01-01T00:00:00.000Z',
      });
      this.sidechainLeaf = uuid;
    } else if (r < 0.66) {
      kind = 'bookkeeping';
      const b = this.pick(['command', 'system', 'snapshot', 'synthetic']);
      if (b === 'command')
        lines.push(
          this.main('user', {
            role: 'user',
            content: '<command-name>/cost</command-name>\n<command-message>cost</command-message>\n<command-args></command-args>',
          }),
        );
      else if (b === 'system')
        lines.push(this.main('system', { role: 'system', content: 'note' }, { subtype: 'informational', content: 'note', level: 'info' }));
      else if (b === 'snapshot')
        lines.push({ type: 'file-history-snapshot', messageId: this.uuid(), snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false });
      else
        lines.push(
          this.main('assistant', {
            id: `msg_syn_${this.n}`,
            type: 'message',
            role: 'assistant',
            model: '<synthetic>',
            content: [{ type: 'text', text: 'No response requested.' }],
          }),
        );
    } else if (r < 0.7) {
      kind = 'not JSON';
      raw.push(`{"type":"user","message": oops ${this.n}`);
    } else if (r < 0.74 && this.written.length > 0) {
      kind = 'repeated line';
      raw.push(this.pick(this.written));
    } else if (r < 0.78) {
      kind = 'summary title';
      lines.push({ type: 'summary', summary: `Session about step ${this.n}`, leafUuid: this.leaf });
    } else if (r < 0.82 && this.chain.length > 2) {
      kind = 'rewind';
      const to = this.chain[Math.floor(this.rnd() * (this.chain.length - 1))]!;
      this.pending = [];
      lines.push(this.main('user', { role: 'user', content: `Let us go back: try another way ${this.n}.` }, {}, to));
    } else if (r < 0.85 && this.chain.length > 2) {
      kind = 'compact boundary';
      const tail = this.leaf;
      const head = this.chain[this.chain.length - 2]!;
      const boundary = this.main(
        'system',
        {},
        {
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          logicalParentUuid: tail,
          compactMetadata: { trigger: 'manual', preTokens: 1234 },
        },
        null,
      );
      delete boundary['message'];
      const summary = this.main('user', { role: 'user', content: `This session is being continued. Summary of step ${this.n}.` }, { isCompactSummary: true });
      // Since 2.1.x the boundary names the lines kept verbatim, to be sent after the summary (which
      // comes next, at the next step: the boundary points to a line not written yet).
      if (this.rnd() < 0.7) (boundary['compactMetadata'] as Line)['preservedSegment'] = { headUuid: head, tailUuid: tail, anchorUuid: summary['uuid'] };
      lines.push(boundary);
      this.next.push(summary);
      this.pending = [];
    } else if (r < 0.9) {
      kind = 'late tool result (after the conversation moved on)';
      lines.push(this.main('user', { role: 'user', content: 'meanwhile, another question' }));
      const id = this.pending.shift() ?? `toolu_${this.tag}_${Math.max(1, this.n - 3)}`;
      lines.push(this.main('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'late output', is_error: true }] }));
    } else {
      kind = 'user text, then a partial line';
      lines.push(this.main('user', { role: 'user', content: `One more thing ${this.n}.` }));
    }
    raw = [...raw, ...lines.map((l) => JSON.stringify(l))];
    for (const l of raw) if (l.startsWith('{"parentUuid"') || l.startsWith('{"type"')) this.written.push(l);
    let text = this.partial + raw.map((l) => `${l}\n`).join('');
    this.partial = '';
    if (kind.endsWith('partial line')) {
      // The agent is mid-way through its next line: half of it now, the rest at the next step.
      const next = JSON.stringify(this.main('user', { role: 'user', content: `Half-written line ${this.n}.` }));
      this.written.push(next);
      const cut = Math.floor(next.length / 2);
      text += next.slice(0, cut);
      this.partial = `${next.slice(cut)}\n`;
    }
    return { text, kind };
  }
}

/** The session's lines cut at a random line (at least a few). */
function startOf(file: string, rnd: () => number): string[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.slice(0, 5 + Math.floor(rnd() * (lines.length - 5)));
}

describe('Claude Code session imported as it grows', () => {
  it('has real sessions to start from', () => {
    expect(sessions.length).toBeGreaterThan(0);
  });

  for (const file of sessions) {
    for (const seed of [1, 2, 3, 4]) {
      it(`equals the whole import after every step (${file.split('/').pop()!.slice(0, 40)}, seed ${seed})`, () => {
        const rnd = random(seed * 7919 + file.length);
        const start = startOf(file, rnd);
        const writer = new SessionWriter(rnd, start, `a${seed}b${String(file.length).slice(-3)}`.padEnd(8, '0').slice(0, 8));
        const parser = new JsonlParser();
        parser.push(start.map((l) => `${l}\n`).join(''));
        const opts = { sourcePath: file };
        const growing = new ClaudeCodeGrowingImport(opts);
        const paths = { appended: 0, whole: 0 };
        for (let step = 0; step < 40; step++) {
          const { text, kind } = step === 0 ? { text: '', kind: 'start' } : writer.step();
          parser.push(text);
          const grown = growing.read(parser.parsed);
          paths[growing.lastRead]++;
          const whole = importClaudeCodeLines({ lines: parser.lines.slice(), bad: parser.badLines.slice() }, opts);
          const where = `seed ${seed}, step ${step} (${kind})`;
          expect(grown, where).toStrictEqual(whole);
          // Key order too: a consumer that prints the import sees the same text.
          expect(JSON.stringify(grown), where).toBe(JSON.stringify(whole));
        }
        // Most steps extend the chain: they must have been read on their own.
        expect(paths.appended).toBeGreaterThan(paths.whole);
      });
    }
  }

  it('keeps the messages before the open tail as the same objects, and reads a rewind whole', () => {
    const file = sessions[0]!;
    const start = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const parser = new JsonlParser();
    parser.push(start.map((l) => `${l}\n`).join(''));
    const opts = { sourcePath: file };
    const growing = new ClaudeCodeGrowingImport(opts);
    const first = growing.read(parser.parsed).conversation.messages;
    const chained = parser.lines.map((l) => l.value as Line).filter((v) => typeof v['uuid'] === 'string' && 'parentUuid' in v && v['isSidechain'] !== true);
    const user = (uuid: string, parent: unknown, text: string) =>
      `${JSON.stringify({ parentUuid: parent, isSidechain: false, type: 'user', message: { role: 'user', content: text }, uuid })}\n`;

    // A user line that extends the chain: read on its own; every message before it is the same object.
    parser.push(user('e0000000-0000-4000-8000-000000000001', chained[chained.length - 1]!['uuid'], 'Go on, please.'));
    const next = growing.read(parser.parsed).conversation.messages;
    expect(growing.lastRead).toBe('appended');
    expect(next.length).toBe(first.length + 1);
    // Only the open tail (the last ordinary message and the results after it) is made again.
    const kept = next.findIndex((m, i) => m !== first[i]);
    let lastOrdinary = first.length - 1;
    while (lastOrdinary > 0 && first[lastOrdinary]!.toolResult !== undefined) lastOrdinary--;
    expect(kept).toBeGreaterThanOrEqual(lastOrdinary);
    expect(next.slice(0, first.length)).toStrictEqual(first);

    // A rewind to the first line: read whole, as the full import reads it.
    parser.push(user('e0000000-0000-4000-8000-000000000002', chained[0]!['uuid'], 'Start over.'));
    const rewound = growing.read(parser.parsed);
    expect(growing.lastRead).toBe('whole');
    expect(rewound).toStrictEqual(importClaudeCodeLines({ lines: parser.lines.slice(), bad: parser.badLines.slice() }, opts));
    expect(rewound.history?.otherBranches).toBeGreaterThan(0);
  });
});

describe('the live meter on a growing Claude Code file', () => {
  const found = (file: string): FoundSession => ({ agent: 'claude-code', id: 'live', file, format: 'claude-code', size: 0, mtimeMs: 0 });

  for (const seed of [11, 12]) {
    it(`gives after every append what a fresh meter gives for the file (seed ${seed})`, async () => {
      const rnd = random(seed);
      const source = sessions[seed % sessions.length]!;
      const start = startOf(source, rnd);
      const file = join(dir, `live-${seed}.jsonl`);
      writeFileSync(file, start.map((l) => `${l}\n`).join(''));
      const catalog = new SessionCatalog();
      const meter = new LiveSessionMeter(found(file), catalog.counterFor);
      const writer = new SessionWriter(rnd, start, `d${seed}`.padEnd(8, '0'));
      for (let step = 0; step < 25; step++) {
        const { text, kind } = step === 0 ? { text: '', kind: 'start' } : writer.step();
        if (text) appendFileSync(file, text);
        const partial = text !== '' && !text.endsWith('\n');
        const u = await meter.update();
        const fresh = await new LiveSessionMeter(found(file), catalog.counterFor).update();
        const where = `seed ${seed}, step ${step} (${kind})`;
        expect(u.session, where).toStrictEqual(fresh.session);
        expect(u.result, where).toStrictEqual(fresh.result);
        // Without a partial line pending, the same figures as reading the whole file.
        if (!partial) {
          const whole = await catalog.meter({ ...found(file), size: step, mtimeMs: step });
          expect(
            { tokens: u.session.tokens, messages: u.session.messages, history: u.session.historyTokens, title: u.session.title, warnings: u.session.warnings },
            where,
          ).toEqual({
            tokens: whole.tokens,
            messages: whole.messages,
            history: whole.historyTokens,
            title: whole.title,
            warnings: whole.warnings,
          });
        }
      }
    });
  }
});
