// Does the summary say only what the conversation shows? Two precision figures, judged with the
// benchmark's own rules on the imported conversation (never src/engine/analyze or segments, so
// the benchmark can disagree with the engine):
//
//   fixed backed   of the errors the summary marks "— fixed", the share with evidence after the
//                  error's last appearance: a later run of the same call (same tool, same
//                  arguments that say something) whose output has no error; or a later edit of a
//                  file the error output names, with the error not seen again; or the person
//                  saying it works
//   pending open   of the Pending Tasks bullets, the share still open at the end of the
//                  conversation: taken from what the person wrote (a task list of the agent's
//                  counts too) and not followed by a completion (a submission, attempt_completion,
//                  "task complete"); a latest request also not answered (in a chat without tools,
//                  an assistant reply after it; with tools, the conversation ending on the
//                  assistant's own words after working on it)

import { messageText, type Conversation, type Message } from '../../src/engine/conversation/model';

export interface PrecisionScore {
  fixedClaims: number;
  fixedBacked: number;
  pendingItems: number;
  pendingOpen: number;
  /** The claims that failed, for --lost. */
  unbacked: string[];
  notOpen: string[];
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The body of one "## Heading" section of the summary Markdown. */
function sectionBody(summary: string, heading: string): string {
  const lines = summary.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Top-level bullets ("- " at column 0) with their continuation lines. */
function bullets(body: string): string[] {
  const out: string[] = [];
  for (const line of body.split('\n')) {
    if (line.startsWith('- ')) out.push(line.slice(2));
    else if (out.length > 0 && line.trim()) out[out.length - 1] += `\n${line}`;
  }
  return out.filter((b) => b.trim() !== '(none)');
}

const COMPLETION_TEXT = /COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|attempt_completion|!!!COMPLETE!!!|\btask (?:is |has been )?complete(?:d)?\b/i;
const COMPLETION_TOOLS = /^(?:submit|attempt_completion|finish|task_complete)$/i;

function isCompletion(m: Message): boolean {
  if (m.role !== 'assistant' || m.toolResult) return false;
  if (COMPLETION_TEXT.test(messageText(m))) return true;
  return (m.toolCalls ?? []).some((c) => COMPLETION_TOOLS.test(c.name) || COMPLETION_TEXT.test(c.arguments));
}

const isPersonMessage = (m: Message) => m.role === 'user' && m.itemType === 'USER_MESSAGE' && !m.toolResult;
const ERROR_WORDS = /\b(?:error|exception|traceback|failed|fatal)\b/i;
const PATH = /[\w.~-]*\/?[\w.-]+\/[\w./-]*\.\w{1,6}|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|md|rs|go|java|rb|c|h|cpp|cs|sh|yml|yaml|toml)\b/g;
const EDIT_CALL = /edit|write|str_replace|create|apply_patch|replace|insert/i;
const SHELL_WRITE = /sed\s+-i|>\s*[\w./-]+\.\w+|cat\s+<<|tee\s|patch\s|git\s+(?:checkout|restore|apply)/;
const CONFIRMS = /\b(?:works|working now|fixed|solved|that did it|no more errors?)\b/i;
const DENIES = /\b(?:not|still|doesn't|don't|didn't|isn't|but)\b|n't\b/i;

/** The signature a "fixed" bullet names: its first inline code, without a cut ellipsis. */
function signatureOf(bullet: string): string | undefined {
  const m = /``\s(.+?)\s``|`([^`\n]+)`/.exec(bullet);
  const sig = (m?.[1] ?? m?.[2])?.replace(/…$/, '');
  return sig ? squash(sig).slice(0, 60) : undefined;
}

function fixBacked(messages: readonly Message[], sig: string): boolean {
  const texts = messages.map((m) => squash(messageText(m)));
  let at = -1;
  texts.forEach((t, i) => {
    if ((messages[i]!.toolResult || isPersonMessage(messages[i]!)) && t.includes(sig)) at = i;
  });
  if (at < 0) return false;
  const errorMsg = messages[at]!;
  const callOf = (result: Message) => {
    const id = result.toolResult?.toolCallId;
    for (const m of messages) for (const c of m.toolCalls ?? []) if (c.id === id) return c;
    return undefined;
  };
  const failingCall = errorMsg.toolResult ? callOf(errorMsg) : undefined;
  // A file by its last two path segments: a traceback names /testbed/pkg/mod.py, the edit pkg/mod.py.
  const named = new Set((messageText(errorMsg).match(PATH) ?? []).map((p) => p.split('/').filter(Boolean).slice(-2).join('/')));
  // Only the person's next message can confirm it works; a clean re-run or an edit counts later
  // too (the person often asks for the fix in between).
  let confirmable = true;
  for (let i = at + 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.toolResult && failingCall && !/^\s*(?:\{\s*\}|\[\s*\])?\s*$/.test(failingCall.arguments)) {
      const c = callOf(m);
      if (c && c.name === failingCall.name && c.arguments === failingCall.arguments && !m.toolResult.isError && !ERROR_WORDS.test(messageText(m))) return true;
    }
    for (const c of m.toolCalls ?? []) {
      const writes = EDIT_CALL.test(c.name) || SHELL_WRITE.test(c.arguments);
      if (writes && [...named].some((p) => c.arguments.includes(p)) && !texts.slice(i).some((t) => t.includes(sig))) return true;
    }
    if (isPersonMessage(m) && confirmable) {
      const t = messageText(m);
      if (CONFIRMS.test(t) && !DENIES.test(t)) return true;
      confirmable = false;
    }
  }
  return false;
}

function pendingOpen(messages: readonly Message[], bullet: string): boolean {
  const lastCompletion = messages.reduce((at, m, i) => (isCompletion(m) ? i : at), -1);
  const source = (text: string) => {
    const needle = squash(text).replace(/…$/, '').slice(0, 40);
    let at = -1;
    messages.forEach((m, i) => {
      if (isPersonMessage(m) && squash(messageText(m)).includes(needle)) at = i;
    });
    return at;
  };
  if (bullet.startsWith('Task list')) return /\[ \]/.test(bullet) && lastCompletion < 0;
  const user = /^User: ([\s\S]+)$/.exec(bullet);
  if (user) {
    const at = source(user[1]!);
    return at >= 0 && at > lastCompletion;
  }
  const latest = /^Latest request[^:]*: ([\s\S]+)$/.exec(bullet);
  if (latest) {
    const at = source(latest[1]!);
    if (at < 0 || at <= lastCompletion) return false;
    if (messages.slice(at + 1).some(isPersonMessage)) return false; // not the latest any more
    const tools = messages.some((m) => (m.toolCalls?.length ?? 0) > 0);
    const after = messages.slice(at + 1);
    if (!tools) return !after.some((m) => m.role === 'assistant' && messageText(m).trim() !== '');
    const last = messages[messages.length - 1]!;
    const worked = after.some((m) => (m.toolCalls?.length ?? 0) > 0);
    return !(worked && last.role === 'assistant' && !last.toolResult && !(last.toolCalls?.length ?? 0) && messageText(last).trim() !== '');
  }
  return false; // anything else is not something the person asked for
}

/** Scores the summary of one compacted conversation against the original. */
export function scorePrecision(original: Conversation, summary: string | undefined): PrecisionScore {
  const out: PrecisionScore = { fixedClaims: 0, fixedBacked: 0, pendingItems: 0, pendingOpen: 0, unbacked: [], notOpen: [] };
  if (!summary) return out;
  const messages = original.messages;
  for (const b of bullets(sectionBody(summary, 'Errors and fixes'))) {
    if (!/ — fixed\b/.test(b.split('\n')[0]!)) continue;
    out.fixedClaims++;
    const sig = signatureOf(b);
    if (sig && fixBacked(messages, sig)) out.fixedBacked++;
    else out.unbacked.push(b.split('\n')[0]!);
  }
  for (const b of bullets(sectionBody(summary, 'Pending Tasks'))) {
    out.pendingItems++;
    if (pendingOpen(messages, b)) out.pendingOpen++;
    else out.notOpen.push(b.split('\n')[0]!);
  }
  return out;
}
