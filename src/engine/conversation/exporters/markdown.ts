// Conversation → a Markdown transcript a person can read: one heading per message naming its
// position, role and item type (plus tool, time, pin), the text as written (it is usually
// Markdown already, so code blocks stay code blocks), tool calls and tool output in fences long
// enough never to be closed by what they hold. A COMPACTION_SUMMARY renders its text as it is.
// As data (a handoff pasted into a new session as its prompt), every text the conversation holds
// is quoted as data (text/quoteAsData.ts: a fence whose every line carries the quote mark, nothing
// in it able to end the quote or open a tag) and every name escaped, so nothing in it can pose as
// the document's own headings, links, images, HTML or instructions.

import { escapeMarkdown } from '../../text/markdownEscape';
import { dataLine, quoteAsData } from '../../text/quoteAsData';
import type { Conversation, Message } from '../model';

export interface MarkdownExportOptions {
  /** Include thinking (as a quoted block). Default true. */
  thinking?: boolean;
  /** Every message's text quoted as data, and every name, id or title from the conversation
   *  escaped: what the conversation says stays text. Default false (the text as written). */
  textAsData?: boolean;
}

export function exportMarkdown(conv: Conversation, opts: MarkdownExportOptions = {}): string {
  const showThinking = opts.thinking ?? true;
  const data = opts.textAsData ?? false;
  const lit = (s: string) => (data ? escapeMarkdown(dataLine(s)) : s);
  const out: string[] = [];
  const title = conv.meta.title ?? (conv.meta.sourcePath ? baseName(conv.meta.sourcePath) : 'Conversation');
  out.push(`# ${lit(oneLine(title))}`, '');
  const facts = [`format: ${conv.format}`, `${conv.messages.length} messages`];
  if (conv.meta.model) facts.push(`model: ${lit(conv.meta.model)}`);
  if (conv.meta.compactions) facts.push(`compactions: ${conv.meta.compactions}`);
  out.push(`_${facts.join(' · ')}_`, '');
  conv.messages.forEach((m, i) => {
    out.push(heading(m, i, lit), '');
    if (m.itemType === 'TOOL_DEFINITIONS' && m.toolDefinitions) {
      for (const d of m.toolDefinitions) out.push(`- ${code(d.name, data)}${d.description ? ` — ${lit(oneLine(d.description))}` : ''}`);
      out.push('');
      return;
    }
    for (const p of m.content) {
      if (p.type === 'text') {
        out.push(data ? quoteAsData(p.text, 'its text') : m.toolResult ? fenced(p.text) : p.text, '');
      } else if (p.type === 'image') {
        out.push(`_${lit(p.placeholder)}_`, '');
      } else if (showThinking) {
        if (p.redacted) out.push('> _(redacted thinking)_', '');
        else out.push(data ? quoteAsData(p.text, 'its thinking') : quoted(`**Thinking**\n\n${p.text}`), '');
      }
    }
    for (const c of m.toolCalls ?? []) {
      const args = prettyArguments(c.arguments);
      out.push(`**Tool call** ${code(c.name, data)} (${lit(c.id)})`, '', data ? quoteAsData(args, 'its arguments') : fenced(args, 'json'), '');
    }
  });
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function heading(m: Message, i: number, lit: (s: string) => string): string {
  const bits = [`${i + 1}`, m.role, m.itemType];
  if (m.toolResult) bits.push(`${lit(m.toolResult.toolName ?? 'tool')} ← ${lit(m.toolResult.toolCallId)}${m.toolResult.isError ? ', error' : ''}`);
  if (m.timestamp) bits.push(lit(m.timestamp));
  if (m.pinned) bits.push('pinned');
  return `## ${bits.join(' · ')}`;
}

/** A name as inline code; as data, escaped text (a name with a backtick would end the code span). */
function code(name: string, data: boolean): string {
  return data ? escapeMarkdown(dataLine(name)) : `\`${name}\``;
}

/** A fence longer than any backtick run inside, so the content can never close it. */
export function fenced(text: string, lang = ''): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

function prettyArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}
