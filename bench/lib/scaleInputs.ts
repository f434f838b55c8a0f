// Large inputs for the scale benchmark, made from the shared transcripts by repetition (real
// text, real structure) or generated (short messages), and written to files so each measurement
// reads them as the CLI does.
//
// A Claude Code session repeated is one session: every copy gets fresh uuids, message ids and
// tool-use ids, and the main lines form one parentUuid chain through all copies (what the CLI
// resumes), so the importer reads every copy, not only the last.
//
// Each copy after the first is marked in its text (a line of an aider history, a text block or
// tool output of a Claude Code session, ends with " ·N"), so no message of a copy equals one of
// another: a repeated transcript costs what a transcript of that size costs, not what its
// distinct messages cost (the token counter's cache would otherwise count each text once).

import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/** The generated conversation of short messages: user and assistant in turn, each naming an
 *  item and one of 97 topics (what the issue measured: `ctxc compact` on 200,000 of them). */
export function shortMessagesJson(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const content = i % 2 === 0 ? `Please remember item ${i} about topic ${i % 97}.` : `Sure, noted item ${i} about topic ${i % 97}.`;
    parts.push(JSON.stringify({ role: i % 2 === 0 ? 'user' : 'assistant', content }));
  }
  return `[${parts.join(',')}]`;
}

/** The generated conversation of requests that each name an item and a file, answered in turn:
 *  every user message is distinct and required in "All user messages", so a tight budget has
 *  to leave most of them out (what the issue measured as the costliest shape). */
export function itemFileMessagesJson(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const content =
      i % 2 === 0 ? `message ${i}: please check item ${i} in src/mod${i}.py and report` : `Checked item ${i - 1} in src/mod${i - 1}.py: nothing to report.`;
    parts.push(JSON.stringify({ role: i % 2 === 0 ? 'user' : 'assistant', content }));
  }
  return `[${parts.join(',')}]`;
}

/** The generated agent session: rounds of four messages — a request, a tool call running one
 *  module's tests, its output (a failure with a traceback every fifth round), the agent's reply.
 *  Tool blocks, commands, errors and files instead of plain chat. */
export function toolRoundsJson(n: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.length < n; i++) {
    const mod = `pkg/module_${i % 1009}.py`;
    const test = `tests/test_module_${i % 1009}.py`;
    const failed = i % 5 === 0;
    const id = `call_${i}`;
    parts.push(JSON.stringify({ role: 'user', content: `Run the tests of ${mod} (round ${i}) and fix whatever fails.` }));
    if (parts.length >= n) break;
    parts.push(
      JSON.stringify({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `python -m pytest ${test} -q` }) } }],
      }),
    );
    if (parts.length >= n) break;
    const output = failed
      ? `F.\n=== FAILURES ===\n___ test_case_${i} ___\nTraceback (most recent call last):\n  File "${mod}", line ${10 + (i % 90)}, in compute\n    return total / count\nZeroDivisionError: division by zero (round ${i})\n1 failed, 1 passed in 0.${i % 10}3s`
      : `..\n2 passed in 0.${i % 10}2s (round ${i})`;
    parts.push(JSON.stringify({ role: 'tool', tool_call_id: id, content: output }));
    if (parts.length >= n) break;
    parts.push(
      JSON.stringify({
        role: 'assistant',
        content: failed
          ? `The tests of ${mod} failed with a ZeroDivisionError; I guarded the division in compute() (round ${i}).`
          : `The tests of ${mod} pass (round ${i}).`,
      }),
    );
  }
  return `[${parts.join(',')}]`;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** One copy of a Claude Code session's lines with fresh ids, its main lines chained after `last`
 *  (the uuid the previous copy's chain ended at). Returns the new lines and the chain's end. */
function claudeCopy(lines: readonly string[], copy: number, last: string | null): { out: string[]; last: string | null } {
  const uuids = new Map<string, string>();
  const fresh = (u: unknown) => {
    if (typeof u !== 'string') return u;
    let v = uuids.get(u);
    if (!v) uuids.set(u, (v = randomUUID()));
    return v;
  };
  const mark = (text: string) => (copy > 0 ? `${text} ·${copy}` : text);
  const blocks = (content: unknown): unknown => {
    if (typeof content === 'string') return mark(content);
    if (!Array.isArray(content)) return content;
    for (const b of content) {
      if (!isObject(b)) continue;
      if (b['type'] === 'text' && typeof b['text'] === 'string') b['text'] = mark(b['text']);
      if (b['type'] === 'tool_use' && typeof b['id'] === 'string') b['id'] = `${b['id']}_${copy}`;
      if (b['type'] === 'tool_result') {
        if (typeof b['tool_use_id'] === 'string') b['tool_use_id'] = `${b['tool_use_id']}_${copy}`;
        b['content'] = blocks(b['content']);
      }
    }
    return content;
  };
  const out: string[] = [];
  for (const line of lines) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(v)) continue;
    if (typeof v['uuid'] === 'string') {
      v['uuid'] = fresh(v['uuid']);
      if ('parentUuid' in v) {
        if (v['isSidechain'] === true) v['parentUuid'] = fresh(v['parentUuid']);
        else {
          v['parentUuid'] = last;
          last = v['uuid'] as string;
        }
      }
    }
    if (typeof v['leafUuid'] === 'string') v['leafUuid'] = fresh(v['leafUuid']);
    const message = v['message'];
    if (isObject(message)) {
      // The API's recorded usage measured the original's requests, not this file's: without it the
      // meter counts the whole chain itself, as for a session that recorded none.
      delete message['usage'];
      if (typeof message['id'] === 'string') message['id'] = `${message['id']}_${copy}`;
      message['content'] = blocks(message['content']);
    }
    out.push(JSON.stringify(v));
  }
  return { out, last };
}

/** An aider history's text as copy `copy`: every line with words in it marked, except the
 *  lines that open or close a code fence. aider sends only the last chat session of a history
 *  (each opens with "# aider chat started at …"), so the session headers after the file's first
 *  line are dropped: the copies are one chat session that grows, as a long-running aider has;
 *  its `> Tokens: N sent` lines too, so the meter counts the session itself. */
function aiderCopy(text: string, copy: number): string {
  let first = copy === 0;
  const oneSession = text.replace(/^# aider chat started at.*\n/gm, (header) => {
    const keep = first;
    first = false;
    return keep ? header : '';
  });
  // As for Claude Code copies: the usage aider recorded measured the original's requests.
  const unreported = oneSession.replace(/^> Tokens: .*\n/gm, '');
  if (copy === 0) return unreported;
  return unreported.replace(/^(?!```)(.*\w.*)$/gm, `$1 ·${copy}`);
}

/** The lines Claude Code writes for an automatic compaction of the chain that ends at `last`, in
 *  the shape 2.1.328 and 2.1.332 write: the boundary (parentUuid null), two chained attachments
 *  (session_context, a rendered date reminder), the summary. Returns them and the summary's uuid. */
export function claudeCompactionLines(last: string | null, era: number): { text: string; last: string } {
  const boundary = randomUUID();
  const context = randomUUID();
  const date = randomUUID();
  const summary = randomUUID();
  const timestamp = new Date(Date.UTC(2026, 0, 1, 0, era)).toISOString();
  const base = { isSidechain: false, userType: 'external', timestamp };
  const lines = [
    {
      ...base,
      parentUuid: null,
      logicalParentUuid: last,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 160_000 + era },
      uuid: boundary,
    },
    { ...base, parentUuid: boundary, type: 'attachment', attachment: { type: 'session_context', context: {} }, uuid: context },
    {
      ...base,
      parentUuid: context,
      type: 'attachment',
      attachment: { type: 'date', date: '2026-01-01' },
      rendered: [{ content: "<system-reminder>\nToday's date is 2026-01-01.\n</system-reminder>" }],
      renderedRole: 'system',
      uuid: date,
    },
    {
      ...base,
      parentUuid: date,
      type: 'user',
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\nEra ${era}: the work went on.`,
      },
      uuid: summary,
    },
  ];
  return { text: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, last: summary };
}

/** Writes `copies` copies of the transcript at `source` to `target` (aider Markdown or Claude
 *  Code JSONL), or as many as reach `minBytes`; with `compactEvery`, a Claude Code session gets an
 *  automatic compaction (claudeCompactionLines) after every that many copies. Returns the bytes
 *  written and the copies made. */
export function writeRepeated(
  source: string,
  target: string,
  opts: { copies?: number; minBytes?: number; compactEvery?: number },
): { bytes: number; copies: number; compactions: number } {
  const text = readFileSync(source, 'utf8');
  const jsonl = source.endsWith('.jsonl');
  const lines = jsonl ? text.split('\n').filter((l) => l.trim()) : [];
  const fd = openSync(target, 'w');
  let bytes = 0;
  let copies = 0;
  let compactions = 0;
  let last: string | null = null;
  try {
    const enough = () => (opts.copies !== undefined ? copies >= opts.copies : bytes >= (opts.minBytes ?? 0));
    while (!enough()) {
      let chunk: string;
      if (jsonl) {
        const c = claudeCopy(lines, copies, last);
        last = c.last;
        chunk = `${c.out.join('\n')}\n`;
      } else {
        // Aider's Markdown turns simply follow one another.
        chunk = aiderCopy(text.endsWith('\n') ? text : `${text}\n`, copies);
      }
      bytes += writeSync(fd, chunk);
      copies++;
      if (jsonl && opts.compactEvery && copies % opts.compactEvery === 0 && !enough()) {
        const c = claudeCompactionLines(last, ++compactions);
        last = c.last;
        bytes += writeSync(fd, c.text);
      }
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, copies, compactions };
}

/** A user line that continues a Claude Code session whose chain ends at `parent`. */
export function claudeUserLine(parent: string | null, text: string): { line: string; uuid: string } {
  const uuid = randomUUID();
  const line = JSON.stringify({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    type: 'user',
    message: { role: 'user', content: text },
    uuid,
    timestamp: new Date(Date.UTC(2026, 0, 1)).toISOString(),
  });
  return { line, uuid };
}

/** The uuid the main chain of a Claude Code JSONL file ends at (its last chained main line). */
export function lastChainUuid(path: string): string | null {
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    if (!l) continue;
    try {
      const v: unknown = JSON.parse(l);
      if (isObject(v) && typeof v['uuid'] === 'string' && 'parentUuid' in v && v['isSidechain'] !== true) return v['uuid'];
    } catch {
      // not a line of the chain
    }
  }
  return null;
}
