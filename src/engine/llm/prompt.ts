// The summary prompt. It asks for an analysis first and then the eight sections, exactly
// headed, inside <summary>…</summary> (the structure Claude Code's own compaction prompt
// uses, which models follow well); it lists the must-keep facts the extractive pass found, the
// person's focus, and a length limit; on re-compaction it hands over the previous summary to
// be merged into, not summarized again.
// The retry after an unusable reply is stricter: no analysis, only the tagged sections.

import type { Fact, FactKind } from '../result';
import { SECTION_NAMES, type SectionName, type SectionTexts } from '../sections';
import type { TextCounter } from '../tokens/tokenCounter';
import { renderSections } from '../segments/renderSummary';

/** Longest must-keep value quoted in the prompt (a long user message is cut; its opening is what gets matched). */
export const MUST_KEEP_VALUE_CHARS = 300;
/** The words a token stands for in English prose, to state the limit in words too. */
export const WORDS_PER_TOKEN = 0.75;

const SECTION_GUIDE: Record<SectionName, string> = {
  'Primary Request and Intent': 'every explicit request of the user and the intent behind it, in detail',
  'Key Technical Concepts': 'technologies, frameworks, libraries, concepts and decisions that matter for the work',
  'Files and Code Sections': 'every file read, changed or created: its exact path, why it matters, what changed; short essential snippets only',
  'Errors and fixes': 'every error met (exact message) and how it was fixed, with what the user said about it',
  'Problem Solving': 'problems solved and troubleshooting still under way',
  'All user messages': 'every message the user wrote (not tool results), in order, one bullet each, verbatim when short',
  'Pending Tasks': 'what the user asked for that is not done yet',
  'Current Work': 'precisely what was being worked on last, with file names and code, so work can resume',
};

const SYSTEM_PROMPT = [
  'You write the summary that replaces the older part of a long conversation between a user and an AI assistant (often a coding agent),',
  'so the assistant can continue the work without the original messages.',
  'Be factual and specific: exact file paths, identifiers, commands, error messages, numbers and decisions.',
  'Never add anything the conversation does not say.',
].join(' ');

const KIND_LABELS: Record<FactKind, string> = {
  userMessage: 'User messages',
  filePath: 'File paths',
  errorSignature: 'Errors',
  pendingTask: 'Pending items',
  technicalTerm: 'Technical terms',
  keyword: 'Keywords',
  number: 'Numbers',
};
const KIND_ORDER: readonly FactKind[] = ['userMessage', 'filePath', 'errorSignature', 'pendingTask', 'technicalTerm', 'keyword', 'number'];

export interface MustKeepBlock {
  text: string;
  tokens: number;
  /** Facts listed; the rest did not fit the budget (merge-back still restores them). */
  included: number;
  omitted: number;
}

/** The must-keep facts as a prompt block, grouped by kind, within `budgetTokens`. */
export function renderMustKeep(facts: readonly Fact[], counter: TextCounter, budgetTokens: number): MustKeepBlock {
  if (facts.length === 0) return { text: '', tokens: 0, included: 0, omitted: 0 };
  const seen = new Set<string>();
  const byKind = new Map<FactKind, string[]>();
  for (const f of facts) {
    const v = f.value.replace(/\s+/g, ' ').trim();
    if (!v || seen.has(`${f.kind}\u0000${v}`)) continue;
    seen.add(`${f.kind}\u0000${v}`);
    const shown = v.length > MUST_KEEP_VALUE_CHARS ? `${v.slice(0, MUST_KEEP_VALUE_CHARS)}…` : v;
    (byKind.get(f.kind) ?? byKind.set(f.kind, []).get(f.kind)!).push(shown);
  }
  const lines: string[] = ['<must_keep>'];
  let tokens = counter.count('<must_keep>\n</must_keep>');
  let included = 0;
  let total = 0;
  for (const kind of KIND_ORDER) {
    const values = byKind.get(kind);
    if (!values) continue;
    total += values.length;
    const header = `${KIND_LABELS[kind]}:`;
    const headerTokens = counter.count(header) + 1;
    let wroteHeader = false;
    for (const v of values) {
      const line = `- ${v}`;
      const cost = counter.count(line) + 1 + (wroteHeader ? 0 : headerTokens);
      if (tokens + cost > budgetTokens) continue;
      if (!wroteHeader) {
        lines.push(header);
        wroteHeader = true;
      }
      lines.push(line);
      tokens += cost;
      included++;
    }
  }
  if (included === 0) return { text: '', tokens: 0, included: 0, omitted: total };
  lines.push('</must_keep>');
  return { text: lines.join('\n'), tokens, included, omitted: total - included };
}

export type PromptMode =
  /** Summarize the transcript (merging into `previous` when given). */
  | 'summarize'
  /** No transcript: shorten `previous` (the merged chunk summaries) to the limit. */
  | 'condense';

export interface PromptInput {
  mode: PromptMode;
  /** The serialized span ('' in condense mode). */
  transcript: string;
  previous?: Partial<SectionTexts>;
  mustKeep?: MustKeepBlock;
  focus?: string;
  /** Limit for the text inside <summary>, in tokens. */
  maxTokens: number;
  /** Set on the retry after an unusable reply: why it was unusable. */
  strictReason?: string;
  /** In chunked summarization: which part of the conversation this is. */
  part?: { index: number; count: number };
}

export interface Prompt {
  system: string;
  user: string;
}

function headingList(): string {
  return SECTION_NAMES.map((n) => `## ${n}`).join('\n');
}

function sectionGuide(): string {
  return ['What goes under each heading:', ...SECTION_NAMES.map((n) => `- ${n}: ${SECTION_GUIDE[n]}.`)].join('\n');
}

export function buildPrompt(input: PromptInput): Prompt {
  const blocks: string[] = [];
  const words = Math.round(input.maxTokens * WORDS_PER_TOKEN);

  if (input.strictReason) {
    blocks.push(`Your previous reply could not be used: ${input.strictReason}. Follow the format below exactly.`);
  }

  if (input.mode === 'condense') {
    blocks.push(`<summary_to_condense>\n${renderSections(input.previous ?? {})}\n</summary_to_condense>`);
    blocks.push(
      'The summary above, merged from summaries of consecutive parts of one conversation, is too long. ' +
        'Rewrite it as one summary under the limit below, with the same eight headings. Keep every file path, error message, user message and pending task; ' +
        'remove repetition, shorten descriptions and drop code snippets first. Where parts disagree, the later part is the current state.',
    );
  } else {
    if (input.part && input.part.count > 1) {
      blocks.push(
        `This is part ${input.part.index} of ${input.part.count} of one conversation, in order. Summarize only this part; the other parts are summarized separately and merged afterwards.`,
      );
    }
    blocks.push(`<conversation>\n${input.transcript}\n</conversation>`);
    if (input.previous) {
      blocks.push(`<previous_summary>\n${renderSections(input.previous)}\n</previous_summary>`);
      blocks.push(
        'The conversation was compacted before: <previous_summary> is what its earlier part said. Write ONE updated summary that merges the previous summary with the conversation above: ' +
          'keep everything from it that is still true, update what changed, add what is new. Do not shorten it into a summary of a summary. ' +
          'Under "All user messages" keep every message it lists, in order, and add the new ones after them.',
      );
    }
  }

  if (input.mustKeep?.text) {
    blocks.push(input.mustKeep.text);
    blocks.push(
      'Every item in <must_keep> must appear in the summary, spelled exactly as given: copy paths, identifiers and error messages character for character.',
    );
  }

  if (input.focus?.trim()) {
    blocks.push(`The user asked this summary to focus on: "${input.focus.trim()}". Give that the most detail, and still write every section.`);
  }

  const format = [
    input.strictReason
      ? 'Do not write an analysis. Reply with only <summary>…</summary>, and inside it exactly these eight Markdown headings, in this order, each on its own line:'
      : "First, inside <analysis>…</analysis>, go through the text in order and note the user's requests and intent, the approach, decisions, technical concepts, files and code changes, errors and fixes, and user feedback. " +
        'Then write the summary inside <summary>…</summary> with exactly these eight Markdown headings, in this order, each on its own line:',
    headingList(),
    sectionGuide(),
    'Write "None." under a heading with nothing to say. Write the content in the language of the conversation, but keep these English headings exactly.',
    `Length: the text inside <summary> must stay under ${input.maxTokens} tokens (about ${words} words). Prefer short bullet lists over prose.`,
  ];
  blocks.push(format.join('\n'));
  return { system: SYSTEM_PROMPT, user: blocks.join('\n\n') };
}
