// What the agent sessions (a Codex IDE rollout, a Claude Code session, a Cline task) should keep,
// read from the raw files with the benchmark's own JSON walks and regexes — never the engine's
// importers or its injected-context reader — so the two can disagree:
//
//   userRequests  the person's words: a Codex request under the IDE block's "## My request for
//                 Codex:" heading; Cline's <task> / <feedback> / <answer> / <user_message> /
//                 <user_input>; Claude Code's typed text without <system-reminder> and <ide_…> blocks
//   files         what the agent acted on: apply_patch headers and the file a shell read names
//                 (Codex), <path> of read_file / write_to_file / replace_in_file (Cline)
//   errors        error signatures of tool outputs (rawFacts.errorSignatures)
//   rules         the person's standing rules: sentences of their words that open with Always,
//                 Never, Make sure, Remember to, or say "from now on" / "going forward"

import { errorSignatures, type ExpectedFacts } from './rawFacts';

type Facts = Pick<ExpectedFacts, 'userRequests' | 'files' | 'errors' | 'answers' | 'answerTerms' | 'rules'>;

interface Obj {
  [k: string]: unknown;
}
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const uniq = (xs: Iterable<string>) => [...new Set([...xs].map((x) => x.trim()).filter(Boolean))];

/** Sentences that set a standing rule, by the bench's own reading. */
export function ruleSentencesOf(words: string): string[] {
  return words
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 30 && !s.endsWith('?') && (/^(?:Always|Never|Make sure|Remember to)\b/.test(s) || /\b(?:from now on|going forward)\b/i.test(s)));
}

function withRules(f: Omit<Facts, 'rules' | 'answers' | 'answerTerms'>): Facts {
  return { ...f, answers: [], answerTerms: [], rules: uniq(f.userRequests.flatMap(ruleSentencesOf)) };
}

/** A Codex user message as the person typed it: the part under the request heading. */
function codexRequest(text: string): string {
  const m = /^##\s*My request for Codex:[ \t]*\n?([\s\S]*)$/m.exec(text);
  return (m ? m[1]! : text).trim();
}

export function codexFacts(raw: string): Facts {
  const userRequests: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Obj;
    const p = isObj(e['payload']) ? e['payload'] : {};
    if (e['type'] === 'event_msg' && p['type'] === 'user_message' && typeof p['message'] === 'string') userRequests.push(codexRequest(p['message']));
    if (e['type'] !== 'response_item') continue;
    if (p['type'] === 'custom_tool_call' && typeof p['input'] === 'string') {
      for (const m of p['input'].matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) files.push(m[1]!);
    } else if (p['type'] === 'function_call' && p['name'] === 'shell' && typeof p['arguments'] === 'string') {
      const cmd = (JSON.parse(p['arguments']) as { command?: string[] }).command?.at(-1) ?? '';
      const read = /^(?:sed -n '[^']*'|Get-Content)\s+(\S+)$/.exec(cmd);
      if (read) files.push(read[1]!);
    } else if (p['type'] === 'function_call_output' && typeof p['output'] === 'string') {
      let out = p['output'];
      try {
        out = String((JSON.parse(out) as { output?: unknown }).output ?? out);
      } catch {
        // plain text output
      }
      errors.push(...errorSignatures(out));
    }
  }
  return withRules({ userRequests: userRequests.filter(Boolean), files: uniq(files), errors: uniq(errors) });
}

const CLINE_WORDS = /<(task|feedback|answer|user_message|user_input)(?:\s[^>]*)?>\s*([\s\S]*?)\s*<\/\1>/g;

export function clineFacts(raw: string): Facts {
  const doc = JSON.parse(raw) as unknown;
  const userRequests: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  for (const m of Array.isArray(doc) ? doc.filter(isObj) : []) {
    const texts = Array.isArray(m['content']) ? m['content'].filter(isObj).map((b) => String(b['text'] ?? '')) : [String(m['content'] ?? '')];
    for (const t of texts) {
      if (m['role'] === 'user') {
        for (const w of t.matchAll(CLINE_WORDS)) userRequests.push(w[2]!);
        if (!t.startsWith('<environment_details>')) errors.push(...errorSignatures(t));
      } else {
        for (const c of t.matchAll(/<(read_file|write_to_file|replace_in_file)>\s*<path>([^<]+)<\/path>/g)) files.push(c[2]!);
      }
    }
  }
  return withRules({ userRequests, files: uniq(files), errors: uniq(errors) });
}

/** Claude Code's typed text without the blocks the harness puts beside it. */
export function claudeTypedText(text: string): string {
  return text.replace(/<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>[\s\S]*?<\/\1>/g, '').trim();
}
