// aider's .aider.chat.history.md.
//
// `# aider chat started at <time>` opens a session; its time stamps the session's messages.
// A run of consecutive `#### ` lines is ONE user message (prefix stripped; aider ends every line
// with two spaces, a Markdown line break, which are stripped too). A run of `> ` lines (blank lines
// inside the run allowed) is aider's own output: the startup banner, "Tokens: … sent", "Applied
// edit to …", "Commit …", /run output, y/n prompts. Everything else is the assistant (SEARCH/REPLACE
// markers such as `>>>>>>> REPLACE` have no space after the first '>' and stay assistant text).
//
// aider's output is neither the user's words nor the model's, and a tool result without a call
// would be invalid for the APIs. So each `> ` run is the TOOL_RESULT of a call named 'aider'
// (arguments {}, id `aider_<line>`) made by the assistant message right before it; when the message
// right before is not an assistant's (the startup banner, output of a /command), a synthetic
// assistant message holding only that call is inserted (source.extra.synthetic). Token counts
// therefore include a few tokens of call overhead per output run.
// conversation.meta.model: the first `Main model: <id> with …` (or `Model: <id> with …`) line.

import type { ConversationMeta, ImportResult, ImportWarning } from '../model';
import { plainDraft, sourceMeta, textParts, toolResultDraft } from './contentParts';
import { finishImport } from './finish';
import type { ImportOptions } from './importOptions';
import type { MessageDraft } from './toolPairing';

const SESSION = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;
const USER = /^####(?: |$)/;
const OUTPUT = /^>(?: |$)/;
/** aider prints "Main model: <id> with …" (or "Model: <id> with …" when there is no weak model). */
const MAIN_MODEL = /^(?:Main )?[Mm]odel: (\S+) with /;
const TRAILING_BREAK = / {2}$/;
export const AIDER_TOOL_NAME = 'aider';

type Kind = 'user' | 'assistant' | 'output';

export function importAider(text: string, opts: ImportOptions = {}): ImportResult {
  const warnings: ImportWarning[] = [];
  const meta: ConversationMeta = {};
  if (opts.sourcePath) meta.sourcePath = opts.sourcePath;
  const drafts: MessageDraft[] = [];
  const lines = text.split(/\r?\n/);
  let timestamp: string | undefined;
  let kind: Kind | undefined;
  let buf: string[] = [];
  let startLine = 0;
  /** Blank lines seen after an output run, kept only if the run continues. */
  let blanksInOutput = 0;

  const flush = () => {
    if (kind === undefined) return;
    const at = startLine;
    if (kind === 'user') {
      drafts.push(plainDraft('user', 'USER_MESSAGE', textParts(buf.join('\n').replace(/\s+$/, '')), sourceMeta('aider', { line: at }), timestamp));
    } else if (kind === 'assistant') {
      const body = buf.join('\n').trim();
      if (body !== '') drafts.push(plainDraft('assistant', 'ASSISTANT_MESSAGE', textParts(body), sourceMeta('aider', { line: at }), timestamp));
    } else {
      const body = buf.join('\n').replace(/\s+$/, '');
      const id = `aider_${at}`;
      const call = { id, name: AIDER_TOOL_NAME, arguments: '{}' };
      const prev = drafts[drafts.length - 1];
      if (prev && prev.role === 'assistant' && !prev.toolCalls) {
        prev.toolCalls = [call];
      } else {
        drafts.push({ role: 'assistant', itemType: 'ASSISTANT_MESSAGE', content: [], toolCalls: [call], ...(timestamp ? { timestamp } : {}), source: sourceMeta('aider', { line: at, extra: { synthetic: true } }) });
      }
      for (const l of buf) {
        const m = MAIN_MODEL.exec(l);
        if (m && !meta.model) meta.model = m[1]!;
      }
      drafts.push(toolResultDraft(id, textParts(body), false, sourceMeta('aider', { line: at }), { toolName: AIDER_TOOL_NAME, ...(timestamp ? { timestamp } : {}) }));
    }
    kind = undefined;
    buf = [];
    blanksInOutput = 0;
  };
  const begin = (k: Kind, lineNo: number) => {
    if (kind !== k) {
      flush();
      kind = k;
      startLine = lineNo;
    }
  };

  lines.forEach((line, i) => {
    const lineNo = i + 1;
    const session = SESSION.exec(line);
    if (session) {
      flush();
      timestamp = `${session[1]}T${session[2]}`;
      return;
    }
    if (USER.test(line)) {
      begin('user', lineNo);
      buf.push(line.slice(5).replace(TRAILING_BREAK, ''));
      return;
    }
    if (OUTPUT.test(line)) {
      if (kind === 'output') for (; blanksInOutput > 0; blanksInOutput--) buf.push('');
      begin('output', lineNo);
      buf.push(line.slice(2).replace(TRAILING_BREAK, ''));
      return;
    }
    if (line.trim() === '') {
      if (kind === 'user') flush();
      else if (kind === 'output') blanksInOutput++;
      else if (kind === 'assistant') buf.push('');
      return;
    }
    begin('assistant', lineNo);
    buf.push(line);
  });
  flush();
  if (drafts.length === 0) warnings.push({ position: 'file', message: 'no aider messages found' });
  return finishImport(drafts, { format: 'aider', meta, warnings });
}

export function looksLikeAider(text: string): boolean {
  return /^# aider chat started at /m.test(text.slice(0, 65_536)) || /^#### /m.test(text.slice(0, 4_096));
}
