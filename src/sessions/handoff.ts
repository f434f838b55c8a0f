// A handoff: a compacted conversation (summary + recent turns) as Markdown to start a new session
// with, where the agent cannot resume a file we write. The conversation's own text goes in as data
// (the Markdown export with textAsData quotes every message, text/quoteAsData.ts, and the label is escaped), so no line of
// it can pose as a heading or an instruction of the handoff itself. The extension's "start a new
// session" alternative, its Copilot tool and the MCP server's compact_session all write this shape.

import { escapeMarkdown } from '../engine/text/markdownEscape';
import { dataLine } from '../engine/text/quoteAsData';

export interface HandoffWords {
  /** "Handoff", or its translation. */
  heading: string;
  /** The sentence before the conversation. */
  intro: string;
}

/** The English words (the CLI and the MCP server). */
export function englishHandoffWords(label: string): HandoffWords {
  return {
    heading: 'Handoff',
    intro: `Continue from this handoff of an earlier conversation (${escapeMarkdown(dataLine(label))}): a summary of what happened so far, then the most recent turns.`,
  };
}

/** `# Handoff: label`, the intro, then the conversation as exported with textAsData. */
export function handoffMarkdown(label: string, words: HandoffWords, exportedAsData: string): string {
  return `# ${words.heading}: ${escapeMarkdown(dataLine(label))}\n\n${words.intro}\n\n${exportedAsData}`;
}
