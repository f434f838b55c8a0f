// Golden properties of a compaction on one real transcript of each shipped format, checked
// against the raw conversation rather than the engine's own fact lists: the eight headings in
// order, every user-authored message present (whole, or cut with the marker), every file the
// session acted on named, the same bytes on two runs, a result the chat APIs accept, exact undo.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryArchive } from '../../../src/engine/archive/memoryArchive';
import { compactConversation, summaryTextOf, undoCompaction } from '../../../src/engine/compactor';
import { validateApiShape } from '../../../src/engine/conversation/apiShape';
import { importTranscript } from '../../../src/engine/conversation/importers/detect';
import type { Conversation, Message } from '../../../src/engine/conversation/model';
import type { CompactionResult } from '../../../src/engine/result';
import { parseSummary } from '../../../src/engine/segments/parseSummary';
import { readableUserText } from '../../../src/engine/segments/userMessages';
import { SECTION_NAMES } from '../../../src/engine/sections';
import { createTokenCounter } from '../../../src/engine/tokens/messageCounter';
import { apiShapeProblems } from '../../helpers/toolPairingCheck';
import { transcriptPath } from '../../helpers/transcripts';

const GOLDEN = [
  'aider/AFI-Protocol__afi-core.aider.chat.history.md',
  'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  'mini-swe-agent/sympy__sympy-13091.traj.json',
  'openhands/basic_gui_mode.json',
  'longmemeval/longmemeval_s.json',
];

/** The sessions among them that change files (the others only talk or read). */
const EDITS_FILES = new Set(GOLDEN.filter((r) => !r.startsWith('longmemeval/')));

/** How much of each user message must appear verbatim even when it was cut: the start of it. */
const USER_PREFIX_CHARS = 60;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

function textOf(m: Message): string {
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

function load(rel: string): Conversation {
  const file = transcriptPath(rel);
  return importTranscript(readFileSync(file, 'utf8'), { sourcePath: file }).conversation;
}

async function compact(conv: Conversation, archive = new MemoryArchive()): Promise<CompactionResult> {
  return compactConversation(conv, { counter: await createTokenCounter(conv.meta.model), archive });
}

/** Files the session changed, read straight from the raw messages: aider's "Applied edit to",
 *  edit/write tool calls' path arguments, shell redirections and in-place edits. */
function filesActedOn(conv: Conversation): Set<string> {
  const out = new Set<string>();
  const shell = (command: string) => {
    for (const hit of command.matchAll(/\bsed -i\s+(?:'[^'\n]*'|"[^"\n]*")\s+([\w./-]+\.\w+)/g)) out.add(hit[1]!);
    for (const hit of command.matchAll(/cat <<'?EOF'? > ([\w./-]+\.\w+)/g)) out.add(hit[1]!);
  };
  for (const m of conv.messages) {
    const text = textOf(m);
    for (const hit of text.matchAll(/^(?:> ?)?Applied edit to (\S+)/gm)) out.add(hit[1]!);
    if (m.role === 'assistant') shell(text);
    for (const call of m.toolCalls ?? []) {
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(call.arguments) as Record<string, unknown>;
      } catch {
        continue; // Arguments that are not JSON name no file here.
      }
      if (typeof args.command === 'string') shell(args.command);
      if (!/edit|write|create|replace/i.test(call.name)) continue;
      const p = args.file_path ?? args.path;
      if (typeof p === 'string') out.add(p);
    }
  }
  return out;
}

describe.each(GOLDEN)('compaction of %s', (rel) => {
  const conv = load(rel);
  let first: CompactionResult;
  let archive: MemoryArchive;

  it('has the eight headings in order, and shrinks the conversation', async () => {
    archive = new MemoryArchive();
    first = await compact(conv, archive);
    const summary = summaryTextOf(first.conversation);
    expect(summary).toBeDefined();
    let at = -1;
    for (const name of SECTION_NAMES) {
      const i = summary!.indexOf(`## ${name}\n`);
      expect(i, name).toBeGreaterThan(at);
      at = i;
    }
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore);
  });

  it('keeps every user-authored message, whole or cut with the marker', () => {
    const result = squash(first.conversation.messages.map(textOf).join('\n'));
    const section = parseSummary(summaryTextOf(first.conversation)!).sections['All user messages'];
    const bullets = section.split(/\n(?=- )/).map((b) => squash(b.replace(/^- /, '')));
    const users = conv.messages.filter((m) => m.role === 'user' && m.itemType === 'USER_MESSAGE' && textOf(m).trim());
    expect(users.length).toBeGreaterThan(0);
    for (const u of users) {
      // A Claude Code slash command is listed as typed ("/orchestrator create …"), not as its markup.
      const whole = squash(readableUserText(textOf(u)));
      if (result.includes(whole) || result.includes(squash(textOf(u)))) continue;
      // Cut: its own bullet in "All user messages" starts with it and says how much is left out.
      const prefix = whole.slice(0, USER_PREFIX_CHARS);
      // Two messages can share their first characters (a command pasted twice, edited): the cut one.
      const bullet = bullets.find((b) => b.startsWith(prefix) && /\[… [\d,]+ more characters\]/.test(b)) ?? bullets.find((b) => b.startsWith(prefix));
      expect(bullet, `user message ${u.id} starts: ${prefix}`).toBeDefined();
      expect(bullet).toMatch(/\[… [\d,]+ more characters\]/);
    }
  });

  it('names every file the session acted on', () => {
    if (EDITS_FILES.has(rel)) expect(filesActedOn(conv).size).toBeGreaterThan(0);
    const result = first.conversation.messages.map(textOf).join('\n');
    for (const f of filesActedOn(conv)) {
      const rel = f.replace(/^\/(?:testbed|workspace|tmp)\//, '');
      expect(result.includes(f) || result.includes(rel), f).toBe(true);
    }
  });

  it('is the same bytes on a second run with a fresh counter and archive', async () => {
    const again = await compact(conv);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it('is a conversation the chat APIs accept', () => {
    const report = validateApiShape(first.conversation.messages);
    expect(report.problems).toEqual([]);
    expect(apiShapeProblems(first.conversation.messages)).toEqual([]);
  });

  it('undoes exactly', async () => {
    const back = await undoCompaction(first.archiveId, archive);
    expect(back).toEqual(conv);
    expect(JSON.stringify(back)).toBe(JSON.stringify(conv));
  });
});
