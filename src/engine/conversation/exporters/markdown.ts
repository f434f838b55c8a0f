// Conversation → a Markdown transcript a person can read: one heading per message naming its
// position, role and item type (plus tool, time, pin), the text as written (it is usually
// Markdown already, so code blocks stay code blocks), tool calls and tool output in fences long
// enough never to be closed by what they hold. A COMPACTION_SUMMARY renders its text as it is.

import type { Conversation, Message } from '../model';

export interface MarkdownExportOptions {
  /** Include thinking (as a quoted block). Default true. */
  thinking?: boolean;
}

export function exportMarkdown(conv: Conversation, opts: MarkdownExportOptions = {}): string {
  const showThinking = opts.thinking ?? true;
  const out: string[] = [];
  const title = conv.meta.title ?? (conv.meta.sourcePath ? baseName(conv.meta.sourcePath) : 'Conversation');
  out.push(`# ${oneLine(title)}`, '');
  const facts = [`format: ${conv.format}`, `${conv.messages.length} messages`];
  if (conv.meta.model) facts.push(`model: ${conv.meta.model}`);
  if (conv.meta.compactions) facts.push(`compactions: ${conv.meta.compactions}`);
  out.push(`_${facts.join(' · ')}_`, '');
  conv.messages.forEach((m, i) => {
    out.push(heading(m, i), '');
    if (m.itemType === 'TOOL_DEFINITIONS' && m.toolDefinitions) {
      for (const d of m.toolDefinitions) out.push(`- \`${d.name}\`${d.description ? ` — ${oneLine(d.description)}` : ''}`);
      out.push('');
      return;
    }
    for (const p of m.content) {
      if (p.type === 'text') {
        out.push(m.toolResult ? fenced(p.text) : p.text, '');
      } else if (p.type === 'image') {
        out.push(`_${p.placeholder}_`, '');
      } else if (showThinking) {
        out.push(p.redacted ? '> _(redacted thinking)_' : quoted(`**Thinking**\n\n${p.text}`), '');
      }
    }
    for (const c of m.toolCalls ?? []) {
      out.push(`**Tool call** \`${c.name}\` (${c.id})`, '', fenced(prettyArguments(c.arguments), 'json'), '');
    }
  });
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function heading(m: Message, i: number): string {
  const bits = [`${i + 1}`, m.role, m.itemType];
  if (m.toolResult) bits.push(`${m.toolResult.toolName ?? 'tool'} ← ${m.toolResult.toolCallId}${m.toolResult.isError ? ', error' : ''}`);
  if (m.timestamp) bits.push(m.timestamp);
  if (m.pinned) bits.push('pinned');
  return `## ${bits.join(' · ')}`;
}

/** A fence longer than any backtick run inside, so the content can never close it. */
export function fenced(text: string, lang = ''): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
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
