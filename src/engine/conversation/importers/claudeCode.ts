// Claude Code session JSONL: one JSON object per line {type, uuid, parentUuid, isSidechain,
// timestamp, message, …}.
//
// - Assistant lines that share `message.id` are one API response streamed over several lines: they
//   are merged (blocks concatenated in order; id = the first line's uuid).
// - `isSidechain: true` lines are a sub-agent's own conversation. Left out by default (a warning
//   says how many); with includeSidechains they are kept, marked source.sidechain, and a sub-agent's
//   prompt is a SKILL_PROMPT (the main agent wrote it, not the user).
// - `isCompactSummary` users become COMPACTION_SUMMARY messages. `type: "summary"` lines are titles
//   (the CLI never sends them), never messages: the one whose `leafUuid` is a line of this file
//   titles the conversation; the others, which Claude Code copies to the top of a file, are the
//   titles of other sessions and are read as nothing.
// - What a person typed is a USER_MESSAGE: plain prompts, `/commands` (`<command-name>`; the command
//   is kept in source.extra.command), `!` bash input, `#` memory input. What the harness wrote on the
//   user's behalf is not: `isMeta` lines are SKILL_PROMPT (an expanded command prompt) or, for the
//   "Caveat: …" boilerplate, SKILL_METADATA; `<local-command-stdout>`, `<bash-stdout>` and
//   "[Request interrupted by user]" are SKILL_METADATA. So "All user messages" lists only real words.
// - tool_result blocks become TOOL_RESULT messages as in anthropic.ts.
// - Lines beside the messages (claudeCodeAttachments.ts): those with `rendered` content are sent
//   with the next user message and read as SKILL_METADATA; the last `prompt_snapshot` attachment
//   gives the system prompt and the tool definitions. Other line types this reader knows (system,
//   file-history-snapshot, queue-operation, api-request, …) are skipped and counted in one warning;
//   types it does not know are named in one warning of their own (counted when sent, else
//   skipped). A line that is not JSON is a warning naming the line, and the rest is imported.
// - A line that repeats an earlier line's `uuid` (a resumed session writes earlier lines again) is
//   read once; a warning says how many repeats were left out.
// - What is read by default is what the CLI sends when the session is resumed: the `parentUuid`
//   chain that ends at the file's last chained main line (a line with `uuid` and `parentUuid`, not a
//   sidechain), walked back to a `parentUuid: null` (the start, or a compact boundary) or to a parent
//   the file does not hold. Every other main line (abandoned branches after a rewind, lines before the
//   last compact boundary) is ImportResult.history, and a warning counts it. `wholeFile` (or
//   `includeSidechains`) reads every line in file order instead, as does a file with no chained lines.
//   After a compaction Claude Code wrote itself, the run of messages it kept verbatim
//   (`compactMetadata.preservedSegment`) is sent right after its summary, and read there.
// - One exception, for a branch the model never saw: when every line after the fork on that chain is
//   harness bookkeeping (a local command — `<command-name>`, `<local-command-stdout>`, the "Caveat:"
//   line —, `#` memory input and its "(no content)" placeholder, a `<synthetic>` assistant line, a
//   `system` line other than a compact boundary), the conversation is the chain through the newest
//   line that is not bookkeeping. Claude Code 1.0.x chained local commands to a session's first line
//   (the shared kiliman session ends with three of them after 500 lines of work: the usage its last
//   request recorded, 69,800 tokens, is that work, and its /export wrote the whole conversation);
//   the current CLI resumes such a file from the bookkeeping chain alone. A rewind — a new user
//   message, an assistant reply on another branch — is not bookkeeping, so it still wins.
// - conversation.meta.model is the first assistant's `message.model`; meta.cwd, sessionId and
//   agentVersion come from the last line that carries them.
// - conversation.meta.reportedUsage: the `message.usage` of the last assistant line on the chain read
//   (input + cache_creation_input_tokens + cache_read_input_tokens; the lines of one streamed
//   response share `message.id` and its usage, counted once). None with `wholeFile`: the figure is
//   the chain's, not the file's.

import type { ImportResult, ImportWarning } from '../model';
import { isChained, liveChain, readOnce, sessionTitle } from './claudeCodeChain';
import { EntryReader, importEntries, MAX_LINE_WARNINGS, sidechainWarning } from './claudeCodeEntries';
import { KNOWN_LINE_TYPES, renderedText } from './claudeCodeAttachments';
import { finishImport, GrowingFinish, type FinishOptions } from './finish';
import type { ImportOptions } from './importOptions';
import { parseJsonl, stripBom, type JsonlLine, type JsonlLines } from './jsonText';
import { isObject, obj, str, type JsonObject } from './jsonShape';
import { withReportedUsage } from './reportedUsage';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue, TranscriptError } from './transcriptError';

export function importClaudeCode(text: string, opts: ImportOptions = {}): ImportResult {
  return importClaudeCodeLines(parseJsonl(stripBom(text)), opts);
}

/** The same, from lines already parsed (a file read as a stream: jsonText.ts JsonlParser). */
export function importClaudeCodeLines(parsed: JsonlLines, opts: ImportOptions = {}): ImportResult {
  return readClaudeCode(parsed, opts, false).result;
}

/** The import, and with `growing` (and the chain the CLI resumes read the usual way) what a
 *  ClaudeCodeGrowingImport keeps to read appended lines on their own. */
function readClaudeCode({ lines, bad }: JsonlLines, opts: ImportOptions, growing: boolean): { result: ImportResult; growth?: Growth } {
  const file = opts.sourcePath;
  if (lines.length === 0) {
    const first = bad[0];
    throw new TranscriptError({
      file,
      position: first ? `line ${first.line}` : 'line 1',
      expected: 'JSON lines (one Claude Code entry per line)',
      found: first ? first.message : 'no lines',
    });
  }
  const warnings = badLineWarnings(bad);
  if (!lines.some((l) => isObject(l.value) && typeof l.value['type'] === 'string')) {
    throw new TranscriptError({
      file,
      position: `line ${lines[0]!.line}`,
      expected: "JSON lines of Claude Code entries (objects with a 'type' field)",
      found: describeJsonValue(lines[0]!.value),
    });
  }
  const { entries, repeats, seen } = readOnce(lines);
  warnings.push(...repeatWarnings(repeats));
  const title = sessionTitle(entries, seen);
  // A file whose chained lines are all sidechain lines is a sub-agent's own file (Claude Code 2.1.2
  // and later write them apart): its lines are its conversation.
  const chained = entries.filter((e) => isChained(e.value));
  if (chained.length > 0 && chained.every((e) => (e.value as JsonObject)['isSidechain'] === true)) {
    const own = { ...opts, includeSidechains: true };
    const chain = opts.wholeFile ? undefined : liveChain(entries, true);
    if (!chain) return { result: importEntries(entries, own, [...warnings, ...newTypeWarnings(lines)], { title }) };
    return { result: importEntries(chain.live, own, [...warnings, ...newTypeWarnings(lines)], { title, usage: true }) };
  }
  const chain = opts.wholeFile || opts.includeSidechains ? undefined : liveChain(entries);
  if (!chain) return { result: importEntries(entries, opts, [...warnings, ...newTypeWarnings(lines)], { title }) };

  const reader = new EntryReader(opts, { title, usage: true });
  for (const e of chain.live) reader.read(e);
  const main: MainChain = {
    bad,
    repeats,
    newTypes: newTypeWarnings(lines),
    reader,
    sidechainLines: entries.filter((e) => isObject(e.value) && e.value['isSidechain'] === true).length,
  };
  if (chain.history.length > 0) {
    const history = importEntries(chain.history, { ...opts, includeSidechains: false }, [], { title, noPrefix: true });
    const rewound = chain.otherBranches - chain.setAside;
    const parts = [
      chain.beforeBoundary > 0 ? `${chain.beforeBoundary} before the last compact boundary` : '',
      rewound > 0 ? `${rewound} on other branches (rewinds)` : '',
      chain.setAside > 0
        ? `${chain.setAside} of local commands after the last request, chained apart from the conversation: the conversation is read through its last request`
        : '',
    ].filter(Boolean);
    main.history = {
      part: { conversation: history.conversation, lines: chain.history.length, beforeBoundary: chain.beforeBoundary, otherBranches: chain.otherBranches },
      warning: {
        position: 'file',
        message: `${chain.history.length} line${chain.history.length === 1 ? ' is' : 's are'} ${chain.setAside > 0 ? 'not part of the conversation read' : 'not on the chain Claude Code sends when the session is resumed'} (${parts.join(', ')}): read as history, not counted; --whole-file reads every line`,
      },
    };
  }
  if (!growing || chain.switched) return { result: mainChainResult(main, (drafts, o) => finishImport(drafts, o))! };
  const finish = new GrowingFinish();
  const result = mainChainResult(main, (drafts, o) => finish.finish(drafts, 0, o))!;
  const leaf = (chain.leaf.value as JsonObject)['uuid'] as string;
  return {
    result,
    growth: {
      ...main,
      lines: lines.length,
      seen,
      referenced: referencedUuids(entries),
      leaf,
      titled: title !== undefined,
      finish,
      newTypeNames: newTypeNames(lines),
    },
  };
}

/** The import of the chain the CLI resumes, from its parts; undefined when `finish` cannot finish. */
interface MainChain {
  bad: JsonlLines['bad'];
  repeats: number[];
  /** The warning naming line types this reader does not know, if any. */
  newTypes: ImportWarning[];
  reader: EntryReader;
  /** Sidechain lines in the file (left out). */
  sidechainLines: number;
  history?: { part: NonNullable<ImportResult['history']>; warning: ImportWarning };
}

function mainChainResult(m: MainChain, finish: (drafts: MessageDraft[], o: FinishOptions) => ImportResult | undefined): ImportResult | undefined {
  const warnings = [...badLineWarnings(m.bad), ...repeatWarnings(m.repeats), ...m.newTypes, ...m.reader.warnings()];
  const finished = finish(m.reader.allDrafts(), { format: 'claude-code', meta: { ...m.reader.meta }, warnings });
  if (!finished) return undefined;
  const result = m.reader.usage.length > 0 ? withReportedUsage(finished, m.reader.usage) : finished;
  if (m.sidechainLines > 0) warnings.push(sidechainWarning(m.sidechainLines));
  if (!m.history) return result;
  // A chain of local commands only (no assistant yet) still belongs to the model the session used.
  const historyModel = m.history.part.conversation.meta.model;
  if (result.conversation.meta.model === undefined && historyModel !== undefined) result.conversation.meta.model = historyModel;
  warnings.push(m.history.warning);
  return { ...result, history: m.history.part };
}

/** What a growing import keeps of its last read (the chain read the usual way, not switched). */
interface Growth extends MainChain {
  /** Parsed lines read. */
  lines: number;
  /** Uuids read (a repeat is left out). */
  seen: Set<string>;
  /** Uuids some line points to (a parentUuid, a compaction's preserved lines): a new line that
   *  carries one changes what is read before it. */
  referenced: Set<string>;
  /** The uuid the chain ends at (its last main chained line). */
  leaf: string;
  /** A `summary` line titled the conversation (a later one does not). */
  titled: boolean;
  finish: GrowingFinish;
  /** The line types this reader does not know that the file holds. */
  newTypeNames: Set<string>;
}

/** A Claude Code session read as its agent appends to it (the live meter). Each read is given every
 *  line parsed so far (the lines of the read before, then new ones) and returns what
 *  importClaudeCodeLines returns for them, the same in every field. The common case costs what was
 *  appended: every new line either leaves the chain the CLI resumes as it is (a sidechain line, a
 *  bookkeeping line that is not chained, a repeated uuid, a line that is not JSON) or extends it
 *  (a main line whose parentUuid is the chain's last line); those lines are read on top of the last
 *  read's entries, and GrowingFinish pairs and makes messages of the open tail only (a tool call
 *  waiting for its result, an assistant reply still streaming: see finish.ts). Anything else — a
 *  rewind or branch, a compact boundary, a line that a line before points to, a first `summary`
 *  title, a late result for a call already closed, a chain that was read through a switch to its
 *  last request — is read from scratch, as is everything when options ask for the whole file. */
export class ClaudeCodeGrowingImport {
  private growth: Growth | undefined;
  /** How the last read was made (tests and the bench check that appends are read on their own). */
  lastRead: 'appended' | 'whole' = 'whole';

  constructor(private readonly opts: ImportOptions = {}) {}

  read(parsed: JsonlLines): ImportResult {
    const grown = this.growth && appendLines(this.growth, parsed);
    if (grown) {
      this.lastRead = 'appended';
      return grown;
    }
    this.growth = undefined;
    this.lastRead = 'whole';
    const { result, growth } = readClaudeCode(parsed, this.opts, !this.opts.wholeFile && !this.opts.includeSidechains);
    this.growth = growth;
    return result;
  }
}

/** The import with the lines after `g.lines` read on top of `g`; undefined when one of them is not
 *  the common case (the caller reads everything again; `g` is spent either way). */
function appendLines(g: Growth, { lines, bad }: JsonlLines): ImportResult | undefined {
  if (lines.length < g.lines) return undefined;
  g.reader.mark();
  const snapshot = g.reader.snapshot.version;
  for (let i = g.lines; i < lines.length; i++) {
    const l = lines[i]!;
    const v = l.value;
    if (!isObject(v)) continue;
    const uuid = str(v, 'uuid');
    if (uuid !== undefined) {
      if (g.seen.has(uuid)) {
        g.repeats.push(l.line);
        continue;
      }
      if (g.referenced.has(uuid)) return undefined;
      g.seen.add(uuid);
    }
    if (v['type'] === 'summary' && !g.titled && str(v, 'summary')) return undefined;
    // A type not met before changes the warning that names them: read again.
    if (typeof v['type'] === 'string' && !KNOWN_LINE_TYPES.has(v['type']) && !g.newTypeNames.has(v['type'])) return undefined;
    const sidechain = v['isSidechain'] === true;
    if (sidechain) g.sidechainLines++;
    if (!isChained(v)) continue;
    addReferences(v, g.referenced);
    if (sidechain) continue;
    if (v['parentUuid'] !== g.leaf) return undefined;
    g.leaf = uuid!;
    g.reader.read(l);
  }
  // A new system prompt or tool list changes the conversation's first messages: read again.
  if (g.reader.snapshot.version !== snapshot) return undefined;
  g.lines = lines.length;
  g.bad = bad;
  return mainChainResult(g, (drafts, o) => g.finish.finish(drafts, g.reader.unchangedAll(), o));
}

/** Every uuid a line points to: parentUuid, and a compact boundary's preserved lines. */
function referencedUuids(entries: readonly JsonlLine[]): Set<string> {
  const out = new Set<string>();
  for (const e of entries) if (isChained(e.value)) addReferences(e.value, out);
  return out;
}

function addReferences(v: JsonObject, out: Set<string>): void {
  const parent = v['parentUuid'];
  if (typeof parent === 'string') out.add(parent);
  const meta = obj(v, 'compactMetadata');
  if (!meta) return;
  for (const key of ['preservedSegment', 'preservedMessages']) {
    const o = obj(meta, key);
    if (!o) continue;
    for (const k of ['anchorUuid', 'headUuid', 'tailUuid']) {
      const id = str(o, k);
      if (id) out.add(id);
    }
    const ids = o['uuids'];
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') out.add(id);
  }
}

/** The line types of the file this reader does not know. */
function newTypeNames(lines: readonly JsonlLine[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) {
    const t = isObject(l.value) ? l.value['type'] : undefined;
    if (typeof t === 'string' && !KNOWN_LINE_TYPES.has(t)) out.add(t);
  }
  return out;
}

/** One warning naming the line types this reader does not know (a newer Claude Code wrote them):
 *  how many of each, and whether they were counted (they carry `rendered` text, which is sent) or
 *  skipped. */
function newTypeWarnings(lines: readonly JsonlLine[]): ImportWarning[] {
  const seen = new Map<string, { n: number; sent: number }>();
  for (const l of lines) {
    const v = l.value;
    if (!isObject(v)) continue;
    const t = v['type'];
    if (typeof t !== 'string' || KNOWN_LINE_TYPES.has(t)) continue;
    const e = seen.get(t) ?? { n: 0, sent: 0 };
    e.n++;
    if (renderedText(v) !== undefined) e.sent++;
    seen.set(t, e);
  }
  if (seen.size === 0) return [];
  const list = [...seen].map(
    ([t, e]) =>
      `${t} (${e.n}${e.sent === e.n ? ', counted: sent with the next message' : e.sent > 0 ? `, ${e.sent} counted: sent with the next message` : ', skipped'})`,
  );
  return [{ position: 'file', message: `line types this reader does not know (a newer Claude Code?): ${list.join(', ')}` }];
}

function badLineWarnings(bad: JsonlLines['bad']): ImportWarning[] {
  const out: ImportWarning[] = bad
    .slice(0, MAX_LINE_WARNINGS)
    .map((b) => ({ position: `line ${b.line}`, message: `not valid JSON (${b.message}); line skipped` }));
  if (bad.length > MAX_LINE_WARNINGS)
    out.push({ position: `line ${bad[MAX_LINE_WARNINGS]!.line}`, message: `${bad.length - MAX_LINE_WARNINGS} more lines were not valid JSON; skipped` });
  return out;
}

function repeatWarnings(repeats: readonly number[]): ImportWarning[] {
  if (repeats.length === 0) return [];
  return [
    {
      position: `line ${repeats[0]}`,
      message: `${repeats.length} line${repeats.length === 1 ? ' repeats' : 's repeat'} an earlier line's uuid (a resumed session writes earlier lines again); each uuid is read once`,
    },
  ];
}
