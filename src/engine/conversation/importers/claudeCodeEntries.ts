// Claude Code session JSONL: entries into message drafts, one line at a time (claudeCode.ts's header
// says what each kind of line becomes).

import { PROVENANCE_FIELD } from '../exporters/claudeCodeSession';
import { readInherited } from '../inherited';
import type { ConversationMeta, ImportResult, ImportWarning, ItemType, SourceMeta, UsageParts } from '../model';
import { assistantBlocks, contentBlocks } from './anthropicBlocks';
import { anthropicUserDrafts } from './anthropic';
import { CAVEAT, COMMAND, COMMAND_ARGS, HARNESS_OUTPUT, INTERRUPTED, SYNTHETIC_MODEL } from './claudeCodeChain';
import { assistantItemType, setSessionFacts, sourceMeta } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import type { JsonlLine } from './jsonText';
import { isObject, obj, str, type JsonObject } from './jsonShape';
import { apiUsage, withReportedUsage, type UsageRecord } from './reportedUsage';
import { KNOWN_LINE_TYPES, PromptSnapshot, renderedDraft, renderedText } from './claudeCodeAttachments';
import type { MessageDraft } from './toolPairing';
import { describeJsonValue } from './transcriptError';

/** How many bad lines are named one by one before they are only counted. */
export const MAX_LINE_WARNINGS = 20;

export interface EntryOptions {
  /** The session's title (claudeCodeChain.ts sessionTitle); `summary` lines are read as nothing. */
  title?: string;
  /** Read the assistants' `usage` into meta.reportedUsage (the chain the CLI sends only). */
  usage?: boolean;
  /** Leave out the system prompt and tools of a prompt_snapshot (lines that are not sent). */
  noPrefix?: boolean;
}

export function importEntries(entries: readonly JsonlLine[], opts: ImportOptions, warnings: ImportWarning[], how: EntryOptions): ImportResult {
  const reader = new EntryReader(opts, how);
  for (const e of entries) reader.read(e);
  warnings.push(...reader.warnings());
  const result = finishImport(reader.allDrafts(), { format: 'claude-code', meta: reader.meta, warnings });
  return reader.usage.length > 0 ? withReportedUsage(result, reader.usage) : result;
}

/** Reads entries into message drafts, one line at a time, so a growing import reads appended lines
 *  on top of the ones before. A line changes no draft before the last one (it merges into the last
 *  assistant draft, or adds drafts), and a changed draft is a new object: the messages made of the
 *  drafts before stay valid. */
export class EntryReader {
  readonly meta: ConversationMeta = {};
  readonly drafts: MessageDraft[] = [];
  /** Usage records of the assistants read (with `how.usage`), in file order. */
  readonly usage: UsageRecord[] = [];
  /** The system prompt and tools of the last prompt_snapshot read. */
  readonly snapshot = new PromptSnapshot();
  private readonly lineWarnings: ImportWarning[] = [];
  private readonly skippedTypes = new Map<string, number>();
  private sidechainLines = 0;
  private notObjects = 0;
  /** The assistant draft lines are being merged into (its index), and its message.id. */
  private merging: { id: string; index: number } | undefined;
  /** Drafts before this index are the same objects as at the last mark(). */
  private same = 0;

  constructor(
    private readonly opts: ImportOptions,
    private readonly how: EntryOptions,
  ) {
    if (opts.sourcePath) this.meta.sourcePath = opts.sourcePath;
    if (how.title) this.meta.title = how.title;
  }

  /** The drafts with the snapshot's system prompt and tool definitions first. */
  allDrafts(): MessageDraft[] {
    const prefix = this.how.noPrefix ? [] : this.snapshot.prefix();
    return prefix.length > 0 ? [...prefix, ...this.drafts] : this.drafts;
  }

  /** How many first drafts of allDrafts() are the same objects as at the last mark(). */
  unchangedAll(): number {
    return (this.how.noPrefix ? 0 : this.snapshot.prefix().length) + this.same;
  }

  /** Starts counting the drafts that stay as they are. */
  mark(): void {
    this.same = this.drafts.length;
  }

  /** How many first drafts are the same objects as at the last mark(). */
  unchanged(): number {
    return this.same;
  }

  /** The warnings about the lines read: line by line, then the counts. */
  warnings(): ImportWarning[] {
    const out = [...this.lineWarnings];
    if (this.sidechainLines > 0) out.push(sidechainWarning(this.sidechainLines));
    if (this.notObjects > MAX_LINE_WARNINGS)
      out.push({ position: 'file', message: `${this.notObjects - MAX_LINE_WARNINGS} more lines were not entries; skipped` });
    if (this.skippedTypes.size > 0) {
      const list = [...this.skippedTypes].map(([t, n]) => `${t} (${n})`).join(', ');
      out.push({ position: 'file', message: `skipped lines of types the conversation does not need: ${list}` });
    }
    return out;
  }

  /** A compact boundary: one we wrote carries what the new session takes over from its original
   *  (inherited.ts); any later boundary starts afresh. */
  private boundary(value: JsonObject): void {
    const ours = obj(value, PROVENANCE_FIELD);
    const inherited = ours ? readInherited(ours['inherited']) : undefined;
    if (!inherited) {
      delete this.meta.inherited;
      return;
    }
    this.meta.inherited = inherited;
    if (inherited.model) this.meta.model ??= inherited.model;
  }

  read({ line, value }: JsonlLine): void {
    const { opts, how, meta, drafts, usage } = this;
    const warnings = this.lineWarnings;
    if (!isObject(value) || typeof value['type'] !== 'string') {
      if (this.notObjects++ < MAX_LINE_WARNINGS)
        warnings.push({ position: `line ${line}`, message: `expected a JSON object with a 'type' field, found ${describeJsonValue(value)}; line skipped` });
      return;
    }
    const type = value['type'];
    const sidechain = value['isSidechain'] === true;
    if (sidechain && !opts.includeSidechains) {
      this.sidechainLines++;
      return;
    }
    const timestamp = str(value, 'timestamp');
    const uuid = str(value, 'uuid');
    // The last line that carries them wins: a resumed session may have moved.
    if (!sidechain) setSessionFacts(meta, { cwd: str(value, 'cwd'), sessionId: str(value, 'sessionId'), agentVersion: str(value, 'version') });
    const src = sourceMeta('claude-code', { line, sourceId: uuid, ...(sidechain ? { sidechain: true } : {}) });

    // A title (this session's or another's), never sent: not a message.
    if (type === 'summary') return;
    if (type === 'system' && value['subtype'] === 'compact_boundary' && !sidechain) this.boundary(value);
    if (type !== 'user' && type !== 'assistant') {
      // Sent with the next user message: counted. A snapshot: the system prompt and the tools.
      const rendered = renderedText(value);
      if (rendered !== undefined) {
        this.merging = undefined;
        drafts.push(renderedDraft(value, rendered, src, timestamp));
        return;
      }
      const attachment = obj(value, 'attachment');
      if (type === 'attachment' && attachment?.['type'] === 'prompt_snapshot') {
        this.snapshot.read(attachment);
        return;
      }
      // A type this reader does not know is named once for the whole file (claudeCode.ts).
      if (KNOWN_LINE_TYPES.has(type)) this.skippedTypes.set(type, (this.skippedTypes.get(type) ?? 0) + 1);
      return;
    }
    const message = obj(value, 'message');
    if (!message) {
      warnings.push({ position: `line ${line}`, message: `expected a 'message' object on a '${type}' line; line skipped` });
      return;
    }
    const blocks = contentBlocks(message['content'], `line ${line}: message.content`, warnings);

    if (type === 'assistant') {
      const model = str(message, 'model');
      if (model && model !== SYNTHETIC_MODEL) meta.model ??= model;
      const { content, calls } = assistantBlocks(blocks, `line ${line}: message.content`, warnings);
      const messageId = str(message, 'id');
      const reported = how.usage && model !== SYNTHETIC_MODEL ? apiUsage(message['usage']) : undefined;
      if (this.merging && messageId && this.merging.id === messageId) {
        // A new object, so a message made of the draft before keeps its content.
        const at = this.merging.index;
        const before = drafts[at]!;
        const d: MessageDraft = { ...before, content: [...before.content, ...content] };
        if (calls.length > 0) d.toolCalls = [...(before.toolCalls ?? []), ...calls];
        d.itemType = assistantItemType(d.content, (d.toolCalls?.length ?? 0) > 0);
        drafts[at] = d;
        this.same = Math.min(this.same, at);
        // Every line of a streamed response repeats its usage: one record per response.
        if (reported && usage[usage.length - 1]?.answer.line !== d.source?.line) usage.push(usageRecord(reported, line, d.source!.line!));
        return;
      }
      const d: MessageDraft = {
        role: 'assistant',
        itemType: assistantItemType(content, calls.length > 0),
        content,
        ...(timestamp ? { timestamp } : {}),
        source: src,
      };
      if (calls.length > 0) d.toolCalls = calls;
      drafts.push(d);
      this.merging = messageId ? { id: messageId, index: drafts.length - 1 } : undefined;
      if (reported) usage.push(usageRecord(reported, line, line));
      return;
    }

    // A user line.
    this.merging = undefined;
    if (value['isCompactSummary'] === true) {
      drafts.push(...anthropicUserDrafts(blocks, src, `line ${line}: message.content`, warnings, timestamp, () => 'COMPACTION_SUMMARY'));
      return;
    }
    const isMeta = value['isMeta'] === true;
    const classify = (text: string): ItemType => classifyUserText(text, isMeta, sidechain);
    const made = anthropicUserDrafts(blocks, src, `line ${line}: message.content`, warnings, timestamp, classify);
    for (const d of made) drafts.push(withCommand(d));
  }
}

function usageRecord(reported: { tokens: number; parts: UsageParts }, line: number, answerLine: number): UsageRecord {
  return { usage: { tokens: reported.tokens, source: 'claude-code', line, parts: reported.parts }, answer: { line: answerLine, match: 'exact' } };
}

function classifyUserText(text: string, isMeta: boolean, sidechain: boolean): ItemType {
  if (isMeta) return CAVEAT.test(text) ? 'SKILL_METADATA' : 'SKILL_PROMPT';
  if (CAVEAT.test(text) || HARNESS_OUTPUT.test(text) || INTERRUPTED.test(text)) return 'SKILL_METADATA';
  // A sub-agent's "user" is the main agent handing it a task.
  if (sidechain) return 'SKILL_PROMPT';
  return 'USER_MESSAGE';
}

/** A typed `/command` keeps its text as sent; the command itself goes to source.extra. */
function withCommand(d: MessageDraft): MessageDraft {
  if (d.itemType !== 'USER_MESSAGE') return d;
  const first = d.content[0];
  if (!first || first.type !== 'text') return d;
  const m = COMMAND.exec(first.text);
  if (!m) return d;
  const args = COMMAND_ARGS.exec(first.text)?.[1] ?? '';
  const command = args ? `${m[1]} ${args}` : m[1]!;
  const source: SourceMeta = { ...d.source!, extra: { ...(d.source?.extra ?? {}), command } };
  return { ...d, source };
}

/** Whether a parsed first line looks like a Claude Code entry (used by detection). */
export function looksLikeClaudeCodeEntry(v: unknown): boolean {
  if (!isObject(v)) return false;
  const o = v as JsonObject;
  const type = str(o, 'type');
  if (!type) return false;
  return 'sessionId' in o || 'uuid' in o || 'leafUuid' in o || ('message' in o && (type === 'user' || type === 'assistant'));
}

export function sidechainWarning(n: number): ImportWarning {
  return { position: 'file', message: `${n} sub-agent (sidechain) line${n === 1 ? '' : 's'} left out; include them with --include-sidechains` };
}
