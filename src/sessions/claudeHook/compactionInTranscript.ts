// A Claude Code compaction as its session file records it, read by meaning for the hook that
// repairs it: the compact boundary, the summary that belongs to it, and the messages Claude Code
// kept verbatim after it.
//
// What the CLIs write (verified with the real 2.1.328 and 2.1.332, ../shared/AGENTS.md): a
// `{"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":L,…}` line
// with `compactMetadata` ({trigger, preTokens, preservedSegment {headUuid, tailUuid, anchorUuid},
// preservedMessages {uuids, allUuids}}), then the user line marked `isCompactSummary`. After a
// manual /compact the summary's parent is the boundary; after an automatic one two `attachment`
// lines (session_context, date) stand between them. So the summary is found through the chain —
// the isCompactSummary line that descends from the boundary, whatever lines stand between — never
// by its position. Lines without a uuid (queue-operation, atis-latch, api-request, …) are not on
// any chain and are passed over. The kept messages are sent verbatim after the summary ("the
// summary was written without seeing them"); they stand before the boundary in the file.

import { importClaudeCode } from '../../engine/conversation/importers/claudeCode';
import { isObject, obj, str, type JsonObject } from '../../engine/conversation/importers/jsonShape';
import { messageText, type Message } from '../../engine/conversation/model';
import { parseLine, type TranscriptFile } from './transcriptFile';

/** A line of a byte range of the file: its offset, and its value when it is JSON. */
export interface RangeLine {
  start: number;
  value: unknown;
}

export interface CompactionRecord {
  /** The boundary line's uuid. */
  boundary: string;
  /** Byte offset of the boundary line. */
  offset: number;
  trigger?: string;
  /** Claude Code's own count of the tokens before it (compactMetadata.preTokens). */
  preTokens?: number;
  /** The summary as sent: the isCompactSummary line's text. */
  summary: string;
  /** How the summary was found: on the boundary's chain (as every tested version writes it), or,
   *  with no summary on it, the first one after the boundary. */
  summaryFound: 'chain' | 'after';
  /** The lines Claude Code kept verbatim (their uuids), when the boundary names them. */
  kept: { uuids: string[] } | { segment: { head: string; tail: string } };
}

export type CompactionRead = { ok: true; compaction: CompactionRecord } | { ok: false; reason: string };

/** Every line of `buf` (the file's bytes from `offset`), parsed where it is JSON. */
export function rangeLines(buf: Buffer, offset: number): RangeLine[] {
  const out: RangeLine[] = [];
  let from = 0;
  while (from < buf.length) {
    let nl = buf.indexOf(0x0a, from);
    if (nl < 0) nl = buf.length;
    if (nl > from) {
      let value: unknown;
      try {
        value = JSON.parse(buf.toString('utf8', from, nl));
      } catch {
        value = undefined;
      }
      out.push({ start: offset + from, value });
    }
    from = nl + 1;
  }
  return out;
}

export function isBoundary(v: unknown): v is JsonObject {
  return isObject(v) && v['type'] === 'system' && v['subtype'] === 'compact_boundary';
}

/** The text of a user line's content, string or blocks. */
function contentText(v: JsonObject): string {
  const content = obj(v, 'message')?.['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) && typeof b['text'] === 'string' ? b['text'] : '')).join('\n');
}

/** The summary line of the boundary at `at`: the first isCompactSummary line after it that
 *  descends from it through parentUuid, else the first one after it at all. */
function summaryOf(lines: readonly RangeLine[], at: number, boundary: string): { line: JsonObject; found: 'chain' | 'after' } | undefined {
  const parentOf = new Map<string, string | null>();
  let first: JsonObject | undefined;
  for (let i = at + 1; i < lines.length; i++) {
    const v = lines[i]!.value;
    if (!isObject(v)) continue;
    const uuid = str(v, 'uuid');
    const parent = v['parentUuid'];
    if (uuid !== undefined) parentOf.set(uuid, typeof parent === 'string' ? parent : null);
    if (v['isCompactSummary'] !== true) continue;
    first ??= v;
    const seen = new Set<string>();
    for (let p = typeof parent === 'string' ? parent : null; p !== null && !seen.has(p); p = parentOf.get(p) ?? null) {
      if (p === boundary) return { line: v, found: 'chain' };
      seen.add(p);
    }
  }
  return first ? { line: first, found: 'after' } : undefined;
}

/**
 * The last compaction among `lines` (a range of the file, in order). Never throws for a file it
 * cannot use: the reason comes back instead.
 */
export function readCompaction(lines: readonly RangeLine[]): CompactionRead {
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isBoundary(lines[i]!.value)) {
      at = i;
      break;
    }
  }
  if (at < 0) return { ok: false, reason: 'the transcript holds no compact boundary after the compaction began' };
  const boundary = lines[at]!.value as JsonObject;
  const where = `byte ${lines[at]!.start.toLocaleString('en-US')}`;
  const uuid = str(boundary, 'uuid');
  if (!uuid) return { ok: false, reason: `the compact boundary at ${where} has no uuid` };
  const summary = summaryOf(lines, at, uuid);
  if (!summary) return { ok: false, reason: `no summary line (isCompactSummary) follows the compact boundary at ${where}` };
  const meta = obj(boundary, 'compactMetadata');
  const segment = meta ? obj(meta, 'preservedSegment') : undefined;
  const listed = meta ? obj(meta, 'preservedMessages') : undefined;
  const ids = listed?.['allUuids'] ?? listed?.['uuids'];
  const head = segment ? str(segment, 'headUuid') : undefined;
  const tail = segment ? str(segment, 'tailUuid') : undefined;
  const kept: CompactionRecord['kept'] = Array.isArray(ids)
    ? { uuids: ids.filter((x): x is string => typeof x === 'string') }
    : head && tail
      ? { segment: { head, tail } }
      : { uuids: [] };
  const trigger = meta ? str(meta, 'trigger') : undefined;
  const preTokens = meta?.['preTokens'];
  return {
    ok: true,
    compaction: {
      boundary: uuid,
      offset: lines[at]!.start,
      ...(trigger ? { trigger } : {}),
      ...(typeof preTokens === 'number' && preTokens > 0 ? { preTokens } : {}),
      summary: contentText(summary.line),
      summaryFound: summary.found,
      kept,
    },
  };
}

/** Everything a message carries that a reader can see: text and tool call arguments. */
export function visibleText(m: Message): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`);
  return [messageText(m), ...calls].filter(Boolean).join('\n');
}

/**
 * The lines Claude Code kept verbatim, in file order, found by their uuid walking back from the
 * boundary (they stand right before it) no further than `eraStart`: a list of uuids, or a segment
 * followed back from its tail to its head.
 */
export async function keptLines(file: TranscriptFile, c: CompactionRecord, eraStart: number): Promise<string[]> {
  const found: string[] = [];
  const wanted = 'uuids' in c.kept ? new Set(c.kept.uuids) : undefined;
  let next = 'segment' in c.kept ? c.kept.segment.tail : undefined;
  if (wanted?.size === 0) return [];
  for await (const l of file.linesBackward(c.offset)) {
    if (l.start < eraStart) break;
    const ids = wanted ? [...wanted] : next !== undefined ? [next] : [];
    const id = ids.find((u) => l.bytes.includes(`"uuid":"${u}"`));
    if (id === undefined) continue;
    const v = parseLine(l.bytes);
    if (!v || v['uuid'] !== id) continue;
    found.push(l.bytes.toString('utf8'));
    if (wanted) {
      wanted.delete(id);
      if (wanted.size === 0) break;
    } else {
      if ('segment' in c.kept && id === c.kept.segment.head) break;
      const parent = v['parentUuid'];
      next = typeof parent === 'string' ? parent : undefined;
      if (next === undefined) break;
    }
  }
  return found.reverse();
}

/** What the agent carries on with after the compaction: the summary, then the text of the
 *  messages it kept verbatim (`kept`: their lines). */
export function contextAfter(c: CompactionRecord, kept: readonly string[], sourcePath?: string): string {
  if (kept.length === 0) return c.summary;
  try {
    const { conversation } = importClaudeCode(kept.join('\n'), { wholeFile: true, ...(sourcePath ? { sourcePath } : {}) });
    return [c.summary, ...conversation.messages.map(visibleText)].join('\n\n');
  } catch {
    return c.summary;
  }
}

/** The last compaction written after byte `after` (its boundary, summary and what it kept). */
export async function compactionAfter(file: TranscriptFile, after: number): Promise<CompactionRead> {
  if (file.size < after)
    return { ok: false, reason: `${file.path} is shorter than when the compaction began (${file.size} < ${after} bytes): it was rewritten` };
  return readCompaction(rangeLines(await file.bytes(after), after));
}
