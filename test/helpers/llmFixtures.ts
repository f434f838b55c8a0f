// Real conversations and their must-keep facts for the LLM summarizer tests, read straight from
// the shared transcripts (a small reader of its own, so these tests do not wait on the
// importers), plus replies in the shapes real models write.

import { readFileSync } from 'node:fs';
import { extractErrorSignatures, extractFilePaths } from '../../src/engine/analyze/refs';
import { messageText, type Message } from '../../src/engine/conversation/model';
import type { Fact } from '../../src/engine/result';
import { emptySectionTexts, SECTION_NAMES, type SectionName, type SectionTexts } from '../../src/engine/sections';
import { transcriptPath } from './transcripts';

/** A mini-swe-agent trajectory: the task, then assistant bash actions and their outputs as tool blocks. */
export function sweAgentMessages(rel: string): Message[] {
  const raw = JSON.parse(readFileSync(transcriptPath(rel), 'utf8')) as { messages: { role: string; content: string }[] };
  const out: Message[] = [];
  let lastCall: string | undefined;
  raw.messages.forEach((m, i) => {
    const id = `m${i}`;
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'system') {
      out.push({ id, role: 'system', itemType: 'SYSTEM_PROMPT', content: [{ type: 'text', text }] });
    } else if (m.role === 'assistant') {
      const cmd = /```bash\n([\s\S]*?)```/.exec(text)?.[1]?.trim();
      const thought = text.replace(/```bash\n[\s\S]*?```/, '').trim();
      lastCall = cmd ? `call-${i}` : undefined;
      out.push({
        id,
        role: 'assistant',
        itemType: 'ASSISTANT_MESSAGE',
        content: [{ type: 'text', text: thought }],
        ...(cmd ? { toolCalls: [{ id: lastCall!, name: 'bash', arguments: JSON.stringify({ command: cmd }) }] } : {}),
      });
    } else if (lastCall && text.startsWith('<returncode>')) {
      out.push({
        id,
        role: 'tool',
        itemType: 'TOOL_RESULT',
        content: [{ type: 'text', text }],
        toolResult: { toolCallId: lastCall, isError: !text.startsWith('<returncode>0<') },
      });
      lastCall = undefined;
    } else {
      out.push({ id, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }] });
    }
  });
  return out;
}

/** An aider chat history: "#### " lines are the user, "> " lines tool output, the rest the assistant. */
export function aiderMessages(rel: string): Message[] {
  const lines = readFileSync(transcriptPath(rel), 'utf8').split('\n');
  const out: Message[] = [];
  let kind: 'user' | 'tool' | 'assistant' | undefined;
  let buf: string[] = [];
  const flush = () => {
    const text = buf.join('\n').trim();
    buf = [];
    if (!kind || !text) return;
    const id = `a${out.length}`;
    if (kind === 'user') out.push({ id, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text }] });
    else if (kind === 'assistant') out.push({ id, role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [{ type: 'text', text }] });
    else out.push({ id, role: 'user', itemType: 'USER_MESSAGE', content: [{ type: 'text', text: `(aider output)\n${text}` }] });
  };
  for (const line of lines) {
    if (line.startsWith('# aider chat started')) continue;
    const k = line.startsWith('#### ') ? 'user' : line.startsWith('>') ? 'tool' : line.trim() ? 'assistant' : kind;
    if (k !== kind) {
      flush();
      kind = k;
    }
    buf.push(k === 'user' ? line.slice(5) : k === 'tool' ? line.replace(/^>\s?/, '') : line);
  }
  flush();
  // Aider's own output is not something the user wrote: keep only "####" turns as user messages.
  return out.filter((m) => !messageText(m).startsWith('(aider output)'));
}

/** Must-keep facts of a span: what the user wrote, the files, the errors (in order). */
export function mustKeepFacts(messages: readonly Message[], maxFiles = 12, maxErrors = 6): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const add = (f: Fact) => {
    const k = `${f.kind}:${f.value}`;
    if (!seen.has(k)) {
      seen.add(k);
      facts.push(f);
    }
  };
  let files = 0;
  let errors = 0;
  for (const m of messages) {
    const text = messageText(m);
    if (m.itemType === 'USER_MESSAGE' && !m.toolResult) add({ kind: 'userMessage', value: text.trim(), sourceId: m.id });
    const args = (m.toolCalls ?? []).map((c) => c.arguments).join('\n');
    for (const p of extractFilePaths(`${text}\n${args}`))
      if (files < maxFiles && !seen.has(`filePath:${p}`)) {
        files++;
        add({ kind: 'filePath', value: p, sourceId: m.id });
      }
    for (const e of extractErrorSignatures(text))
      if (errors < maxErrors && !seen.has(`errorSignature:${e}`)) {
        errors++;
        add({ kind: 'errorSignature', value: e, sourceId: m.id });
      }
  }
  return facts;
}

/** A stand-in for the extractive pass: every fact under its section, plus a line of context. */
export function extractiveFor(facts: readonly Fact[]): SectionTexts {
  const s = emptySectionTexts();
  const push = (name: SectionName, line: string) => (s[name] = s[name] ? `${s[name]}\n${line}` : line);
  for (const f of facts) {
    const v = f.value.replace(/\s+/g, ' ').trim();
    if (f.kind === 'userMessage') push('All user messages', `- ${v.length > 300 ? `${v.slice(0, 300)}…` : v}`);
    else if (f.kind === 'filePath') push('Files and Code Sections', `- \`${v}\` (seen in ${f.sourceId})`);
    else if (f.kind === 'errorSignature') push('Errors and fixes', `- \`${v}\``);
    else push('Key Technical Concepts', `- ${v}`);
  }
  push('Current Work', 'Extractive: the last exchange of the span.');
  return s;
}

export type HeadingStyle = 'markdown' | 'numberedBold' | 'chinese' | 'plain';

const ZH: Record<SectionName, string> = {
  'Primary Request and Intent': '主要请求和意图',
  'Key Technical Concepts': '关键技术概念',
  'Files and Code Sections': '文件和代码段落',
  'Errors and fixes': '错误和修复',
  'Problem Solving': '问题解决',
  'All user messages': '所有用户消息',
  'Pending Tasks': '待处理任务',
  'Current Work': '当前工作',
};

/** A reply as a model writes it: an analysis, then the sections in <summary> tags. */
export function llmReply(sections: Partial<SectionTexts>, opts: { style?: HeadingStyle; analysis?: boolean; tags?: boolean } = {}): string {
  const style = opts.style ?? 'markdown';
  const body = SECTION_NAMES.filter((n) => sections[n] !== undefined)
    .map((n, i) => {
      const text = sections[n]!;
      switch (style) {
        case 'markdown':
          return `## ${n}\n${text}`;
        case 'numberedBold':
          return `${i + 1}. **${n}**:\n${text}`;
        case 'chinese':
          return `### ${i + 1}. ${ZH[n]}\n${text}`;
        case 'plain':
          return `${n}:\n${text}`;
      }
    })
    .join('\n\n');
  const analysis = opts.analysis === false ? '' : '<analysis>\nI went through the conversation in order: the request, the files, the errors.\n</analysis>\n\n';
  return opts.tags === false ? `${analysis}${body}` : `${analysis}<summary>\n${body}\n</summary>`;
}

/** Eight short, plausible sections that mention the given facts. */
export function goodSections(facts: readonly Fact[], extra: Partial<SectionTexts> = {}): SectionTexts {
  const s = emptySectionTexts();
  s['Primary Request and Intent'] = '- Fix the reported bug and make the tests pass.';
  s['Key Technical Concepts'] = '- pytest markers\n- xfail';
  s['Files and Code Sections'] =
    facts
      .filter((f) => f.kind === 'filePath')
      .map((f) => `- \`${f.value}\`: read while investigating`)
      .join('\n') || 'None.';
  s['Errors and fixes'] =
    facts
      .filter((f) => f.kind === 'errorSignature')
      .map((f) => `- ${f.value}: fixed`)
      .join('\n') || 'None.';
  s['Problem Solving'] = '- Reproduced the failure, then narrowed it down.';
  s['All user messages'] =
    facts
      .filter((f) => f.kind === 'userMessage')
      .map((f) => `- ${f.value.replace(/\s+/g, ' ').slice(0, 200)}`)
      .join('\n') || 'None.';
  s['Pending Tasks'] = '- Run the full test suite.';
  s['Current Work'] = 'Verifying the fix.';
  return { ...s, ...extra };
}
